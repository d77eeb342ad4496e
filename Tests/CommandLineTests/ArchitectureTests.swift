import Foundation
import Testing

/// The invariants of `Sources/ARCHITECTURE.md` that can be read off the source, checked on it: the
/// direction of imports between the modules, the protocol layer naming no LSP method, standard
/// output left to the protocol, and no forced `try` or `fatalError` where outside input flows.
@Suite struct ArchitectureTests {
  /// Every Swift file of a module under `Sources/`, as (path relative to the module, text).
  static func sources(of module: String) throws -> [(path: String, text: String)] {
    let folder = ReadmeTests.root.appendingPathComponent("Sources/\(module)")
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else {
      throw ArchitectureFailure("no folder Sources/\(module)")
    }
    var files: [(path: String, text: String)] = []
    while let path = walker.nextObject() as? String {
      guard path.hasSuffix(".swift") else { continue }
      files.append((path, try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)))
    }
    return files.sorted { $0.path < $1.path }
  }

  struct ArchitectureFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// The lines of a file that are code: comment lines and the text after `//` are left out, so
  /// that a comment may name what the code must not do.
  static func codeLines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
      let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
      let trimmed = code.trimmingCharacters(in: .whitespaces)
      return trimmed.isEmpty ? nil : trimmed
    }
  }

  /// The C library, under the name each platform gives it.
  static let libc: Set<String> = ["Glibc", "Musl", "Darwin"]

  /// What each module may import. The engine imports only the C library, for its mathematics (no
  /// Foundation: no JSON, no file I/O); the protocol modules know nothing of the engine; only the
  /// server and the command line join them.
  static let allowedImports: [String: Set<String>] = [
    "RPNEngine": libc,
    "JSONRPC": libc.union(["Dispatch", "Synchronization"]),
    "LSPTypes": ["JSONRPC"],
    "RPNLanguageServer": ["JSONRPC", "LSPTypes", "RPNEngine", "Synchronization"],
    "rpn-lsp": libc.union(["JSONRPC", "RPNEngine", "RPNLanguageServer"]),
  ]

  @Test(arguments: allowedImports.keys.sorted())
  func modulesImportOnlyWhatTheirLayerAllows(_ module: String) throws {
    let allowed = try #require(Self.allowedImports[module])
    let files = try Self.sources(of: module)
    #expect(!files.isEmpty)
    for (path, text) in files {
      for line in Self.codeLines(text) where line.hasPrefix("import ") {
        let imported = String(line.dropFirst("import ".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        #expect(allowed.contains(imported), "\(module)/\(path) imports \(imported)")
      }
    }
  }

  /// Every code line of the modules' files (but those named in `except`) that contains one of
  /// `texts`, as `Module/path: line`: what a test that forbids them prints when it fails.
  static func lines(in modules: [String], containing texts: [String], except: Set<String> = []) throws -> [String] {
    var found: [String] = []
    for module in modules {
      for (path, text) in try sources(of: module) where !except.contains(path) {
        for line in codeLines(text) where texts.contains(where: line.contains) {
          found.append("\(module)/\(path): \(line)")
        }
      }
    }
    return found
  }

  /// JSON-RPC is LSP's transport, not LSP: no method name in it (the server's table holds them).
  @Test func theProtocolLayerNamesNoLSPMethod() throws {
    let methods = ["\"textDocument/", "\"workspace/", "\"window/", "\"$/", "\"initialize"]
    #expect(try Self.lines(in: ["JSONRPC"], containing: methods) == [])
  }

  /// Standard output carries protocol bytes only: the engine, the protocol modules and the server
  /// never print; only the transport writes to it (the protocol), and the command line (its
  /// commands' output, which is not the server's).
  @Test func onlyTheTransportWritesToStandardOutput() throws {
    let modules = ["RPNEngine", "JSONRPC", "LSPTypes", "RPNLanguageServer"]
    #expect(try Self.lines(in: modules, containing: ["print("]) == [])
    #expect(try Self.lines(in: modules, containing: ["STDOUT_FILENO"], except: ["Transport.swift"]) == [])
  }

  /// Input from outside never crashes the tool: no forced `try`, no `fatalError` in anything the
  /// user runs (the bench builds its own tapes, and may).
  @Test func noForcedTryOrFatalErrorInWhatUsersRun() throws {
    let modules = ["RPNEngine", "JSONRPC", "LSPTypes", "RPNLanguageServer", "rpn-lsp"]
    #expect(try Self.lines(in: modules, containing: ["try!", "fatalError("]) == [])
  }

  /// One JSON encoder: the server's features build `LSPTypes` values, and no file of the server
  /// writes JSON text itself.
  @Test func noFileOfTheServerWritesJSONText() throws {
    let writing = ["JSONWriter", "write(raw", "beginObject(", "beginArray("]
    #expect(try Self.lines(in: ["RPNLanguageServer"], containing: writing) == [])
  }

  /// There is one lexer, and the server does not call it: a feature reads a line's tokens, and
  /// what each is, from the document (`tokens(ofLine:)`, `forEachRoledLine`).
  @Test func theServerDoesNotLex() throws {
    #expect(try Self.lines(in: ["RPNLanguageServer"], containing: ["Lexer"]) == [])
  }

  /// A line is lexed in two ways only: the evaluator streams tokens from `TokenScanner` as it runs,
  /// and every other reader (the document's queries, the formatter, the `# rpn:` lines, the habits)
  /// makes a `LexedLine`, its tokens, comment and definitions.
  @Test func lexingIsALexedLineOrTheEvaluatorsStream() throws {
    let modules = ["RPNEngine", "RPNLanguageServer", "rpn-lsp"]
    let lexer = ["RPNEngine/Syntax/Lexer.swift", "RPNEngine/Syntax/LexedLine.swift"]
    let found = try Self.lines(in: modules, containing: ["Lexer.tokens(", "tokens(of:"]).filter { line in
      !lexer.contains { line.hasPrefix($0 + ":") }
    }
    #expect(found == [])
    let streams = try Self.lines(in: modules, containing: ["TokenScanner("]).filter { line in
      !["RPNEngine/Syntax/Lexer.swift:", "RPNEngine/Evaluation/Machine.swift:"].contains { line.hasPrefix($0) }
    }
    #expect(streams == [])
  }

  /// The server reads no syntax: what a token is (hover), a fix's replacement (a check's `=`
  /// included), a check's parts (semantic tokens) and a heading's `#`s (the outline) come from the
  /// engine as data, so that a new kind of token (`12_km`) adds cases in the engine, not here. No
  /// file of the server reads a token's kind or a trace, parses a literal, or makes a `Value`.
  /// (`hasRadixLiteral` is a question about the document, which hover may ask.)
  @Test func theServerReadsNoSyntax() throws {
    let syntax = [
      "TokenKind", "token.kind", "].kind", "TokenTrace", ".trace(", "DefinitionSpan", "CheckLiteral", "RadixLiteral.",
      "NumberLiteral", "0x23", "0x3D", "hasPrefix(\"=\")", "hasPrefix(\"#\")",
    ]
    let reading = try Self.lines(in: ["RPNLanguageServer"], containing: syntax)
    #expect(reading == [])
    let building = try Self.lines(in: ["RPNLanguageServer"], matching: #/(?:^|[^A-Za-z0-9_])Value\(/#)
    #expect(building == [])
  }

  /// Every code line of the modules' files (but those named in `except`) that matches a pattern,
  /// as `Module/path: line`.
  static func lines(in modules: [String], matching pattern: Regex<Substring>, except: Set<String> = []) throws
    -> [String]
  {
    var found: [String] = []
    for module in modules {
      for (path, text) in try sources(of: module) where !except.contains(path) {
        for line in codeLines(text) where line.contains(pattern) { found.append("\(module)/\(path): \(line)") }
      }
    }
    return found
  }

  /// One reader of number syntax: `NumberLiteral` says what a digit is and where a literal ends,
  /// and no other file of the syntax, the document or the diagnostics tests a byte or a character
  /// for a digit (they ask `NumberLiteral.read`, `isDigit`, `canStart`, `signLength`, `radix`).
  @Test func numberSyntaxIsReadInOnePlace() throws {
    let digitTests = [
      "&- 0x30", "&- 0x31", "0x30...0x39", ">= 0x30", "<= 0x39", "\"0\"...\"9\"", ">= \"0\"", "<= \"9\"",
      "isWholeNumber", "wholeNumberValue", ".isNumber", "isHexDigit",
    ]
    let folders = ["RPNEngine/Syntax/", "RPNEngine/Document/", "RPNEngine/Diagnostics/"]
    let found = try Self.lines(in: ["RPNEngine"], containing: digitTests, except: ["Syntax/NumberLiteral.swift"])
      .filter { line in folders.contains { line.hasPrefix($0) } }
    #expect(found == [])
  }

  /// The server opens no files: a URI is a name, never a path to read.
  @Test func theServerOpensNoFiles() throws {
    let opening = ["FileManager", "fopen(", "open(", "contentsOfFile", "FileHandle"]
    #expect(try Self.lines(in: ["RPNLanguageServer"], containing: opening) == [])
  }

  /// A value is compared and hashed as itself (its bits and its unit): only `Value` and
  /// `PackedBound`, which stores one in bits, read a value's bits. A `.bitPattern` anywhere else
  /// would compare numbers and drop the unit.
  @Test func onlyValueAndPackedBoundReadAValuesBits() throws {
    let modules = ["RPNEngine", "RPNLanguageServer", "rpn-lsp"]
    let allowed: Set = ["Evaluation/Value.swift", "Evaluation/Bound.swift"]
    #expect(try Self.lines(in: modules, containing: [".bitPattern", "storedBits"], except: allowed) == [])
  }

  /// A value is made from a number in few places, each of which decides its unit: `Value` itself
  /// (counts, constants), the literal reader (a literal as written), the operations' rules and the
  /// unit rules (a result in the unit its rule gives) and `PackedBound` (a stored value back). Anywhere else,
  /// `Value(` around a raw number would drop a unit: a value is passed along, or rebuilt with
  /// `with(_:)`, which keeps its unit.
  @Test func onlyTheLiteralReaderAndTheRulesMakeAValueFromANumber() throws {
    let allowed: Set = [
      "Evaluation/Value.swift", "Syntax/Lexer.swift", "Syntax/CheckLiteral.swift", "Syntax/NumberLiteral.swift",
      "Evaluation/Machine+Operations.swift", "Evaluation/Machine+Units.swift", "Evaluation/Machine+Rates.swift",
      "Evaluation/Bound.swift",
    ]
    let found = try Self.lines(
      in: ["RPNEngine", "RPNLanguageServer", "rpn-lsp"], matching: #/(?:^|[^A-Za-z0-9_])Value\(/#, except: allowed)
    #expect(found == [])
  }

  /// No switch over the builtins' operations has a `default:`: a new operation is a case the
  /// compiler asks for. The switches over `Operation` and its families live in these two files.
  @Test func noDefaultInTheSwitchesOverOperations() throws {
    for (path, text) in try Self.sources(of: "RPNEngine")
    where path.hasSuffix("Evaluation/Builtins.swift") || path.hasSuffix("Evaluation/Machine+Operations.swift") {
      for line in Self.codeLines(text) {
        #expect(!line.hasPrefix("default:"), "RPNEngine/\(path): \(line)")
      }
    }
  }
}

// Defined words end to end: hover, completion, definition, references, highlights, rename, symbols, tokens, hints.
import JSONRPC
import TestSupport
import Testing

/// Defined words (`: name body… ;`) in every feature of the server, end to end over the built
/// binary's pipes, in both position encodings: hover, completion, definition, references,
/// highlights, rename, document symbols, semantic tokens and inlay hints. The word `größe` has
/// two-byte letters, so that its UTF-8 and UTF-16 columns differ, and so does everything after it
/// on its lines; expected ranges are found by `Self.span`, which counts each encoding's units.
@Suite(.overPipes) struct WordTests {
  static let uri = "file:///words.rpn"
  /// `hyp` and `größe` are defined, then used (`größe` also in the body of `vol`); `x` is a
  /// variable; `bad` is a definition that fails; `cube` is a word, then a variable.
  static let lines = [
    "# 😀 words",
    ": hyp sq swap sq + sqrt ; 3 4 hyp",
    ": größe 2 × ; π größe =x drop",
    "1 hyp",
    ": cube dup dup × × ; : vol größe cube ;",
    "2 vol x",
    ": bad zzz ;",
    "bad",
    "1 =cube cube",
  ]
  static let text = lines.joined(separator: "\n") + "\n"

  static func started(_ encoding: String) throws -> LSPClient {
    let client = try LSPClient.started(
      encoding: encoding,
      capabilities: [
        (
          "textDocument",
          [
            "hover": ["contentFormat": ["markdown", "plaintext"]], "rename": ["prepareSupport": true],
            "documentSymbol": ["hierarchicalDocumentSymbolSupport": true],
          ]
        )
      ]
    ).client
    client.open(uri, text)
    return client
  }

  /// Where the `nth` token spelled `token` is on line `line` of `lines`: `line:start-line:end`,
  /// in `encoding`'s units (UTF-8 bytes or UTF-16 code units).
  static func span(
    _ token: String, line: Int, nth: Int = 0, _ encoding: String, in lines: [String] = lines,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> String {
    let range = columns(of: token, line: line, nth: nth, encoding, in: lines, sourceLocation: sourceLocation)
    return "\(line):\(range.lowerBound)-\(line):\(range.upperBound)"
  }

  /// The columns of the `nth` token spelled `token` on line `line`, in `encoding`'s units.
  static func columns(
    of token: String, line: Int, nth: Int = 0, _ encoding: String, in lines: [String] = lines,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Range<Int> {
    var found: [Range<Int>] = []
    var column = 0
    var start: Int?
    var word = ""
    for scalar in lines[line].unicodeScalars + [" "] {
      if scalar == " " {
        if let start, word == token { found.append(start..<column) }
        start = nil
        word = ""
      } else {
        if start == nil { start = column }
        word.unicodeScalars.append(scalar)
      }
      column += encoding == "utf-8" ? scalar.utf8.count : scalar.utf16.count
    }
    guard found.indices.contains(nth) else {
      Issue.record("no token \(token) number \(nth) on line \(line)", sourceLocation: sourceLocation)
      return 0..<0
    }
    return found[nth]
  }

  /// The position in the middle of the `nth` token spelled `token` on line `line`.
  static func at(
    _ token: String, line: Int, nth: Int = 0, _ encoding: String, in lines: [String] = lines,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONValue {
    let range = columns(of: token, line: line, nth: nth, encoding, in: lines, sourceLocation: sourceLocation)
    return position(line, (range.lowerBound + range.upperBound) / 2)
  }

  static func params(_ position: JSONValue, _ extra: [(key: String, value: JSONValue)] = []) -> JSONValue {
    .object([("textDocument", textDocument(uri)), ("position", position)] + extra)
  }

  // MARK: Hover

  /// A hover's markdown text and range, or "null".
  static func hover(_ client: LSPClient, _ position: JSONValue, uri: String = uri) throws -> (
    range: String, value: String
  ) {
    let result = try client.hover(uri, position)
    guard result != .null else { return ("null", "null") }
    #expect(result["contents"]?["kind"] == "markdown")
    return (compact(range: result["range"]), result["contents"]?["value"]?.stringValue ?? "no value")
  }

  /// A use of a word and a definition's name show the word: what it is and its line, its effect
  /// and its definition as written. A use shows the stacks too; the tokens of a definition do
  /// not (a body's tokens run at each use, not there). `:` and `;` say what they are and which
  /// word they define. A name rebound as a variable shows the variable.
  @Test(arguments: encodings)
  func hoverOnWords(encoding: String) throws {
    let client = try Self.started(encoding)
    let hyp = "word `hyp`, defined on line 2  \n`( a b -- r )`  \n`: hyp sq swap sq + sqrt ;`"
    let grosse = "word `größe`, defined on line 3  \n`( a -- r )`  \n`: größe 2 × ;`"
    let cases: [(what: String, at: JSONValue, range: String, value: String)] = [
      (
        "a use", Self.at("hyp", line: 1, nth: 1, encoding), Self.span("hyp", line: 1, nth: 1, encoding),
        hyp + "\n\nStack before: `[3 4]`  \nStack after: `[5]`"
      ),
      (
        "a use on another line", position(3, 5), Self.span("hyp", line: 3, encoding),
        hyp + "\n\nStack before: `[5 1]`  \nStack after: `[5.09901951359278]`"
      ),
      (
        "a use after a non-ASCII name", Self.at("größe", line: 2, nth: 1, encoding),
        Self.span("größe", line: 2, nth: 1, encoding),
        grosse + "\n\nStack before: `[5 3.14159265358979]`  \nStack after: `[5 6.28318530717959]`"
      ),
      ("a definition's name", Self.at("hyp", line: 1, encoding), Self.span("hyp", line: 1, encoding), hyp),
      (
        "a non-ASCII definition name", Self.at("größe", line: 2, encoding), Self.span("größe", line: 2, encoding),
        grosse
      ),
      (
        "the `:`", position(1, 0), "1:0-1:1",
        "`:` starts a definition: `: name body… ;`\n\n" + hyp
      ),
      (
        "the `;`", Self.at(";", line: 2, encoding), Self.span(";", line: 2, encoding),
        "`;` ends a definition\n\n" + grosse
      ),
      (
        "an operator in a body", Self.at("×", line: 2, encoding), Self.span("×", line: 2, encoding),
        "operator `×` (`*`): multiply  \n`( a b -- a·b )`\n\n"
          + "In the body of `größe`: it runs at each use of `größe`, not here"
      ),
      (
        "a word in a body", Self.at("größe", line: 4, encoding), Self.span("größe", line: 4, encoding),
        grosse + "\n\nIn the body of `vol`: it runs at each use of `vol`, not here"
      ),
      (
        "a variable after the words", Self.at("x", line: 5, encoding), Self.span("x", line: 5, encoding),
        "variable `x` = `6.28318530717959`, stored on line 3\n\n"
          + "Stack before: `[5.09901951359278 64]`  \nStack after: `[5.09901951359278 64 6.28318530717959]`"
      ),
      (
        "a word's name stored into: a variable", Self.at("cube", line: 8, encoding),
        Self.span("cube", line: 8, encoding),
        "variable `cube` = `1`, stored on line 9\n\n"
          + "Stack before: `[5.09901951359278 64 6.28318530717959 1]`  \n"
          + "Stack after: `[5.09901951359278 64 6.28318530717959 1 1]`"
      ),
      (
        "the name of a definition that fails", Self.at("bad", line: 6, encoding), Self.span("bad", line: 6, encoding),
        "definition of `bad`, which defines nothing: it has an error\n\nerror [unknown-word]: unknown word `zzz`"
      ),
      (
        "the token that makes it fail", Self.at("zzz", line: 6, encoding), Self.span("zzz", line: 6, encoding),
        "unknown word `zzz`\n\nIn the body of `bad`, whose definition has an error: it never runs\n\n"
          + "error [unknown-word]: unknown word `zzz`"
      ),
      (
        "a use of the word that failed", position(7, 1), "7:0-7:3",
        "unknown word `bad`\n\n"
          + "Stack before: `[5.09901951359278 64 6.28318530717959]`  \n"
          + "Stack after: `[5.09901951359278 64 6.28318530717959]`\n\n"
          + "error [unknown-word]: `bad` is not defined: its definition on line 7 has an error, so it defined nothing"
      ),
    ]
    for (what, at, range, value) in cases {
      let hover = try Self.hover(client, at)
      #expect(hover.range == range, "\(what) at \(compact(position: at))")
      #expect(hover.value == value, "\(what) at \(compact(position: at))")
    }
    try client.finish()
  }

  /// A use that fails shows its diagnostic, with the stack unchanged: too few values for a fixed
  /// effect, and a step that fails inside (directly and through another word), named with its line.
  @Test func hoverOnAFailingUse() throws {
    let client = try LSPClient.started()
    let uri = "file:///fail.rpn"
    client.open(uri, ": hyp sq swap sq + sqrt ;\n: risky 0 / ;\n: deep 2 risky ;\nclear 1 hyp\n1 risky\n1 deep\n")
    let hyp = "word hyp, defined on line 1\n( a b -- r )\n: hyp sq swap sq + sqrt ;"
    let cases: [(at: JSONValue, range: String, value: String)] = [
      (
        position(3, 9), "3:8-3:11",
        hyp + "\n\nStack before: [1]\nStack after: [1]\n\n"
          + "warning [stack-underflow]: `hyp` needs 2 values but the stack holds only 1"
      ),
      (
        position(4, 2), "4:2-4:7",
        "word risky, defined on line 2\n( a -- r )\n: risky 0 / ;\n\nStack before: [1 1]\nStack after: [1 1]\n\n"
          + "warning [division-by-zero]: `risky` failed: in its definition (line 2), `/` divides by zero; "
          + "the stack is as it was before `risky`"
      ),
      (
        position(5, 6), "5:2-5:6",
        "word deep, defined on line 3\n( -- r )\n: deep 2 risky ;\n\nStack before: [1 1 1]\nStack after: [1 1 1]\n\n"
          + "warning [division-by-zero]: `deep` failed: in `risky` (line 2), `/` divides by zero; "
          + "the stack is as it was before `deep`"
      ),
    ]
    for (at, range, value) in cases {
      let result = try client.hover(uri, at)
      #expect(result["contents"]?["kind"] == "plaintext")
      #expect(compact(range: result["range"]) == range, "at \(compact(position: at))")
      #expect(result["contents"]?["value"]?.stringValue == value, "at \(compact(position: at))")
    }
    // The same codes are published, at the uses.
    #expect(
      compactWithoutMessage(diagnostics: try client.publishedDiagnostics(uri).diagnostics) == [
        "3:8-3:11 warning stack-underflow", "4:2-4:7 warning division-by-zero", "5:2-5:6 warning division-by-zero",
      ])
    try client.finish()
  }

  // MARK: Completion

  /// The words bound above the cursor are listed as Functions (3) with their effects. Ranked like
  /// operators: with one value on the stack, a word that needs two sorts after everything the
  /// stack can satisfy, its detail saying what is missing; a word that needs nothing, and one
  /// whose effect depends on the stack, sort with the satisfiable items (after the variables,
  /// before the builtins). A word defined below the cursor, or rebound as a variable, is no word.
  @Test(arguments: encodings)
  func completionRanksWordsLikeOperators(encoding: String) throws {
    let source = Marked(
      """
      : hyp sq swap sq + sqrt ; : two 2 ; : w depth ; : v 1 ;
      7 =v 1️⃣grö
      : größe 2 × ; : later 1 ;

      """)
    let client = try LSPClient.started(encoding: encoding).client
    client.open("file:///c.rpn", source.text)
    let items = CompletionTests.items(try client.completion("file:///c.rpn", source.at(1, encoding)))
    let labels = CompletionTests.labels(items)
    let words = items.filter { $0["kind"] == 3 && ["hyp", "two", "w", "größe", "later"].contains($0["label"]) }
    #expect(
      words.map { "\($0["label"]?.stringValue ?? "?") \($0["detail"]?.stringValue ?? "?")" } == [
        "two ( -- r )", "w ( … -- … )", "hyp ( a b -- r ) — needs 2 values, the stack has 1",
      ])
    #expect(CompletionTests.item(items, "v")?["kind"] == 6)
    #expect(CompletionTests.item(items, "v")?["detail"] == "7")
    #expect(
      CompletionTests.item(items, "two")?["documentation"]
        == "word, defined above: it takes no values and leaves 1 value")
    // The satisfiable items first: the variable, the two words, the builtins that need at most one value.
    let satisfiable = CompletionTests.spellings.filter { $0.inputs <= 1 }.map(\.label)
    #expect(labels.prefix(3) == ["v", "two", "w"])
    #expect(Set(labels[3..<(3 + satisfiable.count)]) == Set(satisfiable))
    // Then the rest: `hyp` first of them.
    #expect(labels[3 + satisfiable.count] == "hyp")
    #expect(labels.count == CompletionTests.spellings.count + 4)
    // Each replaces the word being typed, `grö`.
    let typed = pick(encoding, "1:5-1:9", "1:5-1:8")
    for item in items {
      #expect(compact(range: item["textEdit"]?["range"]) == typed, "\(item["label"]?.stringValue ?? "?")")
      #expect(item["textEdit"]?["newText"] == item["label"])
    }
    try client.finish()
  }

  // MARK: Definition, references, highlights

  /// On a use of a word, its definition's name (in a body too); on a definition's name, itself;
  /// on a use after the name was stored into, the store; on a use of a definition that failed, null.
  @Test(arguments: encodings)
  func definition(encoding: String) throws {
    let client = try Self.started(encoding)
    let cases: [(what: String, at: JSONValue, expected: String)] = [
      ("a use", Self.at("hyp", line: 3, encoding), Self.span("hyp", line: 1, encoding)),
      (
        "a use on the definition's line", Self.at("hyp", line: 1, nth: 1, encoding), Self.span("hyp", line: 1, encoding)
      ),
      ("the cursor right after a use", position(3, 5), Self.span("hyp", line: 1, encoding)),
      ("a use in a body", Self.at("größe", line: 4, encoding), Self.span("größe", line: 2, encoding)),
      (
        "a use after a non-ASCII name", Self.at("größe", line: 2, nth: 1, encoding),
        Self.span("größe", line: 2, encoding)
      ),
      ("a word used on a later line", Self.at("vol", line: 5, encoding), Self.span("vol", line: 4, encoding)),
      ("a definition's name", Self.at("größe", line: 2, encoding), Self.span("größe", line: 2, encoding)),
      ("a variable among the words", Self.at("x", line: 5, encoding), Self.span("=x", line: 2, encoding)),
      ("a word's name stored into", Self.at("cube", line: 8, encoding), Self.span("=cube", line: 8, encoding)),
      ("a use of a definition that failed", position(7, 1), "null"),
      ("the `:`", position(1, 0), "null"),
      ("an operator in a body", Self.at("×", line: 2, encoding), "null"),
    ]
    for (what, at, expected) in cases {
      let result = try client.request("textDocument/definition", Self.params(at))
      #expect(compact(location: result, uri: Self.uri) == expected, "\(what) at \(compact(position: at))")
    }
    try client.finish()
  }

  static func references(_ client: LSPClient, _ at: JSONValue, includeDeclaration: Bool) throws -> [String] {
    let result = try client.request(
      "textDocument/references", params(at, [("context", ["includeDeclaration": .bool(includeDeclaration)])]))
    return compact(locations: result, uri: uri)
  }

  /// Every definition, store and use of the name, whatever it is bound to where (`cube` is a word,
  /// then a variable); the definitions and stores only with `includeDeclaration`. From any of them.
  @Test(arguments: encodings)
  func references(encoding: String) throws {
    let client = try Self.started(encoding)
    let cubeDeclarations = [Self.span("cube", line: 4, encoding), Self.span("=cube", line: 8, encoding)]
    let cubeUses = [Self.span("cube", line: 4, nth: 1, encoding), Self.span("cube", line: 8, encoding)]
    let cube = [cubeDeclarations[0], cubeUses[0], cubeDeclarations[1], cubeUses[1]]
    for at in [Self.at("cube", line: 4, encoding), Self.at("cube", line: 4, nth: 1, encoding), position(8, 11)] {
      #expect(try Self.references(client, at, includeDeclaration: true) == cube, "at \(compact(position: at))")
      #expect(try Self.references(client, at, includeDeclaration: false) == cubeUses, "at \(compact(position: at))")
    }
    let grosse = [
      Self.span("größe", line: 2, encoding), Self.span("größe", line: 2, nth: 1, encoding),
      Self.span("größe", line: 4, encoding),
    ]
    for at in [Self.at("größe", line: 2, encoding), Self.at("größe", line: 4, encoding)] {
      #expect(try Self.references(client, at, includeDeclaration: true) == grosse)
      #expect(try Self.references(client, at, includeDeclaration: false) == Array(grosse.dropFirst()))
    }
    // The name of a definition that failed, and its use.
    #expect(
      try Self.references(client, position(7, 0), includeDeclaration: true) == [
        Self.span("bad", line: 6, encoding), "7:0-7:3",
      ])
    try client.finish()
  }

  /// The same places, definitions' names and stores as Write (3), uses as Read (2).
  @Test(arguments: encodings)
  func documentHighlight(encoding: String) throws {
    let client = try Self.started(encoding)
    let result = try client.request("textDocument/documentHighlight", Self.params(Self.at("cube", line: 8, encoding)))
    #expect(
      VariableTests.describe(highlights: result) == [
        Self.span("cube", line: 4, encoding) + " 3", Self.span("cube", line: 4, nth: 1, encoding) + " 2",
        Self.span("=cube", line: 8, encoding) + " 3", Self.span("cube", line: 8, encoding) + " 2",
      ])
    let hyp = try client.request("textDocument/documentHighlight", Self.params(position(3, 3)))
    #expect(
      VariableTests.describe(highlights: hyp) == [
        Self.span("hyp", line: 1, encoding) + " 3", Self.span("hyp", line: 1, nth: 1, encoding) + " 2",
        Self.span("hyp", line: 3, encoding) + " 2",
      ])
    // Off any name: `:`, `;`, a body's operator.
    for at in [position(1, 0), Self.at(";", line: 4, encoding), Self.at("×", line: 4, encoding)] {
      let none = try client.request("textDocument/documentHighlight", Self.params(at))
      #expect(VariableTests.describe(highlights: none) == [], "at \(compact(position: at))")
    }
    try client.finish()
  }

  // MARK: Rename

  static func rename(_ client: LSPClient, _ at: JSONValue, to newName: String) throws -> JSONValue {
    try client.request("textDocument/rename", params(at, [("newName", .string(newName))]))
  }

  /// The name's range with the name as placeholder, on a definition's name and on a use; null on
  /// `:`, `;` and a body's operator.
  @Test(arguments: encodings)
  func prepareRename(encoding: String) throws {
    let client = try Self.started(encoding)
    for (at, range, name) in [
      (Self.at("größe", line: 2, encoding), Self.span("größe", line: 2, encoding), "größe"),
      (Self.at("größe", line: 4, encoding), Self.span("größe", line: 4, encoding), "größe"),
      (position(3, 5), Self.span("hyp", line: 3, encoding), "hyp"),
    ] {
      let result = try client.request("textDocument/prepareRename", Self.params(at))
      #expect(compact(range: result["range"]) == range, "at \(compact(position: at))")
      #expect(result["placeholder"] == .string(name), "at \(compact(position: at))")
    }
    for at in [position(1, 0), Self.at(";", line: 1, encoding), Self.at("×", line: 2, encoding)] {
      #expect(try client.request("textDocument/prepareRename", Self.params(at)) == .null, "at \(compact(position: at))")
    }
    try client.finish()
  }

  /// Renaming a word renames its definition's name and every use, in the bodies of later
  /// definitions too; renaming `cube` renames the word and the variable of that name alike (one
  /// namespace). The renamed document means what it meant: same stacks, same diagnostics.
  @Test(arguments: encodings)
  func renameAWordUsedInALaterBody(encoding: String) throws {
    let client = try Self.started(encoding)
    let result = try Self.rename(client, Self.at("größe", line: 2, nth: 1, encoding), to: "grow")
    let changes = try edits(of: result, uri: Self.uri)
    #expect(
      compact(edits: changes) == [
        Self.span("größe", line: 2, encoding) + " → \"grow\"",
        Self.span("größe", line: 2, nth: 1, encoding) + " → \"grow\"",
        Self.span("größe", line: 4, encoding) + " → \"grow\"",
      ])
    let renamed = try applying(changes, to: Self.text, encoding: encoding)
    #expect(renamed == Self.text.replacingOccurrences(of: "größe", with: "grow"))
    let before = try client.allInlayHints(Self.uri)
    client.change(Self.uri, version: 2, [["text": .string(renamed)]])
    #expect(
      compact(hints: try client.allInlayHints(Self.uri)).map { $0.split(separator: " ", maxSplits: 1)[1] }
        == compact(hints: before).map { $0.split(separator: " ", maxSplits: 1)[1] })
    #expect(
      compactWithoutMessage(diagnostics: try client.publishedDiagnostics(Self.uri).diagnostics) == [
        "6:6-6:9 error unknown-word", "7:0-7:3 error unknown-word",
      ])
    // `cube`: the word's definition, its use in `vol`, the store and the use of the variable.
    let cube = try Self.rename(client, position(4, 3), to: "ü")
    let cubeChanges = try edits(of: cube, uri: Self.uri)
    let renamedLines = Self.lines.map { $0.replacingOccurrences(of: "größe", with: "grow") }
    #expect(
      compact(edits: cubeChanges)
        == [
          "4:2-4:6", Self.span("cube", line: 4, nth: 1, encoding, in: renamedLines), "8:3-8:7", "8:8-8:12",
        ].map { "\($0) → \"ü\"" })
    #expect(Self.span("cube", line: 4, nth: 1, encoding, in: renamedLines) == pick(encoding, "4:34-4:38", "4:32-4:36"))
    #expect(
      try applying(cubeChanges, to: renamed, encoding: encoding).components(separatedBy: "\n")[4...8] == [
        ": ü dup dup × × ; : vol grow ü ;", "2 vol x", ": bad zzz ;", "bad", "1 =ü ü",
      ])
    try client.finish()
  }

  /// Refused with the reason: a name that is not valid, a builtin's, and a name the document
  /// already has, a word's or a variable's; and a position on no name.
  @Test(arguments: encodings)
  func renameRefusals(encoding: String) throws {
    let client = try Self.started(encoding)
    let at = Self.at("hyp", line: 3, encoding)
    let cases: [(newName: String, reason: String)] = [
      ("2x", "valid"), ("a b", "valid"), (":", "valid"), ("sqrt", "function"), ("DUP", "operator"), ("π", "constant"),
      ("größe", "already a word"), ("vol", "already a word"), ("x", "already a variable"),
      ("cube", "already a variable and a word"), ("bad", "already a word"),
    ]
    for (newName, reason) in cases {
      let error = try client.requestError("textDocument/rename", Self.params(at, [("newName", .string(newName))]))
      #expect(error.code == -32803, "renaming to \(newName.debugDescription): \(error)")
      #expect(error.message.contains(reason), "renaming to \(newName.debugDescription): \(error)")
      #expect(error.message.contains(newName), "renaming to \(newName.debugDescription): \(error)")
    }
    for off in [position(1, 0), Self.at(";", line: 1, encoding), Self.at("×", line: 2, encoding)] {
      let error = try client.requestError("textDocument/rename", Self.params(off, [("newName", "fine")]))
      #expect(error.code == -32803, "at \(compact(position: off))")
      #expect(error.message.contains("no variable or word"), "at \(compact(position: off)): \(error)")
    }
    // Nothing was renamed.
    #expect(try Self.references(client, at, includeDeclaration: true).count == 3)
    try client.finish()
  }

  // MARK: Document symbols

  /// Each definition that defined a word, as a Function (12): detail its effect, range the whole
  /// definition, selection range its name; stores stay Variables (13); in document order. The
  /// definition that failed is no symbol.
  @Test(arguments: encodings)
  func documentSymbols(encoding: String) throws {
    let client = try Self.started(encoding)
    let result = try client.request("textDocument/documentSymbol", ["textDocument": textDocument(Self.uri)])
    func whole(_ line: Int, from first: String, nth: Int = 0, to last: String, lastNth: Int = 0) -> String {
      let start = Self.columns(of: first, line: line, nth: nth, encoding).lowerBound
      let end = Self.columns(of: last, line: line, nth: lastNth, encoding).upperBound
      return "\(line):\(start)-\(line):\(end)"
    }
    #expect(
      VariableTests.describe(symbols: result) == [
        "hyp 12 ( a b -- r ) \(whole(1, from: ":", to: ";")) \(Self.span("hyp", line: 1, encoding))",
        "größe 12 ( a -- r ) \(whole(2, from: ":", to: ";")) \(Self.span("größe", line: 2, encoding))",
        "x 13 6.28318530717959 \(Self.span("=x", line: 2, encoding)) \(pick(encoding, "2:29-2:30", "2:23-2:24"))",
        "cube 12 ( a -- r ) \(whole(4, from: ":", to: ";")) 4:2-4:6",
        "vol 12 ( a -- r ) \(whole(4, from: ":", nth: 1, to: ";", lastNth: 1)) \(Self.span("vol", line: 4, encoding))",
        "cube 13 1 8:2-8:7 8:3-8:7",
      ])
    // The helper's columns, counted by hand: `×` is two bytes and one UTF-16 unit, `ö` and `ß` too.
    #expect(whole(4, from: ":", nth: 1, to: ";", lastNth: 1) == pick(encoding, "4:23-4:43", "4:21-4:39"))
    try client.finish()
  }

  /// Clients without hierarchical symbols get `SymbolInformation`: the effect after the name, the
  /// location over the whole definition.
  @Test func flatSymbols() throws {
    let client = try LSPClient.started()
    client.open("file:///f.rpn", "1 =a : hyp sq swap sq + sqrt ;\n")
    let result = try client.request("textDocument/documentSymbol", ["textDocument": textDocument("file:///f.rpn")])
    #expect(
      result == [
        ["name": "a = 1", "kind": 13, "location": ["uri": "file:///f.rpn", "range": range(0, 2, 0, 4)]],
        ["name": "hyp ( a b -- r )", "kind": 12, "location": ["uri": "file:///f.rpn", "range": range(0, 5, 0, 30)]],
      ])
    try client.finish()
  }

  /// Names mean what evaluation makes them mean, in three corners: a body's name that is also the
  /// name being defined means what it meant above (`: c c 1 + ;` adds 1 to the variable `c`); a
  /// store in the body of a definition without `;` never runs, so it hides no binding; and in
  /// `: : a 1 ;` the definition's (invalid) name is the second `:`, so `a` is a use.
  @Test func namesMeanWhatEvaluationMakesThem() throws {
    let (client, result) = try LSPClient.started(encoding: "utf-16")
    let legend = try SemanticTokenTests.legend(result)
    let uri = "file:///corners.rpn"
    client.open(uri, "2 =c : c c 1 + ; c\n5 =v : b 1 ; : w =b =v\nb v\n: a 2 ;\n: : a 1 ;\n")
    #expect(
      try Self.semanticTokens(client, uri, legend: legend).filter { $0.hasPrefix("0:") } == [
        "0:0+1 number []", "0:2+2 variable [\"declaration\"]", "0:5+1 keyword []", "0:7+1 function [\"declaration\"]",
        "0:9+1 variable []", "0:11+1 number []", "0:13+1 operator []", "0:15+1 keyword []", "0:17+1 function []",
      ])
    func hover(_ line: Int, _ character: Int) throws -> String {
      try client.hover(uri, position(line, character))["contents"]?["value"]?.stringValue ?? "null"
    }
    func definition(_ line: Int, _ character: Int) throws -> String {
      compact(
        location: try client.request("textDocument/definition", ServerTests.at(uri, position(line, character))),
        uri: uri)
    }
    #expect(
      try hover(0, 9).hasPrefix(
        "variable c = 2, stored on line 1\n\nIn the body of c: it runs at each use of c"
      ))
    #expect(try definition(0, 9) == "0:2-0:4")
    #expect(try hover(0, 17).hasPrefix("word c, defined on line 1\n( -- r )\n: c c 1 + ;\n\nStack before: [2]"))
    #expect(try definition(0, 17) == "0:7-0:8")
    // `=b` and `=v` in the body of `w` never run: `b` is still the word, `v` the variable.
    #expect(try hover(2, 0).hasPrefix("word b, defined on line 2\n"))
    #expect(try definition(2, 0) == "1:7-1:8")
    #expect(try hover(2, 2).hasPrefix("variable v = 5, stored on line 2\n"))
    #expect(try definition(2, 2) == "1:2-1:4")
    // `: : a 1 ;`: `a` is a use of line 3's word.
    #expect(try definition(4, 4) == "3:2-3:3")
    let references = try client.request(
      "textDocument/references",
      ["textDocument": textDocument(uri), "position": position(3, 2), "context": ["includeDeclaration": false]])
    #expect(compact(locations: references, uri: uri) == ["4:4-4:5"])
    let highlights = try client.request("textDocument/documentHighlight", ServerTests.at(uri, position(4, 4)))
    #expect(VariableTests.describe(highlights: highlights) == ["3:2-3:3 3", "4:4-4:5 2"])
    try client.finish()
  }

  // MARK: Semantic tokens

  static func semanticTokens(_ client: LSPClient, _ uri: String, legend: (types: [String], modifiers: [String]))
    throws -> [String]
  {
    let result = try client.request("textDocument/semanticTokens/full", ["textDocument": textDocument(uri)])
    return SemanticTokenTests.decode(result, legend: legend).map(\.description)
  }

  /// `:` and `;` `keyword`, the defined name `function` + `declaration`, a use of a word
  /// `function` with no modifier (`dup`, a builtin, keeps `defaultLibrary`).
  @Test func semanticTokensOfADefinitionAndAUse() throws {
    let (client, result) = try LSPClient.started(encoding: "utf-16")
    let legend = try SemanticTokenTests.legend(result)
    #expect(legend.types.contains("keyword"))
    #expect(Array(legend.types.prefix(5)) == ["number", "operator", "function", "variable", "comment"])
    client.open("file:///s.rpn", ": sq2 dup * ; 3 sq2")
    #expect(
      try Self.semanticTokens(client, "file:///s.rpn", legend: legend) == [
        "0:0+1 keyword []", "0:2+3 function [\"declaration\"]", "0:6+3 function [\"defaultLibrary\"]",
        "0:10+1 operator []", "0:12+1 keyword []", "0:14+1 number []", "0:16+3 function []",
      ])
    try client.finish()
  }

  /// Words and variables side by side, in both encodings: a name means what its latest binding
  /// above it bound, on its own line too (`v` is a variable, then a word; `größe` a word, then a
  /// variable, which a failing definition does not change); uses in a body are uses; a body
  /// without `;` still tells variables from words, and an unbound name there gets no token; a
  /// definition's name that is a builtin gets none either, as an invalid store. A range from any
  /// line answers what `full` answers there.
  @Test(arguments: encodings)
  func semanticTokensTellWordsFromVariables(encoding: String) throws {
    let (client, result) = try LSPClient.started(encoding: encoding)
    let legend = try SemanticTokenTests.legend(result)
    let lines = [
      "1 =v v : v 2 ; v",
      ": größe v × ; größe",
      "=k k : u k größe nope",
      ": dup 1 ;",
      "größe 3 =größe größe : bad zzz ; größe",
    ]
    client.open("file:///s.rpn", lines.joined(separator: "\n"))
    func token(_ text: String, line: Int, nth: Int = 0, _ type: String, _ modifiers: [String] = []) -> String {
      let range = Self.columns(of: text, line: line, nth: nth, encoding, in: lines)
      return SemanticTokenTests.Token(
        line: line, start: range.lowerBound, length: range.count, type: type, modifiers: modifiers
      ).description
    }
    #expect(
      try Self.semanticTokens(client, "file:///s.rpn", legend: legend) == [
        token("1", line: 0, "number"), token("=v", line: 0, "variable", ["declaration"]),
        token("v", line: 0, "variable"), token(":", line: 0, "keyword"),
        token("v", line: 0, nth: 1, "function", ["declaration"]),
        token("2", line: 0, "number"), token(";", line: 0, "keyword"), token("v", line: 0, nth: 2, "function"),
        token(":", line: 1, "keyword"), token("größe", line: 1, "function", ["declaration"]),
        token("v", line: 1, "function"), token("×", line: 1, "operator"), token(";", line: 1, "keyword"),
        token("größe", line: 1, nth: 1, "function"),
        token("=k", line: 2, "variable", ["declaration"]), token("k", line: 2, "variable"),
        token(":", line: 2, "keyword"), token("u", line: 2, "function", ["declaration"]),
        token("k", line: 2, nth: 1, "variable"), token("größe", line: 2, "function"),
        token(":", line: 3, "keyword"), token("1", line: 3, "number"), token(";", line: 3, "keyword"),
        // A store makes the word's name a variable's; the definition that fails changes nothing.
        token("größe", line: 4, "function"), token("3", line: 4, "number"),
        token("=größe", line: 4, "variable", ["declaration"]), token("größe", line: 4, nth: 1, "variable"),
        token(":", line: 4, "keyword"), token("bad", line: 4, "function", ["declaration"]),
        token(";", line: 4, "keyword"), token("größe", line: 4, nth: 2, "variable"),
      ])
    // A range that starts below the definitions tells them apart the same way, from every line.
    let full = try Self.semanticTokens(client, "file:///s.rpn", legend: legend)
    for first in 1..<lines.count {
      let ranged = try client.request(
        "textDocument/semanticTokens/range",
        ["textDocument": textDocument("file:///s.rpn"), "range": range(first, 0, lines.count, 0)])
      #expect(
        SemanticTokenTests.decode(ranged, legend: legend).map(\.description)
          == full.filter { Int($0.prefix { $0 != ":" }) ?? -1 >= first }, "from line \(first)")
    }
    try client.finish()
  }

  // MARK: Inlay hints

  /// Right after each `;` of a definition that defined a word, its effect (`paddingLeft`, a
  /// tooltip in words); the line's stack stays at its end, after the effect when the `;` ends the
  /// line. The definition that failed gets no effect hint.
  @Test(arguments: encodings)
  func effectHints(encoding: String) throws {
    let client = try Self.started(encoding)
    let hints = try client.allInlayHints(Self.uri)
    func after(_ token: String, line: Int, nth: Int = 0) -> String {
      let end = Self.columns(of: token, line: line, nth: nth, encoding).upperBound
      return "\(line):\(end)"
    }
    let top = "5.09901951359278"
    #expect(
      compact(hints: hints) == [
        "\(after(";", line: 1)) ( a b -- r )", "\(after("hyp", line: 1, nth: 1)) [5]",
        "\(after(";", line: 2)) ( a -- r )", "\(after("drop", line: 2)) [5]",
        "3:5 [\(top)]",
        "\(after(";", line: 4)) ( a -- r )", "\(after(";", line: 4, nth: 1)) ( a -- r )",
        "\(after(";", line: 4, nth: 1)) [\(top)]",
        "5:7 [\(top) 64 6.28318530717959]",
        "6:11 [\(top) 64 6.28318530717959]",
        "7:3 [\(top) 64 6.28318530717959]",
        "8:12 [\(top) 64 6.28318530717959 1 1]",
      ])
    #expect(after(";", line: 2) == pick(encoding, "2:16", "2:13"))
    let effects = (hints.arrayValue ?? []).filter { $0["label"]?.stringValue?.hasPrefix("(") == true }
    #expect(
      effects.map { $0["tooltip"] } == [
        "hyp takes 2 values and leaves 1 value", "größe takes 1 value and leaves 1 value",
        "cube takes 1 value and leaves 1 value", "vol takes 1 value and leaves 1 value",
      ])
    #expect(effects.allSatisfy { $0["textEdits"] == nil && $0["paddingLeft"] == true })
    // Every hint of the lines the range touches, even those before its start on its first line:
    // both effects of line 4, then its stack.
    let second = Self.columns(of: ":", line: 4, nth: 1, encoding).lowerBound
    let viewport = try client.inlayHints(Self.uri, range(4, second, 4, 99))
    #expect(
      compact(hints: viewport) == [
        "4:\(pick(encoding, 22, 20)) ( a -- r )", "4:\(pick(encoding, 43, 39)) ( a -- r )",
        "4:\(pick(encoding, 43, 39)) [\(top)]",
      ])
    try client.finish()
  }

  /// A stack-dependent word's effect, and words whose effects take and leave nothing.
  @Test func effectHintsOfEveryShape() throws {
    let client = try LSPClient.started()
    client.open("file:///e.rpn", ": total sum ; : nothing ; : pair 1 2 ; # 😀\n: eat drop drop drop drop drop ;\n")
    #expect(
      compact(hints: try client.allInlayHints("file:///e.rpn")) == [
        "0:13 ( … -- … )", "0:25 ( -- )", "0:38 ( -- r₁ r₂ )", "0:38 []", "1:32 ( a b c d e -- )", "1:32 []",
      ])
    let tooltips = (try client.allInlayHints("file:///e.rpn").arrayValue ?? []).map { $0["tooltip"] }
    #expect(tooltips[0] == "total takes and leaves values depending on the stack")
    #expect(tooltips[1] == "nothing takes no values and leaves no values")
    try client.finish()
  }
}

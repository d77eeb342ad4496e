import JSONRPC
import TestSupport
import Testing

/// `textDocument/codeAction`: quick fixes for `unknown-word` diagnostics, replacing the word with
/// each of its suggestions (best first, that one preferred) or splitting a glued token; none for a use before its
/// store or a word without a suggestion. Each fix is applied to the test's copy of the text and
/// sent back: its diagnostic is gone, nothing else changed. (Other actions come with them, such
/// as writing a line's result as a check, tested in `CheckActionTests`: these tests read the
/// quick fixes among them.)
@Suite(.inProcess) struct CodeActionTests {
  static let uri = "file:///fixes.rpn"
  /// Markers 1 and 2 are cursors of `rangesAndCursors`: inside `4+` and at the end of `swpa`.
  static let source = Marked("3 =rate 2 =x\nratr sqr dupp\n😀 √ 41️⃣+ 3dup swpa2️⃣\nrata later 1 =later =rata\n")
  static let text = source.text

  /// The fixes, in document order: the word, its range (UTF-8, UTF-16), the replacement of its
  /// preferred fix, and the whole text once it is applied; then the other fixes' replacements.
  static let fixes:
    [(
      word: String, line: Int, utf8: (Int, Int), utf16: (Int, Int), replacement: String, fixed: String, others: [String]
    )] = [
      (
        "ratr", 1, (0, 4), (0, 4), "rate", "3 =rate 2 =x\nrate sqr dupp\n😀 √ 4+ 3dup swpa\nrata later 1 =later =rata\n",
        []
      ),
      // `sq` and `sqrt` are both one edit away: `sqrt` shares more of its beginning, so it is first.
      (
        "sqr", 1, (5, 8), (5, 8), "sqrt", "3 =rate 2 =x\nratr sqrt dupp\n😀 √ 4+ 3dup swpa\nrata later 1 =later =rata\n",
        ["sq"]
      ),
      (
        "dupp", 1, (9, 13), (9, 13), "dup", "3 =rate 2 =x\nratr sqr dup\n😀 √ 4+ 3dup swpa\nrata later 1 =later =rata\n",
        []
      ),
      (
        "4+", 2, (9, 11), (5, 7), "4 +", "3 =rate 2 =x\nratr sqr dupp\n😀 √ 4 + 3dup swpa\nrata later 1 =later =rata\n",
        []
      ),
      (
        "3dup", 2, (12, 16), (8, 12), "3 dup",
        "3 =rate 2 =x\nratr sqr dupp\n😀 √ 4+ 3 dup swpa\nrata later 1 =later =rata\n", []
      ),
      (
        "swpa", 2, (17, 21), (13, 17), "swap",
        "3 =rate 2 =x\nratr sqr dupp\n😀 √ 4+ 3dup swap\nrata later 1 =later =rata\n", []
      ),
    ]

  static func started(_ encoding: String) throws -> LSPClient {
    let client = try LSPClient.started(
      encoding: encoding,
      capabilities: [
        (
          "textDocument",
          ["codeAction": ["codeActionLiteralSupport": ["codeActionKind": ["valueSet": ["quickfix", "refactor"]]]]]
        )
      ]
    ).client
    client.open(uri, text)
    return client
  }

  static func codeActions(
    _ client: LSPClient, _ range: JSONValue, _ diagnostics: [JSONValue], only: [String]? = nil, uri: String = uri
  ) throws -> [JSONValue] {
    var context: [(key: String, value: JSONValue)] = [("diagnostics", .array(diagnostics))]
    if let only { context.append(("only", .array(only.map { .string($0) }))) }
    let result = try client.request(
      "textDocument/codeAction", ["textDocument": textDocument(uri), "range": range, "context": .object(context)])
    if result == .null { return [] }
    guard let actions = result.arrayValue else { throw ClientFailure("not an array: \(JSONWriter.string(result))") }
    return actions
  }

  /// The quick fixes among the actions for `range`, in the order the server gave them.
  static func quickFixes(_ client: LSPClient, _ range: JSONValue, _ diagnostics: [JSONValue]) throws -> [JSONValue] {
    try codeActions(client, range, diagnostics).filter { $0["kind"] == "quickfix" }
  }

  /// Asked with each diagnostic's range (as editors ask), each fixable word gets a quick fix per
  /// suggestion, the first preferred, each carrying that diagnostic and replacing the word; the
  /// others get none.
  /// Also end to end, over the built binary's pipes.
  @Test(.overPipes, arguments: encodings)
  func oneQuickFixPerFixableWord(encoding: String) throws {
    let client = try Self.started(encoding)
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    #expect(
      compactWithoutMessage(diagnostics: diagnostics) == [
        "1:0-1:4 error unknown-word", "1:5-1:8 error unknown-word", "1:9-1:13 error unknown-word",
        span(encoding, 2, (0, 4), (0, 2)) + " error unknown-word",
        span(encoding, 2, (9, 11), (5, 7)) + " error unknown-word",
        span(encoding, 2, (12, 16), (8, 12)) + " error unknown-word",
        span(encoding, 2, (17, 21), (13, 17)) + " error unknown-word", "3:0-3:4 error unknown-word",
        "3:5-3:10 error unknown-word",
      ])
    for diagnostic in diagnostics {
      let range = try #require(diagnostic["range"])
      let actions = try Self.quickFixes(client, range, [diagnostic])
      guard let fix = Self.fixes.first(where: { span(encoding, $0.line, $0.utf8, $0.utf16) == compact(range: range) })
      else {
        // `😀` has no suggestion; `rata` and `later` are used before their stores.
        #expect(actions == [], "no fix for \(compact(diagnostic: diagnostic))")
        continue
      }
      let replacements = [fix.replacement] + fix.others
      try #require(
        actions.count == replacements.count, "fixes for \(fix.word): \(actions.map { JSONWriter.string($0) })")
      for (index, (action, replacement)) in zip(actions, replacements).enumerated() {
        #expect(action["kind"] == "quickfix", "\(fix.word)")
        // Preferred only as the one clear reading: the only fix of its word.
        #expect(
          action["isPreferred"] == .bool(index == 0 && fix.others.isEmpty), "\(fix.word): preferred only when alone")
        #expect(action["diagnostics"] == [diagnostic], "\(fix.word)")
        #expect(action["command"] == nil, "\(fix.word)")
        #expect(
          action["title"] == .string("Replace `\(fix.word)` with `\(replacement)`")
            || action["title"] == .string("Split `\(fix.word)` into `\(replacement)`"), "\(fix.word)")
        let edit = try #require(action["edit"])
        #expect(
          try edits(of: edit, uri: Self.uri) == [["range": range, "newText": .string(replacement)]], "\(fix.word)")
      }
    }
    try client.finish()
  }

  /// Each fix applied and sent back: its diagnostic is gone, the others stay, and only that word
  /// changed in the text.
  @Test(arguments: encodings)
  func applyingAFixRemovesItsDiagnosticAndNothingElse(encoding: String) throws {
    let client = try Self.started(encoding)
    let before = try client.publishedDiagnostics(Self.uri).diagnostics
    var version = 1
    for fix in Self.fixes {
      let range = TestSupport.range(
        fix.line, pick(encoding, fix.utf8, fix.utf16).0, fix.line, pick(encoding, fix.utf8, fix.utf16).1)
      let diagnostic = try #require(before.first { $0["range"] == range }, "the diagnostic of \(fix.word)")
      let actions = try Self.quickFixes(client, range, [diagnostic])
      try #require(actions.count == 1 + fix.others.count, "the fixes for \(fix.word)")
      let fixed = try applying(edits(of: actions[0]["edit"] ?? .null, uri: Self.uri), to: Self.text, encoding: encoding)
      #expect(fixed == fix.fixed, "the text after fixing \(fix.word)")
      version += 1
      client.change(Self.uri, version: version, [["text": .string(fixed)]])
      let after = try client.publishedDiagnostics(Self.uri)
      #expect(after.version == version)
      #expect(
        after.diagnostics.compactMap { $0["message"]?.stringValue }
          == before.filter { $0 != diagnostic }.compactMap { $0["message"]?.stringValue },
        "diagnostics after fixing \(fix.word)")
      // Back to the original for the next fix.
      version += 1
      client.change(Self.uri, version: version, [["text": .string(Self.text)]])
      #expect(try client.publishedDiagnostics(Self.uri).diagnostics == before)
    }
    try client.finish()
  }

  /// A range over the whole document gets every fix, in document order; a cursor gets the fix
  /// of the word it is in or right after.
  @Test(arguments: encodings)
  func rangesAndCursors(encoding: String) throws {
    let client = try Self.started(encoding)
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    let all = try Self.quickFixes(client, range(0, 0, 4, 0), diagnostics)
    #expect(
      all.map { compact(edits: (try? edits(of: $0["edit"] ?? .null, uri: Self.uri)) ?? []) }
        == Self.fixes.flatMap { fix in
          ([fix.replacement] + fix.others).map {
            ["\(span(encoding, fix.line, fix.utf8, fix.utf16)) → \($0.debugDescription)"]
          }
        })
    #expect(all.allSatisfy { $0["kind"] == "quickfix" })
    #expect(
      all.filter { $0["isPreferred"] == true }.count == Self.fixes.filter(\.others.isEmpty).count,
      "one preferred fix per word that has only one")
    let cursors: [(at: JSONValue, word: String?)] = [
      (position(1, 6), "sqr"), (position(1, 5), "sqr"), (position(1, 8), "sqr"), (position(1, 4), "ratr"),
      (position(1, 0), "ratr"), (Self.source.at(1, encoding), "4+"), (Self.source.at(2, encoding), "swpa"),
      (position(2, 0), nil), (position(3, 2), nil), (position(0, 3), nil),
    ]
    for (cursor, word) in cursors {
      let actions = try Self.quickFixes(client, ["start": cursor, "end": cursor], [])
      let expected = Self.fixes.first { $0.word == word }.map { fix in
        ([fix.replacement] + fix.others).map {
          ["\(span(encoding, fix.line, fix.utf8, fix.utf16)) → \($0.debugDescription)"]
        }
      }
      #expect(
        actions.map { compact(edits: (try? edits(of: $0["edit"] ?? .null, uri: Self.uri)) ?? []) }
          == (expected ?? []),
        "at \(compact(position: cursor))")
    }
    // Line 3 holds only uses before their stores: nothing to fix there.
    #expect(try Self.quickFixes(client, range(3, 0, 3, 25), diagnostics) == [])
    try client.finish()
  }

  /// The suggestions a new user met wrong, through the client's eyes: each its own quick fix,
  /// ranked, the best preferred; never an operator before its operand (`ln 2`, `sin e`) or two
  /// glued values (`pi e`).
  @Test func suggestionsAreRankedQuickFixes() throws {
    let client = try LSPClient.started(encoding: "utf-8").client
    let uri = "file:///ranked.rpn"
    client.open(uri, "ln2 sqr su pie sine 4+\n")
    let diagnostics = try client.publishedDiagnostics(uri).diagnostics
    let fixes = try diagnostics.map { diagnostic in
      try Self.codeActions(client, diagnostic["range"] ?? .null, [diagnostic], only: ["quickfix"], uri: uri).map {
        "\($0["isPreferred"] == true ? "*" : "")\($0["title"]?.stringValue ?? "")"
      }
    }
    #expect(
      fixes == [
        ["*Replace `ln2` with `2 ln` (the operand first)"], ["Replace `sqr` with `sqrt`", "Replace `sqr` with `sq`"],
        ["*Replace `su` with `sum`"], ["*Replace `pie` with `pi`"],
        ["*Replace `sine` with `sin`"], ["*Split `4+` into `4 +`"],
      ])
    try client.finish()
  }

  /// The suggestions that misled a new user, one line each: the quick fixes each word gets
  /// (`*` marks the preferred one), as the client lists them. Staples of other calculators are
  /// builtins now and get none; a fix is preferred only as the one clear reading. Over the built
  /// binary's pipes, as an editor meets them.
  @Test(
    .overPipes,
    arguments: [
      ("100 log10", []), ("1 2 atan2", []), ("1 sinh", []), ("45 deg", []), ("7 2 //", []),
      ("2 3 x", ["*Replace `x` with `×`"]), ("1/2", ["*Replace `1/2` with `1 2 /` (the operand first)"]),
      ("pi/2", ["*Replace `pi/2` with `pi 2 /` (the operand first)"]), ("9 sqaure", ["*Replace `sqaure` with `sq`"]),
      ("sqr", ["Replace `sqr` with `sqrt`", "Replace `sqr` with `sq`"]), ("4+", ["*Split `4+` into `4 +`"]),
    ] as [(String, [String])])
  func preferredOnlyAsTheOneClearReading(_ line: String, _ expected: [String]) throws {
    let client = try LSPClient.started(encoding: "utf-8").client
    let uri = "file:///misled.rpn"
    client.open(uri, line + "\n")
    let diagnostics = try client.publishedDiagnostics(uri).diagnostics.filter { $0["code"] == "unknown-word" }
    let fixes = try Self.codeActions(client, range(0, 0, 1, 0), diagnostics, only: ["quickfix"], uri: uri).map {
      "\($0["isPreferred"] == true ? "*" : "")\($0["title"]?.stringValue ?? "")"
    }
    #expect(fixes == expected, "\(line)")
    try client.finish()
  }

  /// `context.only` without quick fixes gets none; with them, the same fixes.
  @Test func onlyOtherKindsGetNoQuickFix() throws {
    let client = try Self.started("utf-16")
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    func kinds(_ only: [String]) throws -> [String] {
      try Self.codeActions(client, range(0, 0, 4, 0), diagnostics, only: only).map { $0["kind"]?.stringValue ?? "none" }
    }
    // No line takes a check: the first ends on the number written there, the others have
    // diagnostics.
    #expect(try kinds(["refactor"]) == [])
    #expect(try kinds(["source"]) == [])
    #expect(try kinds(["quickfix"]) == Array(repeating: "quickfix", count: 7))
    #expect(try kinds(["refactor", "quickfix"]) == Array(repeating: "quickfix", count: 7))
    try client.finish()
  }

  /// Other diagnostics (stack, result, invalid names and numbers) get no fix.
  @Test func otherDiagnosticsGetNoFix() throws {
    let client = try Self.started("utf-16")
    client.open("file:///other.rpn", "1 +\n1 0 /\n-1 sqrt\n1e999 =dup =9x\n")
    let diagnostics = try client.publishedDiagnostics("file:///other.rpn").diagnostics
    #expect(diagnostics.count == 6)
    let result = try client.request(
      "textDocument/codeAction",
      [
        "textDocument": textDocument("file:///other.rpn"), "range": range(0, 0, 4, 0),
        "context": ["diagnostics": .array(diagnostics)],
      ])
    #expect((result.arrayValue?.filter { $0["kind"] == "quickfix" } ?? []) == [])
    try client.finish()
  }

  /// A range that starts past the end of its line starts at that end, as LSP clamps positions:
  /// the fix for a word that ends the line is still offered.
  @Test(arguments: encodings)
  func aRangePastTheLineEndStartsAtIt(encoding: String) throws {
    let client = try Self.started(encoding)
    client.open("file:///end.rpn", "2 ÷ 4+\n")
    let diagnostics = try client.publishedDiagnostics("file:///end.rpn").diagnostics
    let actions = try Self.codeActions(
      client, range(0, 40, 0, 40), diagnostics, only: ["quickfix"], uri: "file:///end.rpn")
    #expect(
      actions.map { $0["title"]?.stringValue ?? "" } == ["Split `4+` into `4 +`"],
      "\(actions.map(JSONWriter.string))")
    try client.finish()
  }
}

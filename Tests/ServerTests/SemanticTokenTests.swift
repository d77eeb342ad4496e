import JSONRPC
import TestSupport
import Testing

/// the README's table of server features `textDocument/semanticTokens/full` and `/range`: numbers `number`; symbolic operators
/// `operator`; named operators `function` + `defaultLibrary`; constants `variable` + `readonly` +
/// `defaultLibrary`; a store one `variable` + `declaration` token over `=name`; uses `variable`;
/// comments `comment`; unknown words none. Tokens are decoded with the legend the server gave in
/// `initialize`, and compared one by one, in both position encodings.
@Suite(.inProcess) struct SemanticTokenTests {
  static let uri = "file:///tokens.rpn"
  /// Every kind of line break; a line that ends in whitespace inside its comment. The markers
  /// bound ranges of the `range` test.
  static let source = Marked(
    [
      "# 😀 note\n",
      "😀 13️⃣.5 −4️⃣2 + × 1️⃣√ ** pi π e\r\n",
      "y =y y D2️⃣UP Sqrt zz 4+ # c ×\r",
      "\r\n",
      "  1_000 max ÷ % − mod Pi  # ☕ 😀5️⃣ 6️⃣ \n",
      "π =τ τ rate",
    ].joined())
  static let text = source.text

  /// One token, absolute: `line:start+length type [modifiers]`, modifiers sorted by name.
  struct Token: Equatable, CustomStringConvertible {
    var line: Int
    var start: Int
    var length: Int
    var type: String
    var modifiers: [String]

    var description: String { "\(line):\(start)+\(length) \(type) \(modifiers)" }
    var end: Int { start + length }
  }

  static let constant = ["defaultLibrary", "readonly"]
  static let library = ["defaultLibrary"]

  /// The tokens of `text`: (line, UTF-8 start and length, UTF-16 start and length, type, modifiers).
  static let expected: [(line: Int, utf8: (Int, Int), utf16: (Int, Int), type: String, modifiers: [String])] = [
    (0, (0, 11), (0, 9), "comment", []),
    // `😀` is an unknown word: no token.
    (1, (5, 3), (3, 3), "number", []),  // 1.5
    (1, (9, 4), (7, 2), "number", []),  // −2
    (1, (14, 1), (10, 1), "operator", []),  // +
    (1, (16, 2), (12, 1), "operator", []),  // ×
    (1, (19, 3), (14, 1), "operator", []),  // √
    (1, (23, 2), (16, 2), "operator", []),  // **
    (1, (26, 2), (19, 2), "variable", constant),  // pi
    (1, (29, 2), (22, 1), "variable", constant),  // π
    (1, (32, 1), (24, 1), "variable", constant),  // e
    // `y` before its store is an unknown word, as are `zz` and `4+`.
    (2, (2, 2), (2, 2), "variable", ["declaration"]),  // =y
    (2, (5, 1), (5, 1), "variable", []),  // y
    (2, (7, 3), (7, 3), "function", library),  // DUP
    (2, (11, 4), (11, 4), "function", library),  // Sqrt
    (2, (22, 6), (22, 5), "comment", []),  // # c ×
    (4, (2, 5), (2, 5), "number", []),  // 1_000
    (4, (8, 3), (8, 3), "function", library),  // max
    (4, (12, 2), (12, 1), "operator", []),  // ÷
    (4, (15, 1), (14, 1), "operator", []),  // %
    (4, (17, 3), (16, 1), "operator", []),  // −
    (4, (21, 3), (18, 3), "function", library),  // mod
    (4, (25, 2), (22, 2), "variable", constant),  // Pi
    (4, (29, 12), (26, 8), "comment", []),  // # ☕ 😀 and two spaces
    (5, (0, 2), (0, 1), "variable", constant),  // π
    (5, (3, 3), (2, 2), "variable", ["declaration"]),  // =τ
    (5, (7, 2), (5, 1), "variable", []),  // τ
    // `rate` is never stored: no token.
  ]

  static func expectedTokens(_ encoding: String) -> [Token] {
    expected.map { line, utf8, utf16, type, modifiers in
      let (start, length) = pick(encoding, utf8, utf16)
      return Token(line: line, start: start, length: length, type: type, modifiers: modifiers)
    }
  }

  /// The legend of an `initialize` result.
  static func legend(_ initializeResult: JSONValue) throws -> (types: [String], modifiers: [String]) {
    let legend = try #require(initializeResult["capabilities"]?["semanticTokensProvider"]?["legend"])
    let types = try #require(legend["tokenTypes"]?.arrayValue).compactMap { $0.stringValue }
    let modifiers = try #require(legend["tokenModifiers"]?.arrayValue).compactMap { $0.stringValue }
    return (types, modifiers)
  }

  /// Decodes `SemanticTokens.data` (five integers per token, line and start relative to the token
  /// before) into absolute tokens; anything malformed is recorded as an issue.
  static func decode(
    _ result: JSONValue, legend: (types: [String], modifiers: [String]),
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> [Token] {
    guard let data = result["data"]?.arrayValue?.compactMap(\.intValue), data.count == result["data"]?.arrayValue?.count
    else {
      Issue.record("no integer data in \(JSONWriter.string(result))", sourceLocation: sourceLocation)
      return []
    }
    #expect(data.count % 5 == 0, "data comes in fives", sourceLocation: sourceLocation)
    var tokens: [Token] = []
    var line = 0
    var start = 0
    for i in stride(from: 0, to: data.count - data.count % 5, by: 5) {
      let (deltaLine, deltaStart, length, type, bits) = (data[i], data[i + 1], data[i + 2], data[i + 3], data[i + 4])
      #expect(
        deltaLine >= 0 && deltaStart >= 0 && length > 0, "token \(i / 5): \(data[i..<i + 5])",
        sourceLocation: sourceLocation)
      line += deltaLine
      start = deltaLine == 0 ? start + deltaStart : deltaStart
      let typeName = legend.types.indices.contains(type) ? legend.types[type] : "type \(type)?"
      var modifiers: [String] = []
      for (bit, name) in legend.modifiers.enumerated() where bits & (1 << bit) != 0 { modifiers.append(name) }
      if bits >> legend.modifiers.count != 0 { modifiers.append("bits \(bits)?") }
      tokens.append(Token(line: line, start: start, length: length, type: typeName, modifiers: modifiers.sorted()))
    }
    return tokens
  }

  static func started(_ encoding: String) throws -> (LSPClient, legend: (types: [String], modifiers: [String])) {
    let (client, result) = try LSPClient.started(
      encoding: encoding,
      capabilities: [
        (
          "textDocument",
          [
            "semanticTokens": [
              "requests": ["full": true, "range": true],
              "tokenTypes": ["number", "operator", "function", "variable", "comment"],
              "tokenModifiers": ["declaration", "readonly", "defaultLibrary"], "formats": ["relative"],
            ]
          ]
        )
      ])
    client.open(uri, text)
    return (client, try legend(result))
  }

  @Test(arguments: encodings)
  func full(encoding: String) throws {
    let (client, legend) = try Self.started(encoding)
    let result = try client.request("textDocument/semanticTokens/full", ["textDocument": textDocument(Self.uri)])
    let tokens = Self.decode(result, legend: legend)
    let expected = Self.expectedTokens(encoding)
    #expect(tokens.count == expected.count)
    for (found, wanted) in zip(tokens, expected) {
      #expect(found == wanted)
    }
    if tokens.count != expected.count {
      #expect(tokens.map(\.description) == expected.map(\.description))
    }
    try client.finish()
  }

  /// `/range` answers the slice of `full` that overlaps the range: a token cut by either end of
  /// the range is in it, whole. Also end to end, over the built binary's pipes.
  @Test(.overPipes, arguments: encodings)
  func range(encoding: String) throws {
    let (client, legend) = try Self.started(encoding)
    let full = Self.decode(
      try client.request("textDocument/semanticTokens/full", ["textDocument": textDocument(Self.uri)]), legend: legend)
    #expect(full == Self.expectedTokens(encoding))
    let cases: [(range: JSONValue, count: Int)] = [
      // From the start of `√` to the middle of `DUP`.
      (Self.source.range(1, 2, encoding), 8),
      // From the middle of `1.5` to inside `−2` (after its `−`).
      (Self.source.range(3, 4, encoding), 2),
      // The blank line to far past the end.
      (TestSupport.range(3, 0, 99, 0), 11),
      // Inside line 0's comment.
      (TestSupport.range(0, 1, 0, 2), 1),
      // Inside line 4's comment, after its emoji.
      (Self.source.range(5, 6, encoding), 1),
      // The blank line alone, and whitespace between two tokens.
      (TestSupport.range(3, 0, 3, 0), 0),
      (TestSupport.range(4, 0, 4, 1), 0),
      // The whole document.
      (TestSupport.range(0, 0, 6, 0), 26),
    ]
    for (range, count) in cases {
      let result = try client.request(
        "textDocument/semanticTokens/range", ["textDocument": textDocument(Self.uri), "range": range])
      let tokens = Self.decode(result, legend: legend)
      let slice = full.filter { Self.overlaps($0, range) }
      #expect(slice.count == count, "the slice of full in \(compact(range: range))")
      #expect(tokens == slice, "range \(compact(range: range))")
    }
    try client.finish()
  }

  static func overlaps(_ token: Token, _ range: JSONValue) -> Bool {
    let start = (range["start"]?["line"]?.intValue ?? 0, range["start"]?["character"]?.intValue ?? 0)
    let end = (range["end"]?["line"]?.intValue ?? 0, range["end"]?["character"]?.intValue ?? 0)
    return (token.line, token.end) > start && (token.line, token.start) < end
  }

  /// A use becomes a `variable` token once a store above makes it known, and stops being one
  /// when the store goes.
  @Test func tokensFollowEdits() throws {
    let (client, legend) = try Self.started("utf-16")
    let params: JSONValue = ["textDocument": textDocument(Self.uri)]
    client.change(Self.uri, version: 2, [edit(TestSupport.range(5, 0, 5, 0), "1 =rate ")])  // "1 =rate π =τ τ rate"
    var tokens = Self.decode(try client.request("textDocument/semanticTokens/full", params), legend: legend)
    #expect(
      tokens.filter { $0.line == 5 }.map(\.description) == [
        "5:0+1 number []", "5:2+5 variable [\"declaration\"]", "5:8+1 variable [\"defaultLibrary\", \"readonly\"]",
        "5:10+2 variable [\"declaration\"]", "5:13+1 variable []", "5:15+4 variable []",
      ])
    client.change(Self.uri, version: 3, [edit(TestSupport.range(2, 2, 2, 5), "")])  // Line 2 loses its `=y `.
    tokens = Self.decode(try client.request("textDocument/semanticTokens/full", params), legend: legend)
    #expect(
      tokens.filter { $0.line == 2 }.map(\.description) == [
        "2:4+3 function [\"defaultLibrary\"]", "2:8+4 function [\"defaultLibrary\"]", "2:19+5 comment []",
      ])
    try client.finish()
  }

  /// The legend names only standard token types and modifiers, each once.
  @Test func theLegendUsesStandardNames() throws {
    let (client, legend) = try Self.started("utf-16")
    let standardTypes: Set<String> = [
      "namespace", "type", "class", "enum", "interface", "struct", "typeParameter", "parameter", "variable",
      "property", "enumMember", "event", "function", "method", "macro", "keyword", "modifier", "comment", "string",
      "number", "regexp", "operator", "decorator",
    ]
    let standardModifiers: Set<String> = [
      "declaration", "definition", "readonly", "static", "deprecated", "abstract", "async", "modification",
      "documentation", "defaultLibrary",
    ]
    #expect(Set(legend.types).isSubset(of: standardTypes))
    #expect(Set(legend.modifiers).isSubset(of: standardModifiers))
    #expect(Set(legend.types).count == legend.types.count)
    #expect(Set(legend.modifiers).count == legend.modifiers.count)
    for needed in ["number", "operator", "function", "variable", "comment"] { #expect(legend.types.contains(needed)) }
    for needed in ["declaration", "readonly", "defaultLibrary"] { #expect(legend.modifiers.contains(needed)) }
    try client.finish()
  }
}

import JSONRPC
import TestSupport
import Testing

/// the README's table of server features variables as symbols: `textDocument/definition`, `references`, `documentHighlight`,
/// `prepareRename`, `rename` and `documentSymbol`, in both position encodings. The document has
/// emoji, `π`, `×`, `÷`, `√` and `é` before tokens, so that UTF-8 and UTF-16 columns differ; every
/// column below was counted by hand (UTF-8 bytes / UTF-16 units).
@Suite(.inProcess) struct VariableTests {
  static let uri = "file:///variables.rpn"
  /// Line 5's `=none` and `=rate` fail (the stack is empty): they store nothing, so `none` is
  /// an unknown word and the last `rate` still has line 2's value.
  static let source = Marked(
    """
    # 😀 rate × ÷ √
    😀 π 2 × =rate1️⃣ 10 =n
    √ rate2️⃣ rate =rate ra3️⃣te n
    × =é 4️⃣é5️⃣ 6️⃣ # rate
    7️⃣later =later 8️⃣ # 😀
    ÷ clear =none none =rate rate9️⃣

    """)

  static func started(_ encoding: String) throws -> LSPClient {
    let client = try LSPClient.started(
      encoding: encoding,
      capabilities: [
        (
          "textDocument",
          ["rename": ["prepareSupport": true], "documentSymbol": ["hierarchicalDocumentSymbolSupport": true]]
        )
      ]
    ).client
    client.open(uri, source.text)
    return client
  }

  /// Positions off any variable: whitespace (markers 6 and 8), the operator `×`, the number
  /// `10`, a comment, a blank line, and a line past the end.
  static func offVariable(_ encoding: String) -> [JSONValue] {
    [
      source.at(6, encoding), source.at(8, encoding), position(3, 0), position(1, pick(encoding, 19, 15)),
      position(1, pick(encoding, 20, 16)), position(0, 1), position(3, pick(encoding, 13, 10)), position(6, 0),
      position(40, 2),
    ]
  }

  // MARK: Definition

  /// On a use: the `=name` that stored the value in effect there (the latest successful store
  /// above it, earlier on its own line included); on a store: itself; a use before any store,
  /// or after a store that failed: null.
  @Test(arguments: encodings)
  func definition(encoding: String) throws {
    let client = try Self.started(encoding)
    let text = Self.source
    let rateOnLine1 = span(encoding, 1, (13, 18), (9, 14))
    let rateOnLine2 = span(encoding, 2, (14, 19), (12, 17))
    let cases: [(what: String, at: JSONValue, expected: String)] = [
      ("a store: itself", text.at(1, encoding), rateOnLine1),
      ("the first use on line 2: line 1's store", text.at(2, encoding), rateOnLine1),
      ("a use inside the word", position(2, pick(encoding, 10, 8)), rateOnLine1),
      ("a use after a store on its line", text.at(3, encoding), rateOnLine2),
      ("the start of a use after a store on its line", text.at(4, encoding), span(encoding, 3, (3, 6), (2, 4))),
      ("the end of that use", text.at(5, encoding), span(encoding, 3, (3, 6), (2, 4))),
      ("`n`", position(2, pick(encoding, 25, 23)), span(encoding, 1, (22, 24), (18, 20))),
      ("`=n`", position(1, pick(encoding, 23, 19)), span(encoding, 1, (22, 24), (18, 20))),
      ("a use before any store", text.at(7, encoding), "null"),
      ("the store after it", position(4, 9), "4:6-4:12"),
      ("a use after a failed store: the store before it", text.at(9, encoding), rateOnLine2),
      ("a name whose only store failed", position(5, pick(encoding, 16, 15)), "null"),
    ]
    for (what, at, expected) in cases {
      let result = try client.request("textDocument/definition", VariableTests.at(at))
      #expect(compact(location: result, uri: Self.uri) == expected, "\(what) at \(compact(position: at))")
    }
    for at in Self.offVariable(encoding) {
      let result = try client.request("textDocument/definition", VariableTests.at(at))
      #expect(compact(location: result, uri: Self.uri) == "null", "off a variable at \(compact(position: at))")
    }
    try client.finish()
  }

  static func at(_ position: JSONValue) -> JSONValue { ServerTests.at(uri, position) }

  // MARK: References

  /// Every `rate` of lines 1, 2 and 5 (the failed store too; not the comments), stores as their
  /// whole `=rate` token; without the declarations, the uses alone.
  @Test(arguments: encodings)
  func references(encoding: String) throws {
    let client = try Self.started(encoding)
    let stores = [
      span(encoding, 1, (13, 18), (9, 14)), span(encoding, 2, (14, 19), (12, 17)),
      span(encoding, 5, (20, 25), (19, 24)),
    ]
    let uses = [
      span(encoding, 2, (4, 8), (2, 6)), span(encoding, 2, (9, 13), (7, 11)), span(encoding, 2, (20, 24), (18, 22)),
      span(encoding, 5, (26, 30), (25, 29)),
    ]
    let all = [stores[0], uses[0], uses[1], stores[1], uses[2], stores[2], uses[3]]
    for marker in [1, 2, 3, 9] {
      for (includeDeclaration, expected) in [(true, all), (false, uses)] {
        let result = try client.request(
          "textDocument/references", Self.references(Self.source.at(marker, encoding), includeDeclaration))
        #expect(
          compact(locations: result, uri: Self.uri) == expected,
          "at marker \(marker), includeDeclaration \(includeDeclaration)")
      }
    }
    // `é`, from its store and from its use.
    for at in [position(3, pick(encoding, 4, 3)), Self.source.at(4, encoding)] {
      let result = try client.request("textDocument/references", Self.references(at, true))
      #expect(
        compact(locations: result, uri: Self.uri) == [
          span(encoding, 3, (3, 6), (2, 4)), span(encoding, 3, (7, 9), (5, 6)),
        ])
      let usesOnly = try client.request("textDocument/references", Self.references(at, false))
      #expect(compact(locations: usesOnly, uri: Self.uri) == [span(encoding, 3, (7, 9), (5, 6))])
    }
    // A name used before its store, and one whose only store failed.
    #expect(
      compact(
        locations: try client.request("textDocument/references", Self.references(position(4, 2), true)), uri: Self.uri)
        == ["4:0-4:5", "4:6-4:12"])
    #expect(
      compact(
        locations: try client.request(
          "textDocument/references", Self.references(position(5, pick(encoding, 17, 15)), true)),
        uri: Self.uri) == [span(encoding, 5, (9, 14), (8, 13)), span(encoding, 5, (15, 19), (14, 18))])
    for at in Self.offVariable(encoding) {
      let result = try client.request("textDocument/references", Self.references(at, true))
      #expect(compact(locations: result, uri: Self.uri) == [], "off a variable at \(compact(position: at))")
    }
    try client.finish()
  }

  static func references(_ position: JSONValue, _ includeDeclaration: Bool) -> JSONValue {
    [
      "textDocument": textDocument(uri), "position": position,
      "context": ["includeDeclaration": .bool(includeDeclaration)],
    ]
  }

  // MARK: Highlights

  /// The same places as the references, stores as Write (3), uses as Read (2).
  @Test(arguments: encodings)
  func documentHighlight(encoding: String) throws {
    let client = try Self.started(encoding)
    let expected = [
      span(encoding, 1, (13, 18), (9, 14)) + " 3", span(encoding, 2, (4, 8), (2, 6)) + " 2",
      span(encoding, 2, (9, 13), (7, 11)) + " 2", span(encoding, 2, (14, 19), (12, 17)) + " 3",
      span(encoding, 2, (20, 24), (18, 22)) + " 2", span(encoding, 5, (20, 25), (19, 24)) + " 3",
      span(encoding, 5, (26, 30), (25, 29)) + " 2",
    ]
    for marker in [1, 2, 3, 9] {
      let result = try client.request("textDocument/documentHighlight", Self.at(Self.source.at(marker, encoding)))
      #expect(Self.describe(highlights: result) == expected, "at marker \(marker)")
    }
    let accented = try client.request("textDocument/documentHighlight", Self.at(Self.source.at(5, encoding)))
    #expect(
      Self.describe(highlights: accented) == [
        span(encoding, 3, (3, 6), (2, 4)) + " 3", span(encoding, 3, (7, 9), (5, 6)) + " 2",
      ])
    for at in Self.offVariable(encoding) {
      let result = try client.request("textDocument/documentHighlight", Self.at(at))
      #expect(Self.describe(highlights: result) == [], "off a variable at \(compact(position: at))")
    }
    try client.finish()
  }

  /// Highlights as `range kind`, in document order; null as [].
  static func describe(highlights: JSONValue) -> [String] {
    if highlights == .null { return [] }
    guard let array = highlights.arrayValue else { return ["not an array: \(JSONWriter.string(highlights))"] }
    return sortedByStart(array).map { highlight in
      let kind = highlight["kind"].map { JSONWriter.string($0) } ?? "no kind"
      return "\(ServerTests.compact(range: highlight["range"])) \(kind)"
    }
  }

  // MARK: Prepare rename

  /// The name's range (a store's without its `=`) with the name as placeholder; null off a
  /// variable.
  @Test(arguments: encodings)
  func prepareRename(encoding: String) throws {
    let client = try Self.started(encoding)
    let cases: [(at: JSONValue, range: String, name: String)] = [
      (Self.source.at(1, encoding), span(encoding, 1, (14, 18), (10, 14)), "rate"),
      (position(1, pick(encoding, 13, 9)), span(encoding, 1, (14, 18), (10, 14)), "rate"),  // On the `=`.
      (Self.source.at(2, encoding), span(encoding, 2, (4, 8), (2, 6)), "rate"),
      (Self.source.at(3, encoding), span(encoding, 2, (20, 24), (18, 22)), "rate"),
      (Self.source.at(5, encoding), span(encoding, 3, (7, 9), (5, 6)), "é"),
      (position(3, pick(encoding, 4, 3)), span(encoding, 3, (4, 6), (3, 4)), "é"),
      (Self.source.at(7, encoding), "4:0-4:5", "later"),
      (Self.source.at(9, encoding), span(encoding, 5, (26, 30), (25, 29)), "rate"),
      (position(5, pick(encoding, 10, 9)), span(encoding, 5, (10, 14), (9, 13)), "none"),
    ]
    for (at, range, name) in cases {
      let result = try client.request("textDocument/prepareRename", Self.at(at))
      // `Range` or `{ range, placeholder }`; the placeholder, when given, is the name.
      let found = result["range"] ?? result
      #expect(compact(range: found) == range, "at \(compact(position: at))")
      if let placeholder = result["placeholder"] {
        #expect(placeholder == .string(name), "at \(compact(position: at))")
      }
    }
    for at in Self.offVariable(encoding) {
      #expect(try client.request("textDocument/prepareRename", Self.at(at)) == .null, "at \(compact(position: at))")
    }
    try client.finish()
  }

  // MARK: Rename

  static func rename(_ position: JSONValue, to newName: String) -> JSONValue {
    ["textDocument": textDocument(uri), "position": position, "newName": .string(newName)]
  }

  /// Every store and use of `rate` becomes `price` (the comments stay); once the client applied
  /// the edit, references find `price` everywhere and no `rate` is left.
  @Test(arguments: encodings)
  func renameEverywhere(encoding: String) throws {
    let client = try Self.started(encoding)
    let before = try client.publishedDiagnostics(Self.uri).diagnostics
    let result = try client.request("textDocument/rename", Self.rename(Self.source.at(2, encoding), to: "price"))
    let changes = try edits(of: result, uri: Self.uri)
    #expect(
      compact(edits: changes)
        == [
          span(encoding, 1, (14, 18), (10, 14)), span(encoding, 2, (4, 8), (2, 6)), span(encoding, 2, (9, 13), (7, 11)),
          span(encoding, 2, (15, 19), (13, 17)), span(encoding, 2, (20, 24), (18, 22)),
          span(encoding, 5, (21, 25), (20, 24)), span(encoding, 5, (26, 30), (25, 29)),
        ].map { "\($0) → \"price\"" })
    let renamed = try applying(changes, to: Self.source.text, encoding: encoding)
    #expect(
      renamed == """
        # 😀 rate × ÷ √
        😀 π 2 × =price 10 =n
        √ price price =price price n
        × =é é  # rate
        later =later  # 😀
        ÷ clear =none none =price price

        """)
    client.change(Self.uri, version: 2, [["text": .string(renamed)]])
    let expected = [
      span(encoding, 1, (13, 19), (9, 15)), span(encoding, 2, (4, 9), (2, 7)), span(encoding, 2, (10, 15), (8, 13)),
      span(encoding, 2, (16, 22), (14, 20)), span(encoding, 2, (23, 28), (21, 26)),
      span(encoding, 5, (20, 26), (19, 25)),
      span(encoding, 5, (27, 32), (26, 31)),
    ]
    for at in [
      position(1, pick(encoding, 15, 11)), position(2, pick(encoding, 4, 2)), position(5, pick(encoding, 32, 31)),
    ] {
      let references = try client.request("textDocument/references", Self.references(at, true))
      #expect(compact(locations: references, uri: Self.uri) == expected, "at \(compact(position: at))")
    }
    // No `rate` is left to find: where `rate` was, `price` is.
    for at in [Self.source.at(2, encoding), Self.source.at(9, encoding)] {
      let definition = try client.request("textDocument/definition", Self.at(at))
      #expect(compact(location: definition, uri: Self.uri) != "null")
      let prepared = try client.request("textDocument/prepareRename", Self.at(at))
      #expect(prepared["placeholder"] == nil || prepared["placeholder"] == "price")
    }
    // The same mistakes, in the same places (`=price` is one column wider than `=rate`).
    let after = try client.publishedDiagnostics(Self.uri)
    #expect(after.version == 2)
    #expect(after.diagnostics.map { $0["code"] } == before.map { $0["code"] })
    #expect(
      compactWithoutMessage(diagnostics: after.diagnostics) == [
        span(encoding, 1, (0, 4), (0, 2)) + " error unknown-word", "4:0-4:5 error unknown-word",
        span(encoding, 5, (9, 14), (8, 13)) + " warning stack-underflow",
        span(encoding, 5, (15, 19), (14, 18)) + " error unknown-word",
        span(encoding, 5, (20, 26), (19, 25)) + " warning stack-underflow",
      ])
    try client.finish()
  }

  /// A rename into and out of non-ASCII names, from a store.
  @Test(arguments: encodings)
  func renameANonASCIIName(encoding: String) throws {
    let client = try Self.started(encoding)
    let result = try client.request("textDocument/rename", Self.rename(position(3, pick(encoding, 4, 3)), to: "größe"))
    let changes = try edits(of: result, uri: Self.uri)
    #expect(
      compact(edits: changes) == [
        span(encoding, 3, (4, 6), (3, 4)) + " → \"größe\"", span(encoding, 3, (7, 9), (5, 6)) + " → \"größe\"",
      ])
    let renamed = try applying(changes, to: Self.source.text, encoding: encoding)
    #expect(renamed.components(separatedBy: "\n")[3] == "× =größe größe  # rate")
    client.change(Self.uri, version: 2, [["text": .string(renamed)]])
    let references = try client.request(
      "textDocument/references", Self.references(position(3, pick(encoding, 19, 14)), true))
    #expect(
      compact(locations: references, uri: Self.uri) == [
        span(encoding, 3, (3, 11), (2, 8)), span(encoding, 3, (12, 19), (9, 14)),
      ])
    // And back to a one-letter name.
    let back = try client.request("textDocument/rename", Self.rename(position(3, pick(encoding, 12, 9)), to: "ü"))
    let backChanges = try edits(of: back, uri: Self.uri)
    #expect(
      compact(edits: backChanges) == [
        span(encoding, 3, (4, 11), (3, 8)) + " → \"ü\"", span(encoding, 3, (12, 19), (9, 14)) + " → \"ü\"",
      ])
    #expect(
      try applying(backChanges, to: renamed, encoding: encoding)
        == Self.source.text.replacingOccurrences(of: "é", with: "ü"))
    try client.finish()
  }

  /// Refused with an error response that gives the reason: a new name that is not a valid name,
  /// a builtin of any kind (in any ASCII case), one that another variable has, and a position
  /// that is on no variable.
  @Test(arguments: encodings)
  func renameRefusals(encoding: String) throws {
    let client = try Self.started(encoding)
    let cases: [(newName: String, reason: String)] = [
      ("2x", "valid"), ("", "valid"), ("a-b", "valid"), ("rate price", "valid"), ("=x", "valid"), ("√", "valid"),
      ("dup", "operator"), ("DUP", "operator"), ("sqrt", "function"), ("Sqrt", "function"), ("chs", "function"),
      ("pi", "constant"), ("PI", "constant"), ("π", "constant"), ("e", "constant"), ("E", "constant"),
      ("n", "already"), ("later", "already"), ("é", "already"), ("none", "already"),
    ]
    for (newName, reason) in cases {
      let error = try client.requestError("textDocument/rename", Self.rename(Self.source.at(2, encoding), to: newName))
      #expect([-32803, -32602].contains(error.code), "renaming to \(newName.debugDescription): \(error)")
      #expect(error.message.lowercased().contains(reason), "renaming to \(newName.debugDescription): \(error)")
      if !newName.isEmpty {
        #expect(error.message.contains(newName), "the message names \(newName.debugDescription): \(error)")
      }
    }
    for at in Self.offVariable(encoding) {
      let error = try client.requestError("textDocument/rename", Self.rename(at, to: "fine"))
      #expect([-32803, -32602].contains(error.code), "at \(compact(position: at)): \(error)")
      #expect(error.message.lowercased().contains("variable"), "at \(compact(position: at)): \(error)")
    }
    // Nothing was renamed.
    let references = try client.request("textDocument/references", Self.references(Self.source.at(2, encoding), true))
    #expect(compact(locations: references, uri: Self.uri).count == 7)
    try client.finish()
  }

  // MARK: Document symbols

  /// Each store that succeeded, as a Variable (13) named without its `=`: detail its displayed
  /// value, range the whole `=name`, selection range the name. Failed stores are no symbols.
  @Test(arguments: encodings)
  func documentSymbols(encoding: String) throws {
    let client = try Self.started(encoding)
    let result = try client.request("textDocument/documentSymbol", ["textDocument": textDocument(Self.uri)])
    #expect(
      Self.describe(symbols: result) == [
        "rate 13 6.28318530717959 " + span(encoding, 1, (13, 18), (9, 14)) + " "
          + span(encoding, 1, (14, 18), (10, 14)),
        "n 13 10 " + span(encoding, 1, (22, 24), (18, 20)) + " " + span(encoding, 1, (23, 24), (19, 20)),
        "rate 13 6.28318530717959 " + span(encoding, 2, (14, 19), (12, 17)) + " "
          + span(encoding, 2, (15, 19), (13, 17)),
        "é 13 62.8318530717959 " + span(encoding, 3, (3, 6), (2, 4)) + " " + span(encoding, 3, (4, 6), (3, 4)),
        "later 13 62.8318530717959 4:6-4:12 4:7-4:12",
      ])
    try client.finish()
  }

  /// The detail follows the `precision` setting, and an edit updates the symbols.
  @Test func documentSymbolsFollowPrecisionAndEdits() throws {
    let client = try LSPClient.started(
      capabilities: ["textDocument": ["documentSymbol": ["hierarchicalDocumentSymbolSupport": true]]],
      initializationOptions: ["rpn": ["precision": 4]])
    client.open("file:///p.rpn", "1 3 / =third\n=dup 2 =two clear =none\n")
    let params: JSONValue = ["textDocument": textDocument("file:///p.rpn")]
    #expect(
      Self.describe(symbols: try client.request("textDocument/documentSymbol", params)) == [
        "third 13 0.3333 0:6-0:12 0:7-0:12", "two 13 2 1:7-1:11 1:8-1:11",
      ])
    client.change("file:///p.rpn", version: 2, [edit(range(0, 0, 0, 0), "7 =seven ")])
    #expect(
      Self.describe(symbols: try client.request("textDocument/documentSymbol", params)) == [
        "seven 13 7 0:2-0:8 0:3-0:8", "third 13 0.3333 0:15-0:21 0:16-0:21", "two 13 2 1:7-1:11 1:8-1:11",
      ])
    client.open("file:///empty.rpn", "# nothing stored\n1 2 +\n")
    #expect(
      try client.request("textDocument/documentSymbol", ["textDocument": textDocument("file:///empty.rpn")]) == [])
    try client.finish()
  }

  /// A client without hierarchical symbols gets `SymbolInformation`: the value after the name,
  /// and a location over the whole `=name`.
  @Test func flatSymbolsForClientsWithoutHierarchy() throws {
    let client = try LSPClient.started()
    client.open("file:///f.rpn", "1 3 / =third\n")
    let result = try client.request("textDocument/documentSymbol", ["textDocument": textDocument("file:///f.rpn")])
    #expect(
      result == [
        [
          "name": "third = 0.333333333333333", "kind": 13,
          "location": [
            "uri": "file:///f.rpn",
            "range": ["start": ["line": 0, "character": 6], "end": ["line": 0, "character": 12]],
          ],
        ]
      ])
    try client.finish()
  }

  /// Symbols as `name kind detail range selectionRange`, with anything unexpected spelled out.
  static func describe(symbols: JSONValue) -> [String] {
    guard let array = symbols.arrayValue else { return ["not an array: \(JSONWriter.string(symbols))"] }
    return array.map { symbol in
      let name = symbol["name"]?.stringValue ?? "no name"
      let kind = symbol["kind"].map { JSONWriter.string($0) } ?? "no kind"
      let detail = symbol["detail"]?.stringValue ?? "no detail"
      let children = (symbol["children"]?.arrayValue ?? []).isEmpty ? "" : " children: \(symbol["children"]!)"
      let range = ServerTests.compact(range: symbol["range"])
      let selection = ServerTests.compact(range: symbol["selectionRange"])
      return "\(name) \(kind) \(detail) \(range) \(selection)\(children)"
    }
  }

  // MARK: End to end

  /// Each method of this suite once over the built binary's pipes, at the first use of `rate` on
  /// line 2 (the tests above run in process).
  @Test(.overPipes) func everyMethodEndToEnd() throws {
    let client = try Self.started("utf-16")
    let at = Self.source.utf16(2)
    let definition = try client.request("textDocument/definition", Self.at(at))
    #expect(compact(location: definition, uri: Self.uri) == "1:9-1:14")
    let references = try client.request("textDocument/references", Self.references(at, true))
    #expect(
      compact(locations: references, uri: Self.uri) == [
        "1:9-1:14", "2:2-2:6", "2:7-2:11", "2:12-2:17", "2:18-2:22", "5:19-5:24", "5:25-5:29",
      ])
    let highlights = try client.request("textDocument/documentHighlight", Self.at(at))
    #expect(
      Self.describe(highlights: highlights) == [
        "1:9-1:14 3", "2:2-2:6 2", "2:7-2:11 2", "2:12-2:17 3", "2:18-2:22 2", "5:19-5:24 3", "5:25-5:29 2",
      ])
    let prepared = try client.request("textDocument/prepareRename", Self.at(at))
    #expect(prepared == ["range": range(2, 2, 2, 6), "placeholder": "rate"])
    let renamed = try client.request("textDocument/rename", Self.rename(at, to: "price"))
    #expect(
      compact(edits: try edits(of: renamed, uri: Self.uri))
        == [
          "1:10-1:14", "2:2-2:6", "2:7-2:11", "2:13-2:17", "2:18-2:22", "5:20-5:24", "5:25-5:29",
        ].map { "\($0) → \"price\"" })
    let symbols = try client.request("textDocument/documentSymbol", ["textDocument": textDocument(Self.uri)])
    #expect(
      Self.describe(symbols: symbols) == [
        "rate 13 6.28318530717959 1:9-1:14 1:10-1:14", "n 13 10 1:18-1:20 1:19-1:20",
        "rate 13 6.28318530717959 2:12-2:17 2:13-2:17", "é 13 62.8318530717959 3:2-3:4 3:3-3:4",
        "later 13 62.8318530717959 4:6-4:12 4:7-4:12",
      ])
    try client.finish()
  }

  // MARK: Params

  /// the lifecycle and error rules of the README for every method of the README's table of server features added here: a document that is not open, a position
  /// that is not a non-negative integer and a reversed range are `-32602`, naming what is wrong.
  @Test func badParamsAndClosedDocuments() throws {
    let client = try LSPClient.started()
    client.open(Self.uri, Self.source.text)
    let good = position(1, 2)
    let bad: JSONValue = ["line": -1, "character": 0]
    let reversed = range(2, 0, 1, 0)
    let positionMethods: [(method: String, extra: [(key: String, value: JSONValue)])] = [
      ("textDocument/definition", []), ("textDocument/references", [("context", ["includeDeclaration": true])]),
      ("textDocument/documentHighlight", []), ("textDocument/prepareRename", []),
      ("textDocument/rename", [("newName", "fine")]),
    ]
    for (method, extra) in positionMethods {
      let closed = try client.requestError(
        method, .object([("textDocument", textDocument("file:///closed.rpn")), ("position", good)] + extra))
      #expect(closed.code == -32602, "\(method)")
      #expect(closed.message.contains("file:///closed.rpn"), "\(method): \(closed.message)")
      let badPosition = try client.requestError(
        method, .object([("textDocument", textDocument(Self.uri)), ("position", bad)] + extra))
      #expect(badPosition.code == -32602, "\(method)")
    }
    let rangeMethods: [(method: String, extra: [(key: String, value: JSONValue)])] = [
      ("textDocument/semanticTokens/range", []), ("textDocument/codeAction", [("context", ["diagnostics": []])]),
      ("textDocument/rangeFormatting", [("options", ["tabSize": 2, "insertSpaces": true])]),
    ]
    for (method, extra) in rangeMethods {
      let closed = try client.requestError(
        method, .object([("textDocument", textDocument("file:///closed.rpn")), ("range", range(0, 0, 1, 0))] + extra))
      #expect(closed.code == -32602, "\(method)")
      #expect(closed.message.contains("file:///closed.rpn"), "\(method): \(closed.message)")
      let backwards = try client.requestError(
        method, .object([("textDocument", textDocument(Self.uri)), ("range", reversed)] + extra))
      #expect(backwards.code == -32602, "\(method)")
    }
    for method in ["textDocument/documentSymbol", "textDocument/semanticTokens/full", "textDocument/formatting"] {
      let closed = try client.requestError(
        method, ["textDocument": textDocument("file:///closed.rpn"), "options": ["tabSize": 2, "insertSpaces": true]])
      #expect(closed.code == -32602, "\(method)")
      #expect(closed.message.contains("file:///closed.rpn"), "\(method): \(closed.message)")
    }
    let noName = try client.requestError(
      "textDocument/rename", ["textDocument": textDocument(Self.uri), "position": good, "newName": 5])
    #expect(noName.code == -32602)
    try client.finish()
  }

  // MARK: Capabilities

  @Test func theFeaturesAreAdvertised() throws {
    let (client, result) = try LSPClient.started(
      encoding: "utf-16",
      capabilities: [
        (
          "textDocument",
          [
            "rename": ["prepareSupport": true],
            "codeAction": ["codeActionLiteralSupport": ["codeActionKind": ["valueSet": ["quickfix"]]]],
          ]
        )
      ])
    let capabilities = result["capabilities"] ?? .null
    #expect(capabilities["definitionProvider"] == true)
    #expect(capabilities["referencesProvider"] == true)
    #expect(capabilities["documentHighlightProvider"] == true)
    #expect(capabilities["renameProvider"]?["prepareProvider"] == true)
    #expect(capabilities["documentSymbolProvider"] == true)
    #expect(capabilities["semanticTokensProvider"]?["full"] == true)
    #expect(capabilities["semanticTokensProvider"]?["range"] == true)
    #expect(capabilities["codeActionProvider"]?["codeActionKinds"]?.arrayValue?.contains("quickfix") == true)
    #expect(capabilities["documentFormattingProvider"] == true)
    #expect(capabilities["documentRangeFormattingProvider"] == true)
    try client.finish()
  }
}

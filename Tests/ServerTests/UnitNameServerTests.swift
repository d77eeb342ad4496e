import JSONRPC
import TestSupport
import Testing

/// Units a tape defines, as symbols, over the real binary's pipes in both position encodings:
/// definition, references, highlights, rename (and its refusals), document symbols (kind
/// Constant), the inlay hint after a unit's `;`, hover, semantic tokens, completion of the tape's
/// own units after `_` and of the currencies a rate links after `>`, and "Convert to …" with
/// them. `€` is 3 UTF-8 bytes and 1 UTF-16 unit: columns after it differ between the encodings.
@Suite struct UnitNameServerTests {
  static let uri = "file:///units.rpn"
  static let source = Marked(
    """
    : _pace 0.75_m ;
    120_pa1️⃣ce >m =90_m
    : _€ 1.08_USD ;
    5_€2️⃣ 3_E3️⃣UR + >USD
    12_pa4️⃣ce/h
    : _pace 0.8_m ;
    10_p5️⃣ace >pace =8_m
    : _b6️⃣ox ; 3_box >m7️⃣

    """)

  /// `TextDocumentPositionParams` in the tape.
  static func here(_ position: JSONValue) -> JSONValue { at(uri, position) }

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

  /// On a use: the definition in force there (the second `_pace` below it); on a definition's
  /// name: itself; `€` and `EUR` are one currency; a unit of the table: null.
  @Test(arguments: encodings)
  func definitionIsTheDefinitionInForce(encoding: String) throws {
    let client = try Self.started(encoding)
    let euro = span(encoding, 2, (2, 6), (2, 4))
    let cases: [(what: String, at: JSONValue, expected: String)] = [
      ("120_pace", Self.source.at(1, encoding), "0:2-0:7"),
      ("12_pace/h", Self.source.at(4, encoding), "0:2-0:7"),
      ("10_pace, below the second definition", Self.source.at(5, encoding), "5:2-5:7"),
      ("5_€", Self.source.at(2, encoding), euro),
      ("3_EUR", Self.source.at(3, encoding), euro),
      ("the definition's own name", position(0, 4), "0:2-0:7"),
      ("_box", Self.source.at(6, encoding), "7:2-7:6"),
      (">m, a unit of the table", Self.source.at(7, encoding), "null"),
      ("0.75_m in the body", position(0, 12), "null"),
    ]
    for (what, at, expected) in cases {
      let result = try client.request("textDocument/definition", Self.here(at))
      #expect(compact(location: result, uri: Self.uri) == expected, "\(what)")
    }
    try client.finish()
  }

  /// Every definition and use, the unit inside compound units, conversions and checks included;
  /// without the definitions when `includeDeclaration` is false. Highlights: definitions Write.
  @Test(arguments: encodings)
  func referencesAndHighlights(encoding: String) throws {
    let client = try Self.started(encoding)
    let pace = ["0:2-0:7", "1:0-1:8", "4:0-4:9", "5:2-5:7", "6:0-6:7", "6:8-6:13"]
    let definitions: Set = ["0:2-0:7", "5:2-5:7"]
    for include in [true, false] {
      let params = Self.here(Self.source.at(1, encoding))
        .adding("context", JSONValue.object([("includeDeclaration", .bool(include))]))
      let result = try client.request("textDocument/references", params)
      #expect(
        compact(locations: result, uri: Self.uri) == pace.filter { include || !definitions.contains($0) },
        "includeDeclaration \(include)")
    }
    let euro = try client.request(
      "textDocument/references",
      Self.here(Self.source.at(3, encoding)).adding("context", ["includeDeclaration": true]))
    #expect(
      compact(locations: euro, uri: Self.uri) == [
        span(encoding, 2, (2, 6), (2, 4)), span(encoding, 3, (0, 5), (0, 3)), span(encoding, 3, (6, 11), (4, 9)),
      ])
    let highlights = try client.request("textDocument/documentHighlight", Self.here(position(4, 4)))
    let kinds = sortedByStart(highlights.arrayValue ?? []).map {
      "\(compact(range: $0["range"])) \($0["kind"]?.intValue ?? 0)"
    }
    #expect(kinds == pace.map { "\($0) \(definitions.contains($0) ? 3 : 2)" })
    try client.finish()
  }

  /// A unit of the tape's own is renamed everywhere its name is written (its `_` given or not),
  /// and the tape means what it meant; a currency, a name of the table, a name the tape uses and a
  /// compound are refused, each saying why.
  @Test(arguments: encodings)
  func renameATapesOwnUnit(encoding: String) throws {
    let client = try Self.started(encoding)
    let prepared = try client.request("textDocument/prepareRename", Self.here(Self.source.at(4, encoding)))
    #expect(compact(range: prepared["range"]) == "4:3-4:7")
    #expect(prepared["placeholder"] == "pace")
    let onEuro = try client.request("textDocument/prepareRename", Self.here(Self.source.at(2, encoding)))
    #expect(onEuro == .null)
    let before = try client.publishedDiagnostics(Self.uri).diagnostics
    let edit = try client.request(
      "textDocument/rename", Self.here(Self.source.at(1, encoding)).adding("newName", "_stride"))
    let renamed = try applying(edits(of: edit, uri: Self.uri), to: Self.source.text, encoding: encoding)
    #expect(
      renamed == """
        : _stride 0.75_m ;
        120_stride >m =90_m
        : _€ 1.08_USD ;
        5_€ 3_EUR + >USD
        12_stride/h
        : _stride 0.8_m ;
        10_stride >stride =8_m
        : _box ; 3_box >m

        """)
    client.open("file:///renamed.rpn", renamed)
    let after = try client.publishedDiagnostics("file:///renamed.rpn").diagnostics
    #expect(after.map { $0["code"] } == before.map { $0["code"] })
    let refusals: [(newName: String, at: Int, message: String)] = [
      ("km", 1, "`km` is a unit of the table; a unit of the tape's own needs a name the table does not have"),
      ("mi", 1, "`mi` is a unit of the table (mile); a unit of the tape's own needs a name the table does not have"),
      ("box", 1, "`box` is already a unit in this document; renaming `pace` to it would merge the two"),
      ("pace/h", 1, "`pace/h` is not one unit's name: write one name of letters, with no power, `*`, `/` or space"),
      (
        "stride", 3,
        "`EUR` is a currency of the table (ISO 4217), which a tape cannot rename; only a unit the tape defines itself can be renamed"
      ),
    ]
    for refusal in refusals {
      let error = try client.requestError(
        "textDocument/rename",
        Self.here(Self.source.at(refusal.at, encoding)).adding("newName", .string(refusal.newName)))
      #expect(error.code == -32803)
      #expect(error.message == refusal.message)
    }
    try client.finish()
  }

  /// Document symbols: each unit's definition a Constant named `_name`, detail what one of it
  /// is; the inlay hint after its `;` says the same (a rate's decimals as written, not the
  /// currency's minor units).
  @Test func symbolsAndHints() throws {
    let client = try Self.started("utf-16")
    let symbols = try client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(Self.uri)]])
    #expect(
      (symbols.arrayValue ?? []).map {
        "\($0["name"]?.stringValue ?? "?") \($0["kind"]?.intValue ?? 0) \($0["detail"]?.stringValue ?? "?") "
          + compact(range: $0["range"]) + " " + compact(range: $0["selectionRange"])
      } == [
        "_pace 14 0.75_m 0:0-0:16 0:2-0:7", "_EUR 14 1.08_USD 2:0-2:15 2:2-2:4", "_pace 14 0.8_m 5:0-5:15 5:2-5:7",
        "_box 14 new dimension 7:0-7:8 7:2-7:6",
      ])
    client.open("file:///rate.rpn", ": _JPY 0.0062_EUR ;\n")
    let hints = try client.allInlayHints(Self.uri)
    #expect(
      compact(hints: hints).filter { !$0.contains("[") } == [
        "0:16 = 0.75_m", "2:15 = 1.08_USD", "5:15 = 0.8_m", "7:8 new dimension",
      ])
    #expect(hints.arrayValue?.first?["tooltip"] == "1 pace = 0.75 m")
    #expect(compact(hints: try client.allInlayHints("file:///rate.rpn")) == ["0:19 = 0.0062_EUR", "0:19 []"])
    try client.finish()
  }

  /// Hover on a unit's definition and on a quantity in the tape's own unit.
  @Test func hover() throws {
    let client = try LSPClient.started(capabilities: ["textDocument": ["hover": ["contentFormat": ["markdown"]]]])
    client.open(Self.uri, Self.source.text)
    func first(_ at: JSONValue) throws -> String {
      let value = try client.hover(Self.uri, at)["contents"]?["value"]?.stringValue ?? ""
      return String(value.split(separator: "\n").first ?? "")
    }
    #expect(try first(position(0, 3)) == "unit `pace` (the tape's own), defined on line 1: `1 pace = 0.75 m`")
    #expect(try first(position(2, 3)) == "currency `EUR` (euro), defined on line 3: `1 EUR = 1.08 USD`")
    #expect(try first(position(7, 3)) == "unit `box` (the tape's own), defined on line 8: a dimension of its own")
    #expect(try first(Self.source.utf16(1)) == "quantity `120_pace`: pace, a quantity in pace  ")
    let body = try client.hover(Self.uri, position(0, 10))["contents"]?["value"]?.stringValue ?? ""
    #expect(body.hasSuffix("In the definition of the unit `pace`: it runs once, here"))
    try client.finish()
  }

  /// A quantity in a unit of the tape's own: its number `number`, its unit `type` without
  /// `defaultLibrary`; the unit a definition defines `type` + `declaration`.
  @Test func semanticTokens() throws {
    let (client, initializeResult) = try LSPClient.started(encoding: "utf-16")
    client.open(Self.uri, Self.source.text)
    let result = try client.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(Self.uri)]])
    let data = result["data"]?.arrayValue?.compactMap(\.intValue) ?? []
    var rows: [String] = []
    var (line, column) = (0, 0)
    for k in stride(from: 0, to: data.count - 4, by: 5) {
      if data[k] > 0 { column = 0 }
      line += data[k]
      column += data[k + 1]
      rows.append("\(line):\(column)+\(data[k + 2]) \(data[k + 3])/\(data[k + 4])")
    }
    // Types by the legend; modifiers: declaration 1, defaultLibrary 4. (`:` and `;` are keywords, 5.)
    let types = try SemanticTokenTests.legend(initializeResult).types
    let number = types.firstIndex(of: "number") ?? -1
    let type = types.firstIndex(of: "type") ?? -1
    #expect(
      rows.filter { $0.hasPrefix("0:") || $0.hasPrefix("1:") }.prefix(8) == [
        "0:0+1 5/0", "0:2+5 \(type)/1", "0:8+4 \(number)/0", "0:13+1 \(type)/4", "0:15+1 5/0",
        "1:0+3 \(number)/0", "1:4+4 \(type)/0", "1:9+2 \(type)/4",
      ])
    try client.finish()
  }

  /// Completion: after `_`, the tape's own units defined above come first; after `>` on an
  /// amount, the currencies a rate links it to. "Convert to …" offers them too.
  @Test func completionAndConversions() throws {
    let client = try LSPClient.started()
    let text = Self.source.text + "3_\n5_€ >\n"
    client.open(Self.uri, text)
    let afterUnderscore = try client.completion(Self.uri, position(8, 2))
    #expect(
      (afterUnderscore["items"]?.arrayValue ?? []).prefix(3).compactMap { $0["label"]?.stringValue } == [
        "box", "pace", "m",
      ])
    #expect(
      afterUnderscore["items"]?.arrayValue?[1]["detail"] == "a unit of the tape's own: 1 pace = 0.8 m")
    let afterMark = try client.completion(Self.uri, position(9, 5))
    #expect((afterMark["items"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue } == ["USD"])
    let actions = try client.request(
      "textDocument/codeAction",
      [
        "textDocument": ["uri": .string(Self.uri)], "range": ["start": position(3, 1), "end": position(3, 1)],
        "context": ["diagnostics": []],
      ])
    #expect(
      (actions.arrayValue ?? []).compactMap { $0["title"]?.stringValue }.filter { $0.hasPrefix("Convert") } == [
        "Convert to USD (United States dollar)"
      ])
    try client.finish()
  }
}

extension JSONValue {
  /// An object with one more member.
  fileprivate func adding(_ key: String, _ value: JSONValue) -> JSONValue {
    guard case .object(let members) = self else { return self }
    return .object(members + [(key, value)])
  }
}

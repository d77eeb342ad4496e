// Sections end to end: code lenses, heading hints, folding, selection ranges, symbols, `subtotal` in completion.
import JSONRPC
import TestSupport
import Testing

/// Sections (`## title` headings, summaries, `subtotal`) in every feature of the server that
/// shows them, end to end over the built binary's pipes, in both position encodings: code
/// lenses, the heading's inlay hint, folding ranges, selection ranges, document symbols
/// (hierarchical and flat), workspace symbols, completion, semantic tokens and hover. Titles and
/// comments hold `é` and `☂` before the positions, so that UTF-8 and UTF-16 columns differ.
@Suite(.overPipes) struct SectionTests {
  static let uri = "file:///b-sections.rpn"
  /// A store before any heading; a section with a store; an empty one right before another
  /// (headings back to back); one with a word, `subtotal` and a store; an untitled one, indented.
  static let lines = [
    "1 2 + =top",  // [3]
    "## Café ☂",  // base 1
    "12.5 =lunch",  // [3 12.5]
    "8 # é",  // [3 12.5 8]
    "## Empty",  // base 3, no line of its own
    "## é Groceries",  // base 3
    ": dbl 2 * ; 3 dbl 4  5",  // [3 12.5 8 6 4 5]
    "subtotal =total",  // [3 12.5 8 15]
    "  ##",  // base 4
    "1 3 /",  // [3 12.5 8 15 0.333…]
  ]
  static let text = lines.joined(separator: "\n") + "\n"

  static func started(
    _ encoding: String, _ capabilities: [(key: String, value: JSONValue)] = [], initializationOptions: JSONValue? = nil
  ) throws -> LSPClient {
    let client = try LSPClient.started(
      encoding: encoding, capabilities: capabilities, initializationOptions: initializationOptions
    ).client
    client.open(uri, text)
    return client
  }

  // MARK: Code lenses

  /// A lens as `range title`, with a command other than the empty one spelled out.
  static func describe(lens: JSONValue) -> String {
    let command = lens["command"]
    let title = command?["title"]?.stringValue ?? "no title"
    let id = command?["command"] == "" ? "" : " command=\(command.map { JSONWriter.string($0) } ?? "none")"
    return "\(compact(range: lens["range"])) \(title)\(id)"
  }

  static func lenses(_ client: LSPClient, uri: String = uri) throws -> [String] {
    let result = try client.request("textDocument/codeLens", ["textDocument": textDocument(uri)])
    return (result.arrayValue ?? [result]).map { describe(lens: $0) }
  }

  /// One lens per heading, from its first `#` to the end of its line, titled with the summary of
  /// the values above the section's base at its last line; `no values` for a section that has
  /// none (one with only its heading, right before another heading).
  @Test(arguments: encodings)
  func codeLensesShowEachSectionsSummary(encoding: String) throws {
    let client = try Self.started(encoding)
    #expect(
      try Self.lenses(client) == [
        "\(span(encoding, 1, (0, 12), (0, 9))) Σ 20.5 · 2 values · avg 10.25",
        "4:0-4:8 no values",
        "\(span(encoding, 5, (0, 15), (0, 14))) Σ 15 · 1 value · avg 15",
        "8:2-8:4 Σ 0.333333333333333 · 1 value · avg 0.333333333333333",
      ])
    try client.finish()
  }

  /// The capability, and numbers at the display precision.
  @Test func codeLensesShowNumbersAtTheDisplayPrecision() throws {
    let (client, result) = try LSPClient.started(
      encoding: "utf-16", initializationOptions: ["rpn": ["precision": 4]])
    #expect(result["capabilities"]?["codeLensProvider"] == ["resolveProvider": false])
    client.open(Self.uri, Self.text)
    #expect(try Self.lenses(client).last == "8:2-8:4 Σ 0.3333 · 1 value · avg 0.3333")
    try client.finish()
  }

  /// Headings back to back, untitled ones and a document of headings only; a document without
  /// any has no lens.
  @Test func headingsBackToBackHaveNoValues() throws {
    let client = try LSPClient.started()
    client.open("file:///h.rpn", "##\n### Deep\n##\t\n")
    #expect(
      try Self.lenses(client, uri: "file:///h.rpn") == ["0:0-0:2 no values", "1:0-1:8 no values", "2:0-2:3 no values"])
    client.open("file:///none.rpn", "1 2 +\n# # not a heading\n")
    #expect(try Self.lenses(client, uri: "file:///none.rpn") == [])
    try client.finish()
  }

  /// A tape of 100,000 headings: as many lenses (no time asked, only that it works).
  @Test func aHundredThousandHeadingsHaveAsManyLenses() throws {
    let client = try LSPClient.started()
    let count = 100_000
    client.open(
      "file:///many.rpn",
      String(repeating: "## h\n1\n", count: count / 2) + String(repeating: "## h\n", count: count / 2))
    let result = try client.request(
      "textDocument/codeLens", ["textDocument": textDocument("file:///many.rpn")], timeout: LSPClient.slowTimeout)
    let lenses = result.arrayValue ?? []
    #expect(lenses.count == count)
    #expect(lenses.first.map { Self.describe(lens: $0) } == "0:0-0:4 Σ 1 · 1 value · avg 1")
    #expect(
      lenses.last.map { Self.describe(lens: $0) } == "\(count + count / 2 - 1):0-\(count + count / 2 - 1):4 no values")
    try client.finish()
  }

  // MARK: Inlay hints

  static let hintLines = ["## Café ☂", "1 2", "## Next", "# é", ""]

  /// At the end of each heading's line, its section's summary, beside the stack hints; none
  /// with `inlayHints.sections` false (nested or dotted, at start or changed later), none at all
  /// with `inlayHints.enabled` false. A range that touches the heading's line gets it.
  @Test(arguments: encodings)
  func headingsEndWithTheirSummary(encoding: String) throws {
    let uri = "file:///hints.rpn"
    let client = try LSPClient.started(encoding: encoding).client
    client.open(uri, Self.hintLines.joined(separator: "\n"))
    let heading = "\(pick(encoding, "0:12", "0:9")) Σ 3 · 2 values · avg 1.5"
    let all = [heading, "1:3 [1 2]", "2:7 no values"]
    #expect(compact(hints: try client.allInlayHints(uri)) == all)
    // Every hint of each line the range touches; a range ending at a line's start leaves that line out.
    #expect(compact(hints: try client.inlayHints(uri, range(0, 0, 0, 5))) == [heading])
    #expect(compact(hints: try client.inlayHints(uri, range(0, 0, 1, 0))) == [heading])
    #expect(compact(hints: try client.inlayHints(uri, range(0, 3, 1, 1))) == [heading, "1:3 [1 2]"])
    #expect(compact(hints: try client.inlayHints(uri, range(2, 0, 2, 7))) == ["2:7 no values"])
    SettingsTests.configure(client, ["rpn": ["inlayHints": ["sections": false]]])
    #expect(compact(hints: try client.allInlayHints(uri)) == ["1:3 [1 2]"])
    SettingsTests.configure(client, ["rpn": ["inlayHints": ["sections": "no"]]])  // Ill-typed: ignored.
    #expect(compact(hints: try client.allInlayHints(uri)) == ["1:3 [1 2]"])
    SettingsTests.configure(client, ["inlayHints.sections": true])
    #expect(compact(hints: try client.allInlayHints(uri)) == all)
    SettingsTests.configure(client, ["rpn": ["inlayHints": ["enabled": false]]])
    #expect(compact(hints: try client.allInlayHints(uri)) == [])
    try client.finish()

    let off = try LSPClient.started(initializationOptions: ["rpn": ["inlayHints.sections": false]])
    off.open(uri, Self.hintLines.joined(separator: "\n"))
    #expect(compact(hints: try off.allInlayHints(uri)) == ["1:3 [1 2]"])
    try off.finish()
  }

  /// The hint follows edits: a value typed into the section changes its summary.
  @Test func aHeadingsHintFollowsEdits() throws {
    let uri = "file:///follow.rpn"
    let client = try LSPClient.started()
    client.open(uri, "## A\n1 2\n")
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:4 Σ 3 · 2 values · avg 1.5", "1:3 [1 2]"])
    client.change(uri, version: 2, [edit(range(1, 3, 1, 3), " 3")])
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:4 Σ 6 · 3 values · avg 2", "1:5 [1 2 3]"])
    client.change(uri, version: 3, [edit(range(0, 0, 0, 1), "")])  // "# A": no longer a heading.
    #expect(compact(hints: try client.allInlayHints(uri)) == ["1:5 [1 2 3]"])
    try client.finish()
  }

  // MARK: Folding ranges

  /// Each section of two lines or more, heading to last line (`region`); each run of three or
  /// more comment lines (`comment`), headings not counted; by first line. Whole lines only.
  @Test func foldingRangesAreSectionsAndRunsOfComments() throws {
    let client = try LSPClient.started(capabilities: ["textDocument": ["foldingRange": ["lineFoldingOnly": true]]])
    let uri = "file:///fold.rpn"
    client.open(
      uri,
      [
        "# a é", "  # b", "# c ☂",  // 0-2: a run of three
        "## One", "# x", "# y", "# z", "1",  // 3-8: a section, with a run of three inside
        "# only one",
        "## Two", "# p", "# q",  // 9-11: a section; a run of two
        "## Three",  // 12: one line, no fold
        "## Four", "2",  // 13-14
      ].joined(separator: "\n"))
    let folds = try client.request("textDocument/foldingRange", ["textDocument": textDocument(uri)])
    let compacted = (folds.arrayValue ?? []).map { fold -> String in
      let extra = fold["startCharacter"] != nil || fold["endCharacter"] != nil ? " with characters" : ""
      return "\(fold["startLine"]?.intValue ?? -1)-\(fold["endLine"]?.intValue ?? -1) "
        + "\(fold["kind"]?.stringValue ?? "no kind")\(extra)"
    }
    #expect(compacted == ["0-2 comment", "3-8 region", "4-6 comment", "9-11 region", "13-14 region"])
    try client.finish()
  }

  // MARK: Selection ranges

  /// The chain of each position: token → the line's tokens → the section → the document, a level
  /// equal to the one inside it left out, and none that misses the position.
  @Test(arguments: encodings)
  func selectionRangesGrowFromTheTokenToTheDocument(encoding: String) throws {
    let source = Marked(
      [
        "1 2 5️⃣+ =top",
        "## Ca6️⃣fé ☂",
        "12.5 =lu1️⃣nch",
        "84️⃣ # é3️⃣",
        "## é Groceries",
        ": dbl 2 * ; 3 dbl 4 2️⃣ 5",
        "7️⃣",
      ].joined(separator: "\n"))
    let uri = "file:///select.rpn"
    let client = try LSPClient.started(encoding: encoding).client
    client.open(uri, source.text)
    let markers = [1, 2, 3, 4, 5, 6, 7]
    let result = try client.request(
      "textDocument/selectionRange",
      ["textDocument": textDocument(uri), "positions": .array(markers.map { source.at($0, encoding) })])
    let chains = (result.arrayValue ?? []).map { range -> [String] in
      var chain: [String] = []
      var next: JSONValue? = range
      while let level = next {
        chain.append(compact(range: level["range"]))
        next = level["parent"]
      }
      return chain
    }
    let cafe = pick(encoding, "1:0-3:6", "1:0-3:5")
    let groceries = "4:0-5:22"  // to its last line with text: a blank line at its end is left out
    let document = "0:0-6:0"
    #expect(
      chains == [
        ["2:5-2:11", "2:0-2:11", cafe, document],  // On `=lunch`.
        ["5:0-5:22", groceries, document],  // Between two tokens.
        [cafe, document],  // In a comment after the line's tokens.
        ["3:0-3:1", cafe, document],  // On a line's only token.
        ["0:4-0:5", "0:0-0:10", document],  // Before any heading.
        [cafe, document],  // In a heading.
        [groceries, document],  // On the empty last line.
      ])
    try client.finish()
  }

  // MARK: Symbols

  /// A `DocumentSymbol` as `name kind (detail) range sel selectionRange`, its children indented
  /// below it.
  static func describe(symbol: JSONValue, indent: String = "") -> [String] {
    let name = symbol["name"]?.stringValue ?? "no name"
    let kind = symbol["kind"]?.intValue.map(String.init) ?? "no kind"
    let detail = symbol["detail"]?.stringValue ?? "no detail"
    let line =
      "\(indent)\(name) \(kind) (\(detail)) \(compact(range: symbol["range"])) "
      + "sel \(compact(range: symbol["selectionRange"]))"
    return [line] + (symbol["children"]?.arrayValue ?? []).flatMap { describe(symbol: $0, indent: indent + "  ") }
  }

  /// A `SymbolInformation` as `name kind range in container`, the URI spelled out when not `uri`.
  static func describe(information: JSONValue, uri: String = uri) -> String {
    let name = information["name"]?.stringValue ?? "no name"
    let kind = information["kind"]?.intValue.map(String.init) ?? "no kind"
    let container = information["containerName"]?.stringValue.map { " in \($0)" } ?? ""
    return "\(name) \(kind) \(compact(location: information["location"] ?? .null, uri: uri))\(container)"
  }

  /// Sections (Namespace, 3) named by their titles (an untitled one by its `#`s), their summary
  /// as detail, from the heading's start to the end of their last line, selecting the title;
  /// they hold the stores (Variable, 13) and words (Function, 12) defined in them. A store
  /// before the first heading stays at the top.
  @Test(arguments: encodings)
  func documentSymbolsAreSectionsHoldingTheirDefinitions(encoding: String) throws {
    let client = try Self.started(
      encoding, [("textDocument", ["documentSymbol": ["hierarchicalDocumentSymbolSupport": true]])])
    let result = try client.request("textDocument/documentSymbol", ["textDocument": textDocument(Self.uri)])
    #expect(
      (result.arrayValue ?? []).flatMap { Self.describe(symbol: $0) } == [
        "top 13 (3) 0:6-0:10 sel 0:7-0:10",
        "Café ☂ 3 (Σ 20.5 · 2 values · avg 10.25) \(pick(encoding, "1:0-3:6 sel 1:3-1:12", "1:0-3:5 sel 1:3-1:9"))",
        "  lunch 13 (12.5) 2:5-2:11 sel 2:6-2:11",
        "Empty 3 (no values) 4:0-4:8 sel 4:3-4:8",
        "é Groceries 3 (Σ 15 · 1 value · avg 15) \(pick(encoding, "5:0-7:15 sel 5:3-5:15", "5:0-7:15 sel 5:3-5:14"))",
        "  dbl 12 (( a -- r )) 6:0-6:11 sel 6:2-6:5",
        "  total 13 (15) 7:9-7:15 sel 7:10-7:15",
        "## 3 (Σ 0.333333333333333 · 1 value · avg 0.333333333333333) 8:0-9:5 sel 8:2-8:4",
      ])
    try client.finish()
  }

  /// Without hierarchical symbols: the flat list in document order, each definition in a section
  /// with the section's name as its container.
  @Test(arguments: encodings)
  func flatDocumentSymbolsNameTheirSection(encoding: String) throws {
    let client = try Self.started(encoding)
    let result = try client.request("textDocument/documentSymbol", ["textDocument": textDocument(Self.uri)])
    #expect(
      (result.arrayValue ?? []).map { Self.describe(information: $0) } == [
        "top = 3 13 0:6-0:10",
        "Café ☂ 3 \(pick(encoding, "1:0-3:6", "1:0-3:5"))",
        "lunch = 12.5 13 2:5-2:11 in Café ☂",
        "Empty 3 4:0-4:8",
        "é Groceries 3 5:0-7:15",
        "dbl ( a -- r ) 12 6:0-6:11 in é Groceries",
        "total = 15 13 7:9-7:15 in é Groceries",
        "## 3 8:0-9:5",
      ])
    try client.finish()
  }

  /// Stores, words and headings of every open document whose names hold the query's characters
  /// in order, ignoring case; by document, then position; each in its section.
  @Test(arguments: encodings)
  func workspaceSymbolsMatchTheQueryAcrossDocuments(encoding: String) throws {
    let (client, result) = try LSPClient.started(encoding: encoding)
    #expect(result["capabilities"]?["workspaceSymbolProvider"] == true)
    let other = "file:///a-other.rpn"
    client.open(other, "## Groceries\n3 =apples\n: gross 1.2 * ;\n")
    client.open(Self.uri, Self.text)
    func symbols(_ query: String) throws -> [String] {
      let found = try client.request("workspace/symbol", ["query": .string(query)])
      return (found.arrayValue ?? []).map { Self.describe(information: $0) }
    }
    let elsewhere = #" in "file:///a-other.rpn""#
    let groceries = "é Groceries 3 \(pick(encoding, "5:0-5:15", "5:0-5:14"))"
    let gro = try symbols("gro")
    #expect(
      gro == [
        "Groceries 3 0:0-0:12\(elsewhere)", "gross 12 2:0-2:15\(elsewhere) in Groceries",
        groceries,
      ])
    #expect(try symbols("GRO") == symbols("gro"))
    #expect(try symbols("É") == ["Café ☂ 3 \(pick(encoding, "1:0-1:12", "1:0-1:9"))", groceries])
    #expect(try symbols("ta") == ["total 13 7:9-7:15 in é Groceries"])
    #expect(try symbols("xyz") == [])
    let all = try symbols("")
    #expect(
      all == [
        "Groceries 3 0:0-0:12\(elsewhere)", "apples 13 1:2-1:9\(elsewhere) in Groceries",
        "gross 12 2:0-2:15\(elsewhere) in Groceries",
        "top 13 0:6-0:10", "Café ☂ 3 \(pick(encoding, "1:0-1:12", "1:0-1:9"))", "lunch 13 2:5-2:11 in Café ☂",
        "Empty 3 4:0-4:8", groceries, "dbl 12 6:0-6:11 in é Groceries", "total 13 7:9-7:15 in é Groceries",
        "## 3 8:2-8:4",
      ])
    client.close(other)
    #expect(try symbols("gro") == [groceries])
    #expect(try client.requestError("workspace/symbol", ["query": 3]).code == -32602)
    try client.finish()
  }

  // MARK: Bad requests

  /// Malformed parameters and documents that are not open get `-32602`; a position past the end
  /// of the document stands for its end.
  @Test func badParamsAreRefused() throws {
    let client = try LSPClient.started()
    client.open(Self.uri, Self.text)
    let closed: JSONValue = ["textDocument": textDocument("file:///closed.rpn")]
    for method in ["textDocument/codeLens", "textDocument/foldingRange", "textDocument/documentSymbol"] {
      #expect(try client.requestError(method, closed).code == -32602, "\(method)")
    }
    let document = textDocument(Self.uri)
    for positions: JSONValue in [.null, 3, [position(-1, 0)], [["line": 0]], ["line": 0, "character": 0]] {
      let params: JSONValue = ["textDocument": document, "positions": positions]
      #expect(try client.requestError("textDocument/selectionRange", params).code == -32602, "\(positions)")
    }
    #expect(try client.requestError("workspace/symbol", nil).code == -32602)
    let past = try client.request(
      "textDocument/selectionRange", ["textDocument": document, "positions": [position(99, 5)]])
    #expect(compact(range: past.arrayValue?.first?["range"]) == "8:0-9:5")
    #expect(compact(range: past.arrayValue?.first?["parent"]?["range"]) == "0:0-10:0")
    try client.finish()
  }

  // MARK: Completion, semantic tokens, hover

  /// `subtotal` sorts with what the stack can satisfy only where something was pushed in the
  /// section (the stack above the depth after its heading; above 0 before any heading), else
  /// after, saying why.
  @Test func subtotalIsSatisfiedOnlyAboveTheSectionsBase() throws {
    let source = Marked(["5️⃣7 4️⃣", "## A é", "1️⃣", "5 2️⃣", "## B", "3️⃣"].joined(separator: "\n"))
    let uri = "file:///complete.rpn"
    let client = try LSPClient.started(encoding: "utf-16").client
    client.open(uri, source.text)
    func subtotal(_ marker: Int) throws -> String {
      let items = try client.completion(uri, source.utf16(marker))["items"]?.arrayValue ?? []
      guard let item = items.first(where: { $0["label"] == "subtotal" }) else { return "missing" }
      return "\(item["sortText"]?.stringValue?.prefix(2) ?? "none") \(item["detail"]?.stringValue ?? "no detail")"
    }
    let satisfied = "0b ( s₁ … sₖ -- Σ )"
    let unsatisfied = "1b ( s₁ … sₖ -- Σ ) — nothing was pushed in this section"
    #expect(try subtotal(5) == unsatisfied)  // Nothing on the stack yet.
    #expect(try subtotal(4) == satisfied)  // Before any heading, the base is 0.
    #expect(try subtotal(1) == unsatisfied)  // Right after a heading.
    #expect(try subtotal(2) == satisfied)
    #expect(try subtotal(3) == unsatisfied)
    try client.finish()
  }

  /// A heading is a comment to semantic tokens; `subtotal` is a named function, and its hover
  /// says what it adds up.
  @Test func headingsAreCommentsAndSubtotalIsABuiltin() throws {
    let (client, result) = try LSPClient.started(encoding: "utf-16")
    let uri = "file:///tokens.rpn"
    client.open(uri, "## Café ☂\n1 2 subtotal\n")
    let legend = try SemanticTokenTests.legend(result)
    let tokens = SemanticTokenTests.decode(
      try client.request("textDocument/semanticTokens/full", ["textDocument": textDocument(uri)]), legend: legend)
    #expect(
      tokens.map(\.description) == [
        "0:0+9 comment []", "1:0+1 number []", "1:2+1 number []", "1:4+8 function [\"defaultLibrary\"]",
      ])
    let hover = try client.hover(uri, position(1, 6))
    #expect(hover["contents"]?["value"]?.stringValue?.contains("pushed since the current section's heading") == true)
    #expect(compact(range: hover["range"]) == "1:4-1:12")
    try client.finish()
  }
}

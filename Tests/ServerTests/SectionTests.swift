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
}

// `textDocument/selectionRange` with many positions: answered line by line, each position as if alone.
import JSONRPC
import TestSupport
import Testing

/// The server answers a request's positions line by line (one lexing of each line); each answer
/// must still be the chain of its own position, in the order asked, whatever the order, the
/// repeats, or the positions inside a character, past a line's end or past the last line.
@Suite(.overPipes) struct SelectionRangeTests {
  /// A line before any heading, a heading, then a line where UTF-8 and UTF-16 differ (`😀` is 4
  /// bytes and 2 units, `é` 2 bytes and 1 unit, `☂` 3 bytes and 1 unit), and the last line.
  static let lines = ["1", "## T", "1 😀é 22  + # ☂ x", "3 4"]

  /// Chains as `line:character-line:character` ranges, innermost first.
  static func chains(_ result: JSONValue) -> [[String]] {
    (result.arrayValue ?? []).map { range in
      var chain: [String] = []
      var next: JSONValue? = range
      while let level = next {
        chain.append(compact(range: level["range"]))
        next = level["parent"]
      }
      return chain
    }
  }

  @Test(arguments: encodings)
  func positionsOnOneLineAreAnsweredEachAsAlone(encoding: String) throws {
    let uri = "file:///selection-many.rpn"
    let client = try LSPClient.started(encoding: encoding).client
    client.open(uri, Self.lines.joined(separator: "\n"))
    // (line, UTF-8 column, UTF-16 column) of each position, in the order asked.
    let asked: [(Int, Int, Int)] = [
      (2, 21, 16),  // On the `x` of the comment.
      (2, 4, 3),  // Inside `😀` (between its surrogates in UTF-16): at its start.
      (2, 11, 8),  // Right after `22`.
      (2, 12, 9),  // Between `22` and `+`.
      (2, 0, 0),  // On the first token.
      (9, 0, 0),  // Past the last line: the end of the document, right after `4`.
      (2, 99, 99),  // Past the line's end: in the comment.
      (3, 1, 1),  // Right after `3`.
      (0, 1, 1),  // Before any heading.
      (2, 4, 3),  // Asked again.
      (2, 7, 4),  // Inside `é` in UTF-8; on it in UTF-16.
      (1, 2, 2),  // In the heading.
    ]
    let positions = asked.map { position($0.0, pick(encoding, $0.1, $0.2)) }
    let result = try client.request(
      "textDocument/selectionRange", ["textDocument": textDocument(uri), "positions": .array(positions)])
    let line = span(encoding, 2, (0, 14), (0, 11))
    let section = "1:0-3:3"
    let document = "0:0-3:3"
    let emoji = span(encoding, 2, (2, 8), (2, 5))
    #expect(
      Self.chains(result) == [
        [section, document],
        [emoji, line, section, document],
        [span(encoding, 2, (9, 11), (6, 8)), line, section, document],
        [line, section, document],
        ["2:0-2:1", line, section, document],
        ["3:2-3:3", "3:0-3:3", section, document],
        [section, document],
        ["3:0-3:1", "3:0-3:3", section, document],
        ["0:0-0:1", document],
        [emoji, line, section, document],
        [emoji, line, section, document],
        [section, document],
      ])
    try client.finish()
  }
}

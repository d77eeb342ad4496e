import JSONRPC
import TestSupport
import Testing

/// the README's table of server features `textDocument/formatting` and `rangeFormatting`: one space between tokens, one space
/// before a trailing comment, no leading or trailing whitespace (a whitespace-only line becomes
/// empty); comment text, blank lines, tokens and line endings kept. Lines already formatted get
/// no edit, and formatting is idempotent.
@Suite(.inProcess) struct FormattingTests {
  static let uri = "file:///messy.rpn"

  /// Each line: its text, its terminator, its formatted text (nil: already formatted), and its
  /// length in UTF-8 and UTF-16 (the end of the edit's range).
  static let lines: [(text: String, terminator: String, formatted: String?, utf8: Int, utf16: Int)] = [
    ("  1   2\t+  ", "\n", "1 2 +", 11, 11),
    ("# comment  kept   as is  ", "\r\n", "# comment  kept   as is", 25, 25),
    ("   ", "\r", "", 3, 3),
    ("", "\r\n", nil, 0, 0),
    ("3 =x    # total ×\u{A0} ", "\n", "3 =x # total ×", 21, 19),
    ("\u{A0}x\u{2028}x\u{3000}*\u{85}", "\r\n", "x x *", 13, 7),
    ("   # indented note", "\n", "# indented note", 18, 18),
    ("1 2 +", "\n", nil, 5, 5),
    ("😀  √   4", "\r", "😀 √ 4", 13, 9),
    ("\t\u{C}\u{B}", "\r\n", "", 3, 3),
    ("π\t#x", "\n", "π #x", 5, 4),
    ("1 # ok", "\r", nil, 6, 6),
    ("  π", "", "π", 4, 3),
  ]

  static let text = lines.map { $0.text + $0.terminator }.joined()
  static let formatted = lines.map { ($0.formatted ?? $0.text) + $0.terminator }.joined()

  static func expectedEdits(_ encoding: String, lines range: Range<Int>? = nil) -> [String] {
    lines.enumerated().compactMap { index, line in
      guard let formatted = line.formatted, range?.contains(index) ?? true else { return nil }
      return "\(index):0-\(index):\(pick(encoding, line.utf8, line.utf16)) → \(formatted.debugDescription)"
    }
  }

  static let options: JSONValue = ["tabSize": 2, "insertSpaces": true]

  static func formatting(_ client: LSPClient, _ uri: String = uri) throws -> [JSONValue] {
    let result = try client.request("textDocument/formatting", ["textDocument": textDocument(uri), "options": options])
    return result == .null ? [] : result.arrayValue ?? [result]
  }

  static func rangeFormatting(_ client: LSPClient, _ range: JSONValue, _ uri: String = uri) throws -> [JSONValue] {
    let result = try client.request(
      "textDocument/rangeFormatting", ["textDocument": textDocument(uri), "range": range, "options": options])
    return result == .null ? [] : result.arrayValue ?? [result]
  }

  /// One edit per line that changes, replacing that line's text (never its line break); applied,
  /// they give the formatted document, whose formatting is no edit at all. Also end to end, over
  /// the built binary's pipes.
  @Test(.overPipes, arguments: encodings)
  func formatting(encoding: String) throws {
    let (client, _) = try LSPClient.started(encoding: encoding)
    client.open(Self.uri, Self.text)
    let edits = try Self.formatting(client)
    #expect(compact(edits: edits) == Self.expectedEdits(encoding))
    let result = try applying(edits, to: Self.text, encoding: encoding)
    #expect(result == Self.formatted)
    #expect(Array(result.utf8) == Array(Self.formatted.utf8))
    // The same stacks and diagnostics (the tokens are the same).
    let hints = compact(hints: try client.allInlayHints(Self.uri)).map { $0.components(separatedBy: " ").dropFirst() }
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics.compactMap { $0["message"]?.stringValue }
    client.change(Self.uri, version: 2, [["text": .string(result)]])
    #expect(try Self.formatting(client) == [])
    #expect(try Self.rangeFormatting(client, range(0, 0, 99, 0)) == [])
    #expect(
      compact(hints: try client.allInlayHints(Self.uri)).map { $0.components(separatedBy: " ").dropFirst() } == hints)
    #expect(
      try client.publishedDiagnostics(Self.uri).diagnostics.compactMap { $0["message"]?.stringValue } == diagnostics)
    try client.finish()
  }

  /// Only the lines the range touches get edits, however far into them it starts or ends. Also
  /// end to end, over the built binary's pipes.
  @Test(.overPipes, arguments: encodings)
  func rangeFormatting(encoding: String) throws {
    let (client, _) = try LSPClient.started(encoding: encoding)
    client.open(Self.uri, Self.text)
    let cases: [(range: JSONValue, lines: Range<Int>)] = [
      (range(4, 3, 5, 2), 4..<6),
      (range(8, pick(encoding, 5, 3), 9, 1), 8..<10),
      (range(7, 0, 7, 5), 7..<8),
      (range(3, 0, 3, 0), 3..<4),
      (range(0, 11, 2, 1), 0..<3),
      (range(10, 2, 40, 0), 10..<13),
      (range(0, 0, 12, 3), 0..<13),
    ]
    for (range, lines) in cases {
      let edits = try Self.rangeFormatting(client, range)
      #expect(compact(edits: edits) == Self.expectedEdits(encoding, lines: lines), "range \(compact(range: range))")
      // Applied, they format those lines and leave the others as they were.
      let result = try applying(edits, to: Self.text, encoding: encoding)
      let expected = Self.lines.enumerated().map { index, line in
        (lines.contains(index) ? line.formatted ?? line.text : line.text) + line.terminator
      }.joined()
      #expect(result == expected, "range \(compact(range: range))")
    }
    try client.finish()
  }

  /// LSP ranges end before their end position: a selection of whole lines, which ends at
  /// character 0 of the next line (as editors send it), does not touch that next line.
  @Test(arguments: encodings)
  func aRangeEndingAtTheStartOfALineLeavesThatLine(encoding: String) throws {
    let (client, _) = try LSPClient.started(encoding: encoding)
    client.open(Self.uri, Self.text)
    let wholeLine4 = compact(edits: try Self.rangeFormatting(client, range(4, 0, 5, 0)))
    #expect(wholeLine4 == Self.expectedEdits(encoding, lines: 4..<5))
    let wholeLine7 = compact(edits: try Self.rangeFormatting(client, range(7, 0, 8, 0)))
    #expect(wholeLine7 == [])
    try client.finish()
  }

  /// Formatting the formatted document, or a document without anything to format, gives no edit.
  @Test(arguments: [
    "", "\n", "1 2 +", "# only a comment", "1 2 + # sum\r\n\r\n=x x *\r", "😀 √ 4\n\n\n", "\u{2028}",
  ])
  func nothingToFormat(text: String) throws {
    let client = try LSPClient.started()
    client.open(Self.uri, text)
    if text == "\u{2028}" {
      // U+2028 is whitespace that ends no line: that line is whitespace-only, so it becomes empty.
      #expect(compact(edits: try Self.formatting(client)) == ["0:0-0:1 → \"\""])
    } else {
      #expect(try Self.formatting(client) == [])
    }
    try client.finish()
  }

  /// A whitespace-only line between a `\r` and a `\n` cannot become empty without its neighbours'
  /// line breaks joining into one `\r\n`: the formatted document must keep its lines (the stack
  /// labels and diagnostics belong to them).
  @Test(arguments: encodings)
  func formattingNeverJoinsLines(encoding: String) throws {
    let (client, _) = try LSPClient.started(encoding: encoding)
    let text = " 1\r \n2\n"
    client.open(Self.uri, text)
    let result = try applying(try Self.formatting(client), to: text, encoding: encoding)
    #expect(Self.lineBreaks(result) == ["\r", "\n", "\n"], "\(result.debugDescription)")
    let scalars = Array(result.unicodeScalars)
    #expect(scalars.first == "1" && scalars.count >= 2 && scalars[1] == "\r", "\(result.debugDescription)")
    #expect(scalars.suffix(3) == ["\n", "2", "\n"], "\(result.debugDescription)")
    try client.finish()
  }

  /// The line breaks of a text, in order.
  static func lineBreaks(_ text: String) -> [String] {
    var breaks: [String] = []
    let scalars = Array(text.unicodeScalars)
    var i = 0
    while i < scalars.count {
      if scalars[i] == "\r", i + 1 < scalars.count, scalars[i + 1] == "\n" {
        breaks.append("\r\n")
        i += 2
        continue
      }
      if scalars[i] == "\r" || scalars[i] == "\n" { breaks.append(String(scalars[i])) }
      i += 1
    }
    return breaks
  }
}

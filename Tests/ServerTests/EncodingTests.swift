import Foundation
import JSONRPC
import RPNEngine
import TestSupport
import Testing

/// the README's rules for documents and positions position encodings: the same document with emoji (😀 is 2 UTF-16 units, 4 UTF-8
/// bytes) and `×÷−√π` (1 unit, 2 or 3 bytes) in comments and tokens, in both encodings. Every
/// column below is counted by hand.
@Suite struct EncodingTests {
  static let uri = "file:///unicode.rpn"
  /// The markers are the hover positions of `hoverRanges`.
  static let source = Marked("# 😀 × ÷ − √ π\n😀3️⃣ 2 3 4️⃣× 4 1️⃣÷2️⃣ # 😀\n−9 5️⃣√ π6️⃣ × =é7️⃣\né8️⃣ 😀😀 9️⃣+\n")
  static let text = source.text

  static func started(_ encoding: String) throws -> LSPClient {
    let offered: [JSONValue] = encoding == "utf-8" ? ["utf-16", "utf-8"] : ["utf-16"]
    let client = try LSPClient.started(capabilities: ["general": ["positionEncodings": .array(offered)]])
    return client
  }

  /// Picks the UTF-8 or the UTF-16 spelling of an expectation.
  static func pick(_ encoding: String, utf8: String, utf16: String) -> String { encoding == "utf-8" ? utf8 : utf16 }

  /// A long line of failing checks among characters of every width: every position of the code
  /// actions over the whole line in UTF-16 is its UTF-8 position converted, whatever order the
  /// answer walks the line in (the converter counts on from the position before, or back).
  @Test func longLinePositionsMatchAcrossEncodings() throws {
    let line = "2" + (0..<400).map { ["  =1", " π drop", " 😀", " é =3", " 1 ×"][$0 % 5] }.joined()
    let text = "# 😀\n" + line + "\n1 =2 😀\n"
    var answers: [JSONValue] = []
    for encoding in ["utf-8", "utf-16"] {
      let client = try Self.started(encoding)
      client.open(Self.uri, text)
      let end = encoding == "utf-8" ? line.utf8.count : line.utf16.count
      answers.append(
        try client.request(
          "textDocument/codeAction",
          [
            "textDocument": ["uri": .string(Self.uri)],
            "range": ["start": ["line": 1, "character": 0], "end": ["line": 1, "character": JSONValue(end)]],
            "context": ["diagnostics": []],
          ]))
      try client.finish()
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    func converted(_ value: JSONValue) -> JSONValue {
      switch value {
      case .array(let elements): return .array(elements.map(converted))
      case .object(var members):
        if let line = value["line"]?.intValue, let column = value["character"]?.intValue, line < lines.count {
          let prefix = String(decoding: Array(lines[line].utf8).prefix(column), as: UTF8.self)
          members = members.map { $0.key == "character" ? ($0.key, JSONValue(prefix.utf16.count)) : $0 }
          return .object(members)
        }
        return .object(members.map { ($0.key, converted($0.value)) })
      default: return value
      }
    }
    #expect((answers[0].arrayValue?.count ?? 0) > 100)
    #expect(converted(answers[0]) == answers[1])
  }

  @Test(arguments: ["utf-8", "utf-16"])
  func diagnosticRanges(encoding: String) throws {
    let client = try Self.started(encoding)
    client.open(Self.uri, Self.text)
    let expected =
      encoding == "utf-8"
      ? ["1:0-1:4 error unknown-word", "2:5-2:8 warning domain-error", "3:3-3:11 error unknown-word"]
      : ["1:0-1:2 error unknown-word", "2:3-2:4 warning domain-error", "3:2-3:6 error unknown-word"]
    let published = try client.publishedDiagnostics(Self.uri)
    #expect(compactWithoutMessage(diagnostics: published.diagnostics) == expected)
    #expect(
      published.diagnostics.map { $0["message"]?.stringValue ?? "" } == [
        "unknown word `😀`", "`√` of -9 is undefined: a square root needs a value ≥ 0", "unknown word `😀😀`",
      ])
    try client.finish()
  }

  @Test(arguments: ["utf-8", "utf-16"])
  func hintPositions(encoding: String) throws {
    let client = try Self.started(encoding)
    client.open(Self.uri, Self.text)
    let columns = encoding == "utf-8" ? [16, 18, 13] : [12, 11, 8]
    #expect(
      compact(hints: try client.allInlayHints(Self.uri)) == [
        "1:\(columns[0]) [1.5]", "2:\(columns[1]) [1.5 -28.2743338823081]", "3:\(columns[2]) [1.5 -56.5486677646163]",
      ])
    // A range gets the hints of every line it touches, even when it stops short of the hint (as
    // yegappan/lsp's does, one character before the last line's end).
    for end in [columns[2], columns[2] - 1, 0] {
      #expect(
        compact(hints: try client.inlayHints(Self.uri, range(3, 0, 3, end))) == [
          "3:\(columns[2]) [1.5 -56.5486677646163]"
        ])
    }
    #expect(compact(hints: try client.inlayHints(Self.uri, range(2, 0, 3, 0))).count == 1, "not the line it ends at")
    try client.finish()
  }

  /// Hover positions (the text's markers, and two the same in both encodings) → ranges in UTF-8
  /// and in UTF-16.
  @Test(arguments: ["utf-8", "utf-16"])
  func hoverRanges(encoding: String) throws {
    let client = try Self.started(encoding)
    client.open(Self.uri, Self.text)
    let cases: [(at: JSONValue, range8: String, range16: String, first: String)] = [
      (Self.source.at(1, encoding), "1:14-1:16", "1:11-1:12", "operator ÷ (/): divide"),
      (Self.source.at(2, encoding), "1:14-1:16", "1:11-1:12", "operator ÷ (/): divide"),
      (Self.source.at(3, encoding), "1:0-1:4", "1:0-1:2", "unknown word 😀"),
      (Self.source.at(4, encoding), "1:9-1:11", "1:7-1:8", "operator × (*): multiply"),
      (position(2, 0), "2:0-2:4", "2:0-2:2", "number −9 = -9"),
      (Self.source.at(5, encoding), "2:5-2:8", "2:3-2:4", "operator √ (sqrt): square root"),
      (Self.source.at(6, encoding), "2:9-2:11", "2:5-2:6", "constant π (pi): the constant π"),
      (Self.source.at(7, encoding), "2:15-2:18", "2:9-2:11", "store into é: -28.2743338823081"),
      (Self.source.at(8, encoding), "3:0-3:2", "3:0-3:1", "variable é = -28.2743338823081, stored on line 3"),
      (Self.source.at(9, encoding), "3:12-3:13", "3:7-3:8", "operator +: add"),
      (position(3, 99), "3:12-3:13", "3:7-3:8", "operator +: add"),
    ]
    for (at, range8, range16, first) in cases {
      let hover = try client.hover(Self.uri, at)
      #expect(
        compact(range: hover["range"]) == Self.pick(encoding, utf8: range8, utf16: range16),
        "at \(compact(position: at))")
      let value = hover["contents"]?["value"]?.stringValue ?? ""
      #expect(value.components(separatedBy: "\n").first == first, "at \(compact(position: at))")
    }
    // In the comment, on its emoji: nothing.
    #expect(try client.hover(Self.uri, position(0, encoding == "utf-8" ? 6 : 4)) == .null)
    #expect(try client.hover(Self.uri, position(1, encoding == "utf-8" ? 22 : 17)) == .null)
    try client.finish()
  }

  /// Incremental edits whose ranges are in the negotiated encoding, several in one notification
  /// (each in the text the one before left), then one past the end of a line.
  @Test(arguments: ["utf-8", "utf-16"])
  func incrementalEdits(encoding: String) throws {
    let client = try Self.started(encoding)
    client.open(Self.uri, Self.text)
    let utf8 = encoding == "utf-8"
    client.change(
      Self.uri, version: 2,
      [
        edit(utf8 ? range(1, 12, 1, 13) : range(1, 9, 1, 10), "8"),  // "4" → "8"
        edit(utf8 ? range(3, 3, 3, 11) : range(3, 2, 3, 6), "dup"),  // "😀😀" → "dup"
        edit(utf8 ? range(1, 0, 1, 5) : range(1, 0, 1, 3), ""),  // "😀 " → ""
      ])
    let published = try client.publishedDiagnostics(Self.uri)
    #expect(published.version == 2)
    #expect(
      compactWithoutMessage(diagnostics: published.diagnostics) == [
        utf8 ? "2:5-2:8 warning domain-error" : "2:3-2:4 warning domain-error"
      ])
    #expect(
      compact(hints: try client.allInlayHints(Self.uri)) == [
        utf8 ? "1:11 [0.75]" : "1:9 [0.75]",
        utf8 ? "2:18 [0.75 -28.2743338823081]" : "2:11 [0.75 -28.2743338823081]",
        utf8 ? "3:8 [0.75 -28.2743338823081 -56.5486677646163]" : "3:7 [0.75 -28.2743338823081 -56.5486677646163]",
      ])
    // Past the end of line 3, then inside line 1's comment (after its emoji), then a new line
    // inserted right after the × of line 2.
    client.change(Self.uri, version: 3, [edit(range(3, 999, 3, 999), " 1")])
    client.change(
      Self.uri, version: 4, [edit(utf8 ? range(1, 18, 1, 18) : range(1, 14, 1, 14), " 99 +")])
    client.change(Self.uri, version: 5, [edit(utf8 ? range(2, 14, 2, 14) : range(2, 8, 2, 8), "\n😀")])
    let after = try client.publishedDiagnostics(Self.uri)
    #expect(after.version == 5)
    #expect(
      compactWithoutMessage(diagnostics: after.diagnostics) == [
        utf8 ? "2:5-2:8 warning domain-error" : "2:3-2:4 warning domain-error",
        utf8 ? "3:0-3:4 error unknown-word" : "3:0-3:2 error unknown-word",
      ])
    #expect(
      compact(hints: try client.allInlayHints(Self.uri)) == [
        utf8 ? "1:11 [0.75]" : "1:9 [0.75]",
        utf8 ? "2:14 [0.75 -28.2743338823081]" : "2:8 [0.75 -28.2743338823081]",
        utf8 ? "3:8 [0.75 -28.2743338823081]" : "3:5 [0.75 -28.2743338823081]",
        utf8 ? "4:10 [0.75 -28.2743338823081 -56.5486677646163 1]" : "4:9 [0.75 -28.2743338823081 -56.5486677646163 1]",
      ])
    try client.finish()
  }

  /// The completion's edit range, in the negotiated encoding.
  @Test(arguments: ["utf-8", "utf-16"])
  func completionRange(encoding: String) throws {
    let client = try Self.started(encoding)
    let text = Marked("😀 ÷ 1️⃣√")
    client.open("file:///c.rpn", text.text)
    let result = try client.completion("file:///c.rpn", text.at(1, encoding))
    let items = result["items"]?.arrayValue ?? []
    #expect(items.count == Builtin.table.flatMap(\.spellings).count)
    #expect(
      Set(items.map { compact(range: $0["textEdit"]?["range"]) }) == [
        Self.pick(encoding, utf8: "0:8-0:11", utf16: "0:5-0:6")
      ])
    try client.finish()
  }

  /// Separators other than `\n`, `\r\n` and `\r` (U+2028, U+0085, form feed, no-break space)
  /// separate tokens but do not end lines.
  @Test(arguments: ["utf-8", "utf-16"])
  func otherSeparatorsDoNotEndLines(encoding: String) throws {
    let client = try Self.started(encoding)
    client.open("file:///sep.rpn", "1\u{2028}2\u{85}+\u{0C}3\u{A0}*\n4 😀\n")
    #expect(
      compact(hints: try client.allInlayHints("file:///sep.rpn")) == [
        encoding == "utf-8" ? "0:13 [9]" : "0:9 [9]",
        encoding == "utf-8" ? "1:6 [9 4]" : "1:4 [9 4]",
      ])
    #expect(
      compactWithoutMessage(diagnostics: try client.publishedDiagnostics("file:///sep.rpn").diagnostics) == [
        encoding == "utf-8" ? "1:2-1:6 error unknown-word" : "1:2-1:4 error unknown-word"
      ])
    try client.finish()
  }
}

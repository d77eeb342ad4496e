import JSONRPC
import TestSupport
import Testing

/// the README's table of server features `textDocument/hover`: what the token is, the stack before and after it, its
/// diagnostic; `range` = the token; markdown or plain text as the client takes; null on
/// whitespace, comments and blank lines.
@Suite(.inProcess) struct HoverTests {
  static let uri = "file:///hover.rpn"
  static let text = "3 4 +\n=rate 2.50 ×\nrate π 1e999\nzzz = =sin ×\n  # note\n\n1   2 # c\n-0 Chs\n"
  static let markdown: JSONValue = ["textDocument": ["hover": ["contentFormat": ["markdown", "plaintext"]]]]

  static func started(_ capabilities: JSONValue) throws -> LSPClient {
    let client = try LSPClient.started(capabilities: capabilities)
    client.open(uri, text)
    return client
  }

  /// A hover as its kind, its range and its text.
  static func hover(_ client: LSPClient, _ line: Int, _ character: Int) throws -> (
    kind: String, range: String, value: String
  )? {
    let result = try client.hover(uri, position(line, character))
    guard result != .null else { return nil }
    return (
      result["contents"]?["kind"]?.stringValue ?? "no kind", compact(range: result["range"]),
      result["contents"]?["value"]?.stringValue ?? "no value"
    )
  }

  /// Also end to end, over the built binary's pipes.
  @Test(.overPipes) func markdownForClientsThatTakeIt() throws {
    let client = try Self.started(Self.markdown)
    let cases: [(line: Int, character: Int, range: String, value: String)] = [
      (
        0, 0, "0:0-0:1",
        "number `3`\n\nStack before: `[]`  \nStack after: `[3]`"
      ),
      (0, 4, "0:4-0:5", "operator `+`: add  \n`( a b -- a+b )`\n\nStack before: `[3 4]`  \nStack after: `[7]`"),
      (
        1, 0, "1:0-1:5",
        "store into `rate`: `7`\n\nStack before: `[7]`  \nStack after: `[7]`"
      ),
      (1, 8, "1:6-1:10", "number `2.50` = `2.5`\n\nStack before: `[7]`  \nStack after: `[7 2.5]`"),
      (
        1, 11, "1:11-1:12",
        "operator `×` (`*`): multiply  \n`( a b -- a·b )`\n\nStack before: `[7 2.5]`  \nStack after: `[17.5]`"
      ),
      (
        2, 2, "2:0-2:4",
        "variable `rate` = `7`, stored on line 2\n\n"
          + "Stack before: `[17.5]`  \nStack after: `[17.5 7]`"
      ),
      (
        2, 5, "2:5-2:6",
        "constant `π` (`pi`): the constant π  \n`( -- π )`\n\nStack before: `[17.5 7]`  \n"
          + "Stack after: `[17.5 7 3.14159265358979]`"
      ),
      (
        2, 7, "2:7-2:12",
        "number `1e999`, out of the range of a double\n\nStack before: `[17.5 7 3.14159265358979]`  \n"
          + "Stack after: `[17.5 7 3.14159265358979]`\n\n"
          + "error [invalid-number]: number `1e999` is out of the range of a double (±1.7976931348623157e+308)"
      ),
      (
        3, 6, "3:6-3:10",
        "store `=sin`\n\nStack before: `[17.5 7 3.14159265358979]`  \nStack after: `[17.5 7 3.14159265358979]`\n\n"
          + "error [invalid-name]: `=sin` cannot store into `sin`: that is a function; choose another name"
      ),
      (
        7, 3, "7:3-7:6",
        "function `Chs` (`neg`): change sign  \n`( a -- −a )`\n\n"
          + "Stack before: `[17.5 21.9911485751286 1 2 0]`  \nStack after: `[17.5 21.9911485751286 1 2 0]`"
      ),
    ]
    for (line, character, range, value) in cases {
      let hover = try Self.hover(client, line, character)
      #expect(hover?.kind == "markdown", "\(line):\(character)")
      #expect(hover?.range == range, "\(line):\(character)")
      #expect(hover?.value == value, "\(line):\(character)")
    }
    try client.finish()
  }

  /// Plain text when the client does not list markdown (or says nothing, or says it ill-typed).
  @Test(arguments: [
    [:] as JSONValue,
    ["textDocument": ["hover": ["contentFormat": ["plaintext"]]]],
    ["textDocument": ["hover": ["contentFormat": "markdown"]]],
    ["textDocument": ["hover": ["contentFormat": [7, "text/html"]]]],
  ])
  func plainTextOtherwise(capabilities: JSONValue) throws {
    let client = try Self.started(capabilities)
    let cases: [(line: Int, character: Int, range: String, value: String)] = [
      (0, 4, "0:4-0:5", "operator +: add\n( a b -- a+b )\n\nStack before: [3 4]\nStack after: [7]"),
      (1, 0, "1:0-1:5", "store into rate: 7\n\nStack before: [7]\nStack after: [7]"),
      (
        2, 0, "2:0-2:4",
        "variable rate = 7, stored on line 2\n\n"
          + "Stack before: [17.5]\nStack after: [17.5 7]"
      ),
      (
        3, 4, "3:4-3:5",
        "store =\n\nStack before: [17.5 7 3.14159265358979]\nStack after: [17.5 7 3.14159265358979]\n\n"
          + "error [invalid-name]: `=` needs a name after it, like `=total`"
      ),
      (
        7, 0, "7:0-7:2",
        "number -0 = 0\n\n"
          + "Stack before: [17.5 21.9911485751286 1 2]\nStack after: [17.5 21.9911485751286 1 2 0]"
      ),
    ]
    for (line, character, range, value) in cases {
      let hover = try Self.hover(client, line, character)
      #expect(hover?.kind == "plaintext", "\(line):\(character)")
      #expect(hover?.range == range, "\(line):\(character)")
      #expect(hover?.value == value, "\(line):\(character)")
    }
    try client.finish()
  }

  /// A word with no store above it: its diagnostic and the unchanged stack.
  @Test func anUnknownWordShowsItsDiagnostic() throws {
    let client = try Self.started([:])
    let hover = try #require(try Self.hover(client, 3, 1))
    #expect(hover.range == "3:0-3:3")
    #expect(
      hover.value.hasSuffix(
        "\n\nStack before: [17.5 7 3.14159265358979]\nStack after: [17.5 7 3.14159265358979]\n\n"
          + "error [unknown-word]: unknown word `zzz`"))
    try client.finish()
  }

  /// The cursor right after a token (where no other token starts) hovers that token; a
  /// position past the line's end is clamped to it.
  @Test(arguments: [
    (0, 1, "0:0-0:1"), (0, 3, "0:2-0:3"), (0, 5, "0:4-0:5"), (0, 99, "0:4-0:5"), (1, 5, "1:0-1:5"),
    (1, 10, "1:6-1:10"), (6, 1, "6:0-6:1"), (6, 5, "6:4-6:5"), (7, 1, "7:0-7:2"), (7, 6, "7:3-7:6"),
    (7, 2, "7:0-7:2"),
  ])
  func theCursorRightAfterATokenHoversIt(line: Int, character: Int, range: String) throws {
    let client = try Self.started([:])
    #expect(try Self.hover(client, line, character)?.range == range)
    try client.finish()
  }

  /// Null on whitespace, in comments, on blank lines and past the document.
  @Test(arguments: [
    (4, 0), (4, 1), (4, 2), (4, 5), (4, 99), (5, 0), (5, 7), (6, 2), (6, 3), (6, 6), (6, 8), (6, 99), (8, 0), (40, 3),
  ])
  func nullOnWhitespaceCommentsAndBlankLines(line: Int, character: Int) throws {
    let client = try Self.started([:])
    #expect(try client.hover(Self.uri, position(line, character)) == .null)
    try client.finish()
  }

  /// Hex, octal and binary: on a radix literal always, and on an integer value (a number, a store,
  /// a variable) only in a tape that writes a radix literal somewhere; in a budget they are noise.
  /// A check written in a radix (`=0xCB2`) counts, and so does one after U+2212 `−`; a `0x10` in a
  /// comment or a name, and a radix literal written wrongly, do not; a fraction has no forms.
  @Test(
    .overPipes,
    arguments: [
      ("3250 =rent 2.5\nrent # 0x10 costs\n0x1G\n", 0, 0, "number 3250\n\nStack before: []\nStack after: [3250]"),
      (
        "3250 =rent 2.5\nrent # 0x10 costs\n0x1G\n", 0, 5,
        "store into rent: 3250\n\nStack before: [3250]\nStack after: [3250]"
      ),
      (
        "3250 =rent 2.5\nrent # 0x10 costs\n0x1G\n", 1, 0,
        "variable rent = 3250, stored on line 1\n\nStack before: [3250 2.5]\nStack after: [3250 2.5 3250]"
      ),
      (
        "0xCB2\n", 0, 0,
        "number 0xCB2 = 3250\nhex 0xCB2, octal 0o6262, binary 0b1100_1011_0010\n\nStack before: []\nStack after: [3250]"
      ),
      (
        "3250 =rent 2.5\nrent -0b1 +\n", 0, 0,
        "number 3250\nhex 0xCB2, octal 0o6262, binary 0b1100_1011_0010\n\nStack before: []\nStack after: [3250]"
      ),
      (
        "3250 =rent 2.5\nrent -0b1 +\n", 0, 5,
        "store into rent: 3250\nhex 0xCB2, octal 0o6262, binary 0b1100_1011_0010\n\n"
          + "Stack before: [3250]\nStack after: [3250]"
      ),
      (
        "3250 =rent 2.5\nrent -0b1 +\n", 1, 0,
        "variable rent = 3250, stored on line 1\nhex 0xCB2, octal 0o6262, binary 0b1100_1011_0010\n\n"
          + "Stack before: [3250 2.5]\nStack after: [3250 2.5 3250]"
      ),
      ("3250 =rent 2.5\nrent -0b1 +\n", 0, 12, "number 2.5\n\nStack before: [3250]\nStack after: [3250 2.5]"),
      (
        "3250 =rent 2.5\nrent -0b1 +\n", 1, 6,
        "number -0b1 = -1\nhex -0x1, octal -0o1, binary -0b1\n\nStack before: [3250 2.5 3250]\n"
          + "Stack after: [3250 2.5 3250 -1]"
      ),
      (
        "3250\n\u{2212}0x10 # −, a minus sign\n", 0, 0,
        "number 3250\nhex 0xCB2, octal 0o6262, binary 0b1100_1011_0010\n\nStack before: []\nStack after: [3250]"
      ),
      ("3250 # 0x10\n=x0b1 x0b1 -0b\n", 0, 0, "number 3250\n\nStack before: []\nStack after: [3250]"),
      (
        "3250 =0xCB2\n", 0, 0,
        "number 3250\nhex 0xCB2, octal 0o6262, binary 0b1100_1011_0010\n\nStack before: []\nStack after: [3250]"
      ),
      (
        "3250 =−0b1\n", 0, 0,
        "number 3250\nhex 0xCB2, octal 0o6262, binary 0b1100_1011_0010\n\nStack before: []\nStack after: [3250]"
      ),
    ])
  func radixFormsOnlyWhereTheTapeWritesARadix(text: String, line: Int, character: Int, value: String) throws {
    let client = try LSPClient.started()
    client.open("file:///radix.rpn", text)
    let hover = try client.hover("file:///radix.rpn", position(line, character))
    #expect(hover["contents"]?["value"]?.stringValue == value)
    try client.finish()
  }

  /// The stack before and after a token in the middle of a line, with the display settings.
  @Test func stacksFollowTheDisplaySettings() throws {
    let client = try LSPClient.started(initializationOptions: ["rpn": ["precision": 4, "inlayHints": ["maxItems": 3]]])
    client.open("file:///s.rpn", "1 2 3 4\n5 6 7 /\n")
    let hover = try client.hover("file:///s.rpn", position(1, 6))
    #expect(compact(range: hover["range"]) == "1:6-1:7")
    #expect(
      hover["contents"]?["value"]
        == "operator /: divide\n( a b -- a÷b )\n\nStack before: [… 5 6 7]\nStack after: [… 4 5 0.8571]")
    try client.finish()
  }
}

import JSONRPC
import TestSupport
import Testing

/// Tape text in a markdown hover cannot make markdown (a link, a code span closed early); a byte
/// order mark at the start of the text is a character at column 0 that is no token.
@Suite(.inProcess) struct TextSafetyTests {
  static let uri = "file:///text.rpn"
  static let markdown: JSONValue = ["textDocument": ["hover": ["contentFormat": ["markdown", "plaintext"]]]]
  static let plain: JSONValue = ["textDocument": ["hover": ["contentFormat": ["plaintext"]]]]

  static func hoverText(_ capabilities: JSONValue, _ text: String, _ line: Int, _ character: Int) throws -> String {
    let client = try LSPClient.started(capabilities: capabilities)
    client.open(uri, text)
    let result = try client.hover(uri, position(line, character))
    try client.finish()
    return result["contents"]?["value"]?.stringValue ?? "no value"
  }

  /// ``a`[click](https://evil.example)`b``: in markdown the token is one code span whose fence
  /// is longer than its backtick runs, and the diagnostic's message has its markdown escaped; in
  /// plain text both read as written.
  @Test func tapeTextCannotMakeALinkInAMarkdownHover() throws {
    let token = "a`[click](https://evil.example)`b"
    let markdown = try Self.hoverText(Self.markdown, token + "\n", 0, 0)
    #expect(
      markdown == "unknown word ``a`[click](https://evil.example)`b``\n\n"
        + "Stack before: `[]`  \nStack after: `[]`\n\n"
        + "error [unknown-word]: unknown word \\`a\\`\\[click\\]\\(https\\:\\/\\/evil\\.example\\)\\`b\\`")
    let plain = try Self.hoverText(Self.plain, token + "\n", 0, 0)
    #expect(
      plain == "unknown word \(token)\n\nStack before: []\nStack after: []\n\n"
        + "error [unknown-word]: unknown word `\(token)`")
  }

  /// A bare `www.` address outside a code span would be linked by some renderers: escaped too.
  @Test func bareAddressesAreEscapedInMessages() throws {
    let hover = try Self.hoverText(Self.markdown, "`www.evil.example`\n", 0, 0)
    #expect(hover.hasSuffix("error [unknown-word]: unknown word \\`\\`www\\.evil\\.example\\`\\`"), "\(hover)")
  }

  /// Code spans keep their text exactly: a fence longer than any run inside, padded where the
  /// text starts or ends with a backtick or a space.
  @Test func codeSpansCannotBeClosedEarly() throws {
    let hover = try Self.hoverText(Self.markdown, "x``y `z\n", 0, 0)
    #expect(hover.hasPrefix("unknown word ```x``y```\n"), "\(hover)")
    let edge = try Self.hoverText(Self.markdown, "1 `z\n", 0, 3)
    #expect(edge.hasPrefix("unknown word `` `z ``\n"), "\(edge)")
  }

  /// `\u{FEFF}1 2 + =4`: the BOM is character 0 of line 0 and no token; `1` is at 0:1, the check
  /// at 0:7-0:9 (UTF-16); formatting keeps it.
  @Test func aByteOrderMarkIsAColumnButNoToken() throws {
    let client = try LSPClient.started(capabilities: Self.markdown)
    client.open(Self.uri, "\u{FEFF}1  2 + =4\n")
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    #expect(
      compact(diagnostics: diagnostics) == [
        "0:8-0:10 warning check-failed: expected 4, the top is 3 (3 to a whole number)"
      ])
    let hover = try client.hover(Self.uri, position(0, 1))
    #expect(compact(range: hover["range"]) == "0:1-0:2")
    #expect(hover["contents"]?["value"]?.stringValue == "number `1`\n\nStack before: `[]`  \nStack after: `[1]`")
    #expect(try client.hover(Self.uri, position(0, 0)) == .null)
    let edits = try client.request(
      "textDocument/formatting",
      ["textDocument": ["uri": .string(Self.uri)], "options": ["tabSize": 2, "insertSpaces": true]])
    #expect(compact(edits: edits.arrayValue ?? []) == ["0:0-0:10 → \"\u{FEFF}1 2 + =4\""])
    try client.finish()
  }
}

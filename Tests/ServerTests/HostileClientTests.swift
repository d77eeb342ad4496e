import Foundation
import JSONRPC
import TestSupport
import Testing

/// the lifecycle and error rules of the README: no input, however malformed or large, crashes the server or makes it stop
/// answering. Each bad input below is followed by a valid request that must get the right
/// answer; the answers to the bad input itself (error code and id, or a result) are checked
/// exactly, and nothing else may be answered in between.
@Suite struct HostileClientTests {
  static let uri = "file:///t.rpn"
  static let text = "1 2 +\n3 *\n"
  static let hints = ["0:5 [3]", "1:3 [9]"]

  /// What the server must answer to a bad input, in order.
  enum Answer: Sendable, CustomStringConvertible {
    /// An error with this id and code, whose message names `naming` when given.
    case error(JSONValue, Int, naming: String? = nil)
    /// A result with this id, summarized by `summary(_:)`.
    case result(JSONValue, String)

    var description: String {
      switch self {
      case .error(let id, let code, let naming):
        "error \(code) id \(JSONWriter.string(id))" + (naming.map { " naming \($0)" } ?? "")
      case .result(let id, let summary): "result \(summary) id \(JSONWriter.string(id))"
      }
    }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var answers: [Answer]
    /// The answers come without anything more being sent: the server must not wait for a body.
    var answeredAtOnce = false
    /// The hints of `t.rpn` afterwards, when the bad input changed it.
    var hints = HostileClientTests.hints
    var testDescription: String { name }
  }

  // MARK: Building bad input

  static func framed(_ body: String) -> [UInt8] { LSPClient.frame(body: body) }
  static func framed(_ body: [UInt8]) -> [UInt8] { LSPClient.frame(body: body) }
  static func framed(_ message: JSONValue) -> [UInt8] { LSPClient.frame(message) }

  static func request(_ id: JSONValue, _ method: String, _ params: JSONValue?) -> [UInt8] {
    framed(LSPClient.requestMessage(id: id, method, params))
  }

  static func notification(_ method: String, _ params: JSONValue?) -> [UInt8] {
    framed(LSPClient.notificationMessage(method, params))
  }

  static func hover(_ id: JSONValue, _ position: JSONValue, uri: String = HostileClientTests.uri) -> [UInt8] {
    request(id, "textDocument/hover", ["textDocument": ["uri": .string(uri)], "position": position])
  }

  static let shutdown = #"{"jsonrpc":"2.0","id":77,"method":"shutdown"}"#

  /// A short summary of a result: `null`, a range, or hints.
  static func summary(_ result: JSONValue) -> String {
    if result == .null { return "null" }
    if let array = result.arrayValue { return "[" + compact(hints: .array(array)).joined(separator: ", ") + "]" }
    if let range = result["range"] { return compact(range: range) }
    return JSONWriter.string(result)
  }

  static let cases: [Case] = [
    // Framing.
    Case(name: "truncated header line", bytes: Array("Content-Le\r\n\r\n".utf8), answers: [.error(nil, -32700)]),
    Case(
      name: "header line without a colon", bytes: Array("Content-Length 27\r\n\r\n".utf8),
      answers: [.error(nil, -32700)]),
    Case(
      name: "header block without Content-Length",
      bytes: Array("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n\(shutdown)".utf8),
      answers: [.error(nil, -32700)]),
    Case(
      name: "non-numeric Content-Length", bytes: Array("Content-Length: abc\r\n\r\n".utf8),
      answers: [.error(nil, -32700)]),
    Case(
      name: "negative Content-Length", bytes: Array("Content-Length: -5\r\n\r\n".utf8), answers: [.error(nil, -32700)]),
    Case(
      name: "hexadecimal Content-Length", bytes: Array("Content-Length: 0x1A\r\n\r\n".utf8),
      answers: [.error(nil, -32700)]),
    Case(name: "empty Content-Length", bytes: Array("Content-Length: \r\n\r\n".utf8), answers: [.error(nil, -32700)]),
    Case(
      name: "Content-Length with junk after the digits", bytes: Array("Content-Length: 12abc\r\n\r\n".utf8),
      answers: [.error(nil, -32700)]),
    Case(
      name: "Content-Length of 10^12, no body", bytes: Array("Content-Length: 1000000000000\r\n\r\n".utf8),
      answers: [.error(nil, -32700)], answeredAtOnce: true),
    Case(
      name: "Content-Length over the limit (2^31), no body", bytes: Array("Content-Length: 2147483648\r\n\r\n".utf8),
      answers: [.error(nil, -32700)], answeredAtOnce: true),
    Case(
      name: "Content-Length of 20 digits, no body", bytes: Array("Content-Length: 99999999999999999999\r\n\r\n".utf8),
      answers: [.error(nil, -32700)], answeredAtOnce: true),
    Case(
      name: "header block over 16 KiB without Content-Length",
      bytes: Array("X-Padding: \(String(repeating: "a", count: 20_000))\r\n\r\n".utf8), answers: [.error(nil, -32700)]),
    Case(
      name: "header block over 16 KiB with a Content-Length",
      bytes: Array("Content-Length: 2\r\nX-Padding: \(String(repeating: "a", count: 20_000))\r\n\r\n{}".utf8),
      answers: [.error(nil, -32700)]),
    Case(
      name: "a garbage line then a blank line", bytes: Array("hello world\r\n\r\n".utf8), answers: [.error(nil, -32700)]
    ),
    // Bodies that are not JSON.
    Case(
      name: "invalid UTF-8 inside a string",
      bytes: framed(
        Array(#"{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///"#.utf8)
          + [0xFF] + Array(#".rpn"},"position":{"line":0,"character":0}}}"#.utf8)),
      answers: [.error(nil, -32700)]),
    Case(
      name: "invalid UTF-8 outside strings", bytes: framed([0xC3, 0x28, 0x7B, 0x7D]), answers: [.error(nil, -32700)]),
    Case(
      name: "didOpen whose text is invalid UTF-8",
      bytes: framed(
        Array(
          #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///u.rpn","#.utf8)
          + Array(#""languageId":"rpn","version":1,"text":"1 "#.utf8) + [0xFE, 0xED] + Array(#" 2"}}}"#.utf8))
        + hover("after", position(0, 0), uri: "file:///u.rpn"),
      answers: [.error(nil, -32700), .error("after", -32602, naming: "file:///u.rpn")]),
    Case(name: "truncated JSON", bytes: framed(#"{"jsonrpc":"2.0","id":1,"#), answers: [.error(nil, -32700)]),
    Case(name: "JSON followed by garbage", bytes: framed(shutdown + " x"), answers: [.error(nil, -32700)]),
    Case(name: "two JSON values in one body", bytes: framed(shutdown + shutdown), answers: [.error(nil, -32700)]),
    Case(name: "empty body", bytes: Array("Content-Length: 0\r\n\r\n".utf8), answers: [.error(nil, -32700)]),
    Case(name: "whitespace-only body", bytes: framed(" \r\n\t "), answers: [.error(nil, -32700)]),
    Case(name: "NUL bytes as a body", bytes: framed([0, 0, 0, 0]), answers: [.error(nil, -32700)]),
    Case(
      name: "byte order mark before the JSON", bytes: framed([0xEF, 0xBB, 0xBF] + Array(shutdown.utf8)),
      answers: [.error(nil, -32700)]),
    Case(
      name: "invalid escape", bytes: framed(#"{"jsonrpc":"2.0","method":"x","params":{"a":"\q"}}"#),
      answers: [.error(nil, -32700)]),
    Case(
      name: "lone surrogate escape", bytes: framed(#"{"jsonrpc":"2.0","method":"x","params":{"a":"\ud800"}}"#),
      answers: [.error(nil, -32700)]),
    Case(
      name: "raw control character in a string",
      bytes: framed("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"a\":\"\u{1}\"}}"),
      answers: [.error(nil, -32700)]),
    Case(
      name: "100,000 nested [", bytes: framed(String(repeating: "[", count: 100_000)), answers: [.error(nil, -32700)]),
    Case(
      name: "100,000 nested [ in the params of a request",
      bytes: framed(
        #"{"jsonrpc":"2.0","id":9,"method":"textDocument/hover","params":"# + String(repeating: "[", count: 100_000)),
      answers: [.error(nil, -32700)]),
    Case(
      name: "100,000 nested { in the params of a request",
      bytes: framed(#"{"jsonrpc":"2.0","id":9,"method":"x","params":"# + String(repeating: #"{"a":"#, count: 100_000)),
      answers: [.error(nil, -32700)]),
    // JSON that is not a request or notification.
    Case(name: "a batch (JSON array)", bytes: framed("[\(shutdown)]"), answers: [.error(nil, -32600)]),
    Case(name: "an empty array", bytes: framed("[]"), answers: [.error(nil, -32600)]),
    Case(name: "a number", bytes: framed("42"), answers: [.error(nil, -32600)]),
    Case(name: "a string", bytes: framed(#""hello""#), answers: [.error(nil, -32600)]),
    Case(name: "null", bytes: framed("null"), answers: [.error(nil, -32600)]),
    Case(name: "true", bytes: framed("true"), answers: [.error(nil, -32600)]),
    Case(
      name: "an object with neither method nor result", bytes: framed(#"{"jsonrpc":"2.0","id":3}"#),
      answers: [.error(nil, -32600)]),
    Case(
      name: "method is a number", bytes: framed(#"{"jsonrpc":"2.0","id":4,"method":42}"#),
      answers: [.error(nil, -32600)]),
    Case(
      name: "id is an object", bytes: framed(#"{"jsonrpc":"2.0","id":{"a":1},"method":"shutdown"}"#),
      answers: [.error(nil, -32600)]),
    Case(
      name: "id is fractional: answered with it", bytes: framed(#"{"jsonrpc":"2.0","id":1.5,"method":"rpn/none"}"#),
      answers: [.error(1.5, -32601)]),
    Case(
      name: "id is null", bytes: framed(#"{"jsonrpc":"2.0","id":null,"method":"shutdown"}"#),
      answers: [.error(nil, -32600)]),
    Case(
      name: "id is a boolean", bytes: framed(#"{"jsonrpc":"2.0","id":true,"method":"shutdown"}"#),
      answers: [.error(nil, -32600)]),
    Case(
      name: "a notification whose params is a number",
      bytes: framed(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":5}"#), answers: [.error(nil, -32600)]),
    // Bad params.
    Case(
      name: "params is a number",
      bytes: framed(#"{"jsonrpc":"2.0","id":"p","method":"textDocument/hover","params":5}"#),
      answers: [.error("p", -32602)]),
    Case(
      name: "params is an array", bytes: request(10, "textDocument/hover", [1, 2]), answers: [.error(10, -32602)]),
    Case(name: "missing params", bytes: request(11, "textDocument/hover", nil), answers: [.error(11, -32602)]),
    Case(
      name: "position is a string", bytes: hover(12, "0:4" as JSONValue),
      answers: [.error(12, -32602, naming: "position")]),
    Case(
      name: "textDocument is a string",
      bytes: request(13, "textDocument/hover", ["textDocument": .string(uri), "position": position(0, 0)]),
      answers: [.error(13, -32602, naming: "textDocument")]),
    Case(
      name: "negative line", bytes: hover(14, position(-1, 0)), answers: [.error(14, -32602, naming: "position.line")]),
    Case(
      name: "fractional character", bytes: hover(15, ["line": 0, "character": 2.5]),
      answers: [.error(15, -32602, naming: "position.character")]),
    Case(
      name: "negative character in a range",
      bytes: request(
        16, "textDocument/inlayHint", ["textDocument": ["uri": .string(uri)], "range": range(0, -3, 1, 0)]),
      answers: [.error(16, -32602, naming: "range.start.character")]),
    Case(
      name: "reversed range",
      bytes: request(
        17, "textDocument/inlayHint", ["textDocument": ["uri": .string(uri)], "range": range(1, 0, 0, 5)]),
      answers: [.error(17, -32602, naming: "range")]),
    Case(
      name: "a line far past the end", bytes: hover(18, position(1000, 0)), answers: [.result(18, "null")]),
    Case(
      name: "a character far past the end of the line", bytes: hover(19, position(0, 2_147_483_647)),
      answers: [.result(19, "0:4-0:5")]),
    Case(
      name: "a range far past the end",
      bytes: request(
        20, "textDocument/inlayHint",
        ["textDocument": ["uri": .string(uri)], "range": range(500, 0, 2_147_483_647, 0)]),
      answers: [.result(20, "[]")]),
    // Documents.
    Case(
      name: "a document that is not open", bytes: hover(21, position(0, 0), uri: "file:///nowhere.rpn"),
      answers: [.error(21, -32602, naming: "file:///nowhere.rpn")]),
    Case(
      name: "didChange of a document that is not open",
      bytes: framed(LSPClient.didChange("file:///ghost.rpn", version: 2, [edit(range(0, 0, 0, 0), "1")]))
        + hover(22, position(0, 0), uri: "file:///ghost.rpn"),
      answers: [.error(22, -32602, naming: "file:///ghost.rpn")]),
    Case(
      name: "didChange whose contentChanges is not an array",
      bytes: notification(
        "textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": 5], "contentChanges": "x"]),
      answers: []),
    Case(
      name: "didChange whose range is malformed",
      bytes: framed(LSPClient.didChange(uri, version: 6, [["range": ["start": "x"], "text": "9 9 9"]])), answers: []),
    Case(
      name: "a second didOpen replaces the document",
      bytes: notification(
        "textDocument/didOpen",
        ["textDocument": ["uri": .string(uri), "languageId": "rpn", "version": 9, "text": "4 5 *\n"]]),
      answers: [], hints: ["0:5 [20]"]),
    Case(
      name: "didOpen whose text is not a string",
      bytes: notification("textDocument/didOpen", ["textDocument": ["uri": "file:///n.rpn", "version": 1, "text": 5]])
        + hover(23, position(0, 0), uri: "file:///n.rpn"),
      answers: [.error(23, -32602, naming: "file:///n.rpn")]),
    // Ids, methods, notifications.
    Case(
      name: "a string id is echoed exactly", bytes: request("ab\"c😀\\ \u{1}", "nothing/here", nil),
      answers: [.error("ab\"c😀\\ \u{1}", -32601)]),
    Case(name: "an empty string id is echoed", bytes: request("", "nothing/here", nil), answers: [.error("", -32601)]),
    Case(
      name: "numeric ids are echoed exactly",
      bytes: request(0, "nothing/here", nil) + request(-7, "nothing/here", nil)
        + request(9_007_199_254_740_991, "nothing/here", nil),
      answers: [.error(0, -32601), .error(-7, -32601), .error(9_007_199_254_740_991, -32601)]),
    Case(
      name: "the string id \"1\" and the number 1 are different ids",
      bytes: request("1", "nothing/here", nil) + request(1, "nothing/here", nil),
      answers: [.error("1", -32601), .error(1, -32601)]),
    Case(
      name: "a 100 KB string id", bytes: request(.string(String(repeating: "i", count: 100_000)), "nothing/here", nil),
      answers: [.error(.string(String(repeating: "i", count: 100_000)), -32601)]),
    Case(
      name: "an unknown $/ request", bytes: request(24, "$/unknown", [:]),
      answers: [.error(24, -32601, naming: "$/unknown")]),
    Case(
      name: "unknown notifications", bytes: notification("$/unknown", [:]) + notification("made/up", nil),
      answers: []),
    Case(name: "a response to nothing", bytes: framed(#"{"jsonrpc":"2.0","id":12345,"result":null}"#), answers: []),
    Case(
      name: "an error response to nothing",
      bytes: framed(#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}"#), answers: []),
    Case(
      name: "cancel of a request that does not exist", bytes: notification("$/cancelRequest", ["id": 4242]), answers: []
    ),
    Case(name: "cancel with no id", bytes: notification("$/cancelRequest", [:]), answers: []),
    Case(
      name: "a second initialize", bytes: request(25, "initialize", ["processId": nil, "capabilities": [:]]),
      answers: [.error(25, -32600)]),
    // Unusual but valid.
    Case(
      name: "an escaped slash in the method name",
      bytes: framed(
        #"{"jsonrpc":"2.0","id":26,"method":"textDocument\/hover","params":{"textDocument":{"uri":"file:\/\/\/t.rpn"},"#
          + #""position":{"line":0,"character":4}}}"#),
      answers: [.result(26, "0:4-0:5")]),
    Case(
      name: "lower-case headers, Content-Type first, spaces around the length",
      bytes: {
        let body = Array(
          (#"{"jsonrpc":"2.0","id":27,"method":"textDocument/hover","#
            + #""params":{"textDocument":{"uri":"file:///t.rpn"},"position":{"line":1,"character":0}}}"#).utf8)
        return Array(
          "content-type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length:   \(body.count)  \r\n\r\n".utf8)
          + body
      }(),
      answers: [.result(27, "1:0-1:1")]),
    Case(
      name: "JSON nested 100 deep in an unknown field",
      bytes: framed(
        #"{"jsonrpc":"2.0","id":28,"method":"textDocument/hover","params":{"x":"# + String(repeating: "[", count: 100)
          + String(repeating: "]", count: 100)
          + #","textDocument":{"uri":"file:///t.rpn"},"position":{"line":0,"character":0}}}"#),
      answers: [.result(28, "0:0-0:1")]),
  ]

  // MARK: Running the cases

  /// Sends a case to a server that has `t.rpn` open and checks the answers and the follow-up.
  static func check(_ hostile: Case, _ client: LSPClient, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let before = client.messageCount
    client.sendRaw(hostile.bytes)
    if hostile.answeredAtOnce {
      // Nothing more is sent until these answers arrived: the body must not be waited for.
      var index = before
      for _ in hostile.answers {
        index =
          try client.waitForMessage(after: index, what: "the answers to \(hostile.name)", LSPClient.isResponse).index
          + 1
      }
    }
    let id: JSONValue = .string("follow-up \(hostile.name)")
    client.sendRequest(
      "textDocument/inlayHint", ["textDocument": ["uri": .string(uri)], "range": range(0, 0, 99, 0)], id: id)
    let (response, index) = try client.waitForMessage(
      after: before, timeout: LSPClient.slowTimeout, what: "the follow-up to \(hostile.name)"
    ) { LSPClient.isResponse($0) && $0["id"] == id }
    #expect(
      compact(hints: try client.result(of: response)) == hostile.hints, "follow-up to \(hostile.name)",
      sourceLocation: sourceLocation)
    let answers = client.responses(in: before..<index)
    #expect(
      answers.count == hostile.answers.count,
      "\(hostile.name): answered \(answers.map { JSONWriter.string($0).prefix(300) }), expected \(hostile.answers)",
      sourceLocation: sourceLocation)
    for (answer, expected) in zip(answers, hostile.answers) {
      switch expected {
      case .error(let id, let code, let naming):
        let error = LSPClient.error(of: answer)
        #expect(answer["id"] == id, "\(hostile.name): id", sourceLocation: sourceLocation)
        #expect(
          error?.code == code, "\(hostile.name): \(JSONWriter.string(answer).prefix(300))",
          sourceLocation: sourceLocation)
        if let naming {
          #expect(
            error?.message.contains(naming) == true,
            "\(hostile.name): \(error?.message ?? "no message") names \(naming)",
            sourceLocation: sourceLocation)
        }
      case .result(let id, let summary):
        #expect(answer["id"] == id, "\(hostile.name): id", sourceLocation: sourceLocation)
        #expect(
          answer["result"].map(Self.summary) == summary, "\(hostile.name): \(JSONWriter.string(answer).prefix(300))",
          sourceLocation: sourceLocation)
      }
    }
  }

  /// Each case on a fresh server.
  @Test(arguments: cases)
  func eachBadInputIsAnsweredAndTheServerCarriesOn(hostile: Case) throws {
    let client = try LSPClient.started()
    client.open(Self.uri, Self.text)
    try Self.check(hostile, client)
    try client.finish()
  }

  /// All cases, one after the other, on one server: no case leaves it in a state that spoils the
  /// next.
  @Test func allBadInputsInOneSession() throws {
    let client = try LSPClient.started()
    for hostile in Self.cases {
      client.open(Self.uri, Self.text)
      try Self.check(hostile, client)
    }
    try client.finish()
  }

  @Test func theCaseNamesAreDistinctAndThereAreAtLeastThirty() {
    #expect(Set(Self.cases.map(\.name)).count == Self.cases.count)
    #expect(Self.cases.count >= 30)
  }

  // MARK: Text that reorders

  /// The format characters that set the direction of text reach diagnostic messages escaped, as
  /// control characters do: raw, `ab\u{202E}cd` shows the rest of an editor's message (or a
  /// terminal's line) reversed.
  @Test func directionalCharactersInMessagesAreEscaped() throws {
    let client = try LSPClient.started()
    client.open("file:///bidi.rpn", "ab\u{202E}cd \u{2067}x\u{200E}\n")
    let published = try client.publishedDiagnostics("file:///bidi.rpn")
    #expect(
      published.diagnostics.compactMap { $0["message"]?.stringValue } == [
        "unknown word `ab\\u{202e}cd`", "unknown word `\\u{2067}x\\u{200e}`",
      ])
    try client.finish()
  }

  // MARK: Before initialize

  @Test func aNotificationBeforeInitializeIsDroppedAndFaultsAreStillAnswered() throws {
    let client = try LSPClient()
    client.open(Self.uri, "5 5 *")
    client.sendRaw("Content-Length: abc\r\n\r\n")
    let fault = try client.waitForMessage(what: "the answer to a bad header", LSPClient.isResponse).message
    #expect(fault["id"] == .null)
    #expect(LSPClient.error(of: fault)?.code == -32700)
    client.sendRaw(Self.framed("[]"))
    let invalid = try client.waitForMessage(what: "the answer to []") { LSPClient.isResponse($0) && $0 != fault }
      .message
    #expect(invalid["id"] == .null)
    #expect(LSPClient.error(of: invalid)?.code == -32600)
    try client.initialize()
    let error = try client.requestError(
      "textDocument/inlayHint", ["textDocument": ["uri": .string(Self.uri)], "range": range(0, 0, 1, 0)])
    #expect(error.code == -32602)
    #expect(error.message.contains(Self.uri))
    #expect(client.allPublished(Self.uri).isEmpty)
    try client.finish()
  }

  // MARK: Large input

  /// A 5 MB line that is also a stack 2.5 million deep.
  @Test func aFiveMegabyteLineAndAStackMillionsDeep() throws {
    let client = try LSPClient.started()
    let uri = "file:///big.rpn"
    client.open(uri, String(repeating: "1 ", count: 2_500_000) + "sum")
    let slow = LSPClient.slowTimeout
    #expect(compact(hints: try client.allInlayHints(uri, timeout: slow)) == ["0:5000003 [2500000]"])
    // A range short of the hint still touches its line.
    #expect(
      compact(hints: try client.inlayHints(uri, range(0, 0, 0, 5_000_002), timeout: slow)) == ["0:5000003 [2500000]"])
    #expect(try client.publishedDiagnostics(uri, timeout: slow).diagnostics == [])
    let hover = try client.hover(uri, position(0, 5_000_001), timeout: slow)
    #expect(compact(range: hover["range"]) == "0:5000000-0:5000003")
    #expect(
      hover["contents"]?["value"]?.stringValue?.hasSuffix("Stack before: [… 1 1 1 1 1 1 1 1]\nStack after: [2500000]")
        == true)
    // An edit at its start: a value more, everywhere below.
    client.change(uri, version: 2, [edit(range(0, 0, 0, 0), "1 ")])
    #expect(compact(hints: try client.allInlayHints(uri, timeout: slow)) == ["0:5000005 [2500001]"])
    // And the server still answers small things.
    client.open(Self.uri, Self.text)
    #expect(compact(hints: try client.allInlayHints(Self.uri)) == Self.hints)
    try client.finish()
  }

  /// A stack a million deep over a million lines; an edit at the top changes the bottom.
  @Test func aMillionLines() throws {
    let client = try LSPClient.started()
    let uri = "file:///lines.rpn"
    client.open(uri, String(repeating: "1\n", count: 1_000_000) + "sum\n")
    let slow = LSPClient.slowTimeout
    #expect(
      compact(hints: try client.inlayHints(uri, range(999_998, 0, 1_000_001, 0), timeout: slow)) == [
        "999998:1 [… 1 1 1 1 1 1 1 1]", "999999:1 [… 1 1 1 1 1 1 1 1]", "1000000:3 [1000000]",
      ])
    client.change(uri, version: 2, [edit(range(0, 0, 0, 1), "2")])
    #expect(
      compact(hints: try client.inlayHints(uri, range(999_999, 0, 1_000_001, 0), timeout: slow)) == [
        "999999:1 [… 1 1 1 1 1 1 1 1]", "1000000:3 [1000001]",
      ])
    #expect(try client.publishedDiagnostics(uri, timeout: slow).version == 2)
    let hover = try client.hover(uri, position(1_000_000, 1), timeout: slow)
    #expect(compact(range: hover["range"]) == "1000000:0-1000000:3")
    try client.finish()
  }

  /// One token of a megabyte: an unknown word. Its diagnostic must come in reasonable time (a
  /// server that looks for a "did you mean" split at every cut in quadratic time never answers).
  @Test func aOneMegabyteToken() throws {
    let client = try LSPClient.started()
    let uri = "file:///token.rpn"
    let word = String(repeating: "a", count: 1_000_000)
    client.open(uri, word + "\n1 2 +")
    let hints = try client.inlayHints(uri, range(0, 0, 2, 0), timeout: 30)
    #expect(compact(hints: hints) == ["0:1000000 []", "1:5 [3]"])
    let published = try client.publishedDiagnostics(uri, timeout: 30)
    #expect(compactWithoutMessage(diagnostics: published.diagnostics) == ["0:0-0:1000000 error unknown-word"])
    try client.finish()
  }

  /// `inlayHints.maxItems` at its largest, 1000, over a stack of a hundred thousand values: the hover
  /// comes in reasonable time and shows the top 1000. A larger value is ignored (the default, 8).
  @Test(arguments: [(1000, 1000), (1001, 8), (1_000_000_000, 8)])
  func aHoverWithAHugeMaxItems(maxItems: Int, shown: Int) throws {
    let client = try LSPClient.started(initializationOptions: ["rpn": ["inlayHints": ["maxItems": JSONValue(maxItems)]]]
    )
    let uri = "file:///wide.rpn"
    let count = 100_000
    client.open(uri, String(repeating: "1 ", count: count))
    let hover = try client.hover(uri, position(0, 2 * count - 1), timeout: 30)
    #expect(compact(range: hover["range"]) == "0:\(2 * count - 2)-0:\(2 * count - 1)")
    let ones = "[… " + Array(repeating: "1", count: shown).joined(separator: " ") + "]"
    #expect(hover["contents"]?["value"]?.stringValue == "number 1\n\nStack before: \(ones)\nStack after: \(ones)")
    try client.finish()
  }

  /// A megabyte of digits: a number out of the double range.
  @Test func aOneMegabyteNumber() throws {
    let client = try LSPClient.started()
    let uri = "file:///number.rpn"
    client.open(uri, String(repeating: "9", count: 1_000_000) + " 1")
    let published = try client.publishedDiagnostics(uri, timeout: 30)
    #expect(compactWithoutMessage(diagnostics: published.diagnostics) == ["0:0-0:1000000 error invalid-number"])
    #expect(compact(hints: try client.allInlayHints(uri, timeout: 30)) == ["0:1000002 [1]"])
    try client.finish()
  }

  /// A frame cut in two writes, after a larger message that came in the first: the server waits
  /// for the rest and answers it right. Cuts inside the header, right after it, and in the body.
  @Test(arguments: [-10, -1, 0, 1, 20, 60])
  func aFrameSplitAcrossWrites(cutAfterHeader: Int) throws {
    let client = try LSPClient.started()
    client.open(Self.uri, Self.text)
    let big = LSPClient.frame(
      LSPClient.requestMessage(
        id: "big", "textDocument/hover",
        [
          "textDocument": ["uri": .string(Self.uri)], "position": position(0, 4),
          "padding": .string(String(repeating: "x", count: 4000)),
        ]))
    let split = LSPClient.frame(
      LSPClient.requestMessage(
        id: "split", "textDocument/inlayHint",
        ["textDocument": ["uri": .string(Self.uri)], "range": range(0, 0, 99, 0)]))
    let headerLength = Array("Content-Length: \(split.count - 4 - "Content-Length: ".count - 4)\r\n\r\n".utf8).count
    #expect(Array(split[..<headerLength]).suffix(4) == [13, 10, 13, 10])
    let cut = headerLength + cutAfterHeader
    let before = client.messageCount
    client.sendRaw(big + split[..<cut])
    let answer = try client.waitForResponse(id: "big")
    #expect(compact(range: try client.result(of: answer)["range"]) == "0:4-0:5")
    Thread.sleep(forTimeInterval: 0.1)  // The server has read the first part and waits for more.
    client.sendRaw(Array(split[cut...]))
    let response = try client.waitForResponse(id: "split")
    #expect(compact(hints: try client.result(of: response)) == Self.hints)
    let end = try client.barrier()
    #expect(client.responses(in: before..<end).compactMap { $0["id"] } == ["big", "split"])
    try client.finish()
  }

  /// Bytes that stop in the middle of a frame, then the end of input, before shutdown: exit 1.
  @Test func endOfInputInTheMiddleOfAFrame() throws {
    let client = try LSPClient.started()
    client.sendRaw("Content-Length: 50\r\n\r\n{\"jsonrpc\":")
    client.closeInput()
    #expect(try client.waitForExit() == 1)
  }
}

import Foundation
import JSONRPC
import RPNLanguageServer
import TestSupport
import Testing

/// the lifecycle and error rules of the README: `initialize`, `shutdown`, `exit`, the error codes of the lifecycle, and exit statuses.
@Suite struct LifecycleTests {
  // MARK: initialize

  @Test func initializeAdvertisesTheServersCapabilities() throws {
    let client = try LSPClient()
    let result = try client.initialize()
    let capabilities = try #require(result["capabilities"])
    #expect(capabilities["positionEncoding"] == "utf-16")
    #expect(capabilities["textDocumentSync"]?["openClose"] == .bool(true))
    #expect(capabilities["textDocumentSync"]?["change"] == 2)
    #expect(isEnabled(capabilities["hoverProvider"]))
    #expect(capabilities["completionProvider"]?.isObject == true)
    #expect(isEnabled(capabilities["inlayHintProvider"]))
    // Pull diagnostics are advertised only to clients that support them (the README's table of server features).
    #expect(capabilities["diagnosticProvider"] == nil)
    #expect(result["serverInfo"]?["name"] == "rpn-lsp")
    #expect(result["serverInfo"]?["version"]?.stringValue?.isEmpty == false)
    try client.finish()
  }

  /// `positionEncoding` is utf-8 when the client offers it, else utf-32 when offered (Vim's
  /// yegappan/lsp offers it first and converts UTF-16 badly), else utf-16; and the negotiated
  /// encoding is the one the server then counts in (an emoji is 4 UTF-8 bytes, 2 UTF-16 units,
  /// 1 scalar).
  @Test(
    arguments: [
      (nil, "utf-16"),
      (["utf-8"], "utf-8"),
      (["utf-16", "utf-8"], "utf-8"),
      (["utf-8", "utf-16"], "utf-8"),
      (["utf-32", "utf-8"], "utf-8"),
      (["utf-32", "utf-16"], "utf-32"),
      (["utf-16", "utf-32"], "utf-32"),
      (["utf-32"], "utf-32"),
      (["utf-7"], "utf-16"),
      ([], "utf-16"),
      ("utf-8", "utf-16"),  // Ill-typed: ignored, the default stays.
    ] as [(JSONValue?, String)])
  func positionEncodingIsNegotiated(offered: JSONValue?, expected: String) throws {
    let capabilities: JSONValue = offered.map { ["general": ["positionEncodings": $0]] } ?? [:]
    let client = try LSPClient()
    let result = try client.initialize(capabilities: capabilities)
    #expect(result["capabilities"]?["positionEncoding"] == .string(expected))
    client.open("file:///enc.rpn", "😀 +")
    let published = try client.publishedDiagnostics("file:///enc.rpn")
    let end = ["utf-8": 4, "utf-16": 2, "utf-32": 1][expected] ?? 0
    #expect(
      compactWithoutMessage(diagnostics: published.diagnostics) == [
        "0:0-0:\(end) error unknown-word", "0:\(end + 1)-0:\(end + 2) warning stack-underflow",
      ])
    try client.finish()
  }

  // MARK: Before initialize

  @Test func requestsBeforeInitializeGetServerNotInitialized() throws {
    let client = try LSPClient()
    let hover = try client.requestError(
      "textDocument/hover", ["textDocument": ["uri": "file:///a.rpn"], "position": position(0, 0)])
    #expect(hover.code == -32002)
    #expect(try client.requestError("shutdown", nil).code == -32002)
    #expect(try client.requestError("textDocument/frobnicate", [:]).code == -32002)
    // The server is still waiting for initialize, and takes it.
    let result = try client.initialize()
    #expect(result["capabilities"]?["positionEncoding"] == "utf-16")
    try client.finish()
  }

  @Test func notificationsBeforeInitializeAreDropped() throws {
    let client = try LSPClient()
    client.open("file:///early.rpn", "1 +")
    client.notify("workspace/didChangeConfiguration", ["settings": ["rpn": ["inlayHints": ["enabled": false]]]])
    try client.initialize()
    let error = try client.requestError(
      "textDocument/hover", ["textDocument": ["uri": "file:///early.rpn"], "position": position(0, 0)])
    #expect(error.code == -32602)
    #expect(error.message.contains("file:///early.rpn"))
    #expect(client.allPublished("file:///early.rpn").isEmpty)
    // The configuration sent before initialize was dropped too: hints are still on.
    client.open("file:///late.rpn", "1 2")
    #expect(compact(hints: try client.allInlayHints("file:///late.rpn")) == ["0:3 [1 2]"])
    try client.finish()
  }

  // MARK: initialize twice, shutdown

  @Test func aSecondInitializeIsRefusedAndChangesNothing() throws {
    let client = try LSPClient()
    try client.initialize(capabilities: [:], initializationOptions: ["rpn": ["precision": 3]])
    let error = try client.requestError(
      "initialize",
      [
        "processId": nil, "capabilities": ["general": ["positionEncodings": ["utf-8"]]],
        "initializationOptions": ["rpn": ["precision": 5]],
      ])
    // A second `initialize` is an error; it fixes no code, and -32600 (invalid request) is the one
    // JSON-RPC has for a request that is not valid now.
    #expect(error.code == -32600)
    // Still utf-16 and precision 3, as the first initialize said.
    client.open("file:///twice.rpn", "😀 1 3 /")
    #expect(
      compactWithoutMessage(diagnostics: try client.publishedDiagnostics("file:///twice.rpn").diagnostics) == [
        "0:0-0:2 error unknown-word"
      ])
    #expect(compact(hints: try client.allInlayHints("file:///twice.rpn")) == ["0:8 [0.333]"])
    try client.finish()
  }

  @Test func afterShutdownRequestsGetInvalidRequest() throws {
    let client = try LSPClient.started()
    client.open("file:///a.rpn", "1 2 +")
    #expect(try client.request("shutdown", nil) == .null)
    let hover = try client.requestError(
      "textDocument/hover", ["textDocument": ["uri": "file:///a.rpn"], "position": position(0, 4)])
    #expect(hover.code == -32600)
    #expect(try client.requestError("shutdown", nil).code == -32600)
    #expect(try client.requestError("initialize", ["processId": nil, "capabilities": [:]]).code == -32600)
    #expect(try client.requestError("textDocument/frobnicate", [:]).code == -32600)
    // Notifications other than exit do nothing now.
    let before = client.messageCount
    client.open("file:///b.rpn", "1 +")
    try client.barrier()
    #expect(client.allPublished("file:///b.rpn").isEmpty)
    #expect(client.messages[before...].filter { $0["method"] != nil }.isEmpty)
    client.notify("exit", nil)
    #expect(try client.waitForExit() == 0)
    #expect(client.protocolViolations == [])
  }

  // MARK: Unknown methods and bad params

  @Test func unknownRequestsGetMethodNotFoundAndUnknownNotificationsAreIgnored() throws {
    let client = try LSPClient.started()
    let unknown = try client.requestError("textDocument/frobnicate", ["textDocument": ["uri": "file:///a.rpn"]])
    #expect(unknown.code == -32601)
    #expect(unknown.message.contains("textDocument/frobnicate"))
    let dollar = try client.requestError("$/frobnicate", [:])
    #expect(dollar.code == -32601)
    let before = client.messageCount
    client.notify("$/frobnicate", ["x": 1])
    client.notify("$/setTrace", ["value": "verbose"])
    client.notify("custom/notification", nil)
    client.notify("textDocument/didSave", ["textDocument": ["uri": "file:///a.rpn"]])
    let barrier = try client.barrier()
    #expect(client.messages[before..<barrier].isEmpty, "nothing answers a notification")
    client.open("file:///a.rpn", "2 3 *")
    #expect(compact(hints: try client.allInlayHints("file:///a.rpn")) == ["0:5 [6]"])
    try client.finish()
  }

  @Test func badParamsGetInvalidParamsNamingTheParam() throws {
    let client = try LSPClient.started()
    client.open("file:///a.rpn", "1 2 +\n")
    let document: JSONValue = ["uri": "file:///a.rpn"]
    let cases: [(method: String, params: JSONValue?, names: String)] = [
      ("textDocument/hover", ["textDocument": document], "position"),
      ("textDocument/hover", ["position": position(0, 0)], "textDocument"),
      ("textDocument/hover", ["textDocument": document, "position": ["line": 0]], "position.character"),
      ("textDocument/hover", ["textDocument": document, "position": ["line": -1, "character": 0]], "position.line"),
      (
        "textDocument/hover", ["textDocument": document, "position": ["line": 0, "character": 0.5]],
        "position.character"
      ),
      ("textDocument/hover", ["textDocument": document, "position": ["line": "0", "character": 0]], "position.line"),
      ("textDocument/hover", ["textDocument": ["uri": 7], "position": position(0, 0)], "textDocument.uri"),
      ("textDocument/hover", nil, "params"),
      ("textDocument/completion", ["textDocument": document, "position": "0:0"], "position"),
      ("textDocument/inlayHint", ["textDocument": document], "range"),
      ("textDocument/inlayHint", ["textDocument": document, "range": ["start": position(0, 0)]], "range.end"),
      ("textDocument/inlayHint", ["textDocument": document, "range": range(1, 0, 0, 0)], "range"),
      ("textDocument/inlayHint", ["textDocument": document, "range": range(0, 3, 0, 2)], "range"),
      ("textDocument/inlayHint", ["textDocument": document, "range": range(0, -1, 0, 2)], "range.start.character"),
    ]
    for (method, params, names) in cases {
      let error = try client.requestError(method, params)
      let what = "\(method) \(params.map { JSONWriter.string($0) } ?? "without params")"
      #expect(error.code == -32602, "\(what)")
      #expect(error.message.contains(names), "\(what): \(error.message.debugDescription) should name \(names)")
    }
    // The document is still there and right.
    #expect(compact(hints: try client.allInlayHints("file:///a.rpn")) == ["0:5 [3]"])
    try client.finish()
  }

  @Test func aRequestForADocumentThatIsNotOpenNamesTheURI() throws {
    let client = try LSPClient.started()
    client.open("file:///open.rpn", "1")
    client.open("file:///closed.rpn", "2")
    client.close("file:///closed.rpn")
    for uri in ["file:///never.rpn", "file:///closed.rpn"] {
      let hover = try client.requestError(
        "textDocument/hover", ["textDocument": ["uri": .string(uri)], "position": position(0, 0)])
      #expect(hover.code == -32602)
      #expect(hover.message.contains(uri))
      let hints = try client.requestError(
        "textDocument/inlayHint", ["textDocument": ["uri": .string(uri)], "range": range(0, 0, 1, 0)])
      #expect(hints.code == -32602)
      #expect(hints.message.contains(uri))
      let completion = try client.requestError(
        "textDocument/completion", ["textDocument": ["uri": .string(uri)], "position": position(0, 0)])
      #expect(completion.code == -32602)
      #expect(completion.message.contains(uri))
    }
    try client.finish()
  }

  // MARK: Cancellation

  /// A request and its `$/cancelRequest` written together (behind a document that keeps the
  /// server busy, so that both are queued when it looks): the request is answered -32800, once.
  ///
  /// The busy document is small and slow: 100 uses of a word of 9,110 steps (0.3 s in a debug
  /// build), so that the few hundred bytes behind it are read and parsed long before the server
  /// looks again, even on a loaded machine. (A long tape of values was both slow to read and,
  /// since the lexer got faster, quick to evaluate: the server could finish it before the
  /// reader had parsed the cancels.)
  @Test func aRequestCancelledWhileQueuedGetsRequestCancelled() throws {
    let client = try LSPClient.started()
    func uses(_ word: String, _ count: Int) -> String {
      Array(repeating: word, count: count).joined(separator: " ")
    }
    let definitions: [String] = [
      "2 : a0 \(uses("sqrt", 8)) ;", ": a1 \(uses("a0", 10)) ;", ": a2 \(uses("a1", 10)) ;", ": w \(uses("a2", 10)) ;",
    ]
    let busy = (definitions + [uses("w", 100)]).joined(separator: "\n")
    let hoverParams: JSONValue = ["textDocument": ["uri": "file:///small.rpn"], "position": position(0, 0)]
    let before = client.messageCount
    client.send(together: [
      LSPClient.notificationMessage(
        "textDocument/didOpen",
        ["textDocument": ["uri": "file:///small.rpn", "languageId": "rpn", "version": 1, "text": "5 6 +"]]),
      LSPClient.notificationMessage(
        "textDocument/didOpen",
        ["textDocument": ["uri": "file:///busy.rpn", "languageId": "rpn", "version": 1, "text": .string(busy)]]),
      LSPClient.requestMessage(id: 41, "textDocument/hover", hoverParams),
      LSPClient.requestMessage(id: "forty-two", "textDocument/hover", hoverParams),
      LSPClient.requestMessage(id: 43, "textDocument/hover", hoverParams),
      // An id written `1e3`, cancelled as `1000`: ids are matched by their value.
      LSPClient.requestMessage(id: .encoded(Array("1e3".utf8)), "textDocument/hover", hoverParams),
      LSPClient.notificationMessage("$/cancelRequest", ["id": 41]),
      LSPClient.notificationMessage("$/cancelRequest", ["id": "forty-two"]),
      LSPClient.notificationMessage("$/cancelRequest", ["id": 1000]),
      LSPClient.notificationMessage("$/cancelRequest", ["id": 999]),  // Nothing has this id.
    ])
    let cancelled = try client.waitForResponse(id: 41, timeout: LSPClient.slowTimeout)
    #expect(LSPClient.error(of: cancelled)?.code == -32800)
    let cancelledString = try client.waitForResponse(id: "forty-two")
    #expect(LSPClient.error(of: cancelledString)?.code == -32800)
    let answered = try client.result(of: client.waitForResponse(id: 43))
    #expect(compact(range: answered["range"]) == "0:0-0:1")
    #expect(LSPClient.error(of: try client.waitForResponse(id: 1000))?.code == -32800)
    // A cancel for a request already answered changes nothing: no second response.
    client.notify("$/cancelRequest", ["id": 43])
    let end = try client.barrier()
    let ids = client.responses(in: before..<end).compactMap { $0["id"] }
    #expect(ids == [41, "forty-two", 43, 1000])
    try client.finish()
  }

  /// A cancel read while the server works on a batch (the reader notes it at once) cancels the
  /// requests of that batch it has not reached yet; handled, the cancel is forgotten. The server
  /// is driven directly, and the cancel is noted from inside its first answer: what the reader
  /// does when a cancel arrives while the server is busy, without the timing of two threads.
  @Test func aCancelReadDuringItsBatchReachesTheRequestsNotAnsweredYet() throws {
    let cancels = ArrivedCancels()
    let cancel = StdioTransport.decode(
      JSONWriter.encode(LSPClient.notificationMessage("$/cancelRequest", ["id": "late"])))
    var answers: [JSONValue] = []
    let server = Server(
      send: { message in
        guard message["method"] == nil else { return }  // Diagnostics, log messages.
        if message["id"] == 2 { cancels.notice(cancel) }  // Read while the server answered 2.
        // As the client reads it: a typed result is written by the server already encoded.
        if case .success(let read) = JSONParser.parse(JSONWriter.encode(message)) { answers.append(read) }
      }, log: { _ in }, cancels: cancels)
    func incoming(_ message: JSONValue) -> Incoming { StdioTransport.decode(JSONWriter.encode(message)) }
    let hover: JSONValue = ["textDocument": ["uri": "file:///a.rpn"], "position": position(0, 0)]
    server.handle([
      incoming(LSPClient.requestMessage(id: 1, "initialize", ["capabilities": [:]])),
      incoming(LSPClient.notificationMessage("initialized", [:])),
      incoming(
        LSPClient.notificationMessage(
          "textDocument/didOpen",
          ["textDocument": ["uri": "file:///a.rpn", "languageId": "rpn", "version": 1, "text": "5 6 +"]])),
    ])
    server.handle([
      incoming(LSPClient.requestMessage(id: 2, "textDocument/hover", hover)),
      incoming(LSPClient.requestMessage(id: "late", "textDocument/hover", hover)),
    ])
    #expect(answers.count == 3)
    #expect(compact(range: answers[1]["result"]?["range"]) == "0:0-0:1")
    #expect(answers[2]["id"] == "late")
    #expect(answers[2]["error"]?["code"] == -32800)
    // The cancel itself, handled, is forgotten: a later request with the same id is answered.
    server.handle([cancel, incoming(LSPClient.requestMessage(id: "late", "textDocument/hover", hover))])
    #expect(answers.count == 4)
    #expect(compact(range: answers[3]["result"]?["range"]) == "0:0-0:1")
  }

  /// Every request gets exactly one response, whatever mix arrives at once.
  @Test func everyRequestGetsExactlyOneResponse() throws {
    let client = try LSPClient.started()
    client.open("file:///a.rpn", "1 2 +\n")
    let document: JSONValue = ["uri": "file:///a.rpn"]
    var messages: [JSONValue] = []
    var expectedIDs: [JSONValue] = []
    for k in 0..<60 {
      let id: JSONValue = k % 2 == 0 ? JSONValue(1000 + k) : .string("id-\(k)")
      expectedIDs.append(id)
      switch k % 6 {
      case 0:
        messages.append(
          LSPClient.requestMessage(
            id: id, "textDocument/hover", ["textDocument": document, "position": position(0, 4)]))
      case 1:
        messages.append(
          LSPClient.requestMessage(
            id: id, "textDocument/inlayHint", ["textDocument": document, "range": range(0, 0, 2, 0)]))
      case 2:
        messages.append(
          LSPClient.requestMessage(
            id: id, "textDocument/completion", ["textDocument": document, "position": position(1, 0)]))
      case 3: messages.append(LSPClient.requestMessage(id: id, "nothing/here", nil))
      case 4: messages.append(LSPClient.requestMessage(id: id, "textDocument/hover", ["textDocument": document]))
      default:
        messages.append(LSPClient.didChange("file:///a.rpn", version: k, [edit(range(0, 0, 0, 0), "1 ")]))
        messages.append(
          LSPClient.requestMessage(
            id: id, "textDocument/inlayHint", ["textDocument": document, "range": range(0, 0, 0, 100)]))
      }
    }
    let before = client.messageCount
    client.send(together: messages)
    let end = try client.barrier()
    let ids = client.responses(in: before..<end).compactMap { $0["id"] }
    #expect(ids == expectedIDs)
    try client.finish()
  }

  // MARK: Request ids

  /// A number id is answered with its text as the client wrote it, whatever its size or form: a
  /// client matches answers to requests by the id, and read as a double `9007199254740993` (past
  /// 2^53) came back as `9007199254740992.0`, `1e3` as `1000` and `-0` as `0`, and ids past
  /// ±2^53 were refused (-32600). Checked on the bytes the binary writes: a parsed answer would
  /// hide the difference. A string id comes back as it was; a null one is refused, as before.
  @Test func numberIDsAreAnsweredAsWritten() throws {
    let ids = [
      "9007199254740993", "1e3", "-0", "-9007199254740993", "18446744073709551617", "1E+400", "1.5", "0.10", "7",
      "-12", #""s""#,
    ]
    let messages =
      [#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#]
      + ids.map { #"{"jsonrpc":"2.0","id":\#($0),"method":"rpn/none"}"# }
      + [
        #"{"jsonrpc":"2.0","id":null,"method":"rpn/none"}"#, #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#,
        #"{"jsonrpc":"2.0","method":"exit"}"#,
      ]
    let output = try Self.run(input: messages.flatMap { LSPClient.frame(body: $0) })
    // Between `initialize`'s answer and `shutdown`'s.
    let answers = Array(output.dropFirst().dropLast())
    let error = #","error":{"code":-32601,"message":"unknown method 'rpn/none'"}}"#
    let unknown = ids.map { #"{"jsonrpc":"2.0","id":"# + $0 + error }
    let refused = #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"id must be a number or a string"}}"#
    #expect(answers == unknown + [refused])
    #expect(output.last == #"{"jsonrpc":"2.0","id":2,"result":null}"#)
  }

  /// The bodies the built binary writes for `input`, written whole before its output is read.
  static func run(input: [UInt8]) throws -> [String] {
    let process = Process()
    process.executableURL = try serverBinary()
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    stdin.fileHandleForWriting.write(Data(input))
    try stdin.fileHandleForWriting.close()
    let output = [UInt8](stdout.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    var bodies: [String] = []
    var rest = output[...]
    let separator = Array("\r\n\r\n".utf8)
    while let end = rest.firstRange(of: separator) {
      let header = String(decoding: rest[..<end.lowerBound], as: UTF8.self)
      guard let length = Int(header.replacingOccurrences(of: "Content-Length: ", with: "")) else { break }
      let start = end.upperBound
      bodies.append(String(decoding: rest[start..<min(start + length, rest.endIndex)], as: UTF8.self))
      rest = rest[min(start + length, rest.endIndex)...]
    }
    return bodies
  }

  // MARK: Exit statuses

  @Test func exitAfterShutdownExitsZero() throws {
    let client = try LSPClient.started()
    #expect(try client.request("shutdown", nil) == .null)
    client.notify("exit", nil)
    #expect(try client.waitForExit() == 0)
  }

  @Test func exitWithoutShutdownExitsOne() throws {
    let client = try LSPClient.started()
    client.notify("exit", nil)
    #expect(try client.waitForExit() == 1)
  }

  @Test func exitBeforeInitializeExitsOne() throws {
    let client = try LSPClient()
    client.notify("exit", nil)
    #expect(try client.waitForExit() == 1)
  }

  @Test func endOfInputWithoutShutdownExitsOne() throws {
    let client = try LSPClient.started()
    client.open("file:///a.rpn", "1 2 +")
    client.closeInput()
    #expect(try client.waitForExit() == 1)
  }

  @Test func endOfInputBeforeInitializeExitsOne() throws {
    let client = try LSPClient()
    client.closeInput()
    #expect(try client.waitForExit() == 1)
  }

  @Test func endOfInputAfterShutdownExitsZero() throws {
    let client = try LSPClient.started()
    #expect(try client.request("shutdown", nil) == .null)
    client.closeInput()
    #expect(try client.waitForExit() == 0)
  }

  /// A partial frame at the end of the input ends the server as the end of input does.
  @Test func endOfInputInsideAFrameAfterShutdownExitsZero() throws {
    let client = try LSPClient.started()
    #expect(try client.request("shutdown", nil) == .null)
    client.sendRaw("Content-Length: 100\r\n\r\n{\"jsonrpc\":")
    client.closeInput()
    #expect(try client.waitForExit() == 0)
  }

  /// Nothing is read or answered after `exit`, even in the same write.
  @Test func nothingIsAnsweredAfterExit() throws {
    let client = try LSPClient.started()
    #expect(try client.request("shutdown", nil) == .null)
    let before = client.messageCount
    client.send(together: [
      LSPClient.notificationMessage("exit", nil), LSPClient.requestMessage(id: 5, "textDocument/frobnicate", nil),
    ])
    #expect(try client.waitForExit() == 0)
    try client.waitForEndOfOutput()
    #expect(client.messages.count == before)
  }
}

/// A provider capability that is on: `true` or an options object.
func isEnabled(_ capability: JSONValue?) -> Bool {
  capability == .bool(true) || capability?.isObject == true
}

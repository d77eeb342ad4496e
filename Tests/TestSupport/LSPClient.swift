import Foundation
import JSONRPC

/// A test client for the language server: it sends JSON-RPC, collects everything the server
/// sends, and waits for answers. Every wait has a timeout; a timeout kills the server and throws.
///
/// The server is the built `rpn-lsp` started with pipes (`ServerProcess`), or a `Server` in the
/// test process (`InProcessServer`), as `ServerTransport` says; the API is the same.
///
/// Server-to-client requests (`workspace/inlayHint/refresh`) are recorded and answered with a
/// null result, as a well-behaved client does.
package final class LSPClient: @unchecked Sendable {
  package static let timeout: TimeInterval = 10
  /// For requests over documents of megabytes in a debug build.
  package static let slowTimeout: TimeInterval = 120

  package let transport: ServerTransport
  /// What the server sent; the connection fills it.
  private let inbox: Inbox
  private let connection: any ServerConnection
  private var nextID = 1  // Guarded by `inbox.condition`.

  /// Starts a server: `rpn-lsp` with `arguments` (none: serve LSP on stdio), or one in this
  /// process; by default over the transport that the test's traits chose.
  package init(arguments: [String] = [], transport: ServerTransport = .current) throws {
    let inbox = Inbox()
    self.inbox = inbox
    self.transport = transport
    switch transport {
    case .pipes:
      connection = try ServerProcess(arguments: arguments, inbox: inbox)
    case .inProcess:
      guard arguments.isEmpty else { throw ClientFailure("command line arguments need the pipes transport") }
      connection = InProcessServer(inbox: inbox)
    }
  }

  /// A client dropped by a failing test kills its server.
  deinit {
    kill()
  }

  /// Ends the server at once (SIGKILL for the process), if it still runs.
  package func kill() { connection.kill() }

  // MARK: Writing

  /// The framed bytes of a message, framed as the server frames its own (and the bench its).
  package static func frame(_ message: JSONValue) -> [UInt8] {
    Outgoing.frame(JSONWriter.encode(message))
  }

  package static func frame(body: [UInt8]) -> [UInt8] { Outgoing.frame(body) }

  package static func frame(body: String) -> [UInt8] { frame(body: Array(body.utf8)) }

  /// Writes bytes as they are, in one write loop (so that several frames arrive together).
  ///
  /// A server that stops reading for `slowTimeout` is killed (so that the test cannot hang on a
  /// full pipe), which the next wait reports.
  package func sendRaw(_ bytes: [UInt8]) { connection.sendRaw(bytes) }

  package func sendRaw(_ text: String) { sendRaw(Array(text.utf8)) }

  package func send(_ message: JSONValue) { connection.send([message]) }

  /// Sends several messages in one write, so that the server finds them queued together (in
  /// process: one batch).
  package func send(together messages: [JSONValue]) { connection.send(messages) }

  package func newID() -> JSONValue {
    inbox.locked {
      nextID += 1
      return JSONValue(nextID)
    }
  }

  package static func requestMessage(id: JSONValue, _ method: String, _ params: JSONValue?) -> JSONValue {
    Outgoing.request(id: id, method: method, params: params)
  }

  package static func notificationMessage(_ method: String, _ params: JSONValue?) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [("jsonrpc", "2.0"), ("method", .string(method))]
    if let params { members.append(("params", params)) }
    return .object(members)
  }

  /// Sends a request without waiting; returns its id.
  @discardableResult
  package func sendRequest(_ method: String, _ params: JSONValue?, id: JSONValue? = nil) -> JSONValue {
    let id = id ?? newID()
    send(Self.requestMessage(id: id, method, params))
    return id
  }

  package func notify(_ method: String, _ params: JSONValue?) {
    send(Self.notificationMessage(method, params))
  }

  /// Sends a request and waits for its response: the result, or the error thrown as `ServerError`.
  @discardableResult
  package func request(_ method: String, _ params: JSONValue?, timeout: TimeInterval = LSPClient.timeout) throws
    -> JSONValue
  {
    let id = sendRequest(method, params)
    return try result(of: waitForResponse(id: id, timeout: timeout))
  }

  /// Sends a request that must fail, and returns its error.
  package func requestError(_ method: String, _ params: JSONValue?, timeout: TimeInterval = LSPClient.timeout)
    throws -> ServerError
  {
    let id = sendRequest(method, params)
    let response = try waitForResponse(id: id, timeout: timeout)
    guard let error = Self.error(of: response) else {
      throw ClientFailure("\(method) succeeded with \(JSONWriter.string(response)), an error was expected")
    }
    return error
  }

  /// The result of a response, or its error thrown.
  package func result(of response: JSONValue) throws -> JSONValue {
    if let error = Self.error(of: response) { throw error }
    guard let result = response["result"] else {
      throw ClientFailure("response without result or error: \(JSONWriter.string(response))")
    }
    return result
  }

  package static func error(of response: JSONValue) -> ServerError? {
    guard let error = response["error"] else { return nil }
    return ServerError(code: error["code"]?.intValue ?? 0, message: error["message"]?.stringValue ?? "")
  }

  /// Closes the server's standard input (end of input); `waitForExit()` gives its exit status.
  package func close() { closeInput() }

  /// Closes the server's standard input (end of input).
  package func closeInput() { connection.closeInput() }

  /// Whether server-to-client requests are answered (with a null result).
  package var answerServerRequests: Bool {
    get { inbox.locked { inbox.answerServerRequests } }
    set { inbox.locked { inbox.answerServerRequests = newValue } }
  }

  // MARK: Waiting

  /// Everything received so far, in order.
  package var messages: [JSONValue] { inbox.locked { inbox.received } }

  package var messageCount: Int { messages.count }

  /// Output that broke the protocol (stdout must carry only framed JSON-RPC).
  package var protocolViolations: [String] { inbox.locked { inbox.violations } }

  /// What the server wrote on standard error.
  package var standardError: String { inbox.standardError }

  /// Waits for the first message at or after `index` that `matches`; returns it and its index.
  package func waitForMessage(
    after index: Int = 0, timeout: TimeInterval = LSPClient.timeout, what: String,
    _ matches: (JSONValue) -> Bool
  ) throws -> (message: JSONValue, index: Int) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    inbox.condition.lock()
    var next = index
    while true {
      while next < inbox.received.count {
        if matches(inbox.received[next]) {
          let found = (inbox.received[next], next)
          inbox.condition.unlock()
          return found
        }
        next += 1
      }
      if inbox.outputEnded {
        inbox.condition.unlock()
        throw ClientFailure("the server closed its output before \(what); stderr: \(standardError.suffix(2000))")
      }
      if connection.answersBeforeReturning {
        inbox.condition.unlock()
        throw ClientFailure("the server sent no \(what)")
      }
      if !inbox.condition.wait(until: deadline) {
        inbox.condition.unlock()
        kill()
        throw ClientFailure("timed out after \(timeout) s waiting for \(what); the server was killed")
      }
    }
  }

  /// Waits for the response to the request `id`.
  package func waitForResponse(id: JSONValue, timeout: TimeInterval = LSPClient.timeout) throws -> JSONValue {
    try waitForMessage(timeout: timeout, what: "the response to request \(JSONWriter.string(id))") {
      Self.isResponse($0) && $0["id"] == id
    }.message
  }

  /// Waits for a notification from the server (at or after message `index`) whose params match.
  @discardableResult
  package func waitForNotification(
    _ method: String, after index: Int = 0, timeout: TimeInterval = LSPClient.timeout,
    where matches: (JSONValue) -> Bool = { _ in true }
  ) throws -> JSONValue {
    try waitForMessage(after: index, timeout: timeout, what: "notification \(method)") {
      $0["method"]?.stringValue == method && $0["id"] == nil && matches($0["params"] ?? .null)
    }.message["params"] ?? .null
  }

  package static func isResponse(_ message: JSONValue) -> Bool {
    message["method"] == nil && message["id"] != nil
  }

  /// A round trip: once it returns, everything the server sent for earlier messages has been
  /// received (the server answers in order). Returns the number of messages received before the
  /// barrier's answer.
  @discardableResult
  package func barrier(timeout: TimeInterval = LSPClient.timeout) throws -> Int {
    let id = sendRequest("rpn-test/barrier", [:])
    return try waitForMessage(timeout: timeout, what: "the answer to a barrier request") {
      Self.isResponse($0) && $0["id"] == id
    }.index
  }

  /// Responses (not notifications or server requests) received in `range` of message indices.
  package func responses(in range: Range<Int>) -> [JSONValue] {
    let all = messages
    return all[min(range.lowerBound, all.count)..<min(range.upperBound, all.count)].filter(Self.isResponse)
  }

  /// Requests the server sent to the client (method and params), in order.
  package var serverRequests: [JSONValue] {
    messages.filter(Inbox.isServerRequest)
  }

  /// Waits until the server exits (after `exit` or the end of input); returns its exit status.
  package func waitForExit(timeout: TimeInterval = LSPClient.timeout) throws -> Int32 {
    try connection.waitForExit(timeout: timeout)
  }

  package var isRunning: Bool { connection.isRunning }

  /// Waits until the server closed its standard output (it exited) and all of it was read.
  package func waitForEndOfOutput(timeout: TimeInterval = LSPClient.timeout) throws {
    let deadline = Date(timeIntervalSinceNow: timeout)
    inbox.condition.lock()
    defer { inbox.condition.unlock() }
    while !inbox.outputEnded {
      if connection.answersBeforeReturning { throw ClientFailure("the server's output has not ended: it still runs") }
      if !inbox.condition.wait(until: deadline) {
        inbox.condition.unlock()
        kill()
        inbox.condition.lock()
        throw ClientFailure("the server's output did not end within \(timeout) s; it was killed")
      }
    }
  }
}

// MARK: Errors

/// Something went wrong on the client's side of the conversation: a timeout, an unexpected
/// answer, a server that went away. The server has been killed when this is thrown for a timeout.
package struct ClientFailure: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}

/// An error response from the server.
package struct ServerError: Error, Equatable, CustomStringConvertible {
  package var code: Int
  package var message: String
  package var description: String { "server error \(code): \(message)" }
}

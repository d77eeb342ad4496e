import Foundation
import JSONRPC
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

private func killProcess(_ pid: Int32) {
  _ = kill(pid, SIGKILL)
}

private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, bytes, count)
}

// MARK: Errors

/// Something went wrong on the client's side of the conversation: a timeout, an unexpected
/// answer, a server that went away. The server has been killed when this is thrown for a timeout.
struct ClientFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// An error response from the server.
struct ServerError: Error, Equatable, CustomStringConvertible {
  var code: Int
  var message: String
  var description: String { "server error \(code): \(message)" }
}

// MARK: The client

/// A test client for `rpn-lsp`: starts the binary with pipes, frames JSON-RPC over them, and
/// collects everything the server writes on a reader thread. Every wait has a timeout; a timeout
/// kills the server and throws.
///
/// Server-to-client requests (`workspace/inlayHint/refresh`) are recorded and answered with a
/// null result, as a well-behaved client does.
final class LSPClient: @unchecked Sendable {
  static let timeout: TimeInterval = 10
  /// For requests over documents of megabytes in a debug build.
  static let slowTimeout: TimeInterval = 120

  private let process = Process()
  /// What the reader threads share with the client; they hold it and not the client, so that a
  /// client dropped by a failing test kills its server (`deinit`).
  private let shared: Shared
  private let exited = DispatchSemaphore(value: 0)
  private var nextID = 1  // Guarded by `shared.condition`.

  /// Starts `rpn-lsp` with `arguments` (none: serve LSP on stdio).
  init(arguments: [String] = []) throws {
    signal(SIGPIPE, SIG_IGN)
    process.executableURL = try serverBinary()
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    let exited = self.exited
    process.terminationHandler = { _ in exited.signal() }
    let shared = Shared(input: stdin.fileHandleForWriting)
    self.shared = shared
    try process.run()
    shared.pid = process.processIdentifier
    Thread.detachNewThread { shared.readOutput(stdout.fileHandleForReading) }
    Thread.detachNewThread { shared.readErrors(stderr.fileHandleForReading) }
  }

  deinit {
    kill()
  }

  /// Ends the server at once (SIGKILL), if it still runs.
  func kill() {
    if process.isRunning { killProcess(process.processIdentifier) }
    shared.closeInput()
  }

  // MARK: Writing

  /// The framed bytes of a message.
  static func frame(_ message: JSONValue) -> [UInt8] {
    frame(body: JSONWriter.encode(message))
  }

  static func frame(body: [UInt8]) -> [UInt8] {
    Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
  }

  static func frame(body: String) -> [UInt8] { frame(body: Array(body.utf8)) }

  /// Writes bytes as they are, in one write loop (so that several frames arrive together).
  ///
  /// A server that stops reading for `slowTimeout` is killed (so that the test cannot hang on a
  /// full pipe), which the next wait reports.
  func sendRaw(_ bytes: [UInt8]) { shared.write(bytes) }

  func sendRaw(_ text: String) { sendRaw(Array(text.utf8)) }

  func send(_ message: JSONValue) { sendRaw(Self.frame(message)) }

  /// Sends several messages in one write, so that the server finds them queued together.
  func send(together messages: [JSONValue]) { sendRaw(messages.flatMap(Self.frame)) }

  func newID() -> JSONValue {
    shared.condition.lock()
    defer { shared.condition.unlock() }
    nextID += 1
    return JSONValue(nextID)
  }

  static func requestMessage(id: JSONValue, _ method: String, _ params: JSONValue?) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [("jsonrpc", "2.0"), ("id", id), ("method", .string(method))]
    if let params { members.append(("params", params)) }
    return .object(members)
  }

  static func notificationMessage(_ method: String, _ params: JSONValue?) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [("jsonrpc", "2.0"), ("method", .string(method))]
    if let params { members.append(("params", params)) }
    return .object(members)
  }

  /// Sends a request without waiting; returns its id.
  @discardableResult
  func sendRequest(_ method: String, _ params: JSONValue?, id: JSONValue? = nil) -> JSONValue {
    let id = id ?? newID()
    send(Self.requestMessage(id: id, method, params))
    return id
  }

  func notify(_ method: String, _ params: JSONValue?) {
    send(Self.notificationMessage(method, params))
  }

  /// Sends a request and waits for its response: the result, or the error thrown as `ServerError`.
  @discardableResult
  func request(_ method: String, _ params: JSONValue?, timeout: TimeInterval = LSPClient.timeout) throws -> JSONValue {
    let id = sendRequest(method, params)
    return try result(of: waitForResponse(id: id, timeout: timeout))
  }

  /// Sends a request that must fail, and returns its error.
  func requestError(_ method: String, _ params: JSONValue?, timeout: TimeInterval = LSPClient.timeout) throws
    -> ServerError
  {
    let id = sendRequest(method, params)
    let response = try waitForResponse(id: id, timeout: timeout)
    guard let error = Self.error(of: response) else {
      throw ClientFailure("\(method) succeeded with \(JSONWriter.string(response)), an error was expected")
    }
    return error
  }

  /// The result of a response, or its error thrown.
  func result(of response: JSONValue) throws -> JSONValue {
    if let error = Self.error(of: response) { throw error }
    guard let result = response["result"] else {
      throw ClientFailure("response without result or error: \(JSONWriter.string(response))")
    }
    return result
  }

  static func error(of response: JSONValue) -> ServerError? {
    guard let error = response["error"] else { return nil }
    return ServerError(code: error["code"]?.intValue ?? 0, message: error["message"]?.stringValue ?? "")
  }

  /// Closes the server's standard input (end of input); `waitForExit()` gives its exit status.
  func close() { closeInput() }

  /// Closes the server's standard input (end of input).
  func closeInput() { shared.closeInput() }

  /// Whether server-to-client requests are answered (with a null result).
  var answerServerRequests: Bool {
    get { shared.locked { shared.answerServerRequests } }
    set { shared.locked { shared.answerServerRequests = newValue } }
  }

  // MARK: Waiting

  /// Everything received so far, in order.
  var messages: [JSONValue] {
    shared.condition.lock()
    defer { shared.condition.unlock() }
    return shared.received
  }

  var messageCount: Int { messages.count }

  /// Output that broke the protocol (stdout must carry only framed JSON-RPC).
  var protocolViolations: [String] {
    shared.condition.lock()
    defer { shared.condition.unlock() }
    return shared.violations
  }

  /// What the server wrote on standard error.
  var standardError: String {
    shared.condition.lock()
    defer { shared.condition.unlock() }
    return String(decoding: shared.errorOutput, as: UTF8.self)
  }

  /// Waits for the first message at or after `index` that `matches`; returns it and its index.
  func waitForMessage(
    after index: Int = 0, timeout: TimeInterval = LSPClient.timeout, what: String,
    _ matches: (JSONValue) -> Bool
  ) throws -> (message: JSONValue, index: Int) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    shared.condition.lock()
    var next = index
    while true {
      while next < shared.received.count {
        if matches(shared.received[next]) {
          let found = (shared.received[next], next)
          shared.condition.unlock()
          return found
        }
        next += 1
      }
      if shared.outputEnded {
        shared.condition.unlock()
        throw ClientFailure("the server closed its output before \(what); stderr: \(standardError.suffix(2000))")
      }
      if !shared.condition.wait(until: deadline) {
        shared.condition.unlock()
        kill()
        throw ClientFailure("timed out after \(timeout) s waiting for \(what); the server was killed")
      }
    }
  }

  /// Waits for the response to the request `id`.
  func waitForResponse(id: JSONValue, timeout: TimeInterval = LSPClient.timeout) throws -> JSONValue {
    try waitForMessage(timeout: timeout, what: "the response to request \(JSONWriter.string(id))") {
      Self.isResponse($0) && $0["id"] == id
    }.message
  }

  /// Waits for a notification from the server (at or after message `index`) whose params match.
  @discardableResult
  func waitForNotification(
    _ method: String, after index: Int = 0, timeout: TimeInterval = LSPClient.timeout,
    where matches: (JSONValue) -> Bool = { _ in true }
  ) throws -> JSONValue {
    try waitForMessage(after: index, timeout: timeout, what: "notification \(method)") {
      $0["method"]?.stringValue == method && $0["id"] == nil && matches($0["params"] ?? .null)
    }.message["params"] ?? .null
  }

  static func isResponse(_ message: JSONValue) -> Bool {
    message["method"] == nil && message["id"] != nil
  }

  /// A round trip: once it returns, everything the server sent for earlier messages has been
  /// received (the server answers in order). Returns the number of messages received before the
  /// barrier's answer.
  @discardableResult
  func barrier(timeout: TimeInterval = LSPClient.timeout) throws -> Int {
    let id = sendRequest("rpn-test/barrier", [:])
    return try waitForMessage(timeout: timeout, what: "the answer to a barrier request") {
      Self.isResponse($0) && $0["id"] == id
    }.index
  }

  /// Responses (not notifications or server requests) received in `range` of message indices.
  func responses(in range: Range<Int>) -> [JSONValue] {
    let all = messages
    return all[min(range.lowerBound, all.count)..<min(range.upperBound, all.count)].filter(Self.isResponse)
  }

  /// Requests the server sent to the client (method and params), in order.
  var serverRequests: [JSONValue] {
    messages.filter { $0["method"] != nil && $0["id"] != nil }
  }

  /// Waits until the server exits (after `exit` or the end of input); returns its exit status.
  func waitForExit(timeout: TimeInterval = LSPClient.timeout) throws -> Int32 {
    if exited.wait(timeout: .now() + timeout) == .timedOut {
      kill()
      throw ClientFailure("the server did not exit within \(timeout) s; it was killed")
    }
    exited.signal()  // Let later calls return at once.
    guard process.terminationReason == .exit else {
      throw ClientFailure(
        "the server died of signal \(process.terminationStatus); stderr: \(standardError.suffix(2000))")
    }
    return process.terminationStatus
  }

  var isRunning: Bool { process.isRunning }

  /// Waits until the server closed its standard output (it exited) and all of it was read.
  func waitForEndOfOutput(timeout: TimeInterval = LSPClient.timeout) throws {
    let deadline = Date(timeIntervalSinceNow: timeout)
    shared.condition.lock()
    defer { shared.condition.unlock() }
    while !shared.outputEnded {
      if !shared.condition.wait(until: deadline) {
        shared.condition.unlock()
        kill()
        shared.condition.lock()
        throw ClientFailure("the server's output did not end within \(timeout) s; it was killed")
      }
    }
  }
}

/// The state the client shares with its reader threads: what arrived (guarded by `condition`)
/// and the server's standard input (guarded by `writeLock`).
private final class Shared: @unchecked Sendable {
  let condition = NSCondition()
  var received: [JSONValue] = []
  var outputEnded = false
  var violations: [String] = []
  var errorOutput: [UInt8] = []
  var answerServerRequests = true
  var pid: Int32 = 0

  private let input: FileHandle
  private let inputFD: Int32
  private let writeLock = NSLock()
  private var inputClosed = false
  private let replies = DispatchQueue(label: "lsp-client.replies")

  init(input: FileHandle) {
    self.input = input
    inputFD = input.fileDescriptor
    // Writes never block for good: see `write`.
    _ = fcntl(inputFD, F_SETFL, fcntl(inputFD, F_GETFL) | O_NONBLOCK)
  }

  func locked<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  func record(_ violation: String) {
    locked { violations.append(violation) }
  }

  /// Writes all of `bytes`; kills the server when it has not read them within `slowTimeout`.
  func write(_ bytes: [UInt8]) {
    writeLock.lock()
    defer { writeLock.unlock() }
    guard !inputClosed else { return }
    let deadline = Date(timeIntervalSinceNow: LSPClient.slowTimeout)
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = systemWrite(inputFD, buffer.baseAddress! + offset, buffer.count - offset)
        if n < 0 && errno == EINTR { continue }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
          let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
          var descriptor = pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)
          if remaining == 0 || poll(&descriptor, 1, min(remaining, 1000)) < 0 && errno != EINTR {
            record("the server stopped reading its input; it was killed")
            killProcess(pid)
            return
          }
          continue
        }
        guard n > 0 else { return }  // The server went away; what it did is checked elsewhere.
        offset += n
      }
    }
  }

  func closeInput() {
    writeLock.lock()
    defer { writeLock.unlock() }
    guard !inputClosed else { return }
    inputClosed = true
    try? input.close()
  }

  // MARK: Reading

  func readOutput(_ handle: FileHandle) {
    let fd = handle.fileDescriptor
    var buffer: [UInt8] = []
    var start = 0
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      buffer.append(contentsOf: chunk[..<n])
      var frames: [JSONValue] = []
      var problems: [String] = []
      while let (frame, next) = Self.nextFrame(buffer, from: start, problems: &problems) {
        start = next
        guard let body = frame else { continue }
        switch JSONParser.parse(body) {
        case .success(let message): frames.append(message)
        case .failure(let error):
          problems.append(
            "a body that is not JSON (\(error.message)): \(String(decoding: body.prefix(200), as: UTF8.self))")
        }
      }
      if start > 1 << 20 {
        buffer.removeSubrange(0..<start)
        start = 0
      }
      if !frames.isEmpty || !problems.isEmpty {
        condition.lock()
        received.append(contentsOf: frames)
        violations.append(contentsOf: problems)
        let answer = answerServerRequests
        condition.broadcast()
        condition.unlock()
        for message in frames where message["method"] != nil && message["id"] != nil && answer {
          let reply: JSONValue = ["jsonrpc": "2.0", "id": message["id"] ?? .null, "result": .null]
          replies.async { [self] in write(LSPClient.frame(reply)) }
        }
      }
    }
    condition.lock()
    if start < buffer.count {
      violations.append("\(buffer.count - start) bytes of an incomplete frame at the end of the output")
    }
    outputEnded = true
    condition.broadcast()
    condition.unlock()
    try? handle.close()
  }

  /// The next complete frame in `buffer` from `start`: its body and where the next one starts.
  /// The server must write exactly `Content-Length: N\r\n\r\n` headers; anything else is
  /// recorded as a violation.
  private static func nextFrame(_ buffer: [UInt8], from start: Int, problems: inout [String])
    -> (body: [UInt8]?, next: Int)?
  {
    guard buffer.count - start >= 4 else { return nil }
    var headerEnd: Int?
    var i = start
    while i + 4 <= buffer.count {
      if buffer[i] == 13, buffer[i + 1] == 10, buffer[i + 2] == 13, buffer[i + 3] == 10 {
        headerEnd = i
        break
      }
      i += 1
    }
    guard let headerEnd else { return nil }
    let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
    let prefix = "Content-Length: "
    guard header.hasPrefix(prefix), let length = Int(header.dropFirst(prefix.count)), length >= 0 else {
      problems.append("a malformed header on standard output: \(header.prefix(200).debugDescription)")
      return (nil, headerEnd + 4)  // Skip it: look for the next header after this terminator.
    }
    let bodyStart = headerEnd + 4
    guard buffer.count - bodyStart >= length else { return nil }
    return (Array(buffer[bodyStart..<bodyStart + length]), bodyStart + length)
  }

  func readErrors(_ handle: FileHandle) {
    let fd = handle.fileDescriptor
    var chunk = [UInt8](repeating: 0, count: 1 << 14)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      condition.lock()
      if errorOutput.count < 1 << 20 { errorOutput.append(contentsOf: chunk[..<n]) }
      condition.unlock()
    }
    try? handle.close()
  }
}

// MARK: LSP conveniences

extension LSPClient {
  /// Starts a server and initializes it: `initialize` (whose result is returned through
  /// `initializeResult`) and then `initialized`.
  static func started(
    capabilities: JSONValue = [:], initializationOptions: JSONValue? = nil
  ) throws -> LSPClient {
    let client = try LSPClient()
    try client.initialize(capabilities: capabilities, initializationOptions: initializationOptions)
    return client
  }

  @discardableResult
  func initialize(capabilities: JSONValue = [:], initializationOptions: JSONValue? = nil) throws -> JSONValue {
    var params: [(key: String, value: JSONValue)] = [
      ("processId", .null), ("rootUri", .null), ("capabilities", capabilities),
    ]
    if let initializationOptions { params.append(("initializationOptions", initializationOptions)) }
    let result = try request("initialize", .object(params))
    notify("initialized", [:])
    return result
  }

  /// `shutdown` then `exit`; returns the exit status.
  func shutdownAndExit() throws -> Int32 {
    let result = try request("shutdown", nil)
    guard result == .null else { throw ClientFailure("shutdown answered \(JSONWriter.string(result))") }
    notify("exit", nil)
    return try waitForExit()
  }

  /// Ends a test: `shutdown`, `exit`, exit status 0, and nothing but framed JSON on stdout.
  func finish(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let status = try shutdownAndExit()
    #expect(status == 0, "exit status after shutdown and exit", sourceLocation: sourceLocation)
    #expect(protocolViolations == [], "standard output carries only framed JSON-RPC", sourceLocation: sourceLocation)
  }

  func open(_ uri: String, _ text: String, version: Int = 1) {
    notify(
      "textDocument/didOpen",
      [
        "textDocument": [
          "uri": .string(uri), "languageId": "rpn", "version": JSONValue(version), "text": .string(text),
        ]
      ])
  }

  static func didChange(_ uri: String, version: Int, _ changes: [JSONValue]) -> JSONValue {
    notificationMessage(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(uri), "version": JSONValue(version)], "contentChanges": .array(changes)])
  }

  func change(_ uri: String, version: Int, _ changes: [JSONValue]) {
    send(Self.didChange(uri, version: version, changes))
  }

  func close(_ uri: String) {
    notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
  }

  /// The last `publishDiagnostics` for `uri` received once everything sent so far was handled.
  func publishedDiagnostics(_ uri: String, timeout: TimeInterval = LSPClient.timeout) throws
    -> (version: Int?, diagnostics: [JSONValue])
  {
    let end = try barrier(timeout: timeout)
    let all = messages[..<end]
    guard
      let last = all.last(where: {
        $0["method"]?.stringValue == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri
      })
    else { throw ClientFailure("no textDocument/publishDiagnostics for \(uri)") }
    let params = last["params"] ?? .null
    return (params["version"]?.intValue, params["diagnostics"]?.arrayValue ?? [])
  }

  /// All `publishDiagnostics` notifications for `uri` received so far.
  func allPublished(_ uri: String) -> [JSONValue] {
    messages.filter {
      $0["method"]?.stringValue == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri
    }.map { $0["params"] ?? .null }
  }

  func inlayHints(_ uri: String, _ range: JSONValue, timeout: TimeInterval = LSPClient.timeout) throws -> JSONValue {
    try request("textDocument/inlayHint", ["textDocument": ["uri": .string(uri)], "range": range], timeout: timeout)
  }

  /// Inlay hints for the whole document (a range from the start to far past the end).
  func allInlayHints(_ uri: String, timeout: TimeInterval = LSPClient.timeout) throws -> JSONValue {
    try inlayHints(uri, range(0, 0, 1_000_000_000, 0), timeout: timeout)
  }

  func hover(_ uri: String, _ position: JSONValue, timeout: TimeInterval = LSPClient.timeout) throws -> JSONValue {
    try request("textDocument/hover", ["textDocument": ["uri": .string(uri)], "position": position], timeout: timeout)
  }

  func completion(_ uri: String, _ position: JSONValue, timeout: TimeInterval = LSPClient.timeout) throws -> JSONValue {
    try request(
      "textDocument/completion", ["textDocument": ["uri": .string(uri)], "position": position], timeout: timeout)
  }
}

// MARK: Reading JSON

/// A range as `line:character-line:character`.
func compact(range: JSONValue?) -> String {
  guard let range, let start = range["start"], let end = range["end"] else { return "no range" }
  return "\(compact(position: start))-\(compact(position: end))"
}

func compact(position: JSONValue?) -> String {
  guard let position, let line = position["line"]?.intValue, let character = position["character"]?.intValue else {
    return "bad position \(position.map { JSONWriter.string($0) } ?? "nil")"
  }
  return "\(line):\(character)"
}

/// A diagnostic as `range severity code: message`, with anything unexpected spelled out (a
/// source other than "rpn", a severity other than 1 or 2).
func compact(diagnostic: JSONValue) -> String {
  let severity: String
  switch diagnostic["severity"]?.intValue {
  case 1: severity = "error"
  case 2: severity = "warning"
  default: severity = "severity=\(diagnostic["severity"].map { JSONWriter.string($0) } ?? "none")"
  }
  let code = diagnostic["code"]?.stringValue ?? "code=\(diagnostic["code"].map { JSONWriter.string($0) } ?? "none")"
  let source =
    diagnostic["source"]?.stringValue == "rpn"
    ? "" : " source=\(diagnostic["source"].map { JSONWriter.string($0) } ?? "none")"
  let message = diagnostic["message"]?.stringValue ?? "no message"
  return "\(compact(range: diagnostic["range"])) \(severity) \(code)\(source): \(message)"
}

/// A diagnostic without its message, for tests that fix only the range, severity and code.
func compactWithoutMessage(diagnostic: JSONValue) -> String {
  let full = compact(diagnostic: diagnostic)
  guard let colon = full.range(of: ": ") else { return full }
  return String(full[..<colon.lowerBound])
}

/// An inlay hint as `line:character label`, with anything unexpected spelled out.
func compact(hint: JSONValue) -> String {
  let padding =
    hint["paddingLeft"] == .bool(true)
    ? "" : " paddingLeft=\(hint["paddingLeft"].map { JSONWriter.string($0) } ?? "none")"
  let label = hint["label"]?.stringValue ?? "label=\(hint["label"].map { JSONWriter.string($0) } ?? "none")"
  return "\(compact(position: hint["position"])) \(label)\(padding)"
}

func compact(hints: JSONValue) -> [String] {
  guard let array = hints.arrayValue else { return ["not an array: \(JSONWriter.string(hints))"] }
  return array.map { compact(hint: $0) }
}

func compact(diagnostics: [JSONValue]) -> [String] { diagnostics.map { compact(diagnostic: $0) } }

func compactWithoutMessage(diagnostics: [JSONValue]) -> [String] { diagnostics.map(compactWithoutMessage) }

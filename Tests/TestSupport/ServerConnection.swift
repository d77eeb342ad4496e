import Foundation
import JSONRPC

/// How an `LSPClient` reaches its server. The connection hands the client's messages over and
/// puts what the server sends into the client's `Inbox`.
protocol ServerConnection: AnyObject, Sendable {
  /// Whether the server has sent all it will send for the messages handed over once `send`
  /// returns, so that a wait for anything else can fail at once.
  var answersBeforeReturning: Bool { get }
  /// Hands messages over together: one write to the server's input, or one batch.
  func send(_ messages: [JSONValue])
  /// Hands bytes over as they are (framing included).
  func sendRaw(_ bytes: [UInt8])
  /// Ends the server's input.
  func closeInput()
  /// Ends the server at once, if it still runs.
  func kill()
  var isRunning: Bool { get }
  /// Waits until the server ended; its exit status.
  func waitForExit(timeout: TimeInterval) throws -> Int32
}

/// What the server sent, shared by the client and its connection: the messages in order, output
/// that broke the protocol, the server's log, and whether its output ended. Guarded by
/// `condition`, which is broadcast whenever something arrives.
final class Inbox: @unchecked Sendable {
  let condition = NSCondition()
  var received: [JSONValue] = []
  var outputEnded = false
  var violations: [String] = []
  var errorOutput: [UInt8] = []
  var answerServerRequests = true

  func locked<T>(_ body: () throws -> T) rethrows -> T {
    condition.lock()
    defer { condition.unlock() }
    return try body()
  }

  /// Parses the bodies of messages the server sent and records them, and the problems found in
  /// its output; returns the server's requests among them that the client answers.
  @discardableResult
  func receive(bodies: [[UInt8]], problems: [String] = []) -> [JSONValue] {
    var messages: [JSONValue] = []
    var problems = problems
    for body in bodies {
      switch JSONParser.parse(body) {
      case .success(let message): messages.append(message)
      case .failure(let error):
        problems.append(
          "a body that is not JSON (\(error.message)): \(String(decoding: body.prefix(200), as: UTF8.self))")
      }
    }
    guard !messages.isEmpty || !problems.isEmpty else { return [] }
    return locked {
      received.append(contentsOf: messages)
      violations.append(contentsOf: problems)
      condition.broadcast()
      return answerServerRequests ? messages.filter(Self.isServerRequest) : []
    }
  }

  /// Records what the server wrote to its log (standard error), up to a megabyte.
  func receive(log bytes: some Collection<UInt8>) {
    locked {
      if errorOutput.count < 1 << 20 { errorOutput.append(contentsOf: bytes) }
    }
  }

  /// Records that the server's output ended, with what was wrong at its end, if anything.
  func endOutput(problem: String? = nil) {
    locked {
      if let problem { violations.append(problem) }
      outputEnded = true
      condition.broadcast()
    }
  }

  /// What the server wrote to its log.
  var standardError: String { locked { String(decoding: errorOutput, as: UTF8.self) } }

  static func isServerRequest(_ message: JSONValue) -> Bool {
    message["method"] != nil && message["id"] != nil
  }

  /// The answer a well-behaved client gives to a request it has nothing to say to.
  static func nullResult(answering request: JSONValue) -> JSONValue {
    ["jsonrpc": "2.0", "id": request["id"] ?? .null, "result": .null]
  }
}

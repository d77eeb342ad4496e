// Recording an LSP session: each message sent, with everything the server wrote back because of it.

import Foundation
import JSONRPC
import Synchronization

/// One message the client sent (or one command line run), and everything the server wrote back
/// before the next one: the response, notifications such as `publishDiagnostics`, and requests
/// to the client, in the order written.
struct ExchangeCase {
  var label: String
  var sent: String
  var received: [String]
}

/// Plays messages to one server over its pipes and records each with what came back.
///
/// A request's case ends at its response. A notification (or bytes that are not a well-formed
/// request) is followed by a barrier, a request for a method no server has, and its case ends at
/// the barrier's error: staged edits are evaluated and published before any request, so whatever
/// a notification causes is written before it. So a case never depends on how the server's
/// reader happened to split the input into batches.
final class ExchangeRecorder {
  private let client: PipeClient
  private let watchdog: Watchdog
  private(set) var cases: [ExchangeCase] = []
  /// Ids far above the server's own (its requests to the client count from 1), so a response
  /// prefix cannot be taken for one of those.
  private var nextID = 100_000
  private var ended = false
  let session: String

  static let barrierMethod = "rpn-exchange/barrier"

  init(binary: String, session: String) throws {
    client = try PipeClient(binary: binary)
    watchdog = Watchdog(pid: client.pid)
    self.session = session
  }

  /// Sends a request and records it; its response, or nil once the server has stopped.
  @discardableResult
  func request(_ method: String, _ params: JSONValue?, label: String? = nil) -> JSONValue? {
    let id = nextID
    nextID += 1
    let body = JSONWriter.encode(Outgoing.request(id: JSONValue(id), method: method, params: params))
    let (received, response) = send(body, until: id)
    cases.append(ExchangeCase(label: "\(session) \(label ?? method)", sent: text(body), received: received))
    return response.flatMap { if case .success(let json) = JSONParser.parse($0) { json } else { nil } }
  }

  /// Sends requests in chunks written at once, then reads their responses: the same cases as
  /// one request at a time (nothing is staged between them, so the server writes the same
  /// messages in the same order), without waiting a round trip for each. A chunk stays far below
  /// a pipe's buffer, so writing it never waits for the server to read.
  func requests(_ list: [(method: String, params: JSONValue?)]) {
    var start = 0
    while start < list.count && !ended {
      var bodies: [(id: Int, body: [UInt8])] = []
      var bytes: [UInt8] = []
      var index = start
      while index < list.count && bytes.count < 16_384 {
        let body = JSONWriter.encode(
          Outgoing.request(id: JSONValue(nextID), method: list[index].method, params: list[index].params))
        bodies.append((nextID, body))
        bytes += Outgoing.frame(body)
        nextID += 1
        index += 1
      }
      client.write(bytes)
      for (offset, request) in bodies.enumerated() {
        let received = collect(until: request.id, keepingResponse: true).received
        cases.append(
          ExchangeCase(label: "\(session) \(list[start + offset].method)", sent: text(request.body), received: received)
        )
      }
      start = index
    }
  }

  /// Sends a notification and records it with what it caused.
  func notify(_ method: String, _ params: JSONValue?) {
    var members: [(key: String, value: JSONValue)] = [("jsonrpc", "2.0"), ("method", .string(method))]
    if let params { members.append(("params", params)) }
    raw(method, body: JSONWriter.encode(.object(members)))
  }

  /// Sends `body` framed, or `framed` as it is, and records what it caused.
  func raw(_ label: String, body: [UInt8]? = nil, framed: [UInt8]? = nil) {
    let bytes = framed ?? Outgoing.frame(body ?? [])
    let id = nextID
    nextID += 1
    let barrier = Outgoing.frame(
      JSONWriter.encode(Outgoing.request(id: JSONValue(id), method: Self.barrierMethod, params: nil)))
    let (received, _) = send(bytes + barrier, until: id, framed: true)
    cases.append(ExchangeCase(label: "\(session) \(label)", sent: text(body ?? bytes), received: received))
  }

  /// Ends the session: closes the server's input and records what it wrote until it exited, and
  /// its exit status.
  func finish(_ label: String) {
    try? client.closeInput()
    var received: [String] = []
    while let body = ended ? nil : client.nextBody() { received.append(text(body)) }
    watchdog.arm(seconds: 60)
    received.append("exit status \(client.waitForExit())")
    watchdog.stop()
    cases.append(ExchangeCase(label: "\(session) \(label)", sent: "", received: received))
  }

  /// Writes `bytes` (framed first unless `framed`) and reads until the response to `id`:
  /// everything before it, and its body (nil when the server stopped first).
  private func send(_ bytes: [UInt8], until id: Int, framed: Bool = false) -> ([String], [UInt8]?) {
    client.write(framed ? bytes : Outgoing.frame(bytes))
    return collect(until: id, keepingResponse: !framed)
  }

  /// Reads until the response to `id`: everything before it (and it, if `keepingResponse`), and
  /// its body (nil when the server stopped first).
  private func collect(until id: Int, keepingResponse: Bool) -> (received: [String], response: [UInt8]?) {
    let prefix = Array("{\"jsonrpc\":\"2.0\",\"id\":\(id),".utf8)
    var received: [String] = []
    while !ended {
      watchdog.arm(seconds: 60)
      guard let body = client.nextBody() else {
        ended = true
        received.append("<the server's output ended>")
        break
      }
      if body.starts(with: prefix) {
        // The barrier's own error is the same every time: it is left out of the case.
        if keepingResponse { received.append(text(body)) }
        return (received, body)
      }
      received.append(text(body))
      answerIfRequest(body)
    }
    return (received, nil)
  }

  /// A request from the server (a refresh) gets the answer an editor gives: null.
  private func answerIfRequest(_ body: [UInt8]) {
    guard case .success(let json) = JSONParser.parse(body), let id = json["id"], json["method"] != nil else { return }
    client.write(Outgoing.frame(JSONWriter.encode(Outgoing.response(id: id, result: .success(.null)))))
  }

  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

/// Kills a server that has written nothing for a while, so that a hung server fails the exchange
/// instead of hanging it.
private final class Watchdog: Sendable {
  private let deadline = Mutex<UInt64>(.max)

  init(pid: Int32) {
    Thread.detachNewThread { [self] in
      while true {
        sleep(1)
        let due = deadline.withLock { $0 }
        if due == 0 { return }
        if DispatchTime.now().uptimeNanoseconds > due {
          kill(pid, SIGKILL)
          return
        }
      }
    }
  }

  func arm(seconds: UInt64) {
    let due = DispatchTime.now().uptimeNanoseconds + seconds * 1_000_000_000
    deadline.withLock { $0 = due }
  }

  func stop() { deadline.withLock { $0 = 0 } }
}

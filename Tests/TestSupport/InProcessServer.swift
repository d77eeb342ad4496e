import Foundation
import JSONRPC
import RPNLanguageServer
import Testing

/// A `Server` in the test process, driven as `rpn-lsp serve` drives it: each send is one batch,
/// the server stops taking input once it has an exit status, and the end of input ends it.
///
/// Every message still goes through JSON both ways: the client's are written with `JSONWriter`,
/// parsed with `JSONParser` and classified with `Message.classify` (what the binary's transport
/// does with a frame's body), and the server's are written with `JSONWriter` and parsed by the
/// inbox. So a test sees what the server would write, without the framing.
///
/// Everything is answered before `send` returns; a wait for what is not there fails at once.
final class InProcessServer: ServerConnection, @unchecked Sendable {
  private enum State {
    case running
    case exited(Int32)
    case killed
  }

  private let server: Server
  private let inbox: Inbox
  private let lock = NSLock()
  private var state = State.running  // Guarded by `lock`.

  init(inbox: Inbox) {
    self.inbox = inbox
    server = Server(
      send: { message in inbox.receive(bodies: [JSONWriter.encode(message)]) },
      log: { line in inbox.receive(log: Array("\(line)\n".utf8)) })
  }

  var answersBeforeReturning: Bool { true }

  /// Hands the messages to the server as one batch, then the client's answers to the requests
  /// the server sent meanwhile (a batch of their own, as they would come later over pipes).
  func send(_ messages: [JSONValue]) {
    lock.lock()
    defer { lock.unlock() }
    var batch = messages.compactMap(Self.incoming)
    while case .running = state, !batch.isEmpty {
      let before = inbox.locked { inbox.received.count }
      server.handle(batch)
      if let status = server.exitStatus {
        end(.exited(status))
        return
      }
      let requests = inbox.locked {
        inbox.answerServerRequests ? inbox.received[before...].filter(Inbox.isServerRequest) : []
      }
      batch = requests.map(Inbox.nullResult(answering:)).compactMap(Self.incoming)
    }
  }

  /// Raw bytes test framing, which only the pipes have.
  func sendRaw(_ bytes: [UInt8]) {
    Issue.record("raw bytes (\(bytes.count)) need the pipes transport: framing is not tested in process")
  }

  /// The end of input ends the server as `exit` would.
  func closeInput() {
    lock.lock()
    defer { lock.unlock() }
    guard case .running = state else { return }
    server.inputEnded()
    end(.exited(server.exitStatus ?? 1))
  }

  func kill() {
    lock.lock()
    defer { lock.unlock() }
    if case .running = state { end(.killed) }
  }

  var isRunning: Bool {
    lock.lock()
    defer { lock.unlock() }
    if case .running = state { return true }
    return false
  }

  func waitForExit(timeout: TimeInterval) throws -> Int32 {
    lock.lock()
    defer { lock.unlock() }
    switch state {
    case .running: throw ClientFailure("the server has not exited: it waits for more input")
    case .exited(let status): return status
    case .killed: throw ClientFailure("the server was killed")
    }
  }

  private func end(_ state: State) {
    self.state = state
    inbox.endOutput()
  }

  /// A message as the binary's transport hands it to the server: written, parsed, classified.
  private static func incoming(_ message: JSONValue) -> Incoming? {
    switch JSONParser.parse(JSONWriter.encode(message)) {
    case .failure(let error):
      Issue.record("the test's own message is not JSON (\(error.message)): \(JSONWriter.string(message))")
      return nil
    case .success(let json):
      switch Message.classify(json) {
      case .success(let message): return .message(message)
      case .failure(let error): return .fault(error)
      }
    }
  }
}

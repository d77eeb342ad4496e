// The stdio transport: a reader thread that frames and parses messages and hands them over in batches.

import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One thing read from the client: a message, or a fault that must be answered with an error
/// (id null) before reading on.
package enum Incoming: Equatable {
  case message(Message)
  case fault(ResponseError)
}

/// Reads framed JSON-RPC from a file descriptor on a background thread (framing and JSON
/// parsing run beside the server's work) and hands it over in batches: everything that arrived
/// while the server was busy. Writes go out whole, one `write` loop per message.
package final class StdioTransport: Sendable {
  private let input: Int32
  private let output: Int32
  private let queue = Mutex<(items: [Incoming], ended: Bool)>(([], false))
  private let available = DispatchSemaphore(value: 0)

  package init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
    self.input = input
    self.output = output
  }

  /// Starts the reader thread. `noticing` sees each thing as soon as it is read, on the reader's
  /// thread, before it waits in the queue for the next batch (the server notes cancels with it).
  package func start(noticing: @escaping @Sendable (Incoming) -> Void = { _ in }) {
    let input = self.input
    let thread = DispatchQueue(label: "rpn-lsp.reader")
    thread.async { [self] in
      var reader = FrameReader { buffer in
        while true {
          let n = read(input, buffer.baseAddress, buffer.count)
          if n < 0 && errno == EINTR { continue }
          return max(n, 0)
        }
      }
      while let frame = reader.next() {
        let item: Incoming
        switch frame {
        case .headerError(let message):
          item = .fault(.parseError("bad message header: \(message)"))
        case .message(let body):
          item = Self.decode(body)
        }
        noticing(item)
        queue.withLock { $0.items.append(item) }
        available.signal()
      }
      queue.withLock { $0.ended = true }
      available.signal()
    }
  }

  /// Turns a body into a message or the fault to answer.
  package static func decode(_ body: [UInt8]) -> Incoming {
    if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      return .fault(.parseError("empty message body"))
    }
    switch JSONParser.parseMessage(body) {
    case .failure(let error):
      return .fault(.parseError("the body is not JSON: \(error.message) at byte \(error.offset)"))
    case .success(let json):
      switch Message.classify(json) {
      case .success(let message): return .message(message)
      case .failure(let error): return .fault(error)
      }
    }
  }

  /// Blocks until something arrived; returns all of it, or nil once the input ended and
  /// everything was handed over.
  package func nextBatch() -> [Incoming]? {
    while true {
      let (items, ended) = queue.withLock { state in
        let taken = state.items
        state.items = []
        return (taken, state.ended)
      }
      if !items.isEmpty { return items }
      if ended { return nil }
      available.wait()
    }
  }

  /// Writes one framed message.
  package func send(_ json: JSONValue) {
    var writer = JSONWriter(capacity: 1024)
    writer.write(json)
    send(body: writer.bytes)
  }

  /// Writes one framed message from an already encoded body.
  package func send(body: [UInt8]) {
    writeAll(Outgoing.frame(body), to: output)
  }
}

/// Writes all the bytes to a file descriptor, retrying interrupted and partial writes; gives up
/// quietly when the other end is gone.
package func writeAll(_ bytes: [UInt8], to fd: Int32) {
  bytes.withUnsafeBytes { raw in
    guard let base = raw.baseAddress else { return }
    var offset = 0
    while offset < raw.count {
      let n = write(fd, base + offset, raw.count - offset)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return }
      offset += n
    }
  }
}

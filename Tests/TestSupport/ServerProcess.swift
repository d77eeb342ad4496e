import Foundation
import JSONRPC
import ProcessPipes

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built `rpn-lsp` as a child process: written to on its standard input, and read on two
/// threads, standard output framed into the inbox and standard error into its log.
///
/// The reader threads hold this object, not the client, so that a client dropped by a failing
/// test still kills its server.
final class ServerProcess: ServerConnection, @unchecked Sendable {
  private let process: Process
  private let exited: DispatchSemaphore
  private let inbox: Inbox
  private let input: FileHandle
  private let inputFD: Int32
  private let writeLock = NSLock()
  private var inputClosed = false  // Guarded by `writeLock`.
  private let replies = DispatchQueue(label: "lsp-client.replies")

  /// Starts `rpn-lsp` with `arguments`.
  init(arguments: [String], inbox: Inbox) throws {
    self.inbox = inbox
    let child = try PipedProcess(executable: serverBinary(), arguments: arguments)
    process = child.process
    exited = child.exited
    input = child.input
    inputFD = input.fileDescriptor
    // Writes never block for good: see `write`.
    _ = fcntl(inputFD, F_SETFL, fcntl(inputFD, F_GETFL) | O_NONBLOCK)
    Thread.detachNewThread { [self] in readOutput(child.output) }
    if let errors = child.errors { Thread.detachNewThread { [self] in readErrors(errors) } }
  }

  var answersBeforeReturning: Bool { false }

  func kill() {
    if process.isRunning { killProcess(process.processIdentifier) }
    closeInput()
  }

  var isRunning: Bool { process.isRunning }

  func waitForExit(timeout: TimeInterval) throws -> Int32 {
    if exited.wait(timeout: .now() + timeout) == .timedOut {
      kill()
      throw ClientFailure("the server did not exit within \(timeout) s; it was killed")
    }
    exited.signal()  // Let later calls return at once.
    guard process.terminationReason == .exit else {
      throw ClientFailure(
        "the server died of signal \(process.terminationStatus); stderr: \(inbox.standardError.suffix(2000))")
    }
    return process.terminationStatus
  }

  // MARK: Writing

  func send(_ messages: [JSONValue]) { write(messages.flatMap(LSPClient.frame)) }

  func sendRaw(_ bytes: [UInt8]) { write(bytes) }

  /// Writes all of `bytes`; kills the server when it has not read them within `slowTimeout`.
  private func write(_ bytes: [UInt8]) {
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
            inbox.locked { inbox.violations.append("the server stopped reading its input; it was killed") }
            killProcess(process.processIdentifier)
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

  private func readOutput(_ handle: FileHandle) {
    let fd = handle.fileDescriptor
    var buffer: [UInt8] = []
    var start = 0
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      buffer.append(contentsOf: chunk[..<n])
      var bodies: [[UInt8]] = []
      var problems: [String] = []
      while let (body, next) = Self.nextFrame(buffer, from: start, problems: &problems) {
        start = next
        if let body { bodies.append(body) }
      }
      if start > 1 << 20 {
        buffer.removeSubrange(0..<start)
        start = 0
      }
      for request in inbox.receive(bodies: bodies, problems: problems) {
        replies.async { [self] in write(LSPClient.frame(Inbox.nullResult(answering: request))) }
      }
    }
    let incomplete = buffer.count - start
    inbox.endOutput(
      problem: incomplete > 0 ? "\(incomplete) bytes of an incomplete frame at the end of the output" : nil)
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

  private func readErrors(_ handle: FileHandle) {
    let fd = handle.fileDescriptor
    var chunk = [UInt8](repeating: 0, count: 1 << 14)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      inbox.receive(log: chunk[..<n])
    }
    try? handle.close()
  }
}

private func killProcess(_ pid: Int32) {
  _ = kill(pid, SIGKILL)
}

private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, bytes, count)
}

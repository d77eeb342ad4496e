import JSONRPC
import RPNLanguageServer

/// Target 1: arbitrary bytes into the framing, the JSON parser and the dispatcher of a live
/// server (initialized, with a document open), delivered in reads of sizes the input chooses.
/// It must never trap, and every complete request must get exactly one answer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessages(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = UnsafeBufferPointer(start: data, count: size)
  guard let chunk = input.first else { return 0 }
  let body = Array(input.dropFirst())
  let harness = Harness()
  final class Cursor { var offset = 0 }
  let cursor = Cursor()
  var reader = FrameReader(chunkSize: 1 + Int(chunk % 64)) { buffer in
    let count = min(buffer.count, body.count - cursor.offset)
    guard count > 0 else { return 0 }
    for i in 0..<count { buffer[i] = body[cursor.offset + i] }
    cursor.offset += count
    return count
  }
  var batch: [Incoming] = []
  while let frame = reader.next() {
    switch frame {
    case .headerError(let message): batch.append(.fault(.parseError(message)))
    case .message(let bytes): batch.append(StdioTransport.decode(bytes))
    }
    if batch.count == 1 + Int(chunk % 4) {
      harness.handle(batch)
      batch = []
      if harness.server.exitStatus != nil { return 0 }
    }
  }
  harness.handle(batch)
  return 0
}

import Testing

@testable import JSONRPC

/// `FrameReader`: `Content-Length` framing over reads of any size, and recovery from bad headers.
@Suite struct FrameReaderTests {
  /// Input delivered in scripted reads: each read returns at most the next chunk (the rest of it
  /// on the next read when the buffer is smaller); the end of the chunks is the end of input.
  final class Source {
    var chunks: [[UInt8]]
    private(set) var reads = 0

    init(_ chunks: [[UInt8]]) { self.chunks = chunks.filter { !$0.isEmpty } }

    func read(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
      reads += 1
      guard !chunks.isEmpty else { return 0 }
      let chunk = chunks.removeFirst()
      let n = min(chunk.count, buffer.count)
      chunk.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<n])) }
      if n < chunk.count { chunks.insert(Array(chunk[n...]), at: 0) }
      return n
    }
  }

  /// Every frame of the input, until the reader says the input ended.
  static func frames(_ chunks: [[UInt8]], chunkSize: Int = 1 << 20) -> [FrameReader.Frame] {
    let source = Source(chunks)
    var reader = FrameReader(chunkSize: chunkSize) { source.read($0) }
    var frames: [FrameReader.Frame] = []
    while let frame = reader.next() {
      frames.append(frame)
      if frames.count > 1000 { break }
    }
    return frames
  }

  static func frames(_ text: String, chunkSize: Int = 1 << 20) -> [FrameReader.Frame] {
    frames([Array(text.utf8)], chunkSize: chunkSize)
  }

  static func framed(_ body: String) -> [UInt8] { Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8) }

  static func message(_ body: String) -> FrameReader.Frame { .message(Array(body.utf8)) }

  /// Frames with the header errors' messages left out.
  static func kinds(_ frames: [FrameReader.Frame]) -> [String] {
    frames.map { frame in
      switch frame {
      case .message(let body): "message " + String(decoding: body, as: UTF8.self)
      case .headerError: "header error"
      }
    }
  }

  static let first = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"text":"é😀\r\n\r\n"}}"#
  static let second = #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#

  // MARK: Reads of any size

  @Test func oneMessage() {
    #expect(Self.frames([Self.framed(Self.first)]) == [Self.message(Self.first)])
  }

  @Test func messagesSplitAcrossTwoReadsAtEveryByteBoundary() {
    let stream = Self.framed(Self.first) + Self.framed(Self.second)
    let expected = [Self.message(Self.first), Self.message(Self.second)]
    let failing = (1..<stream.count).filter { cut in
      Self.frames([Array(stream[..<cut]), Array(stream[cut...])]) != expected
    }
    #expect(failing == [], "cuts (byte offsets of the second read) that lose or spoil a message")
  }

  @Test func messagesSplitAcrossThreeReadsAtEveryPairOfBoundaries() {
    let stream = Self.framed("{}") + Self.framed("[1]")
    var failing: [String] = []
    for a in 1..<stream.count {
      for b in (a + 1)..<stream.count
      where Self.frames([Array(stream[..<a]), Array(stream[a..<b]), Array(stream[b...])])
        != [Self.message("{}"), Self.message("[1]")]
      {
        failing.append("\(a),\(b)")
      }
    }
    #expect(failing == [], "pairs of cuts that lose or spoil a message")
  }

  @Test func oneByteAtATime() {
    let stream = Self.framed(Self.first) + Self.framed(Self.second)
    #expect(Self.frames(stream.map { [$0] }) == [Self.message(Self.first), Self.message(Self.second)])
  }

  @Test(arguments: [1, 2, 3, 7, 16, 64])
  func smallReadBuffers(chunkSize: Int) {
    let stream = Self.framed(Self.first) + Self.framed(Self.second) + Self.framed("")
    #expect(
      Self.kinds(Self.frames([stream], chunkSize: chunkSize))
        == Self.kinds([Self.message(Self.first), Self.message(Self.second), .message([])]))
  }

  @Test func severalMessagesInOneRead() {
    let bodies = (0..<20).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"m"}"# }
    let source = Source([bodies.flatMap(Self.framed)])
    var reader = FrameReader { source.read($0) }
    for body in bodies {
      #expect(reader.next() == Self.message(body))
    }
    #expect(source.reads == 1, "all twenty came from one read")
    #expect(reader.next() == nil)
  }

  @Test func aBodyThatLooksLikeHeadersIsJustBytes() {
    let body = "Content-Length: 5\r\n\r\nhello\r\n\r\nContent-Length: x\r\n\r\n"
    #expect(Self.frames([Self.framed(body) + Self.framed("{}")]) == [Self.message(body), Self.message("{}")])
  }

  @Test func anEmptyBody() {
    #expect(Self.frames("Content-Length: 0\r\n\r\nContent-Length: 2\r\n\r\n{}") == [.message([]), Self.message("{}")])
  }

  // MARK: Headers

  @Test(arguments: ["Content-Length", "content-length", "CONTENT-LENGTH", "Content-length", "cOnTeNt-LeNgTh"])
  func headerNamesAreCaseInsensitive(name: String) {
    #expect(Self.frames("\(name): 2\r\n\r\n{}") == [Self.message("{}")])
  }

  @Test(arguments: [
    "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}",
    "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
    "content-type: application/json\r\nX-Custom: 1\r\ncontent-length: 2\r\nX-Other: Content-Length\r\n\r\n{}",
    "Content-Length:2\r\n\r\n{}",
    "Content-Length:   2 \t\r\n\r\n{}", "Content-Length: 002\r\n\r\n{}", "CONTENT-LENGTH: 000000000002\r\n\r\n{}",
  ])
  func otherHeadersAreIgnoredInAnyOrder(text: String) {
    #expect(Self.frames(text) == [Self.message("{}")])
  }

  @Test(arguments: [
    "Content-Length: abc\r\n\r\n", "Content-Length: -2\r\n\r\n", "Content-Length: +2\r\n\r\n",
    "Content-Length: 0x2\r\n\r\n",
    "Content-Length: \r\n\r\n", "Content-Length: 2.0\r\n\r\n", "Content-Length: 2 2\r\n\r\n",
    "Content-Length: ２\r\n\r\n",
    "Content-Type: text/plain\r\n\r\n", "Content-Le\r\n\r\n", "Content-Length 2\r\n\r\n", "garbage\r\n\r\n",
    "Content-Length: 1000000000000\r\n\r\n", "Content-Length: 99999999999999999999999\r\n\r\n",
    // Read on its bytes when plain: a name one byte off (`\r` is `-` with bit 0x20 cleared), a
    // length one over the limit.
    "Content\rLength: 2\r\n\r\n", "Content.Length: 2\r\n\r\n", "Content-Length: 268435457\r\n\r\n",
  ])
  func aBadHeaderIsAnErrorAndReadingResumesAtTheNextContentLength(bad: String) {
    // Whatever follows the bad header block up to the next Content-Length is skipped.
    let text = bad + "{\"skipped\": true}\r\n" + "Content-Length: 2\r\n\r\n{}" + "Content-Length: 3\r\n\r\n[1]"
    #expect(Self.kinds(Self.frames(text)) == ["header error", "message {}", "message [1]"])
  }

  @Test func resynchronizesWhenContentLengthIsSplitAcrossReads() {
    let stream = Array("Content-Length: x\r\n\r\njunk junk content-len junk\r\nCONTENT-LENGTH: 2\r\n\r\n{}".utf8)
    let failing = (1..<stream.count).filter { cut in
      Self.kinds(Self.frames([Array(stream[..<cut]), Array(stream[cut...])])) != ["header error", "message {}"]
    }
    #expect(failing == [], "cuts (byte offsets of the second read) after which the message is lost")
  }

  @Test func aLengthOverTheLimitIsAnErrorWithoutWaitingForTheBody() {
    #expect(
      FrameReader.maximumContentLength >= 64 << 20,
      "the lifecycle and error rules of the README: the limit is at least 64 MiB")
    // No body follows: a reader that waited for it would see the end of input and return nil.
    let over = FrameReader.maximumContentLength + 1
    #expect(Self.kinds(Self.frames("Content-Length: \(over)\r\n\r\n")) == ["header error"])
    #expect(Self.kinds(Self.frames("Content-Length: 1000000000000\r\n\r\n")) == ["header error"])
    // At the limit, the body is waited for (and the end of input drops the partial frame).
    #expect(Self.frames("Content-Length: \(FrameReader.maximumContentLength)\r\n\r\n{}") == [])
  }

  @Test func aHeaderBlockOverTheLimitIsAnError() {
    let padding = String(repeating: "a", count: FrameReader.maximumHeaderLength + 100)
    // Without its terminator yet: the reader gives up once it has read more than the limit.
    let unterminated = Array("X-Padding: \(padding)".utf8)
    #expect(
      Self.kinds(Self.frames([unterminated, Array("\r\n\r\nContent-Length: 2\r\n\r\n{}".utf8)], chunkSize: 4096))
        == ["header error", "message {}"])
    // With its terminator in the same read, it is still over the limit.
    let terminated = "Content-Length: 2\r\nX-Padding: \(padding)\r\n\r\n{}" + "Content-Length: 3\r\n\r\n[1]"
    #expect(Self.kinds(Self.frames(terminated)) == ["header error", "message [1]"])
  }

  @Test func aHeaderBlockJustUnderTheLimitIsFine() {
    let padding = String(repeating: "a", count: FrameReader.maximumHeaderLength - 100)
    #expect(Self.frames("X-Padding: \(padding)\r\nContent-Length: 2\r\n\r\n{}") == [Self.message("{}")])
  }

  /// A body longer than the read buffer is read straight into its message: whatever the reads'
  /// sizes, it arrives whole, the message after it (in the same read as its end) too, and in
  /// reads as long as what is left of the body, not one read per buffer's length.
  @Test(arguments: [1, 7, 4096, 65_537])
  func aLongBodyArrivesWholeAndSoDoesTheNextMessage(readSize: Int) {
    let body = #"{"text":""# + String((0..<300_000).map { _ in "0123456789\n"[...].randomElement()! }) + #""}"#
    let stream = Self.framed(body) + Self.framed(Self.second)
    let chunks = stride(from: 0, to: stream.count, by: readSize).map {
      Array(stream[$0..<min($0 + readSize, stream.count)])
    }
    let source = Source(readSize < 4096 ? [stream] : chunks)
    var reader = FrameReader(chunkSize: readSize < 4096 ? readSize : 4096) { source.read($0) }
    #expect(reader.next() == Self.message(body))
    #expect(reader.next() == Self.message(Self.second))
    #expect(reader.next() == nil)
    // One read for each chunk, plus one each where a read stopped inside a chunk (the header's
    // buffer, the body's end) and the one that finds the end: not one per 4,096 bytes (74).
    if readSize == 65_537 { #expect(source.reads <= chunks.count + 3) }
  }

  // MARK: The end of input

  @Test func theEndOfInput() {
    #expect(Self.frames("") == [])
    #expect(Self.frames("Content-Length: 10\r\n\r\n{}") == [])
    // Longer than the read buffer: read straight into the message, which the end cuts short.
    #expect(Self.frames("Content-Length: 100\r\n\r\n" + String(repeating: "x", count: 99), chunkSize: 16) == [])
    #expect(Self.frames("Content-Length: 2\r\n") == [])
    #expect(Self.frames("Content-Length: 2\r\n\r\n{}Content-Len") == [Self.message("{}")])
    let source = Source([Self.framed("{}")])
    var reader = FrameReader { source.read($0) }
    #expect(reader.next() == Self.message("{}"))
    #expect(reader.next() == nil)
    #expect(reader.next() == nil)
  }

  @Test func theEndOfInputWhileResynchronizing() {
    #expect(Self.kinds(Self.frames("Content-Length: x\r\n\r\nno header follows")) == ["header error"])
  }
}

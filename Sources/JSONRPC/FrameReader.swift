// `Content-Length` framing: reading messages from a byte stream and resynchronizing after bad headers.

/// Reads `Content-Length`-framed messages from a byte stream (LSP's base protocol).
///
/// Header names are case-insensitive and in any order; headers other than `Content-Length`
/// (such as `Content-Type`) are ignored. A header block with a missing, malformed or over-limit
/// `Content-Length`, or one longer than `maximumHeaderLength`, yields `.headerError`; the
/// declared body is not waited for, and reading resumes at the next `Content-Length` header.
/// Nothing is allocated from a length field before it passed the limit.
package struct FrameReader {
  /// The largest body accepted, in bytes.
  package static let maximumContentLength = 256 << 20
  /// The longest header block accepted, in bytes.
  package static let maximumHeaderLength = 16 << 10

  package enum Frame: Equatable {
    case message([UInt8])
    case headerError(String)
  }

  /// Fills the buffer with up to its count bytes; returns how many, 0 at the end of input.
  private let read: (UnsafeMutableRawBufferPointer) -> Int
  private var buffer: [UInt8] = []
  /// Where `read` writes: allocated once, so a read costs no allocation or zeroing.
  private var scratch: [UInt8] = []
  private var start = 0
  private var ended = false
  private var resynchronizing = false
  private let chunkSize: Int

  package init(chunkSize: Int = 1 << 20, read: @escaping (UnsafeMutableRawBufferPointer) -> Int) {
    self.read = read
    self.chunkSize = chunkSize
  }

  /// The next frame; nil once the input has ended (a partial frame at the end is dropped).
  package mutating func next() -> Frame? {
    while true {
      if resynchronizing {
        guard let header = find(Self.contentLengthLower, caseInsensitive: true) else {
          // Keep a tail that could be the start of a split "Content-Length".
          start = max(start, buffer.count - Self.contentLengthLower.count)
          guard fill() else { return nil }
          continue
        }
        start = header
        resynchronizing = false
      }
      guard let headerEnd = find(Self.headerTerminator, caseInsensitive: false) else {
        if buffer.count - start > Self.maximumHeaderLength {
          start = buffer.count
          resynchronizing = true
          return .headerError("header block longer than \(Self.maximumHeaderLength) bytes")
        }
        guard fill() else { return nil }
        continue
      }
      // Offsets from `start`: `fill()` may move the buffer's contents down to index 0.
      let headerLength = headerEnd - start
      let bodyOffset = headerLength + Self.headerTerminator.count
      if headerLength > Self.maximumHeaderLength {
        start += bodyOffset
        resynchronizing = true
        return .headerError("header block longer than \(Self.maximumHeaderLength) bytes")
      }
      switch contentLength(buffer[start..<headerEnd]) {
      case .failure(let error):
        start += bodyOffset
        resynchronizing = true
        return .headerError(error.message)
      case .success(let length):
        let bodyStart = start + bodyOffset
        if buffer.count - bodyStart >= length {
          let body = Array(buffer[bodyStart..<bodyStart + length])
          start = bodyStart + length
          return .message(body)
        }
        return readBody(length: length, from: bodyStart)
      }
    }
  }

  /// A body longer than what is buffered: what is buffered is moved into an array of the
  /// declared length (which passed the limit), and the rest is read straight into it. A
  /// megabytes-long `didOpen` is then written once, not grown chunk by chunk into the buffer and
  /// copied out of it. Nil when the input ends first (a partial frame is dropped).
  private mutating func readBody(length: Int, from bodyStart: Int) -> Frame? {
    let buffered = buffer.count - bodyStart
    let read = self.read
    var complete = false
    let body = buffer.withUnsafeBufferPointer { old in
      [UInt8](unsafeUninitializedCapacity: length) { out, initialized in
        var filled = UnsafeMutableBufferPointer(rebasing: out[..<buffered]).initialize(
          fromContentsOf: UnsafeBufferPointer(rebasing: old[bodyStart...]))
        while filled < length {
          let n = read(UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: out[filled..<length])))
          guard n > 0 else { break }
          filled += n
        }
        initialized = filled
        complete = filled == length
      }
    }
    buffer.removeAll(keepingCapacity: true)
    start = 0
    guard complete else {
      ended = true
      return nil
    }
    return .message(body)
  }

  private static let headerTerminator: [UInt8] = Array("\r\n\r\n".utf8)
  private static let contentLengthLower: [UInt8] = Array("content-length".utf8)

  private func contentLength(_ header: ArraySlice<UInt8>) -> Result<Int, HeaderError> {
    if let length = Self.plainContentLength(header) { return .success(length) }
    let text = String(decoding: header, as: UTF8.self)
    var length: Int?
    for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
      guard let colon = line.firstIndex(of: ":") else {
        return .failure(HeaderError("malformed header line '\(line.prefix(80))'"))
      }
      let name = line[..<colon].trimmingSpaces().lowercased()
      guard name == "content-length" else { continue }
      let value = line[line.index(after: colon)...].trimmingSpaces()
      guard !value.isEmpty, value.count <= 12, value.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(value)
      else {
        return .failure(HeaderError("Content-Length '\(value.prefix(40))' is not a number of bytes"))
      }
      guard number <= Self.maximumContentLength else {
        return .failure(HeaderError("Content-Length \(value) is over the limit of \(Self.maximumContentLength) bytes"))
      }
      length = number
    }
    guard let length else { return .failure(HeaderError("header block without Content-Length")) }
    return .success(length)
  }

  /// The header every client sends, `Content-Length: ` (in any case) and up to 12 digits within
  /// the limit, and nothing else, read on its bytes; nil for anything else, which
  /// `contentLength` reads line by line (and words the error of). Every message passes here: the
  /// general reading cost more than parsing a small request's JSON.
  private static func plainContentLength(_ header: ArraySlice<UInt8>) -> Int? {
    let name = contentLengthLower.count
    guard header.count > name + 2, header.count <= name + 2 + 12 else { return nil }
    var i = header.startIndex
    for expected in contentLengthLower {
      // A letter in either case (setting bit 0x20 lowers it); the `-` exactly.
      let byte = expected == 0x2D ? header[i] : header[i] | 0x20
      guard byte == expected else { return nil }
      i += 1
    }
    guard header[i] == 0x3A, header[i + 1] == 0x20 else { return nil }
    var length = 0
    for byte in header[(i + 2)...] {
      let digit = byte &- 0x30
      guard digit < 10 else { return nil }
      length = length * 10 + Int(digit)
    }
    return length <= maximumContentLength ? length : nil
  }

  /// Reads more input; false at the end. Drops consumed bytes first when they are most of it.
  private mutating func fill() -> Bool {
    guard !ended else { return false }
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeSubrange(0..<start)
      start = 0
    }
    if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: chunkSize) }
    let n = scratch.withUnsafeMutableBytes { read($0) }
    if n <= 0 {
      ended = true
      return false
    }
    scratch.withUnsafeBufferPointer { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<n])) }
    return true
  }

  private func find(_ needle: [UInt8], caseInsensitive: Bool) -> Int? {
    guard buffer.count - start >= needle.count else { return nil }
    var i = start
    let last = buffer.count - needle.count
    while i <= last {
      var k = 0
      while k < needle.count {
        var byte = buffer[i + k]
        if caseInsensitive, byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
        if byte != needle[k] { break }
        k += 1
      }
      if k == needle.count { return i }
      i += 1
    }
    return nil
  }
}

private struct HeaderError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

extension Substring {
  fileprivate func trimmingSpaces() -> Substring {
    var result = self
    while result.first == " " || result.first == "\t" { result.removeFirst() }
    while result.last == " " || result.last == "\t" { result.removeLast() }
    return result
  }
}

// Splitting text into lines at `\n`, `\r\n` and `\r`: counted 32 bytes a turn, split with `memchr`.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a line ends: `\n`, `\r\n`, `\r` (as LSP defines lines), or not at all (the
/// last line).
package enum LineTerminator: UInt8, Sendable, CaseIterable {
  case none
  case lf
  case crlf
  case cr

  /// How many bytes the line break takes.
  var byteCount: Int {
    switch self {
    case .none: 0
    case .lf, .cr: 1
    case .crlf: 2
    }
  }

  package var utf8: [UInt8] {
    switch self {
    case .none: []
    case .lf: [0x0A]
    case .crlf: [0x0D, 0x0A]
    case .cr: [0x0D]
    }
  }

  package var string: String {
    switch self {
    case .none: ""
    case .lf: "\n"
    case .crlf: "\r\n"
    case .cr: "\r"
    }
  }
}

/// Splits UTF-8 text into lines. Only `\n`, `\r\n` and `\r` end a line; every other separator
/// (U+2028, U+0085, form feed) stays inside it.
package enum LineSplitter {
  /// The number of lines: line breaks + 1. A text without `\r` (one `memchr` finds out) has
  /// its `\n` bytes counted 32 at a time, with no branch per line; any other goes byte by byte.
  package static func countLines(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let n = bytes.count
    guard let base = bytes.baseAddress else { return 1 }
    guard find(0x0D, in: bytes, from: 0, to: n) == n else {
      var breaks = 0
      for i in 0..<n where bytes[i] == 0x0A || (bytes[i] == 0x0D && !(i + 1 < n && bytes[i + 1] == 0x0A)) {
        breaks += 1
      }
      return breaks + 1
    }
    let raw = UnsafeRawPointer(base)
    var breaks = 0
    var i = 0
    // Each byte of `lanes` counts the `\n` bytes seen at its place, four words per turn, for up to
    // 63 turns (252 at most per lane) before the lanes are summed.
    while i &+ 32 <= n {
      var lanes: UInt64 = 0
      let stop = min(n, i &+ 63 &* 32)
      while i &+ 32 <= stop {
        for k in 0..<4 {
          let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i &+ 8 &* k, as: UInt64.self))
          lanes &+= bytesEqual(word, 0x0A0A_0A0A_0A0A_0A0A) &>> 7
        }
        i &+= 32
      }
      // Sum the eight byte lanes: pairs into 16-bit lanes, then those four by one multiply.
      let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ (lanes &>> 8 & 0x00FF_00FF_00FF_00FF)
      breaks += Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) &>> 48)
    }
    while i < n {
      if bytes[i] == 0x0A { breaks += 1 }
      i += 1
    }
    return breaks + 1
  }

  /// The top bit of each byte of `word` that equals the byte repeated in `pattern`, exactly (no
  /// false alarms from borrows): a byte is zero after the xor when adding 0x7F to its low seven
  /// bits leaves its top bit clear and its own top bit is clear.
  @inline(__always)
  static func bytesEqual(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
    let x = word ^ pattern
    return ~(((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | x) & 0x8080_8080_8080_8080
  }

  /// The index of the first `byte` in `bytes[start..<end]`, or `end`: the C library's `memchr`,
  /// which reads many bytes per step.
  @inline(__always)
  static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
    guard start < end, let base = bytes.baseAddress else { return end }
    guard let found = memchr(base + start, Int32(byte), end - start) else { return end }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
  }

  /// Calls `body` with each line's start (plus `base`), length and terminator. Always at least
  /// one line: the text after the last break, possibly empty.
  ///
  /// Each line's end is the next `\n` before the next `\r`, both found by `memchr`; the next `\r`
  /// is looked for again only once it is passed, so a text without one is searched for it once.
  @inline(__always)
  package static func split(
    _ bytes: UnsafeBufferPointer<UInt8>, base: UInt32, _ body: (UInt32, UInt32, LineTerminator) -> Void
  ) {
    let n = bytes.count
    var start = 0
    var nextCR = find(0x0D, in: bytes, from: 0, to: n)
    while true {
      let lf = find(0x0A, in: bytes, from: start, to: nextCR)
      if lf < nextCR {
        body(base + UInt32(start), UInt32(lf - start), .lf)
        start = lf + 1
        continue
      }
      guard nextCR < n else { break }
      let crlf = nextCR + 1 < n && bytes[nextCR + 1] == 0x0A
      body(base + UInt32(start), UInt32(nextCR - start), crlf ? .crlf : .cr)
      start = nextCR + (crlf ? 2 : 1)
      nextCR = find(0x0D, in: bytes, from: start, to: n)
    }
    body(base + UInt32(start), UInt32(n - start), .none)
  }
}

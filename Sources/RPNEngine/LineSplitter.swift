// Splitting text into lines at `\n`, `\r\n` and `\r`, eight bytes at a time.

/// How a line ends: `\n`, `\r\n`, `\r` (as LSP defines lines), or not at all (the
/// last line).
package enum LineTerminator: UInt8, Sendable, CaseIterable {
  case none
  case lf
  case crlf
  case cr

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
  /// The number of lines: line breaks + 1.
  package static func countLines(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 1
    var i = nextControlByte(bytes, from: 0)
    let n = bytes.count
    while i < n {
      let byte = bytes[i]
      if byte == 0x0A {
        count += 1
      } else if byte == 0x0D {
        count += 1
        if i + 1 < n, bytes[i + 1] == 0x0A { i += 1 }
      }
      i = nextControlByte(bytes, from: i + 1)
    }
    return count
  }

  /// The index of the first byte at or after `start` that is at most `\r` (0x0D), which every
  /// line break is; `bytes.count` when there is none. Eight bytes at a time: a word has such a
  /// byte exactly when `(w - 0x0E…0E) & ~w & 0x80…80` is not zero, and its lowest set bit
  /// marks the first one (higher ones may be false alarms from the borrow; they are not used).
  @inline(__always)
  package static func nextControlByte(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var i = start
    let n = bytes.count
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      while i + 8 <= n {
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        let found = (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080
        if found != 0 { return i + found.trailingZeroBitCount / 8 }
        i += 8
      }
    }
    while i < n, bytes[i] > 0x0D { i += 1 }
    return i
  }

  /// Calls `body` with each line's start (plus `base`), length and terminator. Always at least
  /// one line: the text after the last break, possibly empty.
  @inline(__always)
  package static func split(
    _ bytes: UnsafeBufferPointer<UInt8>, base: UInt32, _ body: (UInt32, UInt32, LineTerminator) -> Void
  ) {
    var start = 0
    var i = 0
    let n = bytes.count
    while true {
      i = nextControlByte(bytes, from: i)
      guard i < n else { break }
      let byte = bytes[i]
      if byte != 0x0A && byte != 0x0D {
        i += 1
        continue
      }
      let terminator: LineTerminator = byte == 0x0A ? .lf : (i + 1 < n && bytes[i + 1] == 0x0A ? .crlf : .cr)
      body(base + UInt32(start), UInt32(i - start), terminator)
      i += terminator == .crlf ? 2 : 1
      start = i
    }
    body(base + UInt32(start), UInt32(n - start), .none)
  }
}

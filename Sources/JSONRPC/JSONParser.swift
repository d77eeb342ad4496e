// The JSON parser: bounded nesting, validated UTF-8, escape-free strings copied in one piece.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a body is not JSON: what was expected, at which byte.
package struct JSONParseError: Error, Equatable, Sendable {
  package var message: String
  package var offset: Int
}

/// Parses RFC 8259 JSON from UTF-8 bytes.
///
/// Nesting is bounded (`maximumDepth`), so hostile input like 100,000 `[` is an error, not a stack
/// overflow. Strings are validated as UTF-8 (invalid bytes are an error). Long strings without
/// escapes (a document's text) are copied in one piece; escapes are decoded run by run.
package struct JSONParser {
  package static let maximumDepth = 128

  private let bytes: UnsafeBufferPointer<UInt8>
  private var i = 0
  private var depth = 0
  /// Whether the top-level member `id` keeps its text when it is a number (`parseMessage`).
  private let keepsIDText: Bool

  private init(_ bytes: UnsafeBufferPointer<UInt8>, keepsIDText: Bool = false) {
    self.bytes = bytes
    self.keepsIDText = keepsIDText
  }

  package static func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONParseError> {
    bytes.withUnsafeBufferPointer { parse($0) }
  }

  package static func parse(_ text: String) -> Result<JSONValue, JSONParseError> {
    parse(Array(text.utf8))
  }

  /// Parses a JSON-RPC message: as `parse`, but a number `id` of the top-level object is kept
  /// as its text (`.encoded`) when writing its value back would change it, so that a response
  /// repeats the id exactly as the client wrote it. As a double, `9007199254740993` would come back
  /// as `9007199254740992`, `1e3` as `1000` and `-0` as `0`, and a client matches responses to
  /// requests by the id. A small integer written plainly (almost every id) stays a `.number`.
  package static func parseMessage(_ bytes: [UInt8]) -> Result<JSONValue, JSONParseError> {
    bytes.withUnsafeBufferPointer { parse($0, keepsIDText: true) }
  }

  package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
    parse(bytes, keepsIDText: false)
  }

  private static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, keepsIDText: Bool
  ) -> Result<JSONValue, JSONParseError> {
    var parser = JSONParser(bytes, keepsIDText: keepsIDText)
    do throws(JSONParseError) {
      parser.skipWhitespace()
      let value = try parser.value()
      parser.skipWhitespace()
      guard parser.i == bytes.count else { throw parser.error("unexpected data after the JSON value") }
      return .success(value)
    } catch {
      return .failure(error)
    }
  }

  private func error(_ message: String) -> JSONParseError {
    JSONParseError(message: message, offset: i)
  }

  @inline(__always)
  private mutating func skipWhitespace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x0A, 0x0D, 0x09: i += 1
      default: return
      }
    }
  }

  private mutating func value() throws(JSONParseError) -> JSONValue {
    guard i < bytes.count else { throw error("unexpected end of JSON") }
    switch bytes[i] {
    case 0x7B: return try object()
    case 0x5B: return try array()
    case 0x22: return .string(try string())
    case 0x74:
      try literal("true")
      return .bool(true)
    case 0x66:
      try literal("false")
      return .bool(false)
    case 0x6E:
      try literal("null")
      return .null
    case 0x2D, 0x30...0x39: return .number(try number())
    default: throw error("unexpected character")
    }
  }

  private mutating func literal(_ word: StaticString) throws(JSONParseError) {
    let count = word.utf8CodeUnitCount
    guard i + count <= bytes.count else { throw error("unexpected end of JSON") }
    for k in 0..<count where bytes[i + k] != word.utf8Start[k] { throw error("invalid literal") }
    i += count
  }

  private mutating func enter() throws(JSONParseError) {
    depth += 1
    if depth > Self.maximumDepth { throw error("JSON nested deeper than \(Self.maximumDepth) levels") }
  }

  private mutating func object() throws(JSONParseError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    i += 1
    var members: [(key: String, value: JSONValue)] = []
    skipWhitespace()
    if i < bytes.count, bytes[i] == 0x7D {
      i += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard i < bytes.count, bytes[i] == 0x22 else { throw error("expected a member name") }
      // A message's `"id"`, told by its bytes: comparing every key as a string cost more than the
      // rest of the change. (A key spelled with escapes is read as any other.)
      let isID =
        keepsIDText && depth == 1 && i + 3 < bytes.count && bytes[i + 1] == 0x69 && bytes[i + 2] == 0x64
        && bytes[i + 3] == 0x22
      let key = try string()
      skipWhitespace()
      guard i < bytes.count, bytes[i] == 0x3A else { throw error("expected ':'") }
      i += 1
      skipWhitespace()
      if isID, i < bytes.count, bytes[i] == 0x2D || bytes[i] &- 0x30 < 10 {
        members.append((key, try numberKeepingText()))
      } else {
        members.append((key, try value()))
      }
      skipWhitespace()
      guard i < bytes.count else { throw error("unexpected end of JSON") }
      if bytes[i] == 0x2C {
        i += 1
      } else if bytes[i] == 0x7D {
        i += 1
        return .object(members)
      } else {
        throw error("expected ',' or '}'")
      }
    }
  }

  private mutating func array() throws(JSONParseError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    i += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if i < bytes.count, bytes[i] == 0x5D {
      i += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try value())
      skipWhitespace()
      guard i < bytes.count else { throw error("unexpected end of JSON") }
      if bytes[i] == 0x2C {
        i += 1
      } else if bytes[i] == 0x5D {
        i += 1
        return .array(elements)
      } else {
        throw error("expected ',' or ']'")
      }
    }
  }

  private mutating func string() throws(JSONParseError) -> String {
    i += 1  // the opening quote
    let runStart = i
    while i < bytes.count {
      i = Self.nextSpecialByte(bytes, from: i)
      guard i < bytes.count else { break }
      let byte = bytes[i]
      if byte == 0x22 {
        let run = UnsafeBufferPointer(rebasing: bytes[runStart..<i])
        i += 1
        return try validated(run)
      }
      if byte == 0x5C {
        i = runStart
        return try escapedString()
      }
      if byte < 0x20 { throw error("control character in a string") }
      i += 1
    }
    throw error("unterminated string")
  }

  /// A string with escapes, from its first byte at `i`, decoded into an array sized once: to the
  /// string's length as written, found first (an escape never decodes to more bytes than it is
  /// written with). A document of a million lines is a million `\n`s: its text is then copied
  /// run by run into place, not grown by doubling.
  private mutating func escapedString() throws(JSONParseError) -> String {
    var end = i
    while true {
      end = Self.nextSpecialByte(bytes, from: end)
      guard end < bytes.count, bytes[end] != 0x22 else { break }
      end += bytes[end] == 0x5C ? 2 : 1
    }
    var failure: JSONParseError?
    let decoded = [UInt8](unsafeUninitializedCapacity: min(end, bytes.count) - i) { out, initialized in
      initialized = 0
      do throws(JSONParseError) {
        var runStart = i
        while true {
          i = Self.nextSpecialByte(bytes, from: i)
          guard i < bytes.count else { throw error("unterminated string") }
          let byte = bytes[i]
          if byte != 0x22 && byte != 0x5C {
            throw error("control character in a string")
          }
          let run = UnsafeBufferPointer(rebasing: bytes[runStart..<i])
          initialized += UnsafeMutableBufferPointer(rebasing: out[initialized...]).initialize(fromContentsOf: run)
          if byte == 0x22 {
            i += 1
            return
          }
          try escape(into: out, at: &initialized)
          runStart = i
        }
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return try decoded.withUnsafeBufferPointer { buffer throws(JSONParseError) in try validated(buffer) }
  }

  /// The index of the first byte at or after `start` that a string must look at: `"`, `\` or a
  /// control character (below 0x20); `bytes.count` when there is none. Eight bytes at a time, as
  /// a document's text is megabytes of plain characters: for each kind, `(x - 0x01…01) & ~x &
  /// 0x80…80` marks the bytes where `x` (the word, compared byte by byte) is zero, exactly at the
  /// lowest mark (the marks above it may be false, from the borrow, and are not used).
  @inline(__always)
  static func nextSpecialByte(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var i = start
    let n = bytes.count
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      while i + 8 <= n {
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        let quote = word ^ (0x22 &* ones)
        let backslash = word ^ (0x5C &* ones)
        let marks =
          ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs)
          | ((word &- 0x20 &* ones) & ~word & highs)
        if marks != 0 { return i + marks.trailingZeroBitCount / 8 }
        i += 8
      }
    }
    while i < n, bytes[i] >= 0x20, bytes[i] != 0x22, bytes[i] != 0x5C { i += 1 }
    return i
  }

  /// The string of UTF-8 bytes; an error when they are not valid UTF-8. A short ASCII string
  /// (most of them: keys, methods, URIs) is valid as it is and skips the general validation,
  /// whose fixed cost was more than the rest of parsing a small request; a long one (a
  /// document's text) is validated in one pass.
  private func validated(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> String {
    if bytes.count <= 256, bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    guard let string = String(validating: bytes, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
    return string
  }

  /// Decodes the escape at `i` (a backslash) into `out` at `count`, and moves past it. `out` has
  /// room: an escape decodes to fewer bytes than it is written with.
  private mutating func escape(into out: UnsafeMutableBufferPointer<UInt8>, at count: inout Int) throws(JSONParseError)
  {
    guard i + 1 < bytes.count else { throw error("unterminated escape") }
    let kind = bytes[i + 1]
    i += 2
    let simple: UInt8
    switch kind {
    case 0x22: simple = 0x22
    case 0x5C: simple = 0x5C
    case 0x2F: simple = 0x2F
    case 0x62: simple = 0x08
    case 0x66: simple = 0x0C
    case 0x6E: simple = 0x0A
    case 0x72: simple = 0x0D
    case 0x74: simple = 0x09
    case 0x75:
      var scalar = try hex4()
      if scalar >= 0xD800 && scalar < 0xDC00 {
        // A high surrogate must be followed by an escaped low one.
        guard i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 else { throw error("lone surrogate") }
        i += 2
        let low = try hex4()
        guard low >= 0xDC00 && low < 0xE000 else { throw error("invalid surrogate pair") }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if scalar >= 0xDC00 && scalar < 0xE000 {
        throw error("lone surrogate")
      }
      guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid escape") }
      var written = count
      UTF8.encode(unicode) { byte in
        out[written] = byte
        written += 1
      }
      count = written
      return
    default:
      throw error("invalid escape")
    }
    out[count] = simple
    count += 1
  }

  private mutating func hex4() throws(JSONParseError) -> UInt32 {
    guard i + 4 <= bytes.count else { throw error("unterminated escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[i]
      let digit: UInt32
      switch byte {
      case 0x30...0x39: digit = UInt32(byte - 0x30)
      case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
      default: throw error("invalid \\u escape")
      }
      value = value << 4 | digit
      i += 1
    }
    return value
  }

  /// A number as `.number` when `JSONWriter` writes its value back as it is written here (an
  /// integer of up to 15 characters, not `-0`); else as its text, to be written back verbatim
  /// (and not converted: the value would not be used).
  private mutating func numberKeepingText() throws(JSONParseError) -> JSONValue {
    let start = i
    let integral = try scanNumber()
    let count = i - start
    if integral, count <= 15, !(count == 2 && bytes[start] == 0x2D && bytes[start + 1] == 0x30) {
      return .number(value(ofNumberAt: start, integral: true))
    }
    return .encoded(Array(bytes[start..<i]))
  }

  private mutating func number() throws(JSONParseError) -> Double {
    let start = i
    let integral = try scanNumber()
    return value(ofNumberAt: start, integral: integral)
  }

  /// Moves past the number at `i`; whether it is written as an integer (no fraction, no exponent).
  /// (Inlined, as is `value(ofNumberAt:integral:)`: as calls, the two cost a number 25% more.)
  @inline(__always)
  private mutating func scanNumber() throws(JSONParseError) -> Bool {
    if bytes[i] == 0x2D { i += 1 }
    guard i < bytes.count else { throw error("invalid number") }
    if bytes[i] == 0x30 {
      i += 1
    } else if bytes[i] >= 0x31 && bytes[i] <= 0x39 {
      while i < bytes.count, bytes[i] &- 0x30 < 10 { i += 1 }
    } else {
      throw error("invalid number")
    }
    var integral = true
    if i < bytes.count, bytes[i] == 0x2E {
      integral = false
      i += 1
      guard i < bytes.count, bytes[i] &- 0x30 < 10 else { throw error("invalid number") }
      while i < bytes.count, bytes[i] &- 0x30 < 10 { i += 1 }
    }
    if i < bytes.count, bytes[i] | 0x20 == 0x65 {
      integral = false
      i += 1
      if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
      guard i < bytes.count, bytes[i] &- 0x30 < 10 else { throw error("invalid number") }
      while i < bytes.count, bytes[i] &- 0x30 < 10 { i += 1 }
    }
    return integral
  }

  /// The value of the number from `start` to `i`.
  @inline(__always)
  private func value(ofNumberAt start: Int, integral: Bool) -> Double {
    // Small integers (ids, positions) are exact without strtod.
    if integral && i - start <= 15 {
      var value = 0
      var k = start
      let negative = bytes[k] == 0x2D
      if negative { k += 1 }
      while k < i {
        value = value * 10 + Int(bytes[k] - 0x30)
        k += 1
      }
      return Double(negative ? -value : value)
    }
    var text = [CChar](repeating: 0, count: i - start + 1)
    for k in start..<i { text[k - start] = CChar(bitPattern: bytes[k]) }
    return text.withUnsafeBufferPointer { strtod($0.baseAddress!, nil) }
  }
}

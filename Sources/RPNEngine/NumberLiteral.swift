// Number literals: an exact byte-level fast path for short decimals, `strtod` for the rest.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Number literals: `12`, `-12.5`, `.5`, `12.`, `−3` (U+2212), `1e3`, `2.5E-4`,
/// `1_000_000`, `0.000_1`.
///
/// Short decimals take a byte-level fast path that is exact (Clinger's: a mantissa below 2⁵³ times
/// a power of ten up to 10²², both exact doubles, rounded once). Everything else goes through the
/// C library's correctly rounded `strtod`.
package enum NumberLiteral {
  package enum Result: Equatable {
    case value(Double)
    /// Number syntax, but beyond the largest double.
    case outOfRange
    case notANumber
  }

  /// 10⁰ … 10²², every one exact in a double; a tuple so that reading it needs no lazy global.
  @inline(__always)
  private static func exactPowerOfTen(_ exponent: Int) -> Double {
    withUnsafeBytes(of: powersOfTen) { $0.load(fromByteOffset: exponent * 8, as: Double.self) }
  }

  private static let powersOfTen:
    (
      Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double,
      Double, Double, Double, Double, Double, Double, Double, Double, Double
    ) = (
      1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
      1e20,
      1e21, 1e22
    )

  /// Parses a whole string as a number literal.
  package static func parse(_ text: String) -> Result {
    var text = text
    return text.withUTF8 { $0.isEmpty ? .notANumber : parse($0) }
  }

  /// Parses the bytes of one token as a number literal. The bytes are not empty.
  @inline(__always)
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
    let count = bytes.count
    var i = 0
    var negative = false
    switch bytes[0] {
    case 0x2B: i = 1
    case 0x2D:
      negative = true
      i = 1
    case 0xE2:
      guard count >= 3, bytes[1] == 0x88, bytes[2] == 0x92 else { return .notANumber }
      negative = true
      i = 3
    default: break
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var fractionDigits = 0
    var exponent = 0
    // Whole part, then fraction: digits, with single underscores between two digits.
    var inFraction = false
    while i < count {
      let byte = bytes[i]
      let digit = byte &- 0x30
      if digit < 10 {
        mantissa = mantissa &* 10 &+ UInt64(digit)
        digits += 1
        if inFraction { fractionDigits += 1 }
        i += 1
      } else if byte == 0x5F {
        guard i > 0, bytes[i - 1] &- 0x30 < 10, i + 1 < count, bytes[i + 1] &- 0x30 < 10 else { return .notANumber }
        i += 1
      } else if byte == 0x2E && !inFraction {
        inFraction = true
        i += 1
      } else {
        break
      }
    }
    guard digits > 0 else { return .notANumber }
    if i < count {
      guard bytes[i] | 0x20 == 0x65, let written = exponentPart(bytes, from: i + 1) else { return .notANumber }
      exponent = written
    }
    // More than 19 digits may have wrapped the mantissa: the exact conversion takes those.
    guard digits <= 19 else { return slowParse(bytes) }
    if mantissa == 0 { return .value(negative ? -0.0 : 0.0) }
    exponent -= fractionDigits
    if mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
      var value = Double(mantissa)
      if exponent < 0 { value /= exactPowerOfTen(-exponent) } else { value *= exactPowerOfTen(exponent) }
      return .value(negative ? -value : value)
    }
    return slowParse(bytes)
  }

  /// The digits of an exponent after `e`: an optional ASCII sign, then at least one digit, to the
  /// end of the token. Saturates far beyond any double's exponent.
  @inline(__always)
  private static func exponentPart(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var i = start
    var negative = false
    if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D {
      negative = bytes[i] == 0x2D
      i += 1
    }
    guard i < bytes.count else { return nil }
    var value = 0
    while i < bytes.count {
      let digit = bytes[i] &- 0x30
      guard digit < 10 else { return nil }
      value = min(value * 10 + Int(digit), 1_000_000)
      i += 1
    }
    return negative ? -value : value
  }

  /// The exact conversion, for literals the fast path cannot round correctly. The syntax was
  /// checked already; this drops the underscores and spells the sign in ASCII for `strtod`.
  private static func slowParse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
    var text: [CChar] = []
    text.reserveCapacity(bytes.count + 1)
    var i = 0
    if bytes[0] == 0xE2 {
      text.append(0x2D)
      i = 3
    }
    while i < bytes.count {
      if bytes[i] != 0x5F { text.append(CChar(bitPattern: bytes[i])) }
      i += 1
    }
    text.append(0)
    let value = text.withUnsafeBufferPointer { strtod($0.baseAddress!, nil) }
    return value.isFinite ? .value(value) : .outOfRange
  }
}

extension NumberLiteral {
  /// Parses the bytes of one token (not empty): the entry point benchmarks measure.
  package static func parseBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Result { parse(bytes) }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Number literals (SPEC §1.1): `12`, `-12.5`, `.5`, `12.`, `−3` (U+2212), `1e3`, `2.5E-4`,
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

  private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
    var power = 1.0
    for _ in 0..<exponent { power *= 10 }
    return power
  }

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
    case 0x2D: negative = true; i = 1
    case 0xE2:
      guard count >= 3, bytes[1] == 0x88, bytes[2] == 0x92 else { return .notANumber }
      negative = true
      i = 3
    default: break
    }
    var mantissa: UInt64 = 0
    var significantDigits = 0
    var exponent = 0
    var digits = 0
    var inexact = false
    var sawDot = false
    var previousWasDigit = false
    while i < count {
      let byte = bytes[i]
      let digit = byte &- 0x30
      if digit < 10 {
        digits += 1
        if significantDigits < 19 {
          if mantissa != 0 || digit != 0 { significantDigits += 1 }
          mantissa = mantissa &* 10 &+ UInt64(digit)
          if sawDot { exponent -= 1 }
        } else {
          if digit != 0 { inexact = true }
          if !sawDot { exponent += 1 }
        }
        previousWasDigit = true
        i += 1
      } else if byte == 0x5F {  // "_" between two mantissa digits
        guard previousWasDigit, i + 1 < count, bytes[i + 1] &- 0x30 < 10 else { return .notANumber }
        previousWasDigit = false
        i += 1
      } else if byte == 0x2E {  // "."
        guard !sawDot else { return .notANumber }
        sawDot = true
        previousWasDigit = false
        i += 1
      } else if byte == 0x65 || byte == 0x45 {  // "e" "E"
        guard digits > 0, let written = exponentPart(bytes, from: i + 1) else { return .notANumber }
        exponent += written
        i = count
      } else {
        return .notANumber
      }
    }
    guard digits > 0 else { return .notANumber }
    if mantissa == 0 && !inexact { return .value(negative ? -0.0 : 0.0) }
    if !inexact && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
      var value = Double(mantissa)
      if exponent < 0 { value /= exactPowersOfTen[-exponent] } else { value *= exactPowersOfTen[exponent] }
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

// Number literals: an exact byte-level fast path for short decimals, `strtod` for the rest.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Number literals: `12`, `-12.5`, `.5`, `12.`, `−3` (U+2212), `1e3`, `2.5E-4`,
/// `1_000_000`, `0.000_1`, thousands commas `1,234,567.89` (a first group of one to three
/// digits, then groups of exactly three, before any point), and integers `0x1F`, `0o17`,
/// `0b1010` (any case, a sign, `_` between digits, at most 2^53).
///
/// Short decimals take a byte-level fast path that is exact (Clinger's: a mantissa below 2⁵³ times
/// a power of ten up to 10²², both exact doubles, rounded once). Everything else goes through the
/// C library's correctly rounded `strtod`.
package enum NumberLiteral {
  package enum Result: Equatable {
    case value(Double)
    /// Number syntax, but beyond the largest double.
    case outOfRange
    /// Written as a number, but wrongly: a comma out of place, a bad digit, an integer past 2^53.
    case malformed(NumberProblem)
    case notANumber
  }

  /// The largest integer literal: past it, integers are not all exact in a double.
  package static let largestInteger: UInt64 = 1 << 53

  /// 10⁰ … 10²², every one exact in a double. A switch of constants, which the compiler makes a
  /// table in read-only memory: reading it copies nothing and needs no lazy global.
  @inline(__always)
  private static func exactPowerOfTen(_ exponent: Int) -> Double {
    switch exponent {
    case 0: 1e0
    case 1: 1e1
    case 2: 1e2
    case 3: 1e3
    case 4: 1e4
    case 5: 1e5
    case 6: 1e6
    case 7: 1e7
    case 8: 1e8
    case 9: 1e9
    case 10: 1e10
    case 11: 1e11
    case 12: 1e12
    case 13: 1e13
    case 14: 1e14
    case 15: 1e15
    case 16: 1e16
    case 17: 1e17
    case 18: 1e18
    case 19: 1e19
    case 20: 1e20
    case 21: 1e21
    default: 1e22
    }
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
    case 0x2D:
      negative = true
      i = 1
    case 0xE2:
      guard count >= 3, bytes[1] == 0x88, bytes[2] == 0x92 else { return .notANumber }
      negative = true
      i = 3
    default: break
    }
    let signLength = i
    var mantissa: UInt64 = 0
    var digits = 0
    var fractionDigits = 0
    var exponent = 0
    // Whole part, then fraction: digits, with single underscores between two digits, and commas
    // between groups of the whole part.
    var inFraction = false
    var commas = false
    var digitsAtComma = 0  // the group after the last comma is `digits - digitsAtComma` long
    while i < count {
      let byte = bytes[i]
      let digit = byte &- 0x30
      if digit < 10 {
        mantissa = mantissa &* 10 &+ UInt64(digit)
        digits += 1
        if inFraction { fractionDigits += 1 }
        i += 1
      } else if byte == 0x2C {
        // The group before a comma: one to three digits first, then exactly three; none after the point.
        let group = digits - digitsAtComma
        guard !inFraction, commas ? group == 3 : (group >= 1 && group <= 3) else { return commaProblem(bytes) }
        commas = true
        digitsAtComma = digits
        i += 1
      } else if byte == 0x5F {
        guard i > 0, bytes[i - 1] &- 0x30 < 10, i + 1 < count, bytes[i + 1] &- 0x30 < 10 else { return .notANumber }
        i += 1
      } else if byte == 0x2E && !inFraction {
        if commas && digits - digitsAtComma != 3 { return commaProblem(bytes) }
        inFraction = true
        i += 1
      } else {
        break
      }
    }
    if commas && !inFraction && digits - digitsAtComma != 3 { return commaProblem(bytes) }
    guard digits > 0 else { return .notANumber }
    if i < count {
      // `0x`, `0o`, `0b`: a lone 0 stopped at the prefix's letter (off the common path).
      if i == signLength + 1, bytes[signLength] == 0x30 {
        switch bytes[i] | 0x20 {
        case 0x78: return integer(bytes, from: i + 1, radix: 16, negative: negative)
        case 0x6F: return integer(bytes, from: i + 1, radix: 8, negative: negative)
        case 0x62: return integer(bytes, from: i + 1, radix: 2, negative: negative)
        default: break
        }
      }
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

  /// A plain decimal at `start` of a line's bytes, parsed while it is scanned: an optional ASCII
  /// sign, digits, an optional point and more digits (at least one digit in all), ending at the
  /// end of the line, ASCII white space or `#`. Returns its value and where it ends, or nil for
  /// anything else (an exponent, `_`, a comma, U+2212, a letter, too many digits), which the
  /// caller then scans and parses in full.
  ///
  /// It takes only what `parse` would take on its fast path, computed the same way (a mantissa
  /// below 2⁵³ divided by an exact power of ten, rounded once), so the value is the same to the bit.
  @inline(__always)
  static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Double, Int)? {
    let count = bytes.count
    var i = start
    let sign = bytes[i]
    let negative = sign == 0x2D
    if negative || sign == 0x2B { i += 1 }
    if let (value, end) = shortDecimal(bytes, from: i) { return (negative ? -value : value, end) }
    var mantissa: UInt64 = 0
    /// Reads the run of digits at `i` into `mantissa`; returns how many there were.
    @inline(__always)
    func digitRun() -> Int {
      let runStart = i
      while i < count {
        let digit = bytes[i] &- 0x30
        guard digit < 10 else { break }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        i += 1
      }
      return i - runStart
    }
    var digits = digitRun()
    var fractionDigits = 0
    if i < count, bytes[i] == 0x2E {
      i += 1
      fractionDigits = digitRun()
      digits += fractionDigits
    }
    guard digits > 0, digits <= 19, i == count || TokenScanner.endsToken(bytes[i]) else { return nil }
    if mantissa == 0 { return (negative ? -0.0 : 0.0, i) }
    guard mantissa <= 1 << 53, fractionDigits <= 22 else { return nil }
    var value = Double(mantissa)
    if fractionDigits > 0 { value /= exactPowerOfTen(fractionDigits) }
    return (negative ? -value : value, i)
  }

  /// An unsigned plain decimal of at most seven bytes at `start` (`1234`, `56.78`, `.5`), from one
  /// 8-byte load (at `start`, or ending at the end of a line at least eight bytes long), all its
  /// digits at once; nil when the load cannot show it whole and ended, for `plainDecimal`'s loop
  /// to decide. At most seven digits: the mantissa is exact and the power of ten small, so the
  /// value is the loop's to the bit.
  ///
  /// A byte is a digit when, xored with `0`, it is below 10: its top bit clear and adding 0x76 to
  /// it leaves its top bit clear. The digits, xored with `0`, are moved together (the point
  /// dropped) to the top of a word, the first one highest, so the lanes below hold leading zeros;
  /// three multiply-and-shift steps then combine pairs, fours and eights of lanes. Its arithmetic
  /// wraps and its shifts mask: every index stays within the line and every shift below 64, and
  /// the overflow checks would cost as much as the work.
  @inline(__always)
  private static func shortDecimal(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Double, Int)? {
    let count = bytes.count
    guard count >= 8, start < count, let base = bytes.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    let word: UInt64
    if start &+ 8 <= count {
      word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
    } else {
      let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
      word = last &>> UInt64(truncatingIfNeeded: (start &+ 8 &- count) &<< 3)
    }
    let lanes = word ^ 0x3030_3030_3030_3030
    let notDigit = (((lanes & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | lanes) & 0x8080_8080_8080_8080
    let wholeLength = notDigit.trailingZeroBitCount &>> 3
    guard wholeLength < 8 else { return nil }
    let wholeBits = UInt64(truncatingIfNeeded: wholeLength &<< 3)
    var digitLanes = lanes & ((1 &<< wholeBits) &- 1)
    var length = wholeLength
    var fractionLength = 0
    if (word &>> wholeBits) & 0xFF == 0x2E {
      // The fraction's digits, up to a stop put after the word's last byte.
      let after = wholeBits &+ 8
      let rest = notDigit &>> after | 0x80 &<< (56 &- wholeBits)
      fractionLength = rest.trailingZeroBitCount &>> 3
      let fractionBits = UInt64(truncatingIfNeeded: fractionLength &<< 3)
      digitLanes |= (lanes &>> after & ((1 &<< fractionBits) &- 1)) &<< wholeBits
      length &+= 1 &+ fractionLength
    }
    let digits = wholeLength &+ fractionLength
    let end = start &+ length
    guard length < 8, digits > 0, end == count || TokenScanner.endsToken(bytes[end]) else { return nil }
    var mantissa = digitLanes &<< UInt64(truncatingIfNeeded: (8 &- digits) &<< 3)
    mantissa = (mantissa &* 2561) >> 8
    mantissa = ((mantissa & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
    mantissa = ((mantissa & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    // Below 10⁷: converted as a signed integer, one instruction.
    var value = Double(Int64(truncatingIfNeeded: mantissa))
    if fractionLength > 0 { value /= exactPowerOfTen(fractionLength) }
    return (value, end)
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

  /// A comma out of place makes an invalid number when the token is written as one (digits,
  /// commas, at most one point, a sign, an exponent); anything else is no number at all.
  private static func commaProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
    var i = bytes[0] == 0xE2 ? 3 : (bytes[0] == 0x2B || bytes[0] == 0x2D ? 1 : 0)
    var points = 0
    var sawDigit = false
    while i < bytes.count {
      let byte = bytes[i]
      if byte &- 0x30 < 10 {
        sawDigit = true
      } else if byte == 0x2E {
        points += 1
      } else if byte | 0x20 == 0x65 {
        guard sawDigit, exponentPart(bytes, from: i + 1) != nil else { return .notANumber }
        break
      } else if byte != 0x2C && byte != 0x5F {
        return .notANumber
      }
      i += 1
    }
    return sawDigit && points <= 1 ? .malformed(.misplacedComma) : .notANumber
  }

  /// An integer literal's digits after its prefix, in `radix`, with `_` between two digits.
  private static func integer(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, radix: UInt64, negative: Bool)
    -> Result
  {
    guard start < bytes.count else { return .malformed(.noDigits(radix: Int(radix))) }
    var value: UInt64 = 0
    var beyond = false
    var i = start
    while i < bytes.count {
      let byte = bytes[i]
      let digit: UInt64
      switch byte {
      case 0x30...0x39: digit = UInt64(byte - 0x30)
      case 0x61...0x66: digit = UInt64(byte - 0x61 + 10)
      case 0x41...0x46: digit = UInt64(byte - 0x41 + 10)
      case 0x5F:
        let between = i > start && i + 1 < bytes.count && bytes[i - 1] != 0x5F && bytes[i + 1] != 0x5F
        guard between else { return .malformed(.misplacedUnderscore) }
        i += 1
        continue
      default: digit = radix
      }
      guard digit < radix else {
        let (scalar, _) = Lexer.decode(bytes, at: i)
        return .malformed(
          .badDigit(radix: Int(radix), digit: Unicode.Scalar(scalar) ?? "?"))
      }
      if !beyond {
        let (times, o1) = value.multipliedReportingOverflow(by: radix)
        let (sum, o2) = times.addingReportingOverflow(digit)
        value = sum
        beyond = o1 || o2 || value > largestInteger
      }
      i += 1
    }
    guard !beyond else { return .malformed(.beyondExactIntegers) }
    let magnitude = Double(value)
    return .value(negative ? -magnitude : magnitude)
  }

  /// Readings of a number written with a comma out of place, as a user may have meant it: the
  /// last comma as a decimal point (`1,5` → `1.5`), and a single comma as a space between two
  /// numbers (`1 5`), each only when it reads as valid numbers.
  package static func readings(ofMisplacedComma literal: String) -> [String] {
    var result: [String] = []
    if let last = literal.lastIndex(of: ",") {
      var decimal = literal
      decimal.replaceSubrange(last...last, with: ".")
      let whole = decimal[..<decimal.firstIndex(of: ".")!]
      let candidates = [decimal, String(whole.filter { $0 != "," }) + decimal[decimal.firstIndex(of: ".")!...]]
      if let reading = candidates.first(where: { if case .value = parse($0) { true } else { false } }) {
        result.append(reading)
      }
    }
    let parts = literal.split(separator: ",", omittingEmptySubsequences: false)
    if parts.count == 2, parts.allSatisfy({ if case .value = parse(String($0)) { true } else { false } }) {
      result.append(parts.joined(separator: " "))
    }
    return result
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
      if bytes[i] != 0x5F && bytes[i] != 0x2C { text.append(CChar(bitPattern: bytes[i])) }
      i += 1
    }
    text.append(0)
    let value = text.withUnsafeBufferPointer { strtod($0.baseAddress!, nil) }
    return value.isFinite ? .value(value) : .outOfRange
  }
}

/// How a token written as a number is wrong.
package enum NumberProblem: Equatable, Sendable {
  /// Beyond the largest double (`1e999`).
  case outOfRange
  /// A comma that does not separate groups of three digits (`1,5`, `,5`, `1,000,00`).
  case misplacedComma
  /// `0x`, `0o` or `0b` with no digits after it.
  case noDigits(radix: Int)
  /// A digit the radix does not have (`0b102`, `0xG`, `0x1p3`).
  /// (A scalar, not a `String`: token kinds stay plain values that copy without reference counting.)
  case badDigit(radix: Int, digit: Unicode.Scalar)
  /// An `_` that is not between two digits of an integer literal.
  case misplacedUnderscore
  /// An integer literal past 2^53.
  case beyondExactIntegers
}

extension NumberLiteral {
  /// Parses the bytes of one token (not empty): the entry point benchmarks measure.
  package static func parseBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Result { parse(bytes) }
}

// Number literals: the one reader of their syntax; an exact fast path for short decimals, `strtod` for the rest.

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
/// `read` is the one reader of this syntax: where a literal ends and what its parts are. `parse`
/// (a whole token), the lexer, checks (`CheckLiteral`), radix literals (`RadixLiteral`) and the
/// suggestions take literals from it; outside this file no code tests for a digit but through
/// `isDigit`. `plainDecimal` and `shortDecimal` are the lexer's fast paths for the plain decimals
/// tapes are made of: they take a subset of what `read` takes, and give the same value to the bit.
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
  ///
  /// The token is a number when `read` takes all of it; what it does not take decides how a token
  /// written as a number is wrong: a comma out of place (`commaProblem`, which reads the whole
  /// token), a bad digit or `_` of an integer literal, or, for anything else, no number at all.
  @inline(__always)
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
    let count = bytes.count
    let reading = read(bytes, from: 0)
    if reading.radix != 10 { return integer(reading, in: bytes) }
    let stoppedAtUnderscore = reading.end < count && bytes[reading.end] == 0x5F
    // A comma out of place, unless it was found only where the digits stopped at an `_` that
    // stands between no two digits (`1,23_`): the `_` makes the token no number first.
    if let comma = reading.misplacedComma, !(stoppedAtUnderscore && comma == reading.end) {
      return commaProblem(bytes)
    }
    guard reading.digits > 0, reading.end == count else { return .notANumber }
    return value(of: reading, in: bytes)
  }

  /// The value of a decimal literal that `read` found: exact on the fast path (Clinger's), else
  /// from the C library's `strtod`.
  @inline(__always)
  static func value(of reading: Reading, in bytes: UnsafeBufferPointer<UInt8>) -> Result {
    // More than 19 digits may have wrapped the mantissa: the exact conversion takes those.
    guard reading.digits <= 19 else { return slowParse(UnsafeBufferPointer(rebasing: bytes[reading.range])) }
    if reading.mantissa == 0 { return .value(reading.negative ? -0.0 : 0.0) }
    let exponent = reading.scale - reading.fractionDigits
    if reading.mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
      var value = Double(reading.mantissa)
      if exponent < 0 { value /= exactPowerOfTen(-exponent) } else { value *= exactPowerOfTen(exponent) }
      return .value(reading.negative ? -value : value)
    }
    return slowParse(UnsafeBufferPointer(rebasing: bytes[reading.range]))
  }

  /// What `plainDecimal` found at the start of a token.
  enum DecimalScan {
    /// A plain decimal that ends the token: its value and where it ends.
    case number(Double, end: Int)
    /// A plain decimal that ends at an `_` which no digit or `_` follows: a quantity's number
    /// (`12.5_km`), its value and where the `_` is.
    case beforeUnit(Double, underscore: Int)
    /// Anything else, for the caller to scan and parse in full.
    case other
  }

  /// A plain decimal at `start` of a line's bytes, parsed while it is scanned: an optional ASCII
  /// sign, digits, an optional point and more digits (at least one digit in all), ending at the
  /// end of the line, ASCII white space or `#` (`number`), or at the `_` before a quantity's
  /// unit (`beforeUnit`). Anything else (an exponent, a comma, digits separated by `_`, U+2212, a
  /// letter, too many digits) is `other`, which the caller then scans and parses in full. One
  /// pass for both: a quantity's number is not scanned twice.
  ///
  /// It takes only what `parse` would take on its fast path, computed the same way (a mantissa
  /// below 2⁵³ divided by an exact power of ten, rounded once), so the value is the same to the bit.
  @inline(__always)
  static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> DecimalScan {
    let count = bytes.count
    var i = start
    let sign = bytes[i]
    let negative = sign == 0x2D
    if negative || sign == 0x2B { i += 1 }
    let short = shortDecimal(bytes, from: i, negative: negative)
    if case .other = short {} else { return short }
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
    guard digits > 0, digits <= 19 else { return .other }
    let ended = i == count || TokenScanner.endsToken(bytes[i])
    // Not ended: a quantity's `_`, which no digit (a separator) and no second `_` follows.
    if !ended {
      guard bytes[i] == 0x5F, i + 1 < count, bytes[i + 1] != 0x5F, bytes[i + 1] &- 0x30 >= 10 else { return .other }
    }
    var value = negative ? -0.0 : 0.0
    if mantissa != 0 {
      guard mantissa <= 1 << 53, fractionDigits <= 22 else { return .other }
      value = Double(mantissa)
      if fractionDigits > 0 { value /= exactPowerOfTen(fractionDigits) }
      if negative { value = -value }
    }
    return ended ? .number(value, end: i) : .beforeUnit(value, underscore: i)
  }

  /// An unsigned plain decimal of at most seven bytes at `start` (`1234`, `56.78`, `.5`), from one
  /// 8-byte load (at `start`, or ending at the end of a line at least eight bytes long), all its
  /// digits at once, negated when `negative`; ended as `plainDecimal`'s are (the token's end, or a
  /// quantity's `_`), or `other` when the load cannot show it whole and ended, for
  /// `plainDecimal`'s loop to decide. At most seven digits: the mantissa is exact and the power of ten small, so the
  /// value is the loop's to the bit.
  ///
  /// A byte is a digit when, xored with `0`, it is below 10: its top bit clear and adding 0x76 to
  /// it leaves its top bit clear. The digits, xored with `0`, are moved together (the point
  /// dropped) to the top of a word, the first one highest, so the lanes below hold leading zeros;
  /// three multiply-and-shift steps then combine pairs, fours and eights of lanes. Its arithmetic
  /// wraps and its shifts mask: every index stays within the line and every shift below 64, and
  /// the overflow checks would cost as much as the work.
  @inline(__always)
  private static func shortDecimal(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, negative: Bool)
    -> DecimalScan
  {
    let count = bytes.count
    guard count >= 8, start < count, let base = bytes.baseAddress else { return .other }
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
    guard wholeLength < 8 else { return .other }
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
    guard length < 8, digits > 0 else { return .other }
    let ended = end == count || TokenScanner.endsToken(bytes[end])
    // Not ended: a quantity's `_`, which no digit (a separator) and no second `_` follows.
    if !ended {
      guard bytes[end] == 0x5F, end + 1 < count, bytes[end + 1] != 0x5F, bytes[end + 1] &- 0x30 >= 10 else {
        return .other
      }
    }
    var mantissa = digitLanes &<< UInt64(truncatingIfNeeded: (8 &- digits) &<< 3)
    mantissa = (mantissa &* 2561) >> 8
    mantissa = ((mantissa & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
    mantissa = ((mantissa & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    // Below 10⁷: converted as a signed integer, one instruction.
    var value = Double(Int64(truncatingIfNeeded: mantissa))
    if fractionLength > 0 { value /= exactPowerOfTen(fractionLength) }
    if negative { value = -value }
    return ended ? .number(value, end: end) : .beforeUnit(value, underscore: end)
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

  /// An integer literal read whole, or how it is wrong: no digits after its prefix, an `_` not
  /// between two digits, a digit the radix does not have (the first byte `read` did not take), or
  /// a value past 2^53.
  private static func integer(_ reading: Reading, in bytes: UnsafeBufferPointer<UInt8>) -> Result {
    let count = bytes.count
    let digitsStart = reading.signLength + 2
    guard digitsStart < count else { return .malformed(.noDigits(radix: reading.radix)) }
    var stop = reading.end
    if stop < count, bytes[stop] == 0x5F {
      // An `_` after a digit and before neither `_` nor the end separates: the byte after it is
      // the bad digit.
      guard stop > digitsStart, stop + 1 < count, bytes[stop + 1] != 0x5F else {
        return .malformed(.misplacedUnderscore)
      }
      stop += 1
    }
    guard stop == count else {
      let (scalar, _) = Lexer.decode(bytes, at: stop)
      return .malformed(.badDigit(radix: reading.radix, digit: Unicode.Scalar(scalar) ?? "?"))
    }
    guard !reading.beyondExactIntegers else { return .malformed(.beyondExactIntegers) }
    let magnitude = Double(reading.mantissa)
    return .value(reading.negative ? -magnitude : magnitude)
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

// MARK: - The reader

extension NumberLiteral {
  /// What `read` found at an offset of a line's bytes: where a number literal written there
  /// ends, and its shape (sign, radix, digits, point, exponent, grouping), with its digits'
  /// value. The one reading of number syntax: the lexer, checks, radix literals and (to come) a
  /// quantity's number all take a literal's extent and parts from here.
  package struct Reading: Equatable, Sendable {
    /// Where the literal starts: the offset `read` was given.
    package var start: Int
    /// Where reading stopped: the first byte not part of the number. Without digits
    /// (`digits == 0`) nothing was read as a number.
    package var end: Int
    /// The sign's length: 0, 1 (`+`, `-`) or 3 (U+2212 `−`).
    package var signLength = 0
    package var negative = false
    /// 10, or the radix a prefix `0x`, `0o` or `0b` gives (then `end` is past the prefix at least).
    package var radix = 10
    /// The digits read: a decimal's whole and fraction digits, or an integer's after its prefix.
    package var digits = 0
    /// Whether a decimal point was written, and how many digits follow it.
    package var hasPoint = false
    package var fractionDigits = 0
    /// Where `e` or `E` starts the exponent, or nil when none was written.
    package var exponentStart: Int?
    /// The exponent as written, or 0 when there is none or it is past what an `Int` holds.
    package var exponent = 0
    /// What groups a decimal's whole digits as written: `,` (any comma), else `_`, else nil.
    package var separator: UInt8?
    /// Where a comma first broke the grouping rule (a first group of one to three digits, then
    /// groups of exactly three, none after the point), or nil: at a comma, at the point, or at
    /// `end`, when the last group is not three digits long.
    package var misplacedComma: Int?
    /// The digits' value: a decimal's mantissa (wrapped past 19 digits, which the value then reads
    /// from the text), or an integer's value (meaningless past 2^53).
    var mantissa: UInt64 = 0
    /// An integer literal past 2^53.
    var beyondExactIntegers = false
    /// The exponent for the value: as written, saturated far beyond any double's.
    var scale = 0

    init(start: Int) {
      self.start = start
      end = start
    }

    /// The bytes read as the number.
    package var range: Range<Int> { start..<end }
  }

  /// Reads the number literal written at `start` of `bytes`, as far as number syntax goes:
  /// a sign; then an integer in a radix (`0x`, `0o`, `0b`, any case: its digits, an `_` only
  /// between two of them) or a decimal (digits, an `_` only between two digits, commas between
  /// groups of the whole part, one point, then an exponent: `e` or `E`, a sign, at least one
  /// digit). It stops at the first byte that does not continue the number; the caller decides
  /// what that byte means: the token's end for the lexer, a unit's `_` for a quantity (`12_km`:
  /// this `_` stands before a letter, so it is no digit separator and the number ends there).
  ///
  /// A comma out of place does not stop it: it is noted (`misplacedComma`) and reading goes on,
  /// so that the extent covers the number as the user wrote it.
  @inline(__always)
  package static func read(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Reading {
    let count = bytes.count
    var reading = Reading(start: start)
    var i = start + signLength(bytes, at: start)
    reading.signLength = i - start
    reading.negative = i > start && bytes[start] != 0x2B
    if let radix = radix(ofPrefixAt: i, in: bytes) {
      readInteger(bytes, from: i + 2, radix: radix, into: &reading)
      return reading
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var fractionDigits = 0
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
        if reading.misplacedComma == nil, inFraction || !(commas ? group == 3 : (group >= 1 && group <= 3)) {
          reading.misplacedComma = i
        }
        commas = true
        digitsAtComma = digits
        if !inFraction { reading.separator = 0x2C }
        i += 1
      } else if byte == 0x5F {
        guard i > start, isDigit(bytes[i - 1]), i + 1 < count, isDigit(bytes[i + 1]) else { break }
        if !inFraction && reading.separator == nil { reading.separator = 0x5F }
        i += 1
      } else if byte == 0x2E && !inFraction {
        if reading.misplacedComma == nil, commas && digits - digitsAtComma != 3 { reading.misplacedComma = i }
        inFraction = true
        i += 1
      } else {
        break
      }
    }
    if reading.misplacedComma == nil, commas && !inFraction && digits - digitsAtComma != 3 {
      reading.misplacedComma = i
    }
    reading.mantissa = mantissa
    reading.digits = digits
    reading.hasPoint = inFraction
    reading.fractionDigits = fractionDigits
    if digits > 0, i < count, bytes[i] | 0x20 == 0x65 { readExponent(bytes, at: i, into: &reading, end: &i) }
    reading.end = i
    return reading
  }

  /// The exponent at `e` (offset `at`): an optional ASCII sign, then at least one digit; when it
  /// has none, `e` is not part of the number and `end` stays where it is.
  private static func readExponent(
    _ bytes: UnsafeBufferPointer<UInt8>, at e: Int, into reading: inout Reading, end: inout Int
  ) {
    var i = e + 1
    let negative = i < bytes.count && bytes[i] == 0x2D
    if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
    guard i < bytes.count, isDigit(bytes[i]) else { return }
    var magnitude = 0
    var overflow = false
    while i < bytes.count, isDigit(bytes[i]) {
      if !overflow {
        let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(Int(bytes[i] &- 0x30))
        (magnitude, overflow) = (sum, o1 || o2)
      }
      i += 1
    }
    // Past an Int the exponent as written counts as none; the value saturates, far beyond any double's.
    let saturated = overflow ? 1_000_000 : min(magnitude, 1_000_000)
    reading.exponentStart = e
    reading.exponent = overflow ? 0 : (negative ? -magnitude : magnitude)
    reading.scale = negative ? -saturated : saturated
    end = i
  }

  /// An integer's digits in `radix` from `start` (past its prefix), an `_` only after a digit and
  /// before another; stops at the first byte that is neither.
  private static func readInteger(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, radix: Int, into reading: inout Reading
  ) {
    reading.radix = radix
    var value: UInt64 = 0
    var beyond = false
    var digits = 0
    var i = start
    while i < bytes.count {
      if bytes[i] == 0x5F {
        guard i > start, i + 1 < bytes.count, digitValue(bytes[i + 1]) < radix else { break }
        i += 1
        continue
      }
      let digit = digitValue(bytes[i])
      guard digit < radix else { break }
      if !beyond {
        let (times, o1) = value.multipliedReportingOverflow(by: UInt64(radix))
        let (sum, o2) = times.addingReportingOverflow(UInt64(digit))
        value = sum
        beyond = o1 || o2 || value > largestInteger
      }
      digits += 1
      i += 1
    }
    reading.mantissa = value
    reading.beyondExactIntegers = beyond
    reading.digits = digits
    reading.end = i
  }

  /// The value of a digit of any radix up to 16 (`0`–`9`, `a`–`f`, `A`–`F`), or 16 for any
  /// other byte.
  @inline(__always)
  private static func digitValue(_ byte: UInt8) -> Int {
    switch byte {
    case 0x30...0x39: Int(byte - 0x30)
    case 0x61...0x66: Int(byte - 0x61 + 10)
    case 0x41...0x46: Int(byte - 0x41 + 10)
    default: 16
    }
  }

  /// Whether a byte is a decimal digit, `0`–`9`: the one test of it outside this file's readers
  /// (names, and the engine's own written numbers, have digits too).
  @inline(__always)
  package static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

  /// Whether a scalar is a decimal digit, `0`–`9` (no other script's digits).
  @inline(__always)
  package static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value &- 0x30 < 10
  }

  /// The length of the sign at `i`: 1 for `+` or `-`, 3 for U+2212 `−` (E2 88 92), else 0
  /// (also at the end of the bytes).
  @inline(__always)
  package static func signLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
    guard i < bytes.count else { return 0 }
    switch bytes[i] {
    case 0x2B, 0x2D: return 1
    case 0xE2: return i + 2 < bytes.count && bytes[i + 1] == 0x88 && bytes[i + 2] == 0x92 ? 3 : 0
    default: return 0
    }
  }

  /// The radix that a prefix at `i` gives: 16, 8 or 2 for `0x`, `0o` or `0b` in either case;
  /// nil for anything else.
  @inline(__always)
  package static func radix(ofPrefixAt i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard i + 1 < bytes.count, bytes[i] == 0x30 else { return nil }
    switch bytes[i + 1] | 0x20 {
    case 0x78: return 16
    case 0x6F: return 8
    case 0x62: return 2
    default: return nil
    }
  }

  /// Whether a byte can start a number literal: a digit, a dot, an ASCII sign, the first byte
  /// of U+2212 (E2 88 92), or a comma (`,5` is a number written wrongly). The lexer asks no
  /// other byte whether it reads a number.
  @inline(__always)
  package static func canStart(_ byte: UInt8) -> Bool {
    isDigit(byte) || byte == 0x2E || byte == 0x2B || byte == 0x2D || byte == 0xE2 || byte == 0x2C
  }

  /// Whether a byte can start a plain decimal (`plainDecimal`): `+ , - . /` or a digit, one
  /// compare (the range 0x2B…0x39, a cheap superset that `plainDecimal` narrows).
  @inline(__always)
  static func mayStartPlainDecimal(_ byte: UInt8) -> Bool { byte &- 0x2B < 15 }
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
  /// A time or angle written with `:` wrongly (`1:75`, `1:5`, `:30`).
  case sexagesimal(SexagesimalProblem)
}

extension NumberLiteral {
  /// Parses the bytes of one token (not empty): the entry point benchmarks measure.
  package static func parseBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Result { parse(bytes) }
}

// MARK: - Sexagesimal literals

/// A time or angle written in fields of sixty (`1:30`, `1:30:15.5`, `-0:30`, `4:35_min`,
/// `48:46:32_°`) as read: its number in the unit of its first field (`1:30` is 1.5 h), the
/// format its fields give it, and the decimals of its last field.
package struct SexagesimalLiteral: Equatable, Sendable {
  package var number: Double
  package var format: SexagesimalFormat
  package var fractionDigits: Int
}

/// What is wrong with a literal written with `:` (each an `invalid-number`).
package enum SexagesimalProblem: Equatable, Sendable {
  /// A field after `:` of 60 or more (`1:75`).
  case fieldPast59
  /// A field after `:` of one digit, or more than two (`1:5`, `1:300`).
  case notTwoDigits
  /// Nothing after a `:` (`1:`, `1:30:`).
  case missingField
  /// Nothing before the first `:` (`:30`).
  case missingFirstField
  /// Two `:` in a row (`1::30`).
  case doubleColon
  /// A fraction in a field that is not the last (`1.5:30`).
  case fractionNotLast
  /// More than three fields (`1:00:00:00`).
  case tooManyFields
  /// Three fields in minutes (`1:30:15_min`): minutes take `min:ss`.
  case threeFieldsInMinutes
  /// A unit other than `h`, `min`, `°` or `deg` (`1:30_km`).
  case unitNotTimeOrAngle
  /// Anything else that is not digits (`1e3:30`, `1,000:30`).
  case malformed
}

extension NumberLiteral {
  package enum SexagesimalResult: Equatable {
    case value(SexagesimalLiteral)
    /// Fields beyond the largest double.
    case outOfRange
    case malformed(SexagesimalProblem)
    /// No `:` before a unit's `_`: another kind of token.
    case notSexagesimal
  }

  /// The bytes of one field of a sexagesimal literal, and its `.` when it has one.
  private struct Field {
    var range: Range<Int>
    var point: Int?
  }

  /// The fields of the literal at `start` of `token` (after its sign), split at `:`, and where
  /// its unit's `_` is; nil when there is no `:` before the `_` (or the end).
  private static func sexagesimalFields(_ token: UnsafeBufferPointer<UInt8>, from start: Int)
    -> (fields: [Field], underscore: Int?)?
  {
    let underscore = token[start...].firstIndex(of: 0x5F)
    let end = underscore ?? token.count
    guard token[start..<end].contains(0x3A) else { return nil }
    var fields: [Field] = []
    var fieldStart = start
    var point: Int?
    for i in start...end {
      if i == end || token[i] == 0x3A {
        fields.append(Field(range: fieldStart..<i, point: point))
        fieldStart = i + 1
        point = nil
      } else if token[i] == 0x2E, point == nil {
        point = i
      }
    }
    return (fields, underscore)
  }

  /// Reads `token[start...]` as a sexagesimal literal: a sign, digits, then one or two fields of
  /// `:` and two digits `00`–`59`, the last with an optional fraction, and an optional unit
  /// `_h`, `_min`, `_°` or `_deg`. Not one when no `:` comes before an `_`.
  package static func sexagesimal(_ token: UnsafeBufferPointer<UInt8>, from start: Int) -> SexagesimalResult {
    let signed = start + signLength(token, at: start)
    guard signed < token.count, let (fields, underscore) = sexagesimalFields(token, from: signed) else {
      return .notSexagesimal
    }
    if fields[0].range.isEmpty {
      return .malformed(fields.count > 1 && fields.count <= 3 ? .missingFirstField : .malformed)
    }
    for (k, field) in fields.enumerated().dropFirst() where field.range.isEmpty {
      return .malformed(k == fields.count - 1 ? .missingField : .doubleColon)
    }
    if fields.count > 3 { return .malformed(.tooManyFields) }
    for field in fields.dropLast() where field.point != nil { return .malformed(.fractionNotLast) }
    for field in fields {
      let digitsEnd = field.point ?? field.range.upperBound
      let digits = token[field.range.lowerBound..<digitsEnd]
      let fraction = field.point.map { token[($0 + 1)..<field.range.upperBound] } ?? token[0..<0]
      guard digits.allSatisfy(isDigit), fraction.allSatisfy(isDigit) else { return .malformed(.malformed) }
    }
    for field in fields.dropFirst() {
      let digitsEnd = field.point ?? field.range.upperBound
      guard digitsEnd - field.range.lowerBound == 2 else { return .malformed(.notTwoDigits) }
      if token[field.range.lowerBound] >= 0x36 { return .malformed(.fieldPast59) }  // "6"
    }
    var unit = SexagesimalUnit.hour
    if let underscore {
      let text = String(decoding: UnsafeBufferPointer(rebasing: token[(underscore + 1)...]), as: UTF8.self)
      guard let named = SexagesimalUnit(unitText: text) else { return .malformed(.unitNotTimeOrAngle) }
      unit = named
    }
    guard let format = SexagesimalFormat(fields: fields.count, unit: unit) else {
      return .malformed(.threeFieldsInMinutes)
    }
    // The value in units of the last field, then one division into the first's: `1:30` is
    // 90 / 60, exactly 1.5.
    var total = 0.0
    for field in fields {
      guard case .value(let number) = parse(UnsafeBufferPointer(rebasing: token[field.range])) else {
        return .outOfRange
      }
      total = total * 60 + number
    }
    let number = total / format.scale
    guard number.isFinite else { return .outOfRange }
    let last = fields[fields.count - 1]
    let fractionDigits = last.point.map { last.range.upperBound - $0 - 1 } ?? 0
    let negative = signed > start && token[start] != 0x2B
    return .value(
      SexagesimalLiteral(number: negative ? -number : number, format: format, fractionDigits: fractionDigits))
  }

  /// A malformed sexagesimal literal as it was likely meant (`1:75` → `2:15`, `1:5` → `1:05`,
  /// `1:` → `1:00`, `:30` → `0:30`, `1::30` → `1:30`), or nil when there is no one reading.
  package static func sexagesimalReading(of literal: String) -> String? {
    var text = literal
    return text.withUTF8 { token -> String? in
      let start = token.first == 0x3D ? 1 : 0
      let signed = start + signLength(token, at: start)
      guard signed < token.count, let (fields, underscore) = sexagesimalFields(token, from: signed) else {
        return nil
      }
      let prefix = String(decoding: UnsafeBufferPointer(rebasing: token[0..<signed]), as: UTF8.self)
      let suffix = underscore.map { String(decoding: UnsafeBufferPointer(rebasing: token[$0...]), as: UTF8.self) } ?? ""
      var texts = fields.map { String(decoding: UnsafeBufferPointer(rebasing: token[$0.range]), as: UTF8.self) }
      guard texts.allSatisfy({ $0.utf8.allSatisfy { isDigit($0) } }) else { return nil }
      // `1::30`: one `:` between two fields.
      texts = texts.enumerated().filter { !$0.element.isEmpty || $0.offset == 0 || $0.offset == texts.count - 1 }
        .map(\.element)
      guard texts.count <= 3 else { return nil }
      if texts[0].isEmpty { texts[0] = "0" }
      if texts.count == 1 { return nil }
      for k in 1..<texts.count where texts[k].isEmpty { texts[k] = "00" }
      for k in 1..<texts.count where texts[k].utf8.count == 1 { texts[k] = "0" + texts[k] }
      guard texts.dropFirst().allSatisfy({ $0.utf8.count == 2 }) else { return nil }
      // Fields past 59 carry into the field before (`1:75` is 2:15).
      var values = texts.map { UInt64($0) ?? 0 }
      guard texts[0].utf8.count <= 15 else { return nil }
      for k in stride(from: values.count - 1, to: 0, by: -1) where values[k] >= 60 {
        values[k - 1] += values[k] / 60
        values[k] %= 60
      }
      let written = [String(values[0])] + values.dropFirst().map { $0 < 10 ? "0\($0)" : String($0) }
      return prefix + written.joined(separator: ":") + suffix
    }
  }
}

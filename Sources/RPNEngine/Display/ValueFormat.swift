// How values are shown: the display settings, and `%.Ng` formatting, exact and fast.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How numbers are written out (the `display.notation` setting).
package enum Notation: String, Sendable, CaseIterable {
  /// `%.{precision}g`: the shortest of fixed and exponent forms, `precision` significant digits.
  case auto
  /// `decimals` digits after the point (HP FIX): `%.{decimals}f`.
  case fixed
  /// One digit before the point, `decimals` after (HP SCI): `%.{decimals}e`.
  case scientific
  /// Like scientific with `decimals + 1` significant digits, the exponent a multiple of 3 and one
  /// to three digits before the point (HP ENG): `12.3e+03`.
  case engineering
}

/// How values and stacks are shown: the notation, `%.Ng`'s precision, the decimals of the other
/// notations, grouping, and how many values a label shows. `-0` is shown as `0` in every notation.
package struct DisplaySettings: Equatable, Sendable {
  package static let defaultPrecision = 15
  package static let defaultMaxItems = 8
  package static let defaultDecimals = 2

  /// Significant digits, 1 to 17.
  package var precision: Int
  /// How many values a label shows before it starts with `…`; at least 1.
  package var maxItems: Int
  package var notation: Notation
  /// Digits after the point in `fixed` and `scientific` (and the significant digits, minus one,
  /// in `engineering`): 0 to 15.
  package var decimals: Int
  /// Commas between groups of three digits in the integer part (`auto` and `fixed`).
  package var grouping: Bool

  package init(
    precision: Int = defaultPrecision, maxItems: Int = defaultMaxItems, notation: Notation = .auto,
    decimals: Int = defaultDecimals, grouping: Bool = false
  ) {
    self.precision = min(max(precision, 1), 17)
    self.maxItems = max(maxItems, 1)
    self.notation = notation
    self.decimals = min(max(decimals, 0), 15)
    self.grouping = grouping
  }
}

/// Formats one value like C's `printf("%.15g")`, with `-0` shown as `0`.
///
/// The fast path starts from Swift's shortest round-trip digits S of a normal value x. For precision
/// p ≤ 15: if S has at most p significant digits, |x − S| is below half an ulp, which is below
/// half a unit of x's p-th digit, so S *is* x rounded to p digits. If S is longer, rounding S
/// gives the same result as rounding x, unless S's digits past p are exactly "5": a rounding
/// boundary between x and S would be a shorter or closer round-trip string than S, which the
/// shortest representation rules out. That tie, and precisions 16 and 17, go to `vsnprintf`.
package enum ValueFormat {
  package static func format(_ value: Double, precision: Int = DisplaySettings.defaultPrecision) -> String {
    if value == 0 { return "0" }
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    let digits = min(max(precision, 1), 17)
    // Subnormals have too few bits for the argument above: their shortest digits ("5e-324") are
    // no rounding of the exact value (4.94065645841247e-324).
    if digits <= 15, value.isNormal, let fast = fastFormat(value, precision: digits) { return fast }
    return cFormat(value, precision: digits)
  }

  /// `vsnprintf("%.*g")`: exact, and slow (a `va_list` per call).
  package static func cFormat(_ value: Double, precision: Int) -> String {
    cFormat(value, precision: precision, conversion: "%.*g")
  }

  /// `vsnprintf` with one `*` precision and one double: exact. `%.15f` of 1e308 needs 326 bytes.
  package static func cFormat(_ value: Double, precision: Int, conversion: StaticString) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 400) { buffer in
      let written = withVaList([Int32(precision), value]) {
        vsnprintf(
          buffer.baseAddress, 400, UnsafeRawPointer(conversion.utf8Start).assumingMemoryBound(to: CChar.self), $0)
      }
      let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(max(0, min(written, 399))))
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// A value in the display's notation, decimals and grouping, `-0` (and anything that rounds
  /// to it) shown without its sign.
  package static func format(_ value: Double, display: DisplaySettings) -> String {
    let text: String
    switch display.notation {
    case .auto:
      // `%g` never rounds a value that is not zero to zero, and `-0` is already `0`.
      let text = format(value, precision: display.precision)
      return display.grouping ? grouped(text) : text
    case .fixed: text = fixed(value, decimals: display.decimals)
    case .scientific: text = scientific(value, decimals: display.decimals)
    case .engineering: text = engineering(value, decimals: display.decimals)
    }
    let unsigned = withoutNegativeZero(text)
    guard display.grouping, display.notation == .auto || display.notation == .fixed else { return unsigned }
    return grouped(unsigned)
  }

  /// A value as the display shows it: its number in the display's notation. The settings format
  /// the number only: a unit, when values carry one, is written after it here (`12.50_km`).
  package static func format(_ value: Value, display: DisplaySettings) -> String {
    if value.unit.isFormatted, let text = sexagesimal(value) { return text }
    if display.notation == .auto, let text = amount(value, grouping: display.grouping) { return text }
    let number = format(value.number, display: display)
    return value.unit == .none ? number : number + "_" + value.unit.spelling
  }

  /// A value's number like `%.{precision}g` (see `format(_:precision:)` for a number), and its
  /// unit after `_`.
  package static func format(_ value: Value, precision: Int = DisplaySettings.defaultPrecision) -> String {
    if value.unit.isFormatted, let text = sexagesimal(value) { return text }
    if let text = amount(value, grouping: false) { return text }
    let number = format(value.number, precision: precision)
    return value.unit == .none ? number : number + "_" + value.unit.spelling
  }

  /// An amount in one currency in its minor units (`12.50_EUR`); nil for any other value.
  private static func amount(_ value: Value, grouping: Bool) -> String? {
    guard value.unit.hasCurrency, let decimals = minorUnits(of: value.unit) else { return nil }
    let text = withoutNegativeZero(fixed(value.number, decimals: decimals))
    return (grouping ? grouped(text) : text) + "_" + value.unit.spelling
  }

  /// The decimals an amount in `unit` shows in `auto` notation: its currency's minor units
  /// (`12.50_EUR`, `1200_JPY`) when it is one currency alone; nil for anything else (`EUR/h`,
  /// gold), which shows as any number does.
  static func minorUnits(of unit: UnitID) -> Int? {
    let factors = unit.info.factors
    guard factors.count == 1, factors[0].power == 1, factors[0].prefix < 0 else { return nil }
    return factors[0].unit.minorUnits
  }

  /// A value in a sexagesimal format as that format shows it (`2:15`, `9:10_min`); nil when it
  /// has none, or is too large for its last field to be exact (then it shows in its unit,
  /// `1e+300_h`). The display settings do not apply: a time reads as a time.
  @inline(never)
  static func sexagesimal(_ value: Value) -> String? {
    guard let format = value.unit.format else { return nil }
    return format.text(value.number)
  }

  /// A value that is a plain integer of magnitude below 2^53 in hexadecimal, octal and binary
  /// (see the number's form below); nil for any other value.
  package static func integerForms(_ value: Value) -> (hex: String, octal: String, binary: String)? {
    integerForms(value.number)
  }

  /// An integer of magnitude below 2^53 in hexadecimal, octal and binary, as literals that read
  /// back as it (`0xFF`, `0o377`, `0b1111_1111`: binary in groups of four); nil for any other value.
  package static func integerForms(_ value: Double) -> (hex: String, octal: String, binary: String)? {
    guard value.isFinite, value.rounded(.towardZero) == value, value.magnitude < 9_007_199_254_740_992 else {
      return nil
    }
    let magnitude = UInt64(value.magnitude)
    let sign = value < 0 ? "-" : ""
    var binary = String(magnitude, radix: 2)
    if binary.utf8.count > 4 {
      var groupedDigits = ""
      for (k, digit) in binary.enumerated() {
        if k > 0 && (binary.utf8.count - k) % 4 == 0 { groupedDigits += "_" }
        groupedDigits.append(digit)
      }
      binary = groupedDigits
    }
    return (
      sign + "0x" + String(magnitude, radix: 16, uppercase: true), sign + "0o" + String(magnitude, radix: 8),
      sign + "0b" + binary
    )
  }

  /// `%.{decimals}f`.
  package static func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite, value != 0 else { return value == 0 ? zero(decimals) : format(value) }
    // Fast when every digit kept is among the first 15 significant ones: see `format`.
    if value.isNormal, var shortest = shortestDigits(value), shortest.point + decimals <= 15 {
      let kept = shortest.point + decimals
      if kept < 0 { return zero(decimals) }
      if round(&shortest, keeping: kept) {
        return layOut(shortest, negative: value < 0, decimals: decimals)
      }
    }
    return cFormat(value, precision: decimals, conversion: "%.*f")
  }

  /// `%.{decimals}e`.
  package static func scientific(_ value: Double, decimals: Int) -> String {
    guard let (digits, exponent) = scientificDigits(value, significant: decimals + 1) else {
      return value == 0 ? zero(decimals) + "e+00" : format(value)
    }
    var text = value < 0 ? "-" : ""
    text.unicodeScalars.append(Unicode.Scalar(digits[0] + 0x30))
    if decimals > 0 {
      text += "."
      for digit in digits.dropFirst() { text.unicodeScalars.append(Unicode.Scalar(digit + 0x30)) }
    }
    return text + exponentText(exponent)
  }

  /// HP ENG: `decimals + 1` significant digits, the exponent a multiple of 3.
  package static func engineering(_ value: Double, decimals: Int) -> String {
    guard let (digits, exponent) = scientificDigits(value, significant: decimals + 1) else {
      return value == 0 ? zero(decimals) + "e+00" : format(value)
    }
    let third = Int((Double(exponent) / 3).rounded(.down)) * 3
    let whole = exponent - third + 1  // 1 to 3 digits before the point
    var text = value < 0 ? "-" : ""
    for k in 0..<max(whole, digits.count) {
      if k == whole { text += "." }
      text.unicodeScalars.append(Unicode.Scalar((k < digits.count ? digits[k] : 0) + 0x30))
    }
    return text + exponentText(third)
  }

  /// The first `significant` digits of a value rounded, and the exponent of the first: nil for 0
  /// and for values that are not finite.
  private static func scientificDigits(_ value: Double, significant: Int) -> (digits: [UInt8], exponent: Int)? {
    guard value.isFinite, value != 0 else { return nil }
    if significant <= 15, value.isNormal, var shortest = shortestDigits(value),
      round(&shortest, keeping: significant)
    {
      var digits = shortest.digits
      if digits.count < significant { digits += [UInt8](repeating: 0, count: significant - digits.count) }
      return (Array(digits.prefix(significant)), shortest.point - 1)
    }
    // The exact digits from C: `d.ddde±XX`.
    let text = cFormat(value.magnitude, precision: significant - 1, conversion: "%.*e")
    guard let e = text.firstIndex(of: "e"), let exponent = Int(text[text.index(after: e)...]) else { return nil }
    let digits = text[..<e].compactMap { $0.wholeNumberValue.map(UInt8.init) }
    return (digits, exponent)
  }

  private static func exponentText(_ exponent: Int) -> String {
    let magnitude = abs(exponent)
    return (exponent < 0 ? "e-" : "e+") + (magnitude < 10 ? "0" : "") + String(magnitude)
  }

  private static func zero(_ decimals: Int) -> String {
    decimals == 0 ? "0" : "0." + String(repeating: "0", count: decimals)
  }

  /// Shortest digits laid out with `decimals` after the point.
  private static func layOut(_ number: (digits: [UInt8], point: Int), negative: Bool, decimals: Int) -> String {
    var text = negative ? "-" : ""
    if number.point <= 0 {
      text += "0"
    } else {
      for k in 0..<number.point {
        text.unicodeScalars.append(Unicode.Scalar((k < number.digits.count ? number.digits[k] : 0) + 0x30))
      }
    }
    if decimals > 0 {
      text += "."
      for k in 0..<decimals {
        let index = number.point + k
        let digit = index >= 0 && index < number.digits.count ? number.digits[index] : 0
        text.unicodeScalars.append(Unicode.Scalar(digit + 0x30))
      }
    }
    return text
  }

  /// `-0.00` → `0.00`: a value shown as zero has no sign.
  private static func withoutNegativeZero(_ text: String) -> String {
    guard text.hasPrefix("-") else { return text }
    let mantissa = text.prefix { $0 != "e" }
    return mantissa.allSatisfy { $0 == "-" || $0 == "0" || $0 == "." } ? String(text.dropFirst()) : text
  }

  /// Commas (or `separator`) between groups of three digits in the integer part: `1234567.5` →
  /// `1,234,567.5`. Exponent forms are left as they are.
  package static func grouped(_ text: String, separator: String = ",") -> String {
    guard !text.contains("e") else { return text }
    let negative = text.hasPrefix("-")
    let body = negative ? text.dropFirst() : Substring(text)
    let integer = body.prefix { $0 != "." }
    guard integer.count > 3 else { return text }
    var result = ""
    for (k, digit) in integer.enumerated() {
      if k > 0 && (integer.count - k) % 3 == 0 { result += separator }
      result.append(digit)
    }
    return (negative ? "-" : "") + result + body.dropFirst(integer.count)
  }

  /// Swift's shortest round-trip digits of a normal value: value = 0.d₁d₂… × 10^point.
  private static func shortestDigits(_ value: Double) -> (digits: [UInt8], point: Int)? {
    var digits: [UInt8] = []
    digits.reserveCapacity(20)
    var exponent = 0
    var sawPoint = false
    var point = 0
    var readingExponent = false
    var exponentNegative = false
    for byte in value.magnitude.description.utf8 {
      if readingExponent {
        if byte == 0x2D { exponentNegative = true } else if byte != 0x2B { exponent = exponent * 10 + Int(byte - 0x30) }
      } else if byte == 0x2E {
        sawPoint = true
      } else if byte == 0x65 {
        readingExponent = true
      } else {
        if digits.isEmpty && byte == 0x30 {
          if sawPoint { point -= 1 }
          continue
        }
        digits.append(byte - 0x30)
        if !sawPoint { point += 1 }
      }
    }
    point += exponentNegative ? -exponent : exponent
    while digits.last == 0 { digits.removeLast() }
    return digits.isEmpty ? nil : (digits, point)
  }

  /// Rounds shortest digits to `kept` digits (half up; a carry moves the point). False for a
  /// tie (the tail exactly 5), which only the exact value can settle.
  private static func round(_ number: inout (digits: [UInt8], point: Int), keeping kept: Int) -> Bool {
    guard number.digits.count > kept else { return true }
    let tail = number.digits[kept...]
    if tail.first == 5 && tail.dropFirst().allSatisfy({ $0 == 0 }) { return false }
    let roundUp = (tail.first ?? 0) >= 5
    number.digits.removeLast(number.digits.count - kept)
    if roundUp {
      var i = number.digits.count - 1
      while i >= 0 {
        if number.digits[i] == 9 {
          number.digits[i] = 0
          i -= 1
        } else {
          number.digits[i] += 1
          break
        }
      }
      if i < 0 {
        number.digits.insert(1, at: 0)
        if number.digits.count > kept + 1 || kept > 0 { number.digits.removeLast() }
        number.point += 1
      }
    }
    return true
  }

  /// The `%g` text from the shortest digits, or nil for a tie that needs the exact value.
  private static func fastFormat(_ value: Double, precision: Int) -> String? {
    // Shortest digits and the decimal exponent of the first one: value = 0.d1d2… × 10^(point).
    guard var number = shortestDigits(value) else { return "0" }
    if number.digits.count > precision {
      guard round(&number, keeping: precision) else { return nil }
      while number.digits.last == 0 { number.digits.removeLast() }
    }
    let digits = number.digits
    let point = number.point
    // %g: scientific when the exponent of the first digit is below -4 or at least the precision.
    let scientificExponent = point - 1
    var text = value < 0 ? "-" : ""
    if scientificExponent < -4 || scientificExponent >= precision {
      text.unicodeScalars.append(Unicode.Scalar(digits[0] + 0x30))
      if digits.count > 1 {
        text += "."
        for digit in digits.dropFirst() { text.unicodeScalars.append(Unicode.Scalar(digit + 0x30)) }
      }
      let magnitude = abs(scientificExponent)
      text += (scientificExponent < 0 ? "e-" : "e+") + (magnitude < 10 ? "0" : "") + String(magnitude)
    } else if point <= 0 {
      text += "0." + String(repeating: "0", count: -point)
      for digit in digits { text.unicodeScalars.append(Unicode.Scalar(digit + 0x30)) }
    } else {
      for (index, digit) in digits.enumerated() {
        if index == point { text += "." }
        text.unicodeScalars.append(Unicode.Scalar(digit + 0x30))
      }
      if digits.count < point { text += String(repeating: "0", count: point - digits.count) }
    }
    return text
  }
}

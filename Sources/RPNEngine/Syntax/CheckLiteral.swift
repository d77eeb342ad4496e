// Checks `=VALUE`: the value written, the digits it was written to, the pass rule, and writing values back.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A check as written: `=20.5`, `=0.333`, `=1.5e3`. It passes when the top of the stack equals the
/// value to the digits written: half a step of the last written place, boundary included, plus a
/// little slack for binary rounding.
package struct CheckLiteral: Equatable, Sendable {
  /// The value written: the check's expected value. The number is read by `NumberLiteral` and
  /// wrapped here, at the boundary, as the lexer's number tokens are by the evaluator: a literal's
  /// text is a number, and a unit written after it will be the lexer's to read and this type's
  /// to hold.
  package var value: Value
  /// Digits after the point in the mantissa (`_` not counted): `=1.50` 2, `=1.5e3` 1.
  package var fractionDigits: Int
  /// The exponent written after `e`, or 0: `=1.5e3` 3.
  package var exponent: Int
  /// What groups the digits of the integer part as written: `,` (`=1,400.21`), `_`
  /// (`=1_400.21`), or nil. An updated check is grouped the same way.
  package var separator: String?
  /// The format of a check written in fields of sixty (`=2:15`: `h:mm`), whose places are its
  /// last field's (then `fractionDigits` are that field's decimals); nil for a decimal check.
  package var format: SexagesimalFormat?

  package init(
    value: Value, fractionDigits: Int, exponent: Int, separator: String? = nil, format: SexagesimalFormat? = nil
  ) {
    self.value = value
    self.fractionDigits = fractionDigits
    self.exponent = exponent
    self.separator = separator
    self.format = format
  }

  /// The separator a check's text groups its integer digits with (`,` or `_`), or nil.
  package static func separator(in written: some StringProtocol) -> String? {
    var text = String(written)
    return text.withUTF8 { separator(of: NumberLiteral.read($0, from: 0)) }
  }

  /// The separator of a literal's whole digits as `NumberLiteral.read` found it: none for an
  /// integer literal, whose `_` (`0xFF_FF`) groups its own digits, not a decimal's.
  private static func separator(of reading: NumberLiteral.Reading) -> String? {
    guard reading.radix == 10, let byte = reading.separator else { return nil }
    return String(UnicodeScalar(byte))
  }

  /// `text` (a plain decimal) grouped by `separator`; as it is when that is nil.
  package static func grouped(_ text: String, by separator: String?) -> String {
    separator.map { ValueFormat.grouped(text, separator: $0) } ?? text
  }

  /// The check a token's bytes write (with its `=`), or nil when the text after `=` (up to a
  /// unit's `_`) is no number literal in the range of a double.
  package init?(token bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count >= 2, bytes[0] == 0x3D else { return nil }
    if case .value(let time) = NumberLiteral.sexagesimal(bytes, from: 1) {
      guard let unit = Units.unit(of: time.format) else { return nil }
      self.init(
        value: Value(literal: time.number, unit: unit), fractionDigits: time.fractionDigits, exponent: 0,
        format: time.format)
      return
    }
    // A check of a quantity (`=12.5_km`) compares its number, in its unit: the number ends at `_`.
    let end = Lexer.unitSeparator(in: bytes, 0..<bytes.count)
    guard end > 1, case .value(let number) = NumberLiteral.parse(UnsafeBufferPointer(rebasing: bytes[1..<end]))
    else { return nil }
    self.init(value: Value(literal: number), token: bytes)
  }

  /// The check a token's bytes write (with its `=`), whose value the lexer has parsed already:
  /// only the places written are read here, so evaluation converts each check's number once.
  init(value: Value, token bytes: UnsafeBufferPointer<UInt8>) {
    if let format = value.unit.format, case .value(let time) = NumberLiteral.sexagesimal(bytes, from: 1) {
      self.init(value: value, fractionDigits: time.fractionDigits, exponent: 0, format: format)
      return
    }
    let reading = NumberLiteral.read(bytes, from: 1)
    // An integer literal (`=0x1E`: its `E` is a digit) is written to the ones place.
    guard reading.radix == 10 else {
      self.init(value: value, fractionDigits: 0, exponent: 0)
      return
    }
    self.init(
      value: value, fractionDigits: reading.fractionDigits, exponent: reading.exponent,
      separator: Self.separator(of: reading))
  }

  /// The check a string writes (with its `=`), or nil.
  package init?(_ text: String) {
    var text = text
    guard let check = text.withUTF8({ CheckLiteral(token: $0) }) else { return nil }
    self = check
  }

  /// The decimal places the check compares: digits after the point, less the exponent
  /// (`=0.333` 3, `=20` 0, `=1.5e3` −2).
  package var decimals: Int { fractionDigits - exponent }

  /// The places the check compares, in words: "to 3 decimals", "to the minute" (`=2:15`).
  package var places: String {
    guard let format else { return Self.places(decimals) }
    if fractionDigits == 0 { return "to the \(format.lastField)" }
    return "to \(fractionDigits) decimal\(fractionDigits == 1 ? "" : "s") of a \(format.lastField)"
  }

  /// The top (in the check's unit) rounded to the places the check compares, as a reader would
  /// write it: `0.333`, or `2:15` for `=2:16`.
  package func rounded(_ top: Value) -> String {
    if let format, top.unit.format == format, let text = format.text(top.number, fractionDigits: fractionDigits) {
      return text
    }
    return Self.rounded(top, decimals: decimals)
  }

  /// How far the top may be from the value and still pass: half a step of the last written
  /// place, plus 10⁻¹² of the larger magnitude for binary rounding.
  package func tolerance(for top: Value) -> Double {
    let step = pow(10, Double(-decimals)) / (format?.scale ?? 1)
    return 0.5 * step + 1e-12 * Swift.max(Swift.abs(top.number), Swift.abs(value.number))
  }

  /// Whether the top passes the check. The boundary is included.
  package func passes(_ top: Value) -> Bool {
    Swift.abs((top - value).number) <= tolerance(for: top)
  }

  /// The top rounded to the places the check compares, as a reader would write it: `0.333`
  /// for 3 decimals, `1400` for −2 (the nearest hundred). `-0` is written `0`. Past 17
  /// significant digits (more than a double holds) the rounded value is written in its shortest
  /// form, in exponent form when it is large or tiny: `1e+308`, not 309 digits, for `=1.7e308`;
  /// `1e-300`, not 400 places, for `=1e-400`. Past 17 places a value with fewer digits is written
  /// in exponent form too, with the digits it has, as the display writes exponents: `0`, not
  /// 320 zeros, for `4.9e-324` against `=1e-320`; `1.5e-05`, not `0.00001500000000000000`.
  package static func rounded(_ top: Value, decimals: Int) -> String {
    let text: String
    if decimals >= 0 {
      text = fixed(top.number, decimals: decimals)
    } else {
      let step = pow(10, Double(-decimals))
      text = fixed((top.number / step).rounded(.toNearestOrAwayFromZero) * step, decimals: 0)
    }
    if significantDigits(text) > 17, let value = Double(text), value.isFinite { return exact(value) }
    // Up to 17 significant digits after more than 17 places: zeros after the point lead them.
    return decimals > 17 ? exponentForm(ofFraction: text) : text
  }

  /// A fraction written out (`-0.000015000`) in exponent form from its own digits, trailing zeros
  /// dropped (`-1.5e-05`): no conversion to a double, which would round a subnormal's digits
  /// again. `0` for a text of zeros.
  private static func exponentForm(ofFraction text: String) -> String {
    let bytes = Array(text.utf8)
    guard let point = bytes.firstIndex(of: 0x2E), bytes[..<point].allSatisfy({ $0 == 0x30 || $0 == 0x2D }) else {
      return text
    }
    guard let first = bytes[(point + 1)...].firstIndex(where: { $0 != 0x30 }),
      let last = bytes.lastIndex(where: { NumberLiteral.isDigit($0) && $0 != 0x30 })
    else { return "0" }
    let exponent = first - point
    var digits = [bytes[first]]
    if last > first { digits += [0x2E] + bytes[(first + 1)...last] }
    let sign = bytes.first == 0x2D ? "-" : ""
    return sign + String(decoding: digits, as: UTF8.self) + "e-" + (exponent < 10 ? "0" : "") + String(exponent)
  }

  /// The digits of a number written out in full (`-0.00120` has 3), leading zeros not counted.
  private static func significantDigits(_ text: String) -> Int {
    var count = 0
    for byte in text.utf8 where NumberLiteral.isDigit(byte) && (count > 0 || byte != 0x30) { count += 1 }
    return count
  }

  /// The places a check compares, in words: "to 3 decimals", "to a whole number", "to the
  /// nearest 100".
  package static func places(_ decimals: Int) -> String {
    switch decimals {
    case 1: return "to 1 decimal"
    case 0: return "to a whole number"
    case 2...: return "to \(decimals) decimals"
    default:
      let zeros = -decimals
      return "to the nearest " + (zeros <= 15 ? "1" + String(repeating: "0", count: zeros) : "1e+\(zeros)")
    }
  }

  /// The text of a check that passes for `top` and keeps this check's form: the same decimals
  /// when they are 0 or more (`=0.334` → `=0.333`), else the same mantissa digits and exponent
  /// (`=1.5e3` → `=1.4e3`), its integer digits grouped as written (`=1,400.21` → `=1,480.21`).
  /// Without its `=`.
  package func updated(to top: Value) -> String {
    if let format, top.unit.format == format, let text = format.text(top.number, fractionDigits: fractionDigits) {
      return text
    }
    // A time against a check that is not in its fields (`1:30 =1.5`): in the top's own fields.
    if let own = top.unit.format, own != format, let text = own.text(top.number) { return text }
    return updatedNumber(to: top) + Self.unitSuffix(top)
  }

  /// `updated(to:)`'s number, without the unit.
  private func updatedNumber(to top: Value) -> String {
    if decimals >= 0 { return Self.grouped(Self.fixed(top.number, decimals: decimals), by: separator) }
    let mantissa = Self.fixed(top.number / pow(10, Double(exponent)), decimals: fractionDigits)
    let written = mantissa + "e" + String(exponent)
    // Dividing by a power of ten can round across a boundary: keep the text only if it passes.
    if let check = CheckLiteral("=" + written), check.passes(top) { return written }
    return Self.exact(top.number)
  }

  /// `_` and the value's unit (`_km`), or nothing for a plain number: a check written for a
  /// quantity is in its own unit.
  static func unitSuffix(_ value: Value) -> String { value.unit == .none ? "" : "_" + value.unit.spelling }

  /// A new check's value as `display` shows it (`precision` significant digits in `auto`, else
  /// the notation's form: `20.50`, `2.05e+01`, `20.5e+00`), grouped when the display groups. A
  /// check passes within half a step of its last written place, so the value as shown passes.
  /// No `=`.
  package static func written(_ value: Value, display: DisplaySettings) -> String {
    guard display.notation != .auto else { return ValueFormat.format(value, display: display) }
    var plain = display
    // A check compares to its last written place, so engineering's padding zeros (111 at two
    // significant digits is `110e+00`) would make it fail: a digit more each time, until the
    // digits written are the value's own (`111e+00`).
    for extra in 0...2 {
      plain.decimals = min(display.decimals + extra, 15)
      let text = ValueFormat.format(value, display: plain)
      if display.notation != .engineering || CheckLiteral("=" + text)?.passes(value) == true { return text }
    }
    return exact(value.number) + unitSuffix(value)
  }

  /// The shortest text that reads back as exactly `value`, so that a check written with it
  /// passes at full precision; `-0` is written `0`. Large integers are written out in full
  /// (`10000000000000000`, not `1e+16`, which would compare only to the nearest 10¹⁶). No `=`.
  package static func exact(_ value: Double) -> String {
    if value == 0 { return "0" }
    var text = value.description
    // Byte-level searches: an inlay hint writes one of these for every line in view.
    if let e = text.utf8.firstIndex(of: UInt8(ascii: "e")), let exponent = Int(text[text.index(after: e)...]),
      exponent > 0, exponent <= 20
    {
      let mantissa = text[..<e]
      let digits = mantissa.filter { $0.asciiValue.map(NumberLiteral.isDigit) ?? false }
      if digits.count <= exponent + 1 {
        text =
          (mantissa.hasPrefix("-") ? "-" : "") + digits + String(repeating: "0", count: exponent + 1 - digits.count)
      }
    }
    if text.utf8.count > 2, text.utf8.suffix(2).elementsEqual(".0".utf8) { text.removeLast(2) }
    return text
  }

  /// `value` with `decimals` digits after the point, exact like C's `%.Nf`; `-0.00` is `0.00`.
  package static func fixed(_ value: Double, decimals: Int) -> String {
    let places = Int32(Swift.min(Swift.max(decimals, 0), 400))
    // The largest double has 309 integer digits: with a sign, a point and 400 places this fits.
    let capacity = 720
    let text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
      let written = withVaList([places, value]) { vsnprintf(buffer.baseAddress, capacity, "%.*f", $0) }
      let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(Swift.max(0, Swift.min(written, 719))))
      return String(decoding: bytes, as: UTF8.self)
    }
    if text.hasPrefix("-"), text.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x30 || $0 == 0x2E }) {
      return String(text.dropFirst())
    }
    return text
  }
}

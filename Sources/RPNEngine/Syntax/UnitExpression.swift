// Unit expressions as written after `_` or `>`: `km`, `m/s^2`, `J/(kg*K)`, `m²`, `1/s`.

/// A range of UTF-8 offsets within a token, small enough for a token's kind to hold.
package struct UnitSpan: Equatable, Hashable, Sendable {
  package var lower: Int32
  package var upper: Int32

  package init(_ range: Range<Int>) {
    lower = Int32(clamping: range.lowerBound)
    upper = Int32(clamping: range.upperBound)
  }

  package var range: Range<Int> { Int(lower)..<Int(max(lower, upper)) }
}

/// How a unit expression is written wrongly: the `invalid-unit` reasons, each with its message.
package enum UnitSyntaxError: UInt8, Equatable, Sendable {
  /// Nothing after `_` or `>` (`12_`, `_`, `>`).
  case empty
  /// An operator with no unit on one side (`km/`, `/s`, `m*`).
  case missingName
  /// A second `/` (`m/s/s`).
  case twoSlashes
  /// A product after the `/` without parentheses (`J/kg*K`).
  case productAfterSlash
  /// Parentheses anywhere but around a denominator, or not closed (`(m)`, `m/(s`).
  case parentheses
  /// `^` not followed by a whole number (`m^`, `m^1.5`, `m^x`).
  case badPower
  /// A power of 0 or past 99 in size (`m^0`, `m^100`).
  case powerOutOfRange
  /// A character that is in no unit name (`m+s`, a digit, a control or direction mark).
  case badCharacter
  /// Longer than `UnitExpression.maximumLength` bytes or `maximumFactors` factors.
  case tooLong
  /// `°C` or `°F` inside a compound unit or with a power (`°C*m`).
  case temperatureInCompound
  /// A prefix on a unit that takes none (`kmin`), or one of a class it does not take (`KiN`).
  case prefixNotTaken
  /// A unit written on an integer literal (`0x1F_km`).
  case integerLiteral
  /// `1` anywhere but as a whole numerator (`1*m`).
  case misplacedOne
  /// A conversion to a format with `:` that is none of them (`>h:m`).
  case unknownFormat
}

/// Why a unit written in a token is not one: unknown (`unknown-unit`) or malformed
/// (`invalid-unit`), with the part of the token at fault.
package enum UnitProblem: Error, Equatable, Hashable, Sendable {
  /// A name that is no unit: the name's range in the token.
  case unknown(UnitSpan)
  case malformed(UnitSyntaxError, UnitSpan)
}

/// The parse of a unit expression: each factor's name (a range of the token) and power, the
/// denominator's powers negated, in the order written.
package enum UnitExpression {
  /// The longest unit expression read, in bytes.
  package static let maximumLength = 128
  /// The most factors a unit expression may have.
  package static let maximumFactors = 12
  /// The largest power a factor may have, in size.
  package static let maximumPower = 99

  package struct Factor: Equatable, Sendable {
    package var name: Range<Int>
    package var power: Int
  }

  /// Parses `bytes[range]` (a token's bytes from the unit's first byte to the token's end).
  package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Result<[Factor], UnitProblem> {
    var parser = Parser(bytes: bytes, position: range.lowerBound, end: range.upperBound)
    if range.isEmpty { return .failure(.malformed(.empty, UnitSpan(range))) }
    if range.count > maximumLength { return .failure(.malformed(.tooLong, UnitSpan(range))) }
    return parser.expression()
  }

  private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    let end: Int
    var factors: [Factor] = []

    func fail(_ error: UnitSyntaxError, _ from: Int, _ to: Int? = nil) -> Result<[Factor], UnitProblem> {
      let upper = to ?? min(end, from + max(1, Lexer.decode(bytes, at: min(from, end - 1)).length))
      return .failure(.malformed(error, UnitSpan(min(from, end)..<max(min(from, end), upper))))
    }

    mutating func expression() -> Result<[Factor], UnitProblem> {
      let start = position
      // A numerator of `1` alone: `1/s`.
      if bytes[position] == 0x31, position + 1 < end, bytes[position + 1] == 0x2F {
        position += 1
      } else if let failure = product(sign: 1) {
        return failure
      }
      guard position < end else { return .success(factors) }
      let (scalar, length) = Lexer.decode(bytes, at: position)
      guard scalar == 0x2F else { return fail(.badCharacter, position) }  // "/"
      position += length
      guard position < end else { return fail(.missingName, position - 1, position) }
      if bytes[position] == 0x28 {  // "("
        let open = position
        position += 1
        // `m/(` with nothing after: no name to read (and no byte: the unit may end the text).
        guard position < end else { return fail(.parentheses, open, position) }
        if let failure = product(sign: -1) { return failure }
        guard position < end, bytes[position] == 0x29 else {
          if position < end, bytes[position] == 0x2F { return fail(.twoSlashes, position) }
          return fail(.parentheses, open, position)
        }
        position += 1
      } else if let failure = factor(sign: -1) {
        return failure
      }
      guard position < end else {
        return factors.count > maximumFactors ? fail(.tooLong, start, end) : .success(factors)
      }
      switch Lexer.decode(bytes, at: position).value {
      case 0x2F: return fail(.twoSlashes, position)
      case 0x2A, 0xB7: return fail(.productAfterSlash, position)
      case 0x28, 0x29: return fail(.parentheses, position)
      default: return fail(.badCharacter, position)
      }
    }

    /// Factors joined by `*` or `·`.
    mutating func product(sign: Int) -> Result<[Factor], UnitProblem>? {
      while true {
        if let failure = factor(sign: sign) { return failure }
        guard position < end else { return nil }
        let (scalar, length) = Lexer.decode(bytes, at: position)
        guard scalar == 0x2A || scalar == 0xB7 else { return nil }  // "*", "·"
        position += length
        guard position < end else { return fail(.missingName, position - length, position) }
        if factors.count >= maximumFactors { return fail(.tooLong, position, end) }
      }
    }

    /// A name and its power.
    mutating func factor(sign: Int) -> Result<[Factor], UnitProblem>? {
      let start = position
      // Every caller has a byte to read here; a name cannot be missing past the unit's end.
      guard start < end else { return fail(.missingName, start) }
      while position < end {
        let (scalar, length) = Lexer.decode(bytes, at: position)
        guard UnitExpression.isNameScalar(scalar) else { break }
        position += length
      }
      guard position > start else {
        switch bytes[start] {
        case 0x2F, 0x2A, 0x5E: return fail(.missingName, start)
        case 0x28, 0x29: return fail(.parentheses, start)
        case 0x31 where start + 1 < end && (bytes[start + 1] == 0x2A || bytes[start + 1] == 0x2F):
          return fail(.misplacedOne, start)
        default:
          let (scalar, _) = Lexer.decode(bytes, at: start)
          return fail(scalar == 0xB7 ? .missingName : .badCharacter, start)
        }
      }
      let name = start..<position
      var power = 1
      if position < end {
        if bytes[position] == 0x5E {  // "^"
          let caret = position
          position += 1
          var negative = false
          if position < end, bytes[position] == 0x2D {
            negative = true
            position += 1
          }
          let digitsStart = position
          var value = 0
          while position < end, NumberLiteral.isDigit(bytes[position]) {
            value = min(value * 10 + Int(bytes[position] - 0x30), 1_000_000)
            position += 1
          }
          if position == digitsStart { return fail(.badPower, caret, position) }
          if position < end, bytes[position] == 0x2E { return fail(.badPower, caret, position + 1) }
          if value == 0 || value > UnitExpression.maximumPower { return fail(.powerOutOfRange, caret, position) }
          power = negative ? -value : value
        } else if let (value, length) = superscript(at: position) {
          if value == 0 || abs(value) > UnitExpression.maximumPower {
            return fail(.powerOutOfRange, position, position + length)
          }
          position += length
          power = value
        }
      }
      factors.append(Factor(name: name, power: power * sign))
      return nil
    }

    /// A power in superscripts (`²`, `⁻¹`) at `i`: its value and length in bytes.
    func superscript(at i: Int) -> (Int, Int)? {
      var j = i
      var negative = false
      if j < end, Lexer.decode(bytes, at: j).value == 0x207B {
        negative = true
        j += 3
      }
      var value = 0
      var digits = 0
      while j < end {
        let (scalar, length) = Lexer.decode(bytes, at: j)
        guard let digit = UnitExpression.superscriptDigit(scalar) else { break }
        value = min(value * 10 + digit, 1_000_000)
        digits += 1
        j += length
      }
      guard digits > 0 else { return nil }
      return (negative ? -value : value, j - i)
    }
  }

  /// The value of a superscript digit.
  static func superscriptDigit(_ scalar: UInt32) -> Int? {
    switch scalar {
    case 0x2070: 0
    case 0xB9: 1
    case 0xB2: 2
    case 0xB3: 3
    case 0x2074...0x2079: Int(scalar) - 0x2070
    default: nil
    }
  }

  /// Whether a scalar may be part of a unit's name: a letter, a mark on one, or one of the
  /// signs the table's names use (`°`, `′`, `″`, `Δ` as U+2206, `µ`, `Ω`, currency signs).
  package static func isNameScalar(_ value: UInt32) -> Bool {
    if value < 0x80 {
      let byte = UInt8(value)
      return (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x24  // letters, "$"
    }
    switch value {
    case 0xB0, 0x2032, 0x2033, 0x2206, 0x2126, 0xA3, 0xA5, 0x20AC: return true
    default: break
    }
    if superscriptDigit(value) != nil || value == 0x207B || value == 0xB7 { return false }
    guard let scalar = Unicode.Scalar(value) else { return false }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .nonspacingMark, .spacingMark, .enclosingMark:
      return true
    default: return false
    }
  }
}

/// Where a unit is being typed in a token: after a unit word's mark (`_km`, `>mi`, `->mi`,
/// `→mi`) or a literal's `_` (`12_km`, `=12.5_km`).
package struct UnitSite: Equatable, Sendable {
  /// Where the unit starts (after the mark or the `_`).
  package var start: Int
  /// The unit name at the cursor: from after the `*`, `/`, `(` or `·` before it to the next one
  /// (or `^`, `)`) after it.
  package var factor: Range<Int>
  /// A conversion (`>`, `->`, `→`), not an attach or a literal's unit.
  package var converts: Bool
}

extension Lexer {
  /// The unit being typed at `column` in the token at `token` of a line's bytes, or nil when the
  /// cursor is in no unit.
  package static func unitSite(in bytes: UnsafeBufferPointer<UInt8>, token: Range<Int>, column: Int) -> UnitSite? {
    let range = token.clamped(to: 0..<bytes.count)
    guard !range.isEmpty else { return nil }
    let text = UnsafeBufferPointer(rebasing: bytes[range])
    let start: Int
    let converts: Bool
    if let mark = Lexer.unitWordStart(text) {
      start = range.lowerBound + mark
      converts = text[0] != UInt8(ascii: "_")
    } else {
      let separator = Lexer.unitSeparator(in: bytes, range)
      guard separator < range.upperBound else { return nil }
      start = separator + 1
      converts = false
    }
    guard column >= start, column <= range.upperBound else { return nil }
    // The factor at the cursor: from after the last `*`, `/`, `(` or `·` before it to the next
    // one (or `^`, `)`) after it.
    func isBreak(_ i: Int) -> Bool {
      let byte = bytes[i]
      return byte == UInt8(ascii: "*") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "(")
        || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "^") || (byte == 0xB7 && i > 0 && bytes[i - 1] == 0xC2)
    }
    var lower = column
    while lower > start, !isBreak(lower - 1) { lower -= 1 }
    var upper = column
    while upper < range.upperBound, !isBreak(upper),
      !(upper + 1 < bytes.count && bytes[upper + 1] == 0xB7 && bytes[upper] == 0xC2)
    {
      upper += 1
    }
    return UnitSite(start: start, factor: lower..<upper, converts: converts)
  }
}

import TestSupport
import Testing

@testable import RPNEngine

/// `NumberLiteral.read`, the one reader of number syntax, described in a line: the extent, then
/// what was written (`-1` a sign of one byte that negates, `radix 16`, the digits, `.2` a point
/// and two digits after it, `e@3=-4` an exponent at offset 3, `sep ,` the whole part's grouping,
/// `comma@3` where a comma broke the grouping rule).
private func shape(_ text: String, from start: Int = 0) -> String {
  var text = text
  let reading = text.withUTF8 { NumberLiteral.read($0, from: start) }
  var parts = ["\(reading.start)..<\(reading.end)"]
  if reading.signLength > 0 { parts.append((reading.negative ? "-" : "+") + String(reading.signLength)) }
  if reading.radix != 10 { parts.append("radix \(reading.radix)") }
  parts.append("digits \(reading.digits)")
  if reading.hasPoint { parts.append(".\(reading.fractionDigits)") }
  if let e = reading.exponentStart { parts.append("e@\(e)=\(reading.exponent)") }
  if let separator = reading.separator { parts.append("sep \(Character(UnicodeScalar(separator)))") }
  if let comma = reading.misplacedComma { parts.append("comma@\(comma)") }
  return parts.joined(separator: " ")
}

/// Whether two results are the same, values to the bit (so `-0` is not `0`).
private func same(_ a: NumberLiteral.Result, _ b: NumberLiteral.Result) -> Bool {
  if case .value(let x) = a, case .value(let y) = b { return x.bitPattern == y.bitPattern }
  return a == b
}

@Suite struct NumberReaderTests {
  /// Every literal form: where the reader ends it, its parts, and what the whole text is as a token.
  @Test(
    arguments: [
      ("12", "0..<2 digits 2", .value(12)),
      ("-12.5", "0..<5 -1 digits 3 .1", .value(-12.5)),
      ("+3", "0..<2 +1 digits 1", .value(3)),
      (".5", "0..<2 digits 1 .1", .value(0.5)),
      ("12.", "0..<3 digits 2 .0", .value(12)),
      ("−3", "0..<4 -3 digits 1", .value(-3)),
      ("0012", "0..<4 digits 4", .value(12)),
      ("1e3", "0..<3 digits 1 e@1=3", .value(1000)),
      ("2.5E-4", "0..<6 digits 2 .1 e@3=-4", .value(2.5e-4)),
      ("+.5e+3", "0..<6 +1 digits 1 .1 e@3=3", .value(500)),
      ("1_000_000", "0..<9 digits 7 sep _", .value(1_000_000)),
      ("0.000_1", "0..<7 digits 5 .4", .value(0.0001)),
      ("1_2.3_4", "0..<7 digits 4 .2 sep _", .value(12.34)),
      ("1,234,567.89", "0..<12 digits 9 .2 sep ,", .value(1_234_567.89)),
      ("−1,000", "0..<8 -3 digits 4 sep ,", .value(-1000)),
      ("1,0_00", "0..<6 digits 4 sep ,", .value(1000)),
      ("9007199254740993", "0..<16 digits 16", .value(9_007_199_254_740_992)),
      ("123456789012345678901", "0..<21 digits 21", .value(123_456_789_012_345_678_901)),
      ("1e999", "0..<5 digits 1 e@1=999", .outOfRange),
      ("1e-999", "0..<6 digits 1 e@1=-999", .value(0)),
      ("0e99999999999999999999", "0..<22 digits 1 e@1=0", .value(0)),
      // Commas out of place: read on, and noted where the rule broke.
      ("1,5", "0..<3 digits 2 sep , comma@3", .malformed(.misplacedComma)),
      (",5", "0..<2 digits 1 sep , comma@0", .malformed(.misplacedComma)),
      ("1,000,00", "0..<8 digits 6 sep , comma@8", .malformed(.misplacedComma)),
      ("1,5.25", "0..<6 digits 4 .2 sep , comma@3", .malformed(.misplacedComma)),
      ("1.5,3", "0..<5 digits 3 .2 comma@3", .malformed(.misplacedComma)),
      ("1234,567", "0..<8 digits 7 sep , comma@4", .malformed(.misplacedComma)),
      ("1,5e3", "0..<5 digits 2 e@3=3 sep , comma@3", .malformed(.misplacedComma)),
      ("1,23_", "0..<4 digits 3 sep , comma@4", .notANumber),
      // Integers in a radix.
      ("0x1F", "0..<4 radix 16 digits 2", .value(31)),
      ("-0X1f", "0..<5 -1 radix 16 digits 2", .value(-31)),
      ("−0xFF_FF", "0..<10 -3 radix 16 digits 4", .value(-65535)),
      ("0o17", "0..<4 radix 8 digits 2", .value(15)),
      ("0b1010", "0..<6 radix 2 digits 4", .value(10)),
      ("0x20000000000000", "0..<16 radix 16 digits 14", .value(9_007_199_254_740_992)),
      ("0x20000000000001", "0..<16 radix 16 digits 14", .malformed(.beyondExactIntegers)),
      ("0x", "0..<2 radix 16 digits 0", .malformed(.noDigits(radix: 16))),
      ("0b102", "0..<4 radix 2 digits 2", .malformed(.badDigit(radix: 2, digit: "2"))),
      ("0x1p3", "0..<3 radix 16 digits 1", .malformed(.badDigit(radix: 16, digit: "p"))),
      ("0x_1", "0..<2 radix 16 digits 0", .malformed(.misplacedUnderscore)),
      ("0x1_", "0..<3 radix 16 digits 1", .malformed(.misplacedUnderscore)),
      ("0x1__2", "0..<3 radix 16 digits 1", .malformed(.misplacedUnderscore)),
      ("0b1_2", "0..<3 radix 2 digits 1", .malformed(.badDigit(radix: 2, digit: "2"))),
      // Where a number stops short of the token: a unit's `_` to come, a word, a bad exponent.
      ("12_km", "0..<2 digits 2", .notANumber),
      ("12.5_km", "0..<4 digits 3 .1", .notANumber),
      ("1_000_km", "0..<5 digits 4 sep _", .notANumber),
      ("1e3_km", "0..<3 digits 1 e@1=3", .notANumber),
      ("3sqrt", "0..<1 digits 1", .notANumber),
      ("1e", "0..<1 digits 1", .notANumber),
      ("1e+", "0..<1 digits 1", .notANumber),
      ("1e1_0", "0..<3 digits 1 e@1=1", .notANumber),
      ("1__0", "0..<1 digits 1", .notANumber),
      ("1.2.3", "0..<3 digits 2 .1", .notANumber),
      ("0_x1", "0..<1 digits 1", .notANumber),
      // No number at all.
      (".", "0..<1 digits 0 .0", .notANumber),
      ("-", "0..<1 -1 digits 0", .notANumber),
      ("−x", "0..<3 -3 digits 0", .notANumber),
      ("_1", "0..<0 digits 0", .notANumber),
      ("e3", "0..<0 digits 0", .notANumber),
      ("１２", "0..<0 digits 0", .notANumber),
    ] as [(String, String, NumberLiteral.Result)])
  func readsEveryLiteralForm(_ text: String, _ expected: String, _ result: NumberLiteral.Result) {
    #expect(shape(text) == expected, "\(text)")
    #expect(same(NumberLiteral.parse(text), result), "\(text): \(NumberLiteral.parse(text))")
  }

  /// A check's number is read after its `=`, offsets staying the line's.
  @Test func readsFromAnOffset() {
    #expect(shape("=1,400.21", from: 1) == "1..<9 digits 6 .2 sep ,")
    #expect(shape("4 =0x1E", from: 3) == "3..<7 radix 16 digits 2")
    #expect(shape("12", from: 2) == "2..<2 digits 0")
  }

  /// The lexer (its fast paths included, the token alone and inside a line of eight bytes or more)
  /// and the reader agree on seeded random strings over the number alphabet: a token is a number,
  /// or a check's number, exactly when the reader reads all of it with no comma out of place;
  /// its value is then the correctly rounded one; a comma out of place is what the reader noted.
  @Test func theLexerAndTheReaderAgree() {
    let alphabet = ["0", "1", "5", "9", ".", "_", ",", "e", "E", "+", "-", "−", "x", "o", "b", "B", "f", "G", "k"]
    var random = SplitMix64(seed: 0x5EED_2026)
    var disagreements: [String] = []
    for _ in 0..<50_000 {
      let text = (0..<(1 + random.next(below: 10))).map { _ in alphabet[random.next(below: alphabet.count)] }.joined()
      for (line, check) in [(text, false), ("=" + text, true), ("1 " + text + " 234567", false)] {
        let tokens = Lexer.tokens(of: line).tokens
        let kind = tokens[check || line == text ? 0 : 1].kind
        if let problem = Self.disagreement(text, kind, check: check) { disagreements.append("\(line): \(problem)") }
      }
    }
    #expect(disagreements.prefix(20).joined(separator: "\n") == "")
  }

  /// How the lexer's kind for `text` (or `=text`) disagrees with the reader, or nil.
  private static func disagreement(_ text: String, _ kind: TokenKind, check: Bool) -> String? {
    var bytes = text
    let reading = bytes.withUTF8 { NumberLiteral.read($0, from: 0) }
    let whole = reading.digits > 0 && reading.end == text.utf8.count && reading.misplacedComma == nil
    let value: Double?
    switch kind {
    // A quantity's number ends at the `_` before its unit (`=15_EB`): the reader stops there.
    case .check(let v) where check && v.unit != .none: return whole ? "\(kind), but the reader read a number" : nil
    case .number(let v) where !check: value = v.number
    case .check(let v) where check: value = v.number
    case .invalidNumber(.outOfRange), .invalidNumber(.beyondExactIntegers): value = nil
    case .invalidNumber(.misplacedComma):
      return reading.misplacedComma == nil ? "a misplaced comma the reader did not note" : nil
    case .invalidNumber: return whole ? "an invalid integer the reader read whole" : nil
    default: return whole ? "\(kind), but the reader read a number" : nil
    }
    guard whole else { return "\(kind), but the reader stopped at \(reading.end) of \(text.utf8.count)" }
    guard let value else { return nil }
    let expected: Double?
    if reading.radix == 10 {
      let plain = text.replacing("−", with: "-").filter { $0 != "_" && $0 != "," }
      expected = Double(plain)
    } else {
      let digits = text.filter { $0 != "_" }.dropFirst(reading.signLength == 0 ? 2 : 3)
      expected = Int(digits, radix: reading.radix).map { Double(reading.negative ? -$0 : $0) }
    }
    guard expected?.bitPattern != value.bitPattern else { return nil }
    return "\(value), correctly rounded \(String(describing: expected))"
  }
}

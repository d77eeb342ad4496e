import Testing

@testable import RPNEngine

/// Numbers as people write them: thousands commas by the strict rule, and `0x`/`0o`/`0b` integers
/// up to 2^53; each malformed form an `invalid-number` that says what is wrong.
@Suite struct NumberFormTests {
  @Test(arguments: [
    ("1,234", 1234.0), ("1,234,567.89", 1_234_567.89), ("12,345.5", 12345.5), ("-1,000", -1000), ("−1,000", -1000),
    ("+999,999", 999_999), ("1,000.", 1000), ("1,000e3", 1e6), ("100,000,000", 1e8), ("0x1F", 31), ("0X1f", 31),
    ("0xff_ff", 65535), ("-0x10", -16), ("+0o17", 15), ("0O17", 15), ("0b1010", 10), ("0B1_0", 2), ("0x0", 0),
    ("0x20000000000000", 9_007_199_254_740_992), ("−0b1", -1), ("0xABCDEF", 11_259_375),
  ])
  func literals(text: String, value: Double) {
    #expect(Lexer.tokens(of: text).tokens.map(\.kind) == [.number(Value(value))], "\(text)")
  }

  @Test(arguments: [
    ("1,5", NumberProblem.misplacedComma), ("12,34", .misplacedComma), ("1,,000", .misplacedComma),
    (",5", .misplacedComma), ("1,000,00", .misplacedComma), ("1234,567", .misplacedComma),
    ("1,000.5,5", .misplacedComma), ("1,", .misplacedComma), ("1,0000", .misplacedComma),
    ("0x", .noDigits(radix: 16)), ("0o", .noDigits(radix: 8)), ("-0b", .noDigits(radix: 2)),
    ("0xG", .badDigit(radix: 16, digit: "G")), ("0b102", .badDigit(radix: 2, digit: "2")),
    ("0o8", .badDigit(radix: 8, digit: "8")), ("0x1p3", .badDigit(radix: 16, digit: "p")),
    ("0x1.8", .badDigit(radix: 16, digit: ".")), ("0xé", .badDigit(radix: 16, digit: "é")),
    ("0x_1", .misplacedUnderscore), ("0x1_", .misplacedUnderscore), ("0x1__2", .misplacedUnderscore),
    ("-0x8000000000000000", .beyondExactIntegers), ("0x20000000000001", .beyondExactIntegers),
    ("0xFFFFFFFFFFFFFFFFFFFF", .beyondExactIntegers), ("1e999", .outOfRange), ("=1,5", .misplacedComma),
    ("=0xG", .badDigit(radix: 16, digit: "G")),
  ])
  func malformed(text: String, problem: NumberProblem) {
    #expect(Lexer.tokens(of: text).tokens.map(\.kind) == [.invalidNumber(problem)], "\(text)")
  }

  /// Not numbers at all: unknown words, as before.
  @Test(arguments: ["1,a", ",", "1,2x", "a,5", "1.2.3", "0.x1"])
  func notNumbers(text: String) {
    #expect(Lexer.tokens(of: text).tokens.map(\.kind) == [.unknown], "\(text)")
  }

  @Test(arguments: [
    (
      "1,5",
      "`1,5` is not a number: a comma only separates groups of three digits, as in `1,234,567.89`; did you mean `1.5` or `1 5`?"
    ),
    (
      ",5",
      "`,5` is not a number: a comma only separates groups of three digits, as in `1,234,567.89`; did you mean `.5`?"
    ),
    (
      "1,000,00",
      "`1,000,00` is not a number: a comma only separates groups of three digits, as in `1,234,567.89`; did you mean `1,000.00`?"
    ),
    ("0x", "`0x` needs hexadecimal digits after its prefix, like `0x1F`"),
    ("0o9", "`0o9`: `9` is not an octal digit (0-7)"),
    ("0b102", "`0b102`: `2` is not a binary digit (0 or 1)"),
    ("0x_1", "`0x_1`: `_` may only stand between two digits, like `0xFF_FF`"),
    (
      "-0x8000000000000000",
      "`-0x8000000000000000` is beyond 2^53 (9007199254740992), past which integers are not exact in a double"
    ),
  ])
  func messages(text: String, message: String) throws {
    let document = try Document(text: text)
    #expect(document.diagnostics().map(\.diagnostic.message) == [message])
    #expect(document.diagnostics().map(\.diagnostic.code) == [.invalidNumber])
  }

  /// Commas and integer literals in checks: commas are not digits, an integer is written to the unit.
  @Test func checks() {
    check("1234.5 =1,234.5", stack: "[1234.5]")
    check("1234.46 =1,234.5", stack: "[1234.46]")
    check("30 =0x1E", stack: "[30]")
    check("30.4 =0x1E", stack: "[30.4]")
    check("30.6 =0x1E", stack: "[30.6]", diagnostics: ["check-failed@0:5-10"])
  }
}

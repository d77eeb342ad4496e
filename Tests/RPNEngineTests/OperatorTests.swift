import Testing

@testable import RPNEngine

/// One evaluation that exercises an operator (the README's operator table): a source, the stack label after it, and
/// its diagnostics in `check`'s compact form.
struct OperatorCase: Sendable, CustomTestStringConvertible {
  var source: String
  var stack: String
  var diagnostics: [String] = []
  var angleMode: AngleMode = .radians
  var precision = 15

  var testDescription: String {
    let unit = angleMode == .degrees ? " (degrees)" : ""
    let digits = precision == 15 ? "" : " (precision \(precision))"
    return "\(source) → \(stack)\(unit)\(digits)"
  }
}

private func rad(_ source: String, _ stack: String, _ diagnostics: [String] = [], precision: Int = 15)
  -> OperatorCase
{
  OperatorCase(source: source, stack: stack, diagnostics: diagnostics, precision: precision)
}

private func deg(_ source: String, _ stack: String, _ diagnostics: [String] = []) -> OperatorCase {
  OperatorCase(source: source, stack: stack, diagnostics: diagnostics, angleMode: .degrees)
}

/// Every spelling of the README's operator table, aliases included.
let specSpellings: Set<String> = [
  "+", "-", "−", "*", "×", "/", "÷", "^", "**", "pow", "%", "mod", "min", "max", "neg", "chs", "abs", "inv", "sq",
  "sqrt", "√", "exp", "ln", "log", "log2", "sin", "cos", "tan", "asin", "acos", "atan", "floor", "ceil", "round",
  "trunc", "dup", "drop", "swap", "over", "rot", "clear", "depth", "pick", "roll", "lastx", "subtotal", "sum", "avg",
  "mean",
  "pi", "π", "e",
  // Third edition: staples from other calculators.
  "log10", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "atan2", "fact", "%ch", "%t", "sdev", "uval", "ubase",
]

/// How many values each builtin needs (the README's operator table: the left side of its stack effect; `sum` and
/// `avg` need n ≥ 1), by canonical name.
let specArity: [String: Int] = [
  "+": 2, "-": 2, "*": 2, "/": 2, "^": 2, "%": 2, "mod": 2, "min": 2, "max": 2,
  "neg": 1, "abs": 1, "inv": 1, "sq": 1, "sqrt": 1, "exp": 1, "ln": 1, "log": 1, "log2": 1,
  "sin": 1, "cos": 1, "tan": 1, "asin": 1, "acos": 1, "atan": 1, "floor": 1, "ceil": 1, "round": 1, "trunc": 1,
  "dup": 1, "drop": 1, "swap": 2, "over": 2, "rot": 3, "clear": 0, "depth": 0, "pick": 1, "roll": 1, "lastx": 0,
  "subtotal": 0,
  "sum": 1,
  "avg": 1, "pi": 0, "e": 0,
  "sinh": 1, "cosh": 1, "tanh": 1, "asinh": 1, "acosh": 1, "atanh": 1, "atan2": 2, "fact": 1, "%ch": 2, "%t": 2,
  "sdev": 2, "uval": 1, "ubase": 1,
]

let operatorCases: [OperatorCase] = [
  // Arithmetic.
  rad("1 2 +", "[3]"),
  rad("0.1 0.2 +", "[0.3]"),
  rad("-1.5 1.5 +", "[0]"),
  rad("5 3 -", "[2]"),
  rad("3 5 -", "[-2]"),
  rad("5 3 −", "[2]"),
  rad("6 7 *", "[42]"),
  rad("-2 0.5 *", "[-1]"),
  rad("6 7 ×", "[42]"),
  rad("1 4 /", "[0.25]"),
  rad("7 2 /", "[3.5]"),
  rad("-1 3 /", "[-0.333333333333333]"),
  rad("9 3 ÷", "[3]"),
  rad("2 10 ^", "[1024]"),
  rad("2 -1 ^", "[0.5]"),
  rad("4 0.5 ^", "[2]"),
  rad("-2 3 ^", "[-8]"),
  rad("0 0 ^", "[1]"),
  rad("2 3 **", "[8]"),
  rad("3 2 pow", "[9]"),
  // Percent keeps the base (HP style).
  rad("200 15 %", "[200 30]"),
  rad("200 15 % -", "[170]"),
  rad("50 10 % +", "[55]"),
  rad("1 2 80 25 %", "[1 2 80 20]"),
  // Floored modulo takes the sign of the divisor.
  rad("7 3 mod", "[1]"),
  rad("-7 3 mod", "[2]"),
  rad("7 -3 mod", "[-2]"),
  rad("-7 -3 mod", "[-1]"),
  rad("5.5 2 mod", "[1.5]"),
  rad("-0.5 1 mod", "[0.5]"),
  rad("6 3 mod", "[0]"),
  rad("3 5 min", "[3]"),
  rad("-1 -2 min", "[-2]"),
  rad("3 5 max", "[5]"),
  rad("-1 -2 max", "[-1]"),
  // One value.
  rad("5 neg", "[-5]"),
  rad("-5 neg", "[5]"),
  rad("2 chs", "[-2]"),
  rad("-3 abs", "[3]"),
  rad("3 abs", "[3]"),
  rad("4 inv", "[0.25]"),
  rad("-0.5 inv", "[-2]"),
  rad("-3 sq", "[9]"),
  rad("16 sqrt", "[4]"),
  rad("2 sqrt", "[1.4142135623731]"),
  rad("-0 sqrt", "[0]"),
  rad("9 √", "[3]"),
  rad("0 exp", "[1]"),
  rad("1 exp", "[2.71828182845905]"),
  rad("-1000 exp", "[0]"),
  rad("1 ln", "[0]"),
  rad("e ln", "[1]"),
  rad("10 ln", "[2.30258509299405]"),
  rad("1000 log", "[3]"),
  rad("0.01 log", "[-2]"),
  rad("8 log2", "[3]"),
  rad("0.5 log2", "[-1]"),
  // `log10` is `log`, as other calculators spell it.
  rad("1000 log10", "[3]"),
  rad("100 LOG10", "[2]"),
  rad("0 log10", "[0]", ["domain-error@0:2-7"]),
  // Hyperbolic functions: no angle unit; NaN is a domain error, infinity an overflow.
  rad("1 sinh", "[1.1752011936438]"),
  rad("-2 sinh", "[-3.62686040784702]"),
  rad("0 sinh", "[0]"),
  rad("1000 sinh", "[1000]", ["overflow@0:5-9"]),
  rad("1 cosh", "[1.54308063481524]"),
  rad("0 cosh", "[1]"),
  rad("-1000 cosh", "[-1000]", ["overflow@0:6-10"]),
  rad("1 tanh", "[0.761594155955765]"),
  rad("-1e300 tanh", "[-1]"),
  rad("1 asinh", "[0.881373587019543]"),
  rad("0 asinh", "[0]"),
  rad("2 acosh", "[1.31695789692482]"),
  rad("1 acosh", "[0]"),
  rad("0.5 acosh", "[0.5]", ["domain-error@0:4-9"]),
  rad("0.5 atanh", "[0.549306144334055]"),
  rad("0 atanh", "[0]"),
  rad("2 atanh", "[2]", ["domain-error@0:2-7"]),
  rad("1 atanh", "[1]", ["overflow@0:2-7"]),
  rad("-1 atanh", "[-1]", ["overflow@0:3-8"]),
  // `fact`: n! of a whole n from 0 to 170, the double nearest the exact product (a running
  // product in doubles gives 7.25741561530799e+306 for 170!).
  rad("0 fact", "[1]"),
  rad("1 fact", "[1]"),
  rad("5 fact", "[120]"),
  rad("10 fact", "[3628800]"),
  rad("18 fact", "[6402373705728000]", precision: 17),
  rad("20 fact", "[2.43290200817664e+18]"),
  rad("22 fact", "[1.1240007277776077e+21]", precision: 17),
  rad("23 fact", "[2.5852016738884978e+22]", precision: 17),
  rad("100 fact", "[9.3326215443944151e+157]", precision: 17),
  rad("170 fact", "[7.257415615308e+306]"),
  rad("170 fact", "[7.257415615307999e+306]", precision: 17),
  rad("3.0 FACT", "[6]"),
  rad("171 fact", "[171]", ["overflow@0:4-8"]),
  rad("1e300 fact", "[1e+300]", ["overflow@0:6-10"]),
  rad("2.5 fact", "[2.5]", ["domain-error@0:4-8"]),
  rad("-1 fact", "[-1]", ["domain-error@0:3-7"]),
  rad("-0 fact", "[1]"),
  // Trigonometry in radians.
  rad("0 sin", "[0]"),
  rad("pi 2 / sin", "[1]"),
  rad("0 cos", "[1]"),
  rad("pi cos", "[-1]"),
  rad("0 tan", "[0]"),
  rad("pi 4 / tan", "[1]"),
  rad("1 asin", "[1.5707963267949]"),
  rad("0 asin", "[0]"),
  rad("1 acos", "[0]"),
  rad("-1 acos", "[3.14159265358979]"),
  rad("1 atan", "[0.785398163397448]"),
  rad("1e300 atan", "[1.5707963267949]"),
  // atan2 ( y x -- θ ): the angle of the point (x, y), as C's atan2, in every quadrant.
  rad("1 1 atan2", "[0.785398163397448]"),
  rad("1 -1 atan2", "[2.35619449019234]"),
  rad("-1 -1 atan2", "[-2.35619449019234]"),
  rad("0 -1 atan2", "[3.14159265358979]"),
  rad("0 0 atan2", "[0]"),
  rad("1 0 atan2", "[1.5707963267949]"),
  rad("5 1 2 ATAN2", "[5 0.463647609000806]"),
  rad("1 atan2", "[1]", ["stack-underflow@0:2-7"]),
  // Rounding; `round` goes half away from zero.
  rad("2.7 floor", "[2]"),
  rad("-2.5 floor", "[-3]"),
  rad("2.1 ceil", "[3]"),
  rad("-2.5 ceil", "[-2]"),
  rad("2.5 round", "[3]"),
  rad("-2.5 round", "[-3]"),
  rad("0.5 round", "[1]"),
  rad("1.5 round", "[2]"),
  rad("2.4 round", "[2]"),
  rad("0.49999999999999994 round", "[0]"),
  rad("-0.4 round", "[0]"),
  rad("2.7 trunc", "[2]"),
  rad("-2.7 trunc", "[-2]"),
  // The stack.
  rad("3 dup", "[3 3]"),
  rad("1 2 dup", "[1 2 2]"),
  rad("1 2 drop", "[1]"),
  rad("1 2 swap", "[2 1]"),
  rad("1 2 over", "[1 2 1]"),
  rad("1 2 3 rot", "[2 3 1]"),
  rad("0 1 2 3 rot", "[0 2 3 1]"),
  rad("1 2 3 clear", "[]"),
  rad("clear", "[]"),
  rad("1 2 clear 3", "[3]"),
  rad("depth", "[0]"),
  rad("5 6 depth", "[5 6 2]"),
  // `pick` copies and `roll` moves the n-th value below n to the top.
  rad("7 8 9 1 pick", "[7 8 9 9]"),
  rad("7 8 9 2 pick", "[7 8 9 8]"),
  rad("7 8 9 3 pick", "[7 8 9 7]"),
  rad("7 8 9 1 roll", "[7 8 9]"),
  rad("7 8 9 2 roll", "[7 9 8]"),
  rad("7 8 9 3 roll", "[8 9 7]"),
  rad("6 7 8 9 3 roll", "[6 8 9 7]"),
  rad("7\n8 9 3 pick 4 roll", "[8 9 7 7]"),
  rad("7 8 9 3.0 PICK", "[7 8 9 7]"),
  rad("7 8 9 4 pick", "[7 8 9 4]", ["stack-underflow@0:8-12"]),
  rad("7 8 9 4 roll", "[7 8 9 4]", ["stack-underflow@0:8-12"]),
  rad("7 8 0 pick", "[7 8 0]", ["domain-error@0:6-10"]),
  rad("7 8 -1 roll", "[7 8 -1]", ["domain-error@0:7-11"]),
  rad("7 8 1.5 pick", "[7 8 1.5]", ["domain-error@0:8-12"]),
  // Any whole n ≥ 1 asks the stack, however large: too few values is an underflow, even where n
  // is past every integer type (1e300 is a whole number); only a fraction, n < 1 or a value that
  // is no number of places is a domain error.
  rad("1 2 2147483648 pick", "[1 2 2147483648]", ["stack-underflow@0:15-19"]),
  rad("1 2 2147483648 roll", "[1 2 2147483648]", ["stack-underflow@0:15-19"]),
  rad("1 2 4294967297 pick", "[1 2 4294967297]", ["stack-underflow@0:15-19"]),
  rad("1 2 9007199254740993 roll", "[1 2 9.00719925474099e+15]", ["stack-underflow@0:21-25"]),
  rad("7 8 1e300 roll", "[7 8 1e+300]", ["stack-underflow@0:10-14"]),
  rad("7 8 1e300 pick", "[7 8 1e+300]", ["stack-underflow@0:10-14"]),
  rad("7 8 1.7976931348623157e308 pick", "[7 8 1.79769313486232e+308]", ["stack-underflow@0:27-31"]),
  rad("7 8 3 pick", "[7 8 3]", ["stack-underflow@0:6-10"]),
  rad("7 8 0.5 roll", "[7 8 0.5]", ["domain-error@0:8-12"]),
  rad("7 8 -1e300 pick", "[7 8 -1e+300]", ["domain-error@0:11-15"]),
  // `lastx`: the top operand of the last operator or function that consumed values, kept
  // across lines; stack words do not set it; a failed operator leaves it; none yet underflows.
  rad("2 3 + lastx", "[5 3]"),
  rad("9 sqrt lastx", "[3 9]"),
  rad("200 15 % lastx", "[200 30 15]"),
  rad("1 2 3 sum lastx", "[6 3]"),
  rad("80 100 %ch lastx", "[80 25 100]"),
  rad("200 50 %t lastx", "[200 25 50]"),
  rad("1 -1 atan2 lastx", "[2.35619449019234 -1]"),
  rad("1 sinh lastx", "[1.1752011936438 1]"),
  rad("5 fact lastx", "[120 5]"),
  rad("1 2 3 sdev lastx", "[1 3]"),
  // Units: the number alone, and base units; a plain number stays as it is.
  rad("12_km uval", "[12]"),
  rad("7 uval", "[7]"),
  rad("1_kWh ubase", "[3600000_kg*m^2/s^2]"),
  rad("7 ubase", "[7]"),
  rad("2 3 + 0 5 %ch lastx", "[5 0 5 3]", ["division-by-zero@0:10-13"]),
  rad("2 3 +\n7 lastx", "[5 7 3]"),
  rad("2 3 + 4 dup swap drop lastx", "[5 4 3]"),
  rad("2 3 + 1 0 / lastx", "[5 1 0 3]", ["division-by-zero@0:10-11"]),
  rad("lastx", "[]", ["stack-underflow@0:0-5"]),
  // `subtotal` before any heading adds up the whole stack.
  rad("1 2 3 subtotal", "[6]"),
  rad("1 dup drop lastx", "[1]", ["stack-underflow@0:11-16"]),
  // `sum` and `avg` take the whole stack; `sum` adds bottom to top.
  rad("1 2 3 sum", "[6]"),
  rad("4 sum", "[4]"),
  rad("0.1 0.2 0.3 sum", "[0.60000000000000009]", precision: 17),
  rad("1 2 3 4 avg", "[2.5]"),
  rad("5 avg", "[5]"),
  rad("2 4 mean", "[3]"),
  // `sdev`: the sample standard deviation of the whole stack (n − 1), HP SDEV; at least 2 values.
  rad("2 4 4 4 5 5 7 9 sdev", "[2.1380899352994]"),
  rad("2 4 4 4 5 5 7 9 sdev", "[2.1380899352993952]", precision: 17),
  rad("1 2 sdev", "[0.707106781186548]"),
  // Rounded once: the exact 16534.07909676884911… is nearest 16534.079096768848, not …852.
  rad("23996.7189 614 sdev", "[16534.0790967688]"),
  rad("23996.7189 614 sdev", "[16534.079096768848]", precision: 17),
  // Squares that would underflow are scaled, as those that would overflow are.
  rad("1e-200 2e-200 sdev", "[7.07106781186547e-201]"),
  rad("5 5 5 sdev", "[0]"),
  // √18 = 4.2426406871192851…, whose nearest double is 4.24264068711928480…: shown as it is.
  rad("-3 3 sdev", "[4.24264068711928]"),
  rad("1e300 -1e300 sdev", "[1.4142135623731e+300]"),
  rad("1.7976931348623157e308 1.7976931348623157e308 sdev", "[0]"),
  rad(
    "1.7976931348623157e308 -1.7976931348623157e308 sdev", "[1.79769313486232e+308 -1.79769313486232e+308]",
    ["overflow@0:47-51"]),
  // The deviations of these pass the largest double (the mean is a third of it): still an
  // overflow, not a domain error.
  rad(
    "1.7976931348623157e308 1.7976931348623157e308 -1.7976931348623157e308 sdev",
    "[1.79769313486232e+308 1.79769313486232e+308 -1.79769313486232e+308]", ["overflow@0:70-74"]),
  rad("1 2 : s sdev ; s", "[0.707106781186548]"),
  rad("7 sdev", "[7]", ["stack-underflow@0:2-6"]),
  rad("sdev", "[]", ["stack-underflow@0:0-4"]),
  rad("1 2 3 SDEV", "[1]"),
  // Percent change and percent of a total keep a (HP %CH, %T); a = 0 has no percent.
  rad("80 100 %ch", "[80 25]"),
  rad("200 50 %ch", "[200 -75]"),
  rad("-50 -25 %ch", "[-50 -50]"),
  rad("3 3 %ch", "[3 0]"),
  rad("1 2 80 100 %CH", "[1 2 80 25]"),
  rad("0 5 %ch", "[0 5]", ["division-by-zero@0:4-7"]),
  rad("1e-300 1e300 %ch", "[1e-300 1e+300]", ["overflow@0:13-16"]),
  rad("200 50 %t", "[200 25]"),
  rad("200 50 %T", "[200 25]"),
  rad("40 10 %t drop 20 %t", "[40 50]"),
  rad("0 5 %t", "[0 5]", ["division-by-zero@0:4-6"]),
  rad("0 0 %t", "[0 0]", ["division-by-zero@0:4-6"]),
  rad("1e-300 1e300 %t", "[1e-300 1e+300]", ["overflow@0:13-15"]),
  rad("80 %ch", "[80]", ["stack-underflow@0:3-6"]),
  // Constants.
  rad("pi", "[3.14159265358979]"),
  rad("π", "[3.14159265358979]"),
  rad("pi", "[3.1415926535897931]", precision: 17),
  rad("e", "[2.71828182845905]"),
  rad("e", "[2.7182818284590451]", precision: 17),
  // ASCII case-insensitivity; other letters are not folded.
  rad("3 DUP", "[3 3]"),
  rad("16 Sqrt", "[4]"),
  rad("PI", "[3.14159265358979]"),
  rad("Pi", "[3.14159265358979]"),
  rad("E", "[2.71828182845905]"),
  rad("7 3 MOD", "[1]"),
  rad("2 3 POW", "[8]"),
  rad("1 2 3 SUM", "[6]"),
  rad("2 4 MEAN", "[3]"),
  rad("5 CHS", "[-5]"),
  rad("8 LOG2", "[3]"),
  rad("3 5 MaX", "[5]"),
  rad("1 2 SWAP", "[2 1]"),
  rad("1 2 3 ROT", "[2 3 1]"),
  rad("1 2 Clear", "[]"),
  rad("-2.5 ROUND", "[-3]"),
  rad("Π", "[]", ["unknown-word@0:0-2"]),
  // Degrees: reduced modulo 360, exact at multiples of 90°, inverse functions in degrees.
  deg("180 sin", "[0]"),
  deg("90 sin", "[1]"),
  deg("270 sin", "[-1]"),
  deg("-90 sin", "[-1]"),
  deg("-270 sin", "[1]"),
  deg("450 sin", "[1]"),
  deg("30 sin", "[0.5]"),
  deg("-30 sin", "[-0.5]"),
  deg("3.6e21 sin", "[0]"),
  deg("1e20 sin", "[-0.984807753012208]"),
  deg("90 cos", "[0]"),
  deg("180 cos", "[-1]"),
  deg("270 cos", "[0]"),
  deg("720 cos", "[1]"),
  deg("-450 cos", "[0]"),
  deg("60 cos", "[0.5]"),
  deg("3.6e21 cos", "[1]"),
  deg("45 tan", "[1]"),
  deg("180 tan", "[0]"),
  deg("-180 tan", "[0]"),
  deg("360 tan", "[0]"),
  deg("90 tan", "[90]", ["domain-error@0:3-6"]),
  deg("270 tan", "[270]", ["domain-error@0:4-7"]),
  deg("-90 tan", "[-90]", ["domain-error@0:4-7"]),
  deg("1 asin", "[90]"),
  deg("-1 asin", "[-90]"),
  deg("0.5 asin", "[30]"),
  deg("1 acos", "[0]"),
  deg("-1 acos", "[180]"),
  deg("0.5 acos", "[60]"),
  deg("1 atan", "[45]"),
  deg("-1 atan", "[-45]"),
  deg("1 1 atan2", "[45]"),
  deg("1 -1 atan2", "[135]"),
  deg("-1 0 atan2", "[-90]"),
  deg("0 -1 atan2", "[180]"),
  deg("1 3 sqrt atan2", "[30]"),
  // Hyperbolic functions take no angle: the same in degrees.
  deg("1 sinh", "[1.1752011936438]"),
  deg("1 acosh", "[0]"),
]

/// The builtin spellings that a source uses, exactly as written.
private func spellings(in source: String) -> [String] {
  let bytes = Array(source.utf8)
  return Lexer.tokens(of: source).tokens.compactMap { token in
    guard case .builtin = token.kind else { return nil }
    return String(decoding: bytes[token.range], as: UTF8.self)
  }
}

@Suite struct OperatorTests {
  @Test(arguments: operatorCases)
  func evaluates(_ c: OperatorCase) {
    check(c.source, stack: c.stack, diagnostics: c.diagnostics, angleMode: c.angleMode, precision: c.precision)
  }

  /// Adding a builtin without a case here fails.
  @Test func everySpellingHasACase() {
    let covered = Set(operatorCases.flatMap { spellings(in: $0.source) })
    for builtin in Builtin.table {
      for spelling in builtin.spellings {
        #expect(covered.contains(spelling), "no operator case uses `\(spelling)`")
      }
    }
  }

  @Test func tableHasExactlyTheSpecSpellings() {
    let spellings = Builtin.table.flatMap(\.spellings)
    #expect(Set(spellings) == specSpellings)
    #expect(spellings.count == Set(spellings).count, "a spelling names two builtins")
  }

  @Test(arguments: Builtin.table.map(\.name))
  func inputsMatchTheStackEffect(_ name: String) throws {
    let builtin = try #require(Builtin.table.first { $0.name == name })
    #expect(builtin.inputs == specArity[name])
  }

  /// With one value fewer than it needs, every spelling is a stack underflow that changes
  /// nothing (the README's failure rule).
  @Test(arguments: Builtin.table.flatMap(\.spellings))
  func underflowsWithOneValueTooFew(_ spelling: String) throws {
    let builtin = try #require(Builtin.table.first { $0.spellings.contains(spelling) })
    let arity = try #require(specArity[builtin.name])
    guard arity > 0 else {
      // `lastx` underflows until an operator has consumed a value; `subtotal` when nothing was
      // pushed since the section began.
      if builtin.name == "lastx" || builtin.name == "subtotal" {
        check(spelling, stack: "[]", diagnostics: ["stack-underflow@0:0-\(spelling.utf8.count)"])
        return
      }
      // `clear`, `depth` and the constants run on an empty stack.
      check(spelling, stack: builtin.name == "clear" ? "[]" : "[\(spellingValue(builtin.name))]")
      return
    }
    let values = (1..<arity).map(String.init)
    let prefix = values.map { $0 + " " }.joined()
    let start = prefix.utf8.count
    let end = start + spelling.utf8.count
    check(
      prefix + spelling, stack: "[" + values.joined(separator: " ") + "]",
      diagnostics: ["stack-underflow@0:\(start)-\(end)"])
  }

  @Test func upperCaseSpellingsAreTheSameBuiltins() {
    for builtin in Builtin.table {
      for spelling in builtin.spellings where spelling.unicodeScalars.allSatisfy(\.isASCII) {
        #expect(Builtin.lookup(spelling.uppercased()) == Builtin.lookup(spelling), "\(spelling.uppercased())")
      }
    }
    #expect(Builtin.lookup("Π") == nil)
  }
}

/// What the zero-input builtins push on an empty stack.
private func spellingValue(_ name: String) -> String {
  switch name {
  case "pi": "3.14159265358979"
  case "e": "2.71828182845905"
  case "depth": "0"
  default: "?"
  }
}

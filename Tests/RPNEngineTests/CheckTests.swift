import TestSupport
import Testing

@testable import RPNEngine

/// Checks `=VALUE`: the pass rule at its boundaries, the diagnostics, and the values written back.
@Suite struct CheckTests {
  /// The top passes when it is within half a unit of the last written place (boundary included,
  /// plus 10⁻¹² of the larger magnitude); `_` is no digit; the exponent shifts the places.
  @Test(arguments: [
    // d > 0
    ("1 3 / =0.333", []), ("1 3 / =0.3333333333333333", []), ("1 3 / =0.334", ["check-failed@0:6-12"]),
    ("0.0005 =0.001", []), ("0.00049 =0.001", ["check-failed@0:8-14"]),
    // d = 0: half of one either way, boundary included
    ("2.5 =3", []), ("3.5 =3", []), ("2.4 =3", ["check-failed@0:4-6"]), ("3.51 =3", ["check-failed@0:5-7"]),
    // d < 0: the exponent shifts the places (=1.5e3 compares to the nearest 100)
    ("1450 =1.5e3", []), ("1550 =1.5E3", []), ("1449 =1.5e3", ["check-failed@0:5-11"]),
    ("1551 =1.5e+3", ["check-failed@0:5-12"]),
    // exponent forms with d > 0
    ("0.00015 =1.5e-4", []), ("0.000155 =1.5e-4", []), ("0.000156 =1.5e-4", ["check-failed@0:9-16"]),
    // negative values, in ASCII and U+2212
    ("-2.5 =-2.5", []), ("0 2.5 - =−2.5", []), ("-2.46 =-2.5", []), ("-2.44 =-2.5", ["check-failed@0:6-11"]),
    // `_` is not a digit
    ("1000000 =1_000_000", []), ("0.00012 =0.000_1", []), ("0.0002 =0.000_1", ["check-failed@0:7-15"]),
    // huge, tiny, negative zero, values shown in exponent form
    ("1e308 =1e308", []), ("5e-324 =5e-324", []), ("0 =5e-324", ["check-failed@0:2-9"]),
    ("0 neg =0", []), ("0 neg =-0", []), ("0 =-0.00", []), ("1e21 =1e21", []), ("1e21 1 + =1e21", []),
    ("1e21 =1.1e21", ["check-failed@0:5-12"]),
    // an empty stack, a literal out of range, malformed numbers
    ("=5", ["stack-underflow@0:0-2"]), ("1 =1e999", ["invalid-number@0:2-8"]), ("1 =1.2.3", ["invalid-name@0:2-8"]),
    ("1 =+", ["invalid-name@0:2-4"]), ("1 =.", ["invalid-name@0:2-4"]),
  ])
  func passRule(source: String, diagnostics: [String]) {
    let document = check(source, stack: labelWithoutChecks(source), diagnostics: diagnostics)
    _ = document
  }

  /// The stack a check leaves: the same as without it (a check never changes the stack).
  private func labelWithoutChecks(_ source: String) -> String {
    let withoutChecks = source.split(separator: " ").filter { !$0.hasPrefix("=") }.joined(separator: " ")
    guard let document = try? Document(text: withoutChecks) else { return "?" }
    return document.stack(afterLine: 0).label()
  }

  /// A check neither pushes nor pops, whether it passes or fails, and evaluation goes on.
  @Test func checksLeaveTheStackAlone() {
    check("1 2 =2 +", stack: "[3]")
    check("1 2 =5 + =3", stack: "[3]", diagnostics: ["check-failed@0:4-6"])
    check("=1 1 =1", stack: "[1]", diagnostics: ["stack-underflow@0:0-2"])
  }

  /// The message gives the value expected and the top, both to the places written.
  @Test(arguments: [
    ("1 3 / =0.334", "expected 0.334, the top is 0.333333333333333 (0.333 to 3 decimals)"),
    ("2.4 =3", "expected 3, the top is 2.4 (2 to a whole number)"),
    ("0.26 =0.2", "expected 0.2, the top is 0.26 (0.3 to 1 decimal)"),
    ("1449 =1.5e3", "expected 1.5e3, the top is 1449 (1400 to the nearest 100)"),
    ("-0.001 =0.01", "expected 0.01, the top is -0.001 (0.00 to 2 decimals)"),
    // Past 17 significant digits the rounded top is written short: not 309 digits, not 400 places.
    ("1e308 =1.7e308", "expected 1.7e308, the top is 1e+308 (1e+308 to the nearest 1e+307)"),
    ("1e-300 =1e-400", "expected 1e-400, the top is 1e-300 (1e-300 to 400 decimals)"),
    (
      "0.5 =0.000000000000000000000000000001",
      "expected 0.000000000000000000000000000001, the top is 0.5 (0.5 to 30 decimals)"
    ),
    ("12345678901234567 =1", "expected 1, the top is 1.23456789012346e+16 (12345678901234568 to a whole number)"),
    // Past 17 places a rounded top with fewer digits is written in exponent form too: not 320 zeros.
    ("4.9e-324 =1e-320", "expected 1e-320, the top is 4.94065645841247e-324 (0 to 320 decimals)"),
    ("1.2345e-315 =1e-320", "expected 1e-320, the top is 1.23450000144329e-315 (1.2345e-315 to 320 decimals)"),
    ("-2.5e-310 =1e-320", "expected 1e-320, the top is -2.50000000000002e-310 (-2.5e-310 to 320 decimals)"),
    ("0.000015 =1e-20", "expected 1e-20, the top is 1.5e-05 (1.5e-05 to 20 decimals)"),
    ("0.000015 =1e-17", "expected 1e-17, the top is 1.5e-05 (0.00001500000000000 to 17 decimals)"),
  ])
  func messages(source: String, message: String) throws {
    let document = try Document(text: source)
    #expect(document.diagnostics().map(\.diagnostic.message) == [message])
    #expect(document.diagnostics().map(\.diagnostic.severity) == [.warning])
  }

  /// However tiny or huge the top and the check, a failed check's message stays short: every
  /// value in it is written in a few dozen characters at most, not hundreds of digits.
  @Test func messagesOfTinyAndHugeValuesAreShort() throws {
    let tops = [
      "4.9e-324", "-4.9e-324", "1e-320", "1.2345e-315", "-2.5e-310", "2.2250738585072014e-308", "1e-300", "0.000015",
      "0", "1", "-1e-200", "1.7976931348623157e308", "-1e308", "1e300", "1.23456789e290", "12345678901234567",
    ]
    let checks = [
      "=1e-320", "=-1e-322", "=1e-400", "=1e-30", "=0.000000000000000000000000000001", "=1e-20", "=1.5e-310",
      "=1.7e308", "=1e300", "=5", "=12345678901234567890", "=-2.5e-200",
    ]
    var longest = ""
    for top in tops {
      for check in checks {
        let document = try Document(text: "\(top) \(check)")
        for message in document.diagnostics().map(\.diagnostic.message) where message.count > longest.count {
          longest = message
        }
      }
    }
    #expect(longest.count <= 120, "\(longest.count) characters: \(longest)")
  }

  @Test(arguments: [
    ("=0.333", 0.333, 3, 0, 3), ("=20", 20, 0, 0, 0), ("=1.5e3", 1500, 1, 3, -2), ("=1.5E-4", 0.00015, 1, -4, 5),
    ("=1_000.000_1", 1000.0001, 4, 0, 4), ("=−2.50", -2.5, 2, 0, 2), ("=12.", 12, 0, 0, 0), ("=.5", 0.5, 1, 0, 1),
  ])
  func literals(text: String, value: Double, fraction: Int, exponent: Int, decimals: Int) throws {
    let literal = try #require(CheckLiteral(text))
    #expect(literal.value == Value(value))
    #expect(literal.fractionDigits == fraction)
    #expect(literal.exponent == exponent)
    #expect(literal.decimals == decimals)
  }

  /// Updating keeps the check's form: its decimals, or its mantissa and exponent.
  @Test(arguments: [
    ("=0.334", 1.0 / 3, "0.333"), ("=3", 2.4, "2"), ("=1.5e3", 1449, "1.4e3"), ("=2.50", -0.0, "0.00"),
    ("=0.1", 0.25, "0.2"), ("=1e2", 149.9, "1e2"), ("=1.0e2", 1e5, "1000.0e2"),
  ])
  func updated(check: String, top: Double, text: String) throws {
    let literal = try #require(CheckLiteral(check))
    #expect(literal.updated(to: Value(top)) == text)
    #expect(try #require(CheckLiteral("=" + text)).passes(Value(top)))
  }

  @Test(arguments: [
    (0.1, "0.1"), (1.0 / 3, "0.3333333333333333"), (1e16, "10000000000000000"), (-0.0, "0"), (-5, "-5"),
    (1e21, "1e+21"), (Double.leastNonzeroMagnitude, "5e-324"), (123456789.25, "123456789.25"),
    (-2.5e17, "-250000000000000000"),
  ])
  func exactText(value: Double, text: String) {
    #expect(CheckLiteral.exact(value) == text)
  }

  /// Whatever is written back passes its own check on the next run: at full precision, as the
  /// display shows it at any precision, and updated to any number of decimals.
  @Test func writtenValuesPass() throws {
    var random = SplitMix64(seed: 10)
    for _ in 0..<20_000 {
      let bits = random.next()
      let value: Double
      switch bits % 4 {
      case 0: value = Double(bitPattern: random.next())
      case 1: value = Double(Int64(bitPattern: random.next()) % 1_000_000) / 100
      case 2: value = Double(random.next() % 1000) * pow10(-Int(random.next() % 30))
      default: value = (Double(random.next() % 2_000_001) - 1_000_000) * pow10(Int(random.next() % 40) - 20)
      }
      guard value.isFinite else { continue }
      let exact = try #require(CheckLiteral("=" + CheckLiteral.exact(value)), "\(value)")
      #expect(exact.value == Value(value), "exact text of \(value)")
      for precision in [1, 2, 6, 15, 17] {
        let shown = CheckLiteral.written(
          Value(value), display: DisplaySettings(precision: precision, grouping: bits & 4 == 0))
        let check = try #require(CheckLiteral("=" + shown), "\(shown)")
        #expect(check.passes(Value(value)), "\(value) written at precision \(precision): \(shown)")
      }
      for form in ["=0", "=0.0", "=0.00000", "=1e3", "=1.50e2", "=1e-3"] {
        let written = try #require(CheckLiteral(form)).updated(to: Value(value))
        let check = try #require(CheckLiteral("=" + written), "\(written)")
        #expect(check.passes(Value(value)), "\(form) updated to \(value): \(written)")
      }
    }
  }

  // MARK: Writing checks

  @Test func updatingEveryFailingCheck() throws {
    let document = try Document(text: "1 3 / =0.334\n2.4 =3 # c\r\n1 =1\n1449 =1.5e3")
    let text = document.applying(document.checkUpdates())
    #expect(text == "1 3 / =0.333\n2.4 =2 # c\r\n1 =1\n1449 =1.4e3")
    #expect(try Document(text: text).diagnostics().isEmpty)
    #expect(document.checkUpdate(line: 2, range: 2..<4) == nil, "a passing check has no update")
    #expect(document.checkUpdate(line: 0, range: 6..<12) == LineEdit(line: 0, range: 6..<12, text: "=0.333"))
  }

  @Test func addingAChecksToEveryLine() throws {
    let document = try Document(text: "1 2 +\n# c\n3 * # times\n=9\n\nclear\n1 3 /")
    let text = document.applying(document.checkAdditions())
    #expect(text == "1 2 + =3\n# c\n3 * =9 # times\n=9\n\nclear\n1 3 / =0.333333333333333")
    #expect(try Document(text: text).diagnostics().isEmpty)
    #expect(document.checkAddition(line: 3) == nil, "a line with a check gets none")
    #expect(document.checkAddition(line: 5) == nil, "an empty stack gets none")
  }

  @Test func removingEveryCheck() throws {
    let document = try Document(text: "1 =1 2 =2\n=3\n  =3 # c\n4 =4 # c\n=1 5")
    #expect(document.applying(document.checkRemovals()) == "1 2\n\n  # c\n4 # c\n5")
    // A check in a unit of the tape's own is a check too (the fuzzer found one left behind).
    let own = try Document(text: ": _pace 0.75_m ;\n3_pace =2_pace\n=4_pace")
    #expect(own.hasAnyCheck)
    let removed = own.applying(own.checkRemovals())
    #expect(removed == ": _pace 0.75_m ;\n3_pace\n")
    #expect(try !Document(text: removed).hasAnyCheck)
  }

  private func pow10(_ exponent: Int) -> Double {
    var result = 1.0
    for _ in 0..<abs(exponent) { result *= 10 }
    return exponent < 0 ? 1 / result : result
  }
}

/// Which lines get a check written for them (`update --add`, the action, a hint's `textEdits`),
/// and how the value is written: as the display shows it.
@Suite struct CheckAdditionRuleTests {
  /// No check on a line with a diagnostic (its result is not what was meant), nor on a line whose
  /// top is the number written on it (it would only repeat it).
  @Test func linesThatGetNoCheck() throws {
    let text = [
      "3 + 4", "1/2", "1e999", ": bad 1 2", "3,250.00 =salary", "8 =coffee", "5", "10 / 2", "salary coffee +",
      "2 3 swap", "7 dup *", "= 7",
    ].joined(separator: "\n")
    let document = try Document(text: text)
    let added = document.checkAdditions().map(\.line)
    // Lines 8 (a sum), 9 (`swap` moved a value: a computed top) and 10 (`dup *`) get one.
    #expect(added == [8, 9, 10])
    #expect(document.canAddCheck)
    #expect(try !Document(text: "3 + 4\n8 =coffee\n5").canAddCheck)
  }

  /// A line of definitions only (a word's, a unit's) leaves the stack as it was: no check of its
  /// own. A line that also computes gets one.
  @Test func definitionsAloneGetNoCheck() throws {
    let document = try Document(
      text: "3 4 +\n: w dup ;\n: _EUR 1.08_USD ; : _box ;\n: v 2 * ; w v\n: _pace 0.75_m ; 1200_pace >km")
    #expect(document.checkAdditions().map(\.line) == [0, 3, 4])
    #expect(try !Document(text: "3\n: w dup ;\n: _EUR 1.08_USD ;").canAddCheck)
  }

  /// A written value is the value as shown: `precision` significant digits in `auto`, grouped
  /// when the display groups.
  @Test(arguments: [
    (DisplaySettings(), "1 3 /", " =0.333333333333333"),
    (DisplaySettings(precision: 6), "1 3 /", " =0.333333"),
    (DisplaySettings(precision: 6), "2 sqrt 1000 *", " =1414.21"),
    (DisplaySettings(grouping: true), "1000 1.5 *", " =1,500"),
    (DisplaySettings(notation: .fixed, decimals: 2, grouping: true), "1000 1.5 *", " =1,500.00"),
    (DisplaySettings(), "0.1 0.2 +", " =0.3"),
  ])
  func writtenAsDisplayed(display: DisplaySettings, source: String, written: String) throws {
    let document = try Document(text: source)
    let edit = try #require(document.checkAddition(line: 0, display: display))
    #expect(edit.text == written)
    let checked = try Document(text: document.applying([edit]))
    #expect(checked.diagnostics().isEmpty, "\(source)\(written) passes")
  }

  /// Updating a check keeps how it was written: its decimals, its grouping, its exponent form;
  /// and its message shows every number in that one style.
  @Test(arguments: [
    ("1,480.21 =1,400.21", "=1,480.21", "expected 1,400.21, the top is 1,480.21 (1,480.21 to 2 decimals)"),
    ("1480.21 =1400.21", "=1480.21", "expected 1400.21, the top is 1480.21 (1480.21 to 2 decimals)"),
    ("1234567 =1_000_000", "=1_234_567", "expected 1_000_000, the top is 1_234_567 (1_234_567 to a whole number)"),
    ("1449 =1.5e3", "=1.4e3", "expected 1.5e3, the top is 1449 (1400 to the nearest 100)"),
    ("31 =0x1_E", "=31", "expected 0x1_E, the top is 31 (31 to a whole number)"),
  ])
  func updatesKeepTheirStyle(source: String, updated: String, message: String) throws {
    let document = try Document(text: source)
    let diagnostic = try #require(document.diagnostics().first?.diagnostic)
    #expect(diagnostic.message(display: DisplaySettings(grouping: true)) == message)
    #expect(document.checkUpdates().map(\.text) == [updated])
  }
}

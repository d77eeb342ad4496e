import Testing

@testable import RPNEngine

@Suite struct DisplayTests {
  // MARK: Values (the README's display rules: printf("%.15g"), -0 shown as 0)

  @Test(arguments: [
    ("0.1 0.2 +", "[0.3]"), ("1 3 /", "[0.333333333333333]"), ("2 3 /", "[0.666666666666667]"),
    ("1e21", "[1e+21]"), ("-0", "[0]"), ("0 neg", "[0]"), ("-0.0", "[0]"), ("0 -1 *", "[0]"), ("1e-999 neg", "[0]"),
    ("100000", "[100000]"), ("123456789012345", "[123456789012345]"), ("1e15", "[1e+15]"),
    ("999999999999999", "[999999999999999]"), ("9999999999999999", "[1e+16]"),
    ("123456789012345678", "[1.23456789012346e+17]"),
    ("0.0001", "[0.0001]"), ("1e-5", "[1e-05]"), ("0.000123", "[0.000123]"), ("0.0000123", "[1.23e-05]"),
    ("1e100", "[1e+100]"), ("1.5e-300", "[1.5e-300]"), ("-2.5e-7", "[-2.5e-07]"),
    ("1.7976931348623157e308", "[1.79769313486232e+308]"), ("4.9e-324", "[4.94065645841247e-324]"),
    ("12.50", "[12.5]"), ("1_000_000", "[1000000]"), ("-3 abs 1.0 +", "[4]"), ("1 7 /", "[0.142857142857143]"),
  ])
  func showsValuesLikePrintfG(_ source: String, _ stack: String) {
    check(source, stack: stack)
  }

  /// `2 3 /` at every precision: 0.66666666666666662965923251249478198587894439697265625.
  @Test(
    arguments: zip(
      1...17,
      [
        "0.7", "0.67", "0.667", "0.6667", "0.66667", "0.666667", "0.6666667", "0.66666667", "0.666666667",
        "0.6666666667", "0.66666666667", "0.666666666667", "0.6666666666667", "0.66666666666667", "0.666666666666667",
        "0.6666666666666666", "0.66666666666666663",
      ]))
  func precisionReplacesFifteen(_ precision: Int, _ shown: String) {
    check("2 3 /", stack: "[\(shown)]", precision: precision)
  }

  @Test(arguments: [
    ("0.1", 17, "[0.10000000000000001]"), ("0.1", 16, "[0.1]"), ("1234.5", 3, "[1.23e+03]"),
    ("1234.56", 4, "[1235]"), ("1234.5", 5, "[1234.5]"), ("123456789012345678", 17, "[1.2345678901234568e+17]"),
    ("0.1 0.2 +", 17, "[0.30000000000000004]"), ("0.1 0.2 +", 16, "[0.3]"), ("1e21", 1, "[1e+21]"),
    ("160", 1, "[2e+02]"), ("0.00015", 1, "[0.0001]"), ("-0", 17, "[0]"), ("1 2 3", 1, "[1 2 3]"),
  ])
  func precisionCases(_ source: String, _ precision: Int, _ stack: String) {
    check(source, stack: stack, precision: precision)
  }

  // MARK: Labels

  @Test func emptyStacks() {
    check("", stack: "[]")
    check("# nothing", stack: "[]")
    check("1 drop", stack: "[]")
    check("1 2\nclear\n", stack: "[]")
  }

  @Test(arguments: [
    ("1 2 3 4 5 6 7 8 9 10 11 12", 8, "[… 5 6 7 8 9 10 11 12]"),
    ("1 2 3 4 5 6 7 8", 8, "[1 2 3 4 5 6 7 8]"),
    ("1 2 3 4 5 6 7 8 9", 8, "[… 2 3 4 5 6 7 8 9]"),
    ("1 2 3", 1, "[… 3]"),
    ("1", 1, "[1]"),
    ("1 2 3", 3, "[1 2 3]"),
    ("1 2 3", 2, "[… 2 3]"),
    ("1 2 3", 100, "[1 2 3]"),
  ])
  func truncatesToMaxItems(_ source: String, _ maxItems: Int, _ stack: String) {
    check(source, stack: stack, maxItems: maxItems)
  }

  @Test func defaultMaxItemsIsEight() throws {
    let document = try Document(text: "1 2 3 4 5 6 7 8 9 10 11 12")
    #expect(document.stack(afterLine: 0).label() == "[… 5 6 7 8 9 10 11 12]")
    #expect(document.stack(afterLine: 0).depth == 12)
  }

  /// The levels list one value per line, the top last and numbered 1; past the levels asked
  /// for (or the values kept), a first line counts the rest.
  @Test(arguments: [
    ("12.5 8 20.5", 20, 20, "3: 12.5\n2: 8\n1: 20.5"), ("", 20, 20, "empty stack"), ("1 3 /", 20, 20, "1: 0.333"),
    ("1 2 3 4", 2, 20, "… 2 more\n2: 3\n1: 4"), ("1 2 3 4", 20, 3, "… 1 more\n3: 2\n2: 3\n1: 4"),
    ("1 2 3 4", 0, 20, "… 3 more\n1: 4"),
  ])
  func levelsListTheStackTopLast(_ source: String, _ maxLevels: Int, _ kept: Int, _ levels: String) throws {
    let document = try Document(text: source)
    #expect(
      document.stack(afterLine: 0, keepingTop: kept).levels(
        display: DisplaySettings(precision: 3), maxLevels: maxLevels) == levels)
  }

  @Test func formatsSingleValues() {
    #expect(ValueFormat.format(-0.0) == "0")
    #expect(ValueFormat.format(1e21) == "1e+21")
    #expect(ValueFormat.format(0.1, precision: 17) == "0.10000000000000001")
    #expect(ValueFormat.format(1234.5, precision: 3) == "1.23e+03")
    #expect(ValueFormat.format(-1234.5, precision: 2) == "-1.2e+03")
  }

  // MARK: Variables

  @Test func variables() {
    check("5 =x x", stack: "[5 5]")
    check("5 =x", stack: "[5]")
    check("5 =x\nx x +", stack: "[5 10]")
    check("5 =x X", stack: "[5]", diagnostics: ["unknown-word@0:5-6"])
    check("5 =X 6 =x X x", stack: "[5 6 5 6]")
    check("1 =x 2 =x x", stack: "[1 2 2]")
    check("1 =x\n2 =x\nclear x", stack: "[2]")
    check("5 =x clear x", stack: "[5]")
    check("x\n5 =x", stack: "[5]", diagnostics: ["unknown-word@0:0-1"])
    check("x 5 =x", stack: "[5]", diagnostics: ["unknown-word@0:0-1"])
    check("2 =café café =π2 π2 *", stack: "[2 4]")
    // A name no longer starts with `_`, which starts a unit; one may end with it.
    check("3 =x_ x_ =x_1 x_1", stack: "[3 3 3]")
    check(
      "3 =_x _x", stack: "[3]",
      diagnostics: ["invalid-name@0:2-5", "unknown-unit@0:6-8"])
  }

  /// Names are compared scalar by scalar, without normalization (the README's token rules): canonically
  /// equivalent spellings are different variables.
  @Test func namesAreNotNormalized() {
    check("5 =\u{C5} \u{212B}", stack: "[5]", diagnostics: ["unknown-word@0:6-9"])
    check("5 =\u{AC00} \u{1100}\u{1161}", stack: "[5]", diagnostics: ["unknown-word@0:7-13"])
    check("5 =\u{C5} 6 =\u{212B} \u{C5} \u{212B}", stack: "[5 6 5 6]")
  }

  @Test func variablesAfterALine() throws {
    let document = try Document(text: "1 =b 2 =a\n3 =b\nclear")
    let after = document.variables(afterLine: 2)
    #expect(after.map(\.name) == ["a", "b"])
    #expect(after.map(\.value) == [2, 3])
    #expect(document.variables(afterLine: 0).map(\.value) == [2, 1])
  }
}

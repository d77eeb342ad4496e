import Testing

@testable import RPNEngine

/// Times and angles in fields of sixty, table-driven: every example of the README's times
/// section, the format each operator leaves, conversions to and from the formats, the display's
/// rounding, checks, and every malformed literal as an `invalid-number` at its token.
@Suite struct SexagesimalTests {
  typealias Case = EvaluationCase

  private static func c(_ source: String, _ stack: String, _ diagnostics: [String] = []) -> Case {
    Case(source: source, stack: stack, diagnostics: diagnostics)
  }

  // MARK: Literals and the formats they carry

  @Test(arguments: [
    c("1:30", "[1:30]"),
    c("1:30 >h", "[1.5_h]"),
    c("1:30:15", "[1:30:15]"),
    c("1:30:15 >s", "[5415_s]"),
    c("1:30:15.5 >s", "[5415.5_s]"),
    c("1:30.5 >s", "[5430_s]"),
    c("27:10", "[27:10]"),
    c("-0:30", "[-0:30]"),
    c("−0:30 >min", "[-30_min]"),
    c("+0:30", "[0:30]"),
    c("0:00", "[0:00]"),
    c("4:35_min", "[4:35_min]"),
    c("4:35_min >s", "[275_s]"),
    c("48:46:32_°", "[48:46:32_°]"),
    c("48:46:32_deg", "[48:46:32_°]"),
    c("48:46_° >°", "[48.7666666666667_°]"),
    c("1:30_h", "[1:30]"),
    c("1:30:00_h", "[1:30:00]"),
    c("123456:00", "[123456:00]"),
  ])
  func literals(_ test: Case) { check(test.source, stack: test.stack, diagnostics: test.diagnostics) }

  // MARK: Which results keep the format

  @Test(arguments: [
    c("1:30 0:45 +", "[2:15]"),
    c("17:30 9:00 -", "[8:30]"),
    c("9:00 17:30 -", "[-8:30]"),
    c("1:30 2 *", "[3:00]"),
    c("2 1:30 *", "[3:00]"),
    c("1:30 2 /", "[0:45]"),
    c("2 1:30 /", "[1.33333333333333_h^-1]"),
    c("4:35_min 2 *", "[9:10_min]"),
    c("2:15 40_m/h *", "[90_m]"),
    c("1:30 1:30 *", "[2.25_h^2]"),
    c("1:30 0:45 /", "[2]"),
    c("1:30 30_min +", "[2:00]"),
    c("30_min 1:30 +", "[120_min]"),
    c("1.5_h 0:30 +", "[2_h]"),
    c("0 1:30 +", "[1:30]"),
    c("1:30 0:45 min", "[0:45]"),
    c("1:30 0:45 max", "[1:30]"),
    c("1:30 0:45 0:15 sum", "[2:30]"),
    c("1:30 0:45 0:15 avg", "[0:50]"),
    c("1:30 neg", "[-1:30]"),
    c("-1:30 abs", "[1:30]"),
    c("2:00 10 %", "[2:00 0:12]"),
    c("1:30 0:45 %ch", "[1:30 -50]"),
    c("27:10 24:00 mod", "[3:10]"),
    c("1:29 round", "[1:00]"),
    c("1:30 sq", "[2.25_h^2]"),
    c("1:30 inv", "[0.666666666666667_h^-1]"),
    c("1:30 uval", "[1.5]"),
    c("1:30 ubase", "[5400_s]"),
    c("## week\n1:30\n0:45\nsubtotal", "[2:15]"),
    c("1:30 =x\nx x +", "[1:30 3:00]"),
    c(": double 2 * ;\n1:15 double", "[2:30]"),
    c("90_° 0:30_° +", "[90.5_°]"),
    c("0:30_° 90_° +", "[90:30_°]"),
  ])
  func formatsTravel(_ test: Case) { check(test.source, stack: test.stack, diagnostics: test.diagnostics) }

  // MARK: Conversions

  @Test(arguments: [
    c("2:15 >h", "[2.25_h]"),
    c("2:15 >min", "[135_min]"),
    c("1.5_h >h:mm", "[1:30]"),
    c("90_min >h:mm", "[1:30]"),
    c("5415_s >h:mm:ss", "[1:30:15]"),
    c("1:30 >h:mm:ss", "[1:30:00]"),
    c("1:30:40 >h:mm", "[1:31]"),
    c("275_s >min:ss", "[4:35_min]"),
    c("4:35_min >h:mm:ss", "[0:04:35]"),
    c("48.776_° >°:mm:ss", "[48:46:34_°]"),
    c("48.5_deg >deg:mm", "[48:30_°]"),
    c("1:30 ->h:mm:ss", "[1:30:00]"),
    c("1:30 →min:ss", "[90:00_min]"),
    c("1_d >h:mm", "[24:00]"),
    c("1:30 >°:mm", "[1:30]", ["unit-mismatch@0:5-11"]),
    c("1.5 >h:mm", "[1.5]", ["unit-mismatch@0:4-9"]),
    c("1:30 >h:m", "[1:30]", ["invalid-unit@0:5-9"]),
    c("1:30 >hh:mm", "[1:30]", ["invalid-unit@0:5-11"]),
    c("1.5 _h:mm", "[1.5]", ["invalid-unit@0:4-9"]),
  ])
  func conversions(_ test: Case) { check(test.source, stack: test.stack, diagnostics: test.diagnostics) }

  // MARK: The display: rounded to the last field, then split, one sign

  @Test(arguments: [
    c("1:29:59.6 >h:mm:ss", "[1:30:00]"),
    c("1:29:59.4", "[1:29:59]"),
    c("1:29:31 >h:mm", "[1:30]"),
    c("1:29:29 >h:mm", "[1:29]"),
    c("59:59.5_min", "[60:00_min]"),
    c("-0:00:20 >h:mm", "[0:00]"),
    c("-0:00:40 >h:mm", "[-0:01]"),
    c("1e300_h >h:mm", "[1e+300_h]"),
    c("9999999999:00 60 *", "[599999999940:00]"),
  ])
  func display(_ test: Case) { check(test.source, stack: test.stack, diagnostics: test.diagnostics) }

  @Test func displaySettingsDoNotApply() {
    let document = try? Document(text: "1:30 4:35_min")
    var display = DisplaySettings()
    display.notation = .fixed
    display.decimals = 4
    #expect(document?.stack(afterLine: 0, keepingTop: 8).label(display: display) == "[1:30 4:35_min]")
    display.notation = .scientific
    #expect(document?.stack(afterLine: 0, keepingTop: 8).label(display: display) == "[1:30 4:35_min]")
  }

  // MARK: Malformed literals

  @Test(arguments: [
    ("1:75", "`1:75` is not a time or angle: minutes and seconds go from 00 to 59; did you mean `2:15`?"),
    ("1:30:75", "`1:30:75` is not a time or angle: minutes and seconds go from 00 to 59; did you mean `1:31:15`?"),
    ("1:5", "`1:5` is not a time or angle: each field after `:` has two digits; did you mean `1:05`?"),
    ("1:300", "`1:300` is not a time or angle: each field after `:` has two digits, like `1:05`"),
    ("1:", "`1:` is not a time or angle: each `:` is followed by two digits; did you mean `1:00`?"),
    ("1:30:", "`1:30:` is not a time or angle: each `:` is followed by two digits; did you mean `1:30:00`?"),
    (
      ":30",
      "`:30` is not a time or angle: the hours (or minutes, or degrees) come before the first `:`; did you mean `0:30`?"
    ),
    ("1::30", "`1::30` is not a time or angle: fields are separated by one `:`; did you mean `1:30`?"),
    ("1.5:30", "`1.5:30` is not a time or angle: only the last field may have a fraction, like `1:30.5`"),
    ("1:30.5:10", "`1:30.5:10` is not a time or angle: only the last field may have a fraction, like `1:30.5`"),
    ("1:00:00:00", "`1:00:00:00` is not a time or angle: a time or angle has at most three fields, like `1:30:15`"),
    (
      "1:30:15_min",
      "`1:30:15_min` is not a time or angle: minutes take two fields, as in `4:35_min`; "
        + "hours, minutes and seconds are written, like `1:30:15`"
    ),
    (
      "1:30_km",
      "`1:30_km` is not a time or angle: a time or angle written with `:` is in hours, minutes or degrees, "
        + "like `1:30`, `4:35_min` or `48:46:32_°`"
    ),
    (
      "1e3:30",
      "`1e3:30` is not a time or angle: write digits, then `:` and two digits for each further field, "
        + "like `1:30` or `1:30:15`"
    ),
    ("=1:75", "`=1:75` is not a time or angle: minutes and seconds go from 00 to 59; did you mean `=2:15`?"),
  ])
  func malformed(_ source: String, _ message: String) {
    let document = check("1 " + source, stack: "[1]", diagnostics: ["invalid-number@0:2-\(2 + source.utf8.count)"])
    #expect(document?.diagnostics().first?.diagnostic.message == message)
  }

  @Test func aDefinitionMarkerStaysOne() {
    check(": half 2 / ; 1:30 half", stack: "[0:45]")
    check("1 =:", stack: "[1]", diagnostics: ["invalid-name@0:2-4"])
  }

  // MARK: Checks

  @Test(arguments: [
    c("1:30 0:45 + =2:15", "[2:15]"),
    c("2:15 =2:16", "[2:15]", ["check-failed@0:5-10"]),
    c("2:15:30 =2:16", "[2:15:30]"),
    c("2:15:29 =2:15", "[2:15:29]"),
    c("2:15:31 =2:15", "[2:15:31]", ["check-failed@0:8-13"]),
    c("2:15 =2:15:00", "[2:15]"),
    c("2:15 10_s + =2:15:00", "[2:15]", ["check-failed@0:12-20"]),
    c("2.25_h =2:15", "[2.25_h]"),
    c("135_min =2:15", "[135_min]"),
    c("4:35_min 2 * =9:10_min", "[9:10_min]"),
    c("1:30 =1.5_h", "[1:30]"),
    c("1:30 =1.5", "[1:30]", ["check-failed@0:5-9"]),
    c("1:30:15.5 =1:30:15.5", "[1:30:16]"),
    c("1:30:15.5 =1:30:15.4", "[1:30:16]", ["check-failed@0:10-20"]),
    c("1_m =1:30", "[1_m]", ["check-failed@0:4-9"]),
  ])
  func checks(_ test: Case) { check(test.source, stack: test.stack, diagnostics: test.diagnostics) }

  @Test func aFailingCheckSaysWhereItRounds() {
    let document = check("2:15 =2:16", stack: "[2:15]", diagnostics: ["check-failed@0:5-10"])
    #expect(document?.diagnostics().first?.diagnostic.message == "expected 2:16, the top is 2:15 to the minute")
    let seconds = check("1:30:15.5 =1:30:15.4", stack: "[1:30:16]", diagnostics: ["check-failed@0:10-20"])
    #expect(
      seconds?.diagnostics().first?.diagnostic.message
        == "expected 1:30:15.4, the top is 1:30:15.5 to 1 decimal of a second")
  }

  @Test(arguments: [
    ("2:15 10_min + =2:15", "=2:25"),
    ("2:15 10_s + =2:15:00", "=2:15:10"),
    ("1:30:15.25 =1:30:15.0", "=1:30:15.3"),
    ("4:35_min 2 * =9:00_min", "=9:10_min"),
    ("2.5_h =2:15", "=2:30"),
  ])
  func updatesKeepTheFields(_ source: String, _ written: String) {
    let document = try? Document(text: source)
    #expect(document?.checkUpdates().map(\.text) == [written])
  }

  @Test(arguments: [
    ("1:30 0:45 +", " =2:15"),
    ("4:35_min 2 *", " =9:10_min"),
    ("1:30:00 10_s +", " =1:30:10"),
    ("1:30 10_s +", " =1:30"),
  ])
  func addedChecksAreInTheFormat(_ source: String, _ written: String) {
    let document = try? Document(text: source)
    #expect(document?.checkAddition(line: 0)?.text == written)
  }

  @Test func aCheckLiteralComparesToItsLastField() {
    let minute = CheckLiteral("=2:15")
    #expect(minute?.format == .hoursMinutes)
    #expect(minute?.places == "to the minute")
    let second = CheckLiteral("=2:15:00")
    #expect(second?.places == "to the second")
    #expect(CheckLiteral("=4:35_min")?.places == "to the second")
    #expect(CheckLiteral("=48:46:32_°")?.places == "to the second of arc")
    #expect(CheckLiteral("=2:15.25")?.places == "to 2 decimals of a minute")
  }

  // MARK: The format's text

  @Test func formatsNameThemselves() {
    for format in SexagesimalFormat.allCases { #expect(SexagesimalFormat(name: format.name) == format) }
    #expect(SexagesimalFormat(name: "deg:mm:ss") == .degreesMinutesSeconds)
    #expect(SexagesimalFormat(name: "h:m") == nil)
  }

  static let texts: [(SexagesimalFormat, Double, Int, String)] = [
    (.hoursMinutes, 1.5, 0, "1:30"),
    (.hoursMinutes, -0.5, 0, "-0:30"),
    (.hoursMinutes, -0.001, 0, "0:00"),
    (.hoursMinutesSeconds, 1.5 + 59.6 / 3600, 0, "1:31:00"),
    (.minutesSeconds, 4 + 35.0 / 60, 0, "4:35_min"),
    (.degreesMinutesSeconds, 48 + 46.0 / 60 + 32.0 / 3600, 0, "48:46:32_°"),
    (.hoursMinutesSeconds, 1 + 30.0 / 60 + 15.25 / 3600, 2, "1:30:15.25"),
    (.hoursMinutes, 1 + 5.05 / 60, 1, "1:05.1"),
  ]

  @Test(arguments: texts)
  func text(_ format: SexagesimalFormat, _ number: Double, _ places: Int, _ expected: String) {
    #expect(format.text(number, fractionDigits: places) == expected)
  }

  @Test func tooLargeForItsLastFieldIsNoText() {
    #expect(SexagesimalFormat.hoursMinutes.text(1e300) == nil)
    #expect(SexagesimalFormat.hoursMinutes.text(.infinity) == nil)
  }
}

import Foundation
import Testing

@testable import RPNEngine

/// Units of measure, table-driven: every example of the README's units section, the rules of
/// `+ -` (the left operand's unit), of `* /` (the five steps), of powers, temperatures and
/// conversions, and every malformed unit as a diagnostic at its token.
@Suite struct UnitTests {
  typealias Case = EvaluationCase

  private static func c(_ source: String, _ stack: String, _ diagnostics: [String] = []) -> Case {
    Case(source: source, stack: stack, diagnostics: diagnostics)
  }

  // MARK: Literals, attach, convert

  @Test(arguments: [
    c("12_km", "[12_km]"),
    c("1_000_km", "[1000_km]"),
    c("1e3_m", "[1000_m]"),
    c("-40_°C", "[-40_°C]"),
    c("2.5_kW*h", "[2.5_kW*h]"),
    c("2.5_kW·h", "[2.5_kW*h]"),
    c("9.81_m/s^2", "[9.81_m/s^2]"),
    c("1_J/(kg*K)", "[1_J/(kg*K)]"),
    c("1_J/(kg·K)", "[1_J/(kg*K)]"),
    c("5_m²", "[5_m^2]"),
    c("0.2_s⁻¹", "[0.2_s^-1]"),
    c("0.2_s^-1", "[0.2_s^-1]"),
    c("5 _1/s", "[5_s^-1]"),
    c("12_metre 3_meter", "[12_m 3_m]"),
    c("1_us 1_µs 1_μs", "[1_µs 1_µs 1_µs]"),
    c("1_ohm 1_kΩ 1_Ω", "[1_Ω 1_kΩ 1_Ω]"),
    c("1_deg 1_degC 1_deltaC", "[1_° 1_°C 1_Δ°C]"),
    c("1_l 1_mL 1_ml", "[1_L 1_mL 1_mL]"),
    c("12 _km", "[12_km]"),
    c("26.2_mi >km", "[42.1648128_km]"),
    c("26.2_mi ->km", "[42.1648128_km]"),
    c("26.2_mi →km", "[42.1648128_km]"),
    c("3_ft >in", "[36_in]"),
    c("68_°F >°C", "[20_°C]"),
    c("100_°C >°F", "[212_°F]"),
    c("-40_°C >°F", "[-40_°F]"),
    c("0_K >°C", "[-273.15_°C]"),
    c("5_Δ°C >Δ°F", "[9_Δ°F]"),
    c("1_mi >ft", "[5280_ft]"),
    c("1_km^2 >m^2", "[1000000_m^2]"),
    c("1_cm^3 >L", "[0.001_L]"),
    c("1_pt >floz", "[16_floz]"),
    c("1_gal >L", "[3.785411784_L]"),
    c("1_ct >g", "[0.2_g]"),
    c("1_st >lb", "[14_lb]"),
    c("1_kWh >J", "[3600000_J]"),
    c("1_KiB >B", "[1024_B]"),
    c("1_kB >bit", "[8000_bit]"),
    c("1_Mm >mm", "[1000000000_mm]"),
    c("1_atm >Pa", "[101325_Pa]"),
    c("760_torr >atm", "[1_atm]"),
    c("1_N 1_m * >J", "[1_J]"),
    c("60_′ >°", "[1_°]"),
    c("1_turn >°", "[360_°]"),
    c("100_km/h >mph", "[62.1371192237334_mph]"),
    c("1_kWh ubase", "[3600000_kg*m^2/s^2]"),
    c("20_°C ubase", "[293.15_K]"),
    c("1_mph ubase", "[0.44704_m/s]"),
    c("12_km uval", "[12]"),
    c("7 uval 7 ubase", "[7 7]"),
  ])
  func literalsAndConversions(_ c: Case) {
    check(c.source, stack: c.stack, diagnostics: c.diagnostics)
  }

  // MARK: Adding, comparing, multiplying

  @Test(arguments: [
    c("12_km 500_m +", "[12.5_km]"),
    c("500_m 12_km +", "[12500_m]"),
    c("12_km 500_m -", "[11.5_km]"),
    c("12_km 3 +", "[12_km 3]", ["unit-mismatch@0:8-9"]),
    c("12_km 3_h +", "[12_km 3_h]", ["unit-mismatch@0:10-11"]),
    c("0 12_km +", "[12_km]"),
    c("12_km 0 +", "[12_km]"),
    c("12_km 5 5 - +", "[12_km]"),
    c("12_km 500_m max", "[12_km]"),
    c("12_km 500_m min", "[0.5_km]"),
    c("7_km 2_km mod", "[1_km]"),
    c("1_km 500_m 250_m sum", "[1.75_km]"),
    c("500_m 1_km sum", "[1500_m]"),
    c("0 500_m 1_km sum", "[1500_m]"),
    c("1_km 2_km avg", "[1.5_km]"),
    c("1_km 2_h sum", "[1_km 2_h]", ["unit-mismatch@0:9-12"]),
    c("600_mi 50_mph /", "[12_h]"),
    c("5_kW 2_h *", "[10_kW*h]"),
    c("60_mph 30_min *", "[1800_mph*min]"),
    c("60_mph 30_min * >mi", "[30_mi]"),
    c("15_km/h 30_min *", "[7.5_km]"),
    c("1_ha 1_m *", "[1_ha*m]"),
    c("5_mi 1_km /", "[8.04672]"),
    c("1_N 1_m *", "[1_N*m]"),
    c("2_m 3_m *", "[6_m^2]"),
    c("6_m^2 2_m /", "[3_m]"),
    c("1_kg 9.81_m/s^2 *", "[9.81_kg*m/s^2]"),
    c("1_J 1_kg*K /", "[1_J/(kg*K)]"),
    c("3_Hz 2_s *", "[6]"),
    c("1_kn 1_h *", "[1_nmi]"),
    c("2 3_m *", "[6_m]"),
    c("3_m 2 /", "[1.5_m]"),
    c("2 4_s /", "[0.5_s^-1]"),
    c("200_km 15 %", "[200_km 30_km]"),
    c("200_km 15_km %", "[200_km 15_km]", ["unit-mismatch@0:13-14"]),
  ])
  func arithmetic(_ c: Case) {
    check(c.source, stack: c.stack, diagnostics: c.diagnostics)
  }

  // MARK: Powers, rounding, functions, stack words

  @Test(arguments: [
    c("2_m sq", "[4_m^2]"),
    c("4_m^2 sqrt", "[2_m]"),
    c("1_m^3 sqrt", "[1_m^3]", ["unit-mismatch@0:6-10"]),
    c("-8_m^3 sqrt", "[-8_m^3]", ["unit-mismatch@0:7-11"]),
    c("2_m 3 ^", "[8_m^3]"),
    c("2 2_m ^", "[2 2_m]", ["unit-mismatch@0:6-7"]),
    c("2_s inv", "[0.5_s^-1]"),
    c("-2.5_km abs", "[2.5_km]"),
    c("2.5_km neg", "[-2.5_km]"),
    c("1.26_h >min round", "[76_min]"),
    c("2.7_km floor 2.2_km ceil 2.5_km trunc", "[2_km 3_km 2_km]"),
    c("2_m exp", "[2_m]", ["unit-mismatch@0:4-7"]),
    c("2_m ln", "[2_m]", ["unit-mismatch@0:4-6"]),
    c("90_° cos", "[0]"),
    c("30_° sin", "[0.5]"),
    c("100_grad sin", "[1]"),
    c("0.25_turn sin", "[1]"),
    c("2_m sin", "[2_m]", ["unit-mismatch@0:4-7"]),
    c("1_m 2_m depth", "[1_m 2_m 2]"),
    c("1_m dup +", "[2_m]"),
    c("1_m 2_m swap", "[2_m 1_m]"),
    c("1_m =d d", "[1_m 1_m]"),
    c("1_m 2_m + lastx", "[3_m 2_m]"),
    c("1_m 2_m 1_m pick", "[1_m 2_m 1_m]", ["unit-mismatch@0:12-16"]),
    c(": tokm >km ; 1_mi tokm", "[1.609344_km]"),
    c(": mpg >km 1_L / ; 100_mi mpg", "[160.9344_km/L]"),
    c(": twice 2 _km * ;", "[]"),
  ])
  func powersFunctionsAndStackWords(_ c: Case) {
    check(c.source, stack: c.stack, diagnostics: c.diagnostics)
  }

  // MARK: Temperature

  @Test(arguments: [
    c("20_°C 15_°C -", "[5_Δ°C]"),
    c("68_°F 50_°F -", "[18_Δ°F]"),
    c("20_°C 5_K -", "[15_°C]"),
    c("400_K 100_°C -", "[26.85_K]"),
    c("5_Δ°C 20_°C +", "[25_°C]"),
    c("20_°C 5_Δ°C +", "[25_°C]"),
    c("5_Δ°C 9_Δ°F +", "[10_Δ°C]"),
    c("20_°C 20_°C +", "[20_°C 20_°C]", ["unit-mismatch@0:14-15"]),
    c("20_°C 2 *", "[20_°C 2]", ["unit-mismatch@0:9-10"]),
    c("20_°C sq", "[20_°C]", ["unit-mismatch@0:7-9"]),
    c("20_°C 30_°C avg", "[25_°C]"),
    c("20_°C 30_°C max", "[30_°C]"),
    c("20_°C 50_°F min", "[10_°C]"),
    c("20_°C 30_°C sum", "[20_°C 30_°C]", ["unit-mismatch@0:14-17"]),
    c("20_°C 5_Δ°C max", "[20_°C 5_Δ°C]", ["unit-mismatch@0:15-18"]),
    c("20_°C >Δ°C", "[20_°C]", ["unit-mismatch@0:7-13"]),
    c("5_Δ°C >°C", "[5_Δ°C]", ["unit-mismatch@0:8-12"]),
    c("2_K 3_m *", "[6_K*m]"),
  ])
  func temperature(_ c: Case) {
    check(c.source, stack: c.stack, diagnostics: c.diagnostics)
  }

  // MARK: Bad input: every malformed unit is a diagnostic at its token

  @Test(arguments: [
    c("12_", "[]", ["invalid-unit@0:0-3"]),
    c("12__km", "[]", ["invalid-unit@0:0-6"]),
    c("12_km/", "[]", ["invalid-unit@0:0-6"]),
    c("12_/s", "[]", ["invalid-unit@0:0-5"]),
    c("12_m/s/s", "[]", ["invalid-unit@0:0-8"]),
    c("12_m^", "[]", ["invalid-unit@0:0-5"]),
    c("12_m^1.5", "[]", ["invalid-unit@0:0-8"]),
    c("12_m^99999999999", "[]", ["invalid-unit@0:0-16"]),
    c("12_m^100", "[]", ["invalid-unit@0:0-8"]),
    c("12_m^0", "[]", ["invalid-unit@0:0-6"]),
    c("12_m^99", "[12_m^99]"),
    c("12_(m)", "[]", ["invalid-unit@0:0-6"]),
    c("12_m/(s", "[]", ["invalid-unit@0:0-7"]),
    // Found by the fuzzer: `(` ending the text was read past (AddressSanitizer: heap overflow).
    c("12_m/(", "[]", ["invalid-unit@0:0-6"]),
    c("_m/(", "[]", ["invalid-unit@0:0-4"]),
    c("1 >m/(", "[1]", ["invalid-unit@0:2-6"]),
    c("12_°C*m", "[]", ["invalid-unit@0:0-8"]),
    c("12_kmin", "[]", ["invalid-unit@0:0-7"]),
    c("12_J/kg*K", "[]", ["invalid-unit@0:0-9"]),
    c("12_km\u{301}", "[]", ["unknown-unit@0:0-7"]),
    c("12_\u{200F}km", "[]", ["invalid-unit@0:0-8"]),
    c("0x1F_km", "[]", ["invalid-unit@0:0-7"]),
    c("0x1F_deg", "[]", ["invalid-unit@0:0-8"]),
    c("12_kilometre", "[]", ["unknown-unit@0:0-12"]),
    c("12_C", "[]", ["unknown-unit@0:0-4"]),
    c("12_KB", "[]", ["unknown-unit@0:0-5"]),
    c("_", "[]", ["invalid-unit@0:0-1"]),
    c(">", "[]", ["invalid-unit@0:0-1"]),
    c("12km", "[]", ["unknown-word@0:0-4"]),
    c("=_x", "[]", ["invalid-name@0:0-3"]),
    c("5_km _mi", "[5_km]", ["unit-mismatch@0:5-8"]),
    c("5 >km", "[5]", ["unit-mismatch@0:2-5"]),
    c("5_kW >J", "[5_kW]", ["unit-mismatch@0:5-7"]),
    c("1e308_km >mm", "[1e+308_km]", ["overflow@0:9-12"]),
  ])
  func badInput(_ c: Case) {
    check(c.source, stack: c.stack, diagnostics: c.diagnostics)
  }

  /// A unit expression past the limits (128 bytes, 12 factors) is an `invalid-unit`, read in
  /// time proportional to its length, not a crash: a 10 KB one.
  /// The ratios kept between two units are bounded: a session converting between ever new
  /// units (every pair of the units met) does not grow them without end, and a ratio worked
  /// out again after they were cleared is the same.
  @Test func theRatiosKeptBetweenUnitsAreBounded() throws {
    // Lengths, each a distinct unit: km^k*m^(1-k) and mm^k*m^(1-k).
    let lengths = try (2...80).flatMap { k in
      try ["km", "mm"].map { try #require(Units.unit(named: "\($0)^\(k)*m^\(1 - k)")) }
    }
    for from in lengths {
      for to in lengths where to != from { _ = Units.shared.ratio(from: from, to: to) }
    }
    #expect(lengths.count * (lengths.count - 1) > Units.pairCapacity)
    #expect(Units.shared.keptRatios.linear <= Units.pairCapacity)
    let km = try #require(Units.unit(named: "km"))
    let m = try #require(Units.unit(named: "m"))
    #expect(Units.shared.ratio(from: km, to: m) == Exact(1000))
    #expect(Units.shared.ratio(from: lengths[0], to: m) == Exact(1_000_000))
  }

  @Test func aHugeUnitIsInvalid() {
    let unit = String(repeating: "m*", count: 5_000) + "m"
    check("12_" + unit, stack: "[]", diagnostics: ["invalid-unit@0:0-\(3 + unit.utf8.count)"])
    check("_" + unit, stack: "[]", diagnostics: ["invalid-unit@0:0-\(1 + unit.utf8.count)"])
  }

  /// The messages name the thing and say what would fix it.
  @Test(arguments: [
    ("12_kmh", "unknown unit `kmh` in `12_kmh`; did you mean `km/h`?"),
    ("12_KB", "unknown unit `KB` in `12_KB`; did you mean `kB` or `KiB`?"),
    ("12_C", "unknown unit `C` in `12_C`; did you mean `°C`?"),
    ("12_kph", "unknown unit `kph` in `12_kph`; did you mean `km/h`?"),
    ("12_hrs", "unknown unit `hrs` in `12_hrs`; did you mean `h`?"),
    ("12_lbs", "unknown unit `lbs` in `12_lbs`; did you mean `lb`?"),
    ("12_sqft", "unknown unit `sqft` in `12_sqft`; did you mean `ft^2`?"),
    ("12_cc", "unknown unit `cc` in `12_cc`; did you mean `cm^3`?"),
    ("12_kilometre", "unknown unit `kilometre` in `12_kilometre`; did you mean `km`?"),
    ("12_m/s/s", "`12_m/s/s`: a unit has at most one `/`; write `m/s^2`"),
    ("12_J/kg*K", "`12_J/kg*K`: after `/`, several units go in parentheses; write `J/(kg*K)`"),
    ("12_km 3_h +", "`+` needs one dimension: 12 km is a length, 3 h is a time"),
    ("12_km 3 +", "`+` needs one dimension: 12 km is a length, 3 is a plain number; write `3_km`"),
    ("5_kW >J", "cannot convert 5 kW, a power, to J, an energy"),
    ("5_km _mi", "`_mi`: 5 km has a unit already; to convert it, write `>mi`"),
    (
      "=_x",
      "`=_x` is not a valid name: `_` now starts a unit (`12 _km`), and a name starts with a letter; rename it `x_`"
    ),
  ])
  func messages(source: String, message: String) throws {
    let document = try Document(text: source)
    #expect(document.diagnostics().map(\.diagnostic.message) == [message])
  }

  // MARK: Checks and summaries

  /// A check with a unit converts the top to it; one that does not fit fails, and its update
  /// writes the top in its own unit.
  @Test(arguments: [
    ("12_km 500_m + =12.5_km", nil),
    ("12_km =12000_m", nil),
    ("12_km 500_m + =12.4_km", "=12.5_km"),
    ("12_km =12000.5_m", "=12000.0_m"),
    ("12_km =12", "=12_km"),
    ("12 =12_km", "=12"),
    ("12_km 3_h =1", "=3_h"),
    ("68_°F =20_°C", nil),
  ])
  func checksWithUnits(source: String, updated: String?) throws {
    let document = try Document(text: source)
    #expect(document.checkUpdates().map(\.text) == (updated.map { [$0] } ?? []), "\(source)")
  }

  @Test func aCheckOfAnotherDimensionSaysSo() throws {
    let document = try Document(text: "12_km =12")
    #expect(
      document.diagnostics().map(\.diagnostic.message) == [
        "expected 12, the top is 12_km, a length, which this check cannot compare; to check it, write `=12_km`"
      ])
  }

  /// A check written for you is in the top's unit.
  @Test func aWrittenCheckHasTheTopsUnit() throws {
    let document = try Document(text: "12_km 500_m +\n1_mi >ft")
    #expect(document.checkAdditions().map(\.text) == [" =12.5_km", " =5280_ft"])
  }

  /// A section's summary is in its lowest value's unit; values of several dimensions are counted.
  @Test func sectionSummaries() throws {
    let document = try Document(text: "## trip\n12_km\n500_m\n## mixed\n1_km\n2_h\n3")
    let texts = document.sections().map { $0.summary.text { ValueFormat.format($0, display: DisplaySettings()) } }
    #expect(texts == ["Σ 12.5_km · 2 values · avg 6.25_km", "3 values, mixed units"])
  }

  // MARK: The README's list

  /// The README's table of units is the unit table's: every name (aliases too), each marked *p*
  /// exactly when it takes prefixes.
  @Test func theReadmeListsTheTable() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let table = try #require(readme.components(separatedBy: "| dimension | units |\n|---|---|\n").dropFirst().first)
      .components(separatedBy: "\n\n")[0]
    var listed: [String: Bool] = [:]
    let name = try NSRegularExpression(pattern: #"`([^`]+)`( \*p\*)?"#)
    for row in table.split(separator: "\n") {
      let row = String(row).components(separatedBy: " | ").dropFirst().joined()
      for match in name.matches(in: row, range: NSRange(row.startIndex..., in: row)) {
        guard let range = Range(match.range(at: 1), in: row) else { continue }
        listed[String(row[range])] = match.range(at: 2).location != NSNotFound
      }
    }
    var expected: [String: Bool] = [:]
    for atom in UnitTable.atoms where !atom.isCurrency {
      for name in atom.names
      where !(name.unicodeScalars.first.map { $0.value == 0x2126 || $0.value == 0x2206 } ?? false) {
        expected[name] = atom.prefixedNames.contains(name)
      }
    }
    #expect(listed == expected)
  }
}

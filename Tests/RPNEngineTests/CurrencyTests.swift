import Testing

@testable import RPNEngine

/// Currencies and the rates written in the tape, table-driven: amounts shown in their minor
/// units, `no-rate` where no rate links two currencies, rates and chains of rates in force from
/// their line down, and every definition that defines nothing as an `invalid-definition` at the
/// unit's token.
@Suite struct CurrencyTests {
  typealias Case = EvaluationCase

  private static func c(_ source: String, _ stack: String, _ diagnostics: [String] = []) -> Case {
    Case(source: source, stack: stack, diagnostics: diagnostics)
  }

  // MARK: Amounts

  @Test(arguments: [
    c("12.5_EUR", "[12.50_EUR]"),
    c("170_€", "[170.00_EUR]"),
    c("5_$ 3_$ +", "[8.00_USD]"),
    c("4_£", "[4.00_GBP]"),
    c("1200_¥", "[1200_JPY]"),
    c("1.2346_KWD", "[1.235_KWD]"),
    c("2.12345_CLF", "[2.1235_CLF]"),
    c("2_XAU", "[2_XAU]"),
    c("10_EUR 3 /", "[3.33_EUR]"),
    c("-0.001_EUR", "[0.00_EUR]"),
    c("1234567.891_EUR", "[1234567.89_EUR]"),
    c("5_EUR 2_h /", "[2.5_EUR/h]"),
    c("5_EUR ubase", "[5.00_EUR]"),
    c("5_EUR 2_EUR *", "[10_EUR^2]"),
    c("5_EUR 2_EUR /", "[2.5]"),
    c("12_EUR 3_EUR + =15_EUR", "[15.00_EUR]"),
    c("12_EUR 3_EUR + =15", "[15.00_EUR]", ["check-failed@0:15-18"]),
  ])
  func amounts(_ row: Case) {
    check(row.source, stack: row.stack, diagnostics: row.diagnostics)
  }

  @Test func amountsShowTheirMinorUnitsWhateverThePrecision() {
    check("10_EUR 3 /", stack: "[3.33_EUR]", precision: 3)
    check("10_EUR 3 /", stack: "[3.33_EUR]", precision: 17)
    check("10_EUR 3 / 1_h /", stack: "[3.33_EUR/h]", precision: 3)
  }

  // MARK: No rate

  @Test(arguments: [
    c("5_EUR 3_USD +", "[5.00_EUR 3.00_USD]", ["no-rate@0:12-13"]),
    c("5_EUR >USD", "[5.00_EUR]", ["no-rate@0:6-10"]),
    c("2_EUR/h 3_USD/h +", "[2_EUR/h 3_USD/h]", ["no-rate@0:16-17"]),
    c("5_EUR 3_USD max", "[5.00_EUR 3.00_USD]", ["no-rate@0:12-15"]),
    c("5_EUR 3_USD sum", "[5.00_EUR 3.00_USD]", ["no-rate@0:12-15"]),
    // Not two currencies: a plain mismatch.
    c("5_EUR 3_m +", "[5.00_EUR 3_m]", ["unit-mismatch@0:10-11"]),
    c("5_EUR 3 +", "[5.00_EUR 3]", ["unit-mismatch@0:8-9"]),
    c("5_EUR >m", "[5.00_EUR]", ["unit-mismatch@0:6-8"]),
    c("2_EUR/h 3_USD +", "[2_EUR/h 3.00_USD]", ["unit-mismatch@0:14-15"]),
    // An empty body makes a currency a dimension of its own again: no rate.
    c(": _EUR 1.08_USD ;\n: _EUR ;\n5_EUR >USD", "[5.00_EUR]", ["no-rate@2:6-10"]),
    // A rate applies from its line down.
    c("5_EUR >USD\n: _EUR 1.08_USD ;", "[5.00_EUR]", ["no-rate@0:6-10"]),
  ])
  func noRate(_ row: Case) {
    check(row.source, stack: row.stack, diagnostics: row.diagnostics)
  }

  @Test func noRateSaysBothCurrenciesAndHowToWriteARateWithoutInventingOne() throws {
    let document = try Document(text: "5_EUR 3_USD +")
    let diagnostic = try #require(document.diagnostics().first?.diagnostic)
    #expect(diagnostic.severity == .warning)
    #expect(
      diagnostic.message
        == "`+`: no rate above links EUR and USD (5 EUR and 3 USD); write what one EUR is in USD on a line "
        + "above, `: _EUR RATE_USD ;` with the rate for RATE (`: _EUR 1.08_USD ;` reads 1 EUR = 1.08 USD)")
  }

  // MARK: Rates

  @Test(arguments: [
    c(": _EUR 1.08_USD ;\n100_EUR >USD", "[108.00_USD]"),
    c(": _EUR 1.08_USD ;\n54_USD >EUR", "[50.00_EUR]"),
    c(": _EUR 1.08_USD ;\n100_EUR →$", "[108.00_USD]"),
    c(": _EUR 1.08_USD ;\n12.50_EUR 3.24_USD +", "[15.50_EUR]"),
    c(": _EUR 1.08_USD ;\n3.24_USD 12.50_EUR +", "[16.74_USD]"),
    c(": _EUR 1.08_USD ;\n12.50_EUR 3.24_USD -", "[9.50_EUR]"),
    c(": _EUR 2_USD ;\n1_EUR 3_USD max", "[1.50_EUR]"),
    c(": _EUR 2_USD ;\n1_EUR 3_USD min", "[1.00_EUR]"),
    c(": _EUR 2_USD ;\n10_EUR 10_USD %t", "[10.00_EUR 50]"),
    c(": _€ 1.08_$ ;\n100_€ >$", "[108.00_USD]"),
    // Chains, both ways: GBP → EUR → USD.
    c(": _EUR 1.08_USD ;\n: _GBP 1.19_EUR ;\n10_GBP >USD", "[12.85_USD]"),
    c(": _EUR 1.08_USD ;\n: _GBP 1.19_EUR ;\n12.852_USD >GBP", "[10.00_GBP]"),
    c(": _EUR 1.08_USD ;\n: _GBP 1.19_EUR ;\n10_GBP 10_USD +", "[17.78_GBP]"),
    // Two currencies defined in a third.
    c(": _EUR 1.08_USD ;\n: _CHF 1.12_USD ;\n112_CHF >EUR", "[116.15_EUR]"),
    // Each conversion follows the definitions in force on its own line.
    c(": _EUR 1.08_USD ;\n10_EUR >USD\n: _EUR 1.10_USD ;\n10_EUR >USD", "[10.80_USD 11.00_USD]"),
    // A definition fixes its body's value in its body's units: GBP stays 1.19 EUR.
    c(": _EUR 1.08_USD ;\n: _GBP 1.19_EUR ;\n: _EUR 1.10_USD ;\n10_GBP >USD", "[13.09_USD]"),
    // Values already on the stack keep their unit.
    c(": _EUR 1.08_USD ;\n10_EUR\n: _EUR 2_USD ;", "[10.00_EUR]"),
    // A body computes its quantity.
    c(": _XAU 2000_USD 1.5 * ;\n1_XAU >USD", "[3000.00_USD]"),
    c(": _EUR 1 1.08 / _USD inv 1_USD^2 * ;\n1.08_EUR >USD", "[1.17_USD]"),
    // Rates in compound units, sums, subtotals, checks and words.
    c(": _EUR 2_USD ;\n6_USD/h >EUR/h", "[3_EUR/h]"),
    c(": _EUR 2_USD ;\n1_EUR/h 2_USD/h +", "[2_EUR/h]"),
    c(": _EUR 2_USD ;\n10_EUR 10_USD sum", "[15.00_EUR]"),
    c(": _EUR 2_USD ;\n10_EUR 10_USD avg", "[7.50_EUR]"),
    c("## Trip\n: _EUR 2_USD ;\n1_EUR\n2_USD\nsubtotal", "[2.00_EUR]"),
    c(": _EUR 2_USD ;\n10_USD =5_EUR", "[10.00_USD]"),
    c(": _EUR 2_USD ;\n10_USD =6_EUR", "[10.00_USD]", ["check-failed@1:7-13"]),
    c(": _EUR 2_USD ;\n: toUSD >USD ;\n3_EUR toUSD", "[6.00_USD]"),
    c(": toUSD >USD ;\n: _EUR 2_USD ;\n3_EUR toUSD", "[6.00_USD]"),
  ])
  func rates(_ row: Case) {
    check(row.source, stack: row.stack, diagnostics: row.diagnostics)
  }

  // MARK: Definitions that define nothing

  @Test(arguments: [
    c(": _EUR 0_USD ;\n5_EUR >USD", "[5.00_EUR]", ["invalid-definition@0:2-6", "no-rate@1:6-10"]),
    c(": _EUR -1.08_USD ;", "[]", ["invalid-definition@0:2-6"]),
    c(": _EUR 1e308_USD 10 * ;", "[]", ["invalid-definition@0:2-6"]),
    c(": _EUR 1.08 ;", "[]", ["invalid-definition@0:2-6"]),
    c(": _EUR 1_USD 2_USD ;", "[]", ["invalid-definition@0:2-6"]),
    c(": _EUR + ;", "[]", ["invalid-definition@0:2-6"]),
    c(": _EUR sum ;", "[]", ["invalid-definition@0:2-6"]),
    c(": _EUR 1_USD 0 / ;", "[]", ["invalid-definition@0:2-6"]),
    c(": _EUR 1_EUR ;", "[]", ["invalid-definition@0:2-6"]),
    c(": _EUR 2_EUR/h 1_h * ;", "[]", ["invalid-definition@0:2-6"]),
    c(": _EUR 2_USD ;\n: _USD 0.5_EUR ;", "[]", ["invalid-definition@1:2-6"]),
    c(": _EUR 2_USD ;\n: _GBP 2_EUR ;\n: _USD 0.25_GBP ;", "[]", ["invalid-definition@2:2-6"]),
    c(": _km 1000_m ;", "[]", ["invalid-definition@0:2-5"]),
    c(": _m 2_ft ;", "[]", ["invalid-definition@0:2-4"]),
    c(": _kd 2_m ;", "[]", ["invalid-definition@0:2-5"]),
    c(": _EUR/h 2_USD ;", "[]", ["invalid-definition@0:2-8"]),
    c(": _EUR 1.08_USD", "[]", ["unterminated-definition@0:0-1"]),
    c("1 : _EUR =x 1_USD ;", "[1]", ["invalid-definition@0:9-11"]),
    c(": w : _EUR 1_USD ; ;", "[]", ["invalid-definition@0:4-5", "invalid-definition@0:19-20"]),
  ])
  func refused(_ row: Case) {
    check(row.source, stack: row.stack, diagnostics: row.diagnostics)
  }

  @Test func refusalsSayWhyAtTheUnitsToken() throws {
    func message(_ source: String) throws -> String {
      try #require(try Document(text: source).diagnostics().first?.diagnostic.message)
    }
    #expect(
      try message(": _EUR 2_USD ;\n: _USD 0.5_EUR ;")
        == "`_USD` would be defined through itself (EUR → USD); define it in a unit that does not lead back to it")
    #expect(
      try message(": _km 1000_m ;")
        == "`km` is a built-in unit and keeps its meaning; give a unit of your own another name")
    #expect(
      try message(": _EUR 1.08 ;")
        == "the body of `_EUR` leaves the plain number 1.08; a unit is defined as a quantity, like "
        + "`: _EUR 1.08_USD ;`, or with an empty body as a new dimension, `: _EUR ;`")
    #expect(
      try message(": _EUR 0_USD ;") == "`_EUR` would be 0.00_USD: a unit is a positive, finite quantity of others")
    #expect(
      try message(": _kd 2_m ;")
        == "`kd` reads as a prefix on a built-in unit; give a unit of your own a name the unit table does not read")
  }

  @Test func aChainThroughEveryCurrencyConverts() throws {
    // Each currency worth one of the next, down the whole table: the first is one of the last.
    let codes = Currency.table.map(\.code)
    var lines = zip(codes, codes.dropFirst()).map { ": _\($0) 1_\($1) ;" }
    lines.append("5_\(codes[0]) >\(codes[codes.count - 1])")
    lines.append("5_\(codes[codes.count - 1]) >\(codes[0])")
    let document = try Document(text: lines.joined(separator: "\n"))
    #expect(document.diagnostics().isEmpty)
    let label = document.stack(afterLine: document.lineCount - 1, keepingTop: 8).label(display: DisplaySettings())
    #expect(label == "[5.00_\(codes[codes.count - 1]) 5.00_\(codes[0])]")
  }

  // MARK: Units of the tape's own

  @Test(arguments: [
    c(": _pace 0.75_m ;\n3_pace", "[3_pace]"),
    c(": _pace 0.75_m ;\n3_pace >m", "[2.25_m]"),
    c(": _pace 0.75_m ;\n3_pace 1.5_m +", "[5_pace]"),
    c(": _pace 0.75_m ;\n4_pace >ft", "[9.84251968503937_ft]"),
    c(": _pace 0.75_m ;\n3 _pace >cm", "[225_cm]"),
    c(": _pace 0.75_m ;\n1_km >pace", "[1333.33333333333_pace]"),
    c(": _pace 0.75_m ;\n3_pace =2.25_m", "[3_pace]"),
    c(": _pace 0.75_m ;\n3_m =4_pace", "[3_m]"),
    c(": _pace 0.75_m ;\n2_pace 3_s / >m/s", "[0.5_m/s]"),
    c(": _pace 0.75_m ;\n: step 2_pace ;\nstep >m", "[1.5_m]"),
    // A chain of the tape's units, and one defined in another's terms.
    c(": _furlong 201.168_m ;\n: _league 3_mi ;\n1_league >furlong", "[24_furlong]"),
    c(": _pace 0.75_m ;\n: _stride 2_pace ;\n10_stride >m", "[15_m]"),
    // An empty body: a dimension of its own.
    c(": _box ;\n3_box 2_box +", "[5_box]"),
    c(": _box ;\n3_box 2 *", "[6_box]"),
    c(": _box ;\n6_box 2_box /", "[3]"),
    c(": _box ;\n3_box 1_m +", "[3_box 1_m]", ["unit-mismatch@1:10-11"]),
    c(": _box ;\n12_EUR 3_box /", "[4_EUR/box]"),
    // Used above its definition, or never defined: an unknown unit.
    c("3_pace\n: _pace 0.75_m ;", "[]", ["unknown-unit@0:0-6"]),
    c("2_widget", "[]", ["unknown-unit@0:0-8"]),
    c(": _pace 0.75_m ;\n3_pase", "[]", ["unknown-unit@1:0-6"]),
    // Redefined: each use follows the definition in force on its line.
    c(": _pace 0.75_m ;\n1_pace >m\n: _pace 0.8_m ;\n1_pace >m", "[0.75_m 0.8_m]"),
    // Refusals.
    c(": _pace 0.75 ;", "[]", ["invalid-definition@0:2-7"]),
    c(": _pace 1_pace ;", "[]", ["invalid-definition@0:2-7"]),
    c(": _a 2_b ;", "[]", ["unknown-unit@0:5-8"]),
    c(": _b ;\n: _a 2_b ;\n: _b 3_a ;", "[]", ["invalid-definition@2:2-4"]),
    c(": _pace 0.75_m ;\n: _pace 2_pace ;", "[]", ["invalid-definition@1:2-7"]),
  ])
  func tapeUnits(_ row: Case) {
    check(row.source, stack: row.stack, diagnostics: row.diagnostics)
  }

  /// A unit name of letters for `k` (names have no digits, and `x` is no prefix): `xqa`, `xqb`, … `xqaa`.
  private func name(_ k: Int) -> String {
    var k = k
    var letters = ""
    repeat {
      letters.append(Character(UnicodeScalar(UInt8(97 + k % 26))))
      k /= 26
    } while k > 0
    return "xq" + letters
  }

  @Test func aChainOfAHundredDefinitionsBackToItselfIsRefusedAtTheLastOne() throws {
    var lines = [": _\(name(0)) ;"]
    for k in 1..<100 { lines.append(": _\(name(k)) 2_\(name(k - 1)) ;") }
    lines.append(": _\(name(0)) 2_\(name(99)) ;")
    lines.append("1_\(name(99)) >\(name(0))")
    let document = try Document(text: lines.joined(separator: "\n"))
    let found = document.diagnostics().map { compact($0.diagnostic, line: $0.line) }
    #expect(found.prefix(3) == ["invalid-definition@100:2-6"])
    let label = document.stack(afterLine: document.lineCount - 1, keepingTop: 8).label(display: DisplaySettings())
    #expect(label == "[6.33825300114115e+29_\(name(0))]")
  }

  @Test func aChainOfAThousandRatesConverts() throws {
    var lines = [": _\(name(0)) ;"]
    for k in 1...1000 { lines.append(": _\(name(k)) 1_\(name(k - 1)) ;") }
    for _ in 0..<10 { lines.append("1_\(name(1000)) 1_\(name(0)) + >\(name(0))") }
    let document = try Document(text: lines.joined(separator: "\n"))
    #expect(document.diagnostics().count == 0)
    let label = document.stack(afterLine: document.lineCount - 1, keepingTop: 2).label(display: DisplaySettings())
    #expect(label == "[… 2_\(name(0)) 2_\(name(0))]")
  }
}

// The command line with money: `eval` prints amounts in their minor units, `check` says where a
// rate is missing, `update` writes checks in the amount's currency and decimals.

import Foundation
import Testing

/// A trip budget in two currencies (and a third that meets them without a rate, then with one)
/// through the real binary's command line: a rate line, conversions, a check written wrongly
/// (59.00 for 59.80), a sum of euros and dollars, `no-rate` for pounds before their rate, a chain
/// GBP → EUR → USD after it, and a definition-only line, which gets no check of its own.
@Suite struct CurrencyCommandTests {
  static let tape = """
    : _EUR 1.08_USD ;
    ## Flights
    412_USD >EUR =381.48_EUR
    2 29.90_€ * =59.00_EUR
    subtotal =travel
    ## Hotel
    4 89_EUR *
    3 45_$ * + =481_EUR
    ## Souvenirs
    5_GBP 2_EUR +
    1200_JPY
    : _GBP 1.19_EUR ;
    5_GBP 2_EUR + >USD
    travel >USD

    """

  /// The tape with its failing check updated, in the check's own form and the currency's decimals.
  static let updated = tape.replacingOccurrences(of: "=59.00_EUR", with: "=59.80_EUR")

  /// `updated` with a check on each line that has a result worth checking: not the rate lines,
  /// not `1200_JPY` (the number written), not the line with `no-rate`.
  static let added =
    updated
    .replacingOccurrences(of: "subtotal =travel\n", with: "subtotal =travel =441.28_EUR\n")
    .replacingOccurrences(of: "4 89_EUR *\n", with: "4 89_EUR * =356.00_EUR\n")
    .replacingOccurrences(of: "+ >USD\n", with: "+ >USD =8.59_USD\n")
    .replacingOccurrences(of: "travel >USD\n", with: "travel >USD =476.58_USD\n")

  static let noRate =
    "budget.rpn:10:13: warning: `+`: no rate above links GBP and EUR (5 GBP and 2 EUR); write what one GBP is "
    + "in EUR on a line above, `: _GBP RATE_EUR ;` with the rate for RATE (`: _EUR 1.08_USD ;` reads 1 EUR = "
    + "1.08 USD) [no-rate]"

  /// Each amount in its currency's minor units: 412 USD is 381.48 EUR, 135 USD joins 356 EUR as
  /// 125 EUR, 5 GBP and 2 EUR are 7.95 EUR, 8.59 USD.
  @Test func evalPrintsAmountsInTheirMinorUnits() throws {
    let result = try run(["eval", "-"], input: Self.tape)
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        : _EUR 1.08_USD ;           []
        ## Flights                  Σ 441.28_EUR · 1 value · avg 441.28_EUR
        412_USD >EUR =381.48_EUR    [381.48_EUR]
        2 29.90_€ * =59.00_EUR    ! [381.48_EUR 59.80_EUR]
        subtotal =travel            [441.28_EUR]
        ## Hotel                    Σ 481.00_EUR · 1 value · avg 481.00_EUR
        4 89_EUR *                  [441.28_EUR 356.00_EUR]
        3 45_$ * + =481_EUR         [441.28_EUR 481.00_EUR]
        ## Souvenirs                5 values, mixed units
        5_GBP 2_EUR +             ! [441.28_EUR 481.00_EUR 5.00_GBP 2.00_EUR]
        1200_JPY                    [441.28_EUR 481.00_EUR 5.00_GBP 2.00_EUR 1200_JPY]
        : _GBP 1.19_EUR ;           [441.28_EUR 481.00_EUR 5.00_GBP 2.00_EUR 1200_JPY]
        5_GBP 2_EUR + >USD          [441.28_EUR 481.00_EUR 5.00_GBP 2.00_EUR 1200_JPY 8.59_USD]
        travel >USD                 [441.28_EUR 481.00_EUR 5.00_GBP 2.00_EUR 1200_JPY 8.59_USD 476.58_USD]

        """)
    #expect(
      result.stderr.split(separator: "\n").map(String.init) == [
        "-:4:13: warning: expected 59.00_EUR, the top is 59.80_EUR (59.80 to 2 decimals) [check-failed]",
        Self.noRate.replacingOccurrences(of: "budget.rpn:", with: "-:"),
      ])
  }

  /// `check`: the failing check and the missing rate, status 1; updated, only the missing rate.
  @Test func checkSaysWhereARateIsMissing() throws {
    let dir = try directory(with: ["budget.rpn": Self.tape, "updated.rpn": Self.updated])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["check", "budget.rpn"], in: dir)
    #expect(result.status == 1)
    #expect(
      result.stdout.split(separator: "\n").map(String.init) == [
        "budget.rpn:4:13: warning: expected 59.00_EUR, the top is 59.80_EUR (59.80 to 2 decimals) [check-failed]",
        Self.noRate,
      ])
    let updated = try run(["check", "updated.rpn"], in: dir)
    #expect(updated.status == 1)
    #expect(updated.stdout == Self.noRate.replacingOccurrences(of: "budget.rpn:", with: "updated.rpn:") + "\n")
    // With a rate for pounds above their first use, nothing is left.
    let mended = Self.updated.replacingOccurrences(of: "## Souvenirs\n", with: "## Souvenirs\n: _GBP 1.19_EUR ;\n")
    let clear = try run(["check", "-"], input: mended)
    #expect(clear.status == 0, "\(clear.stdout)")
    #expect(clear.stdout == "")
  }

  /// Past the units of its own a session keeps (32,528 names the table lacks), a definition says
  /// so at its unit's name; the units defined before it keep working. (A process of its own: the
  /// names are the session's.)
  @Test func pastTheUnitsASessionKeepsADefinitionSaysSo() throws {
    func name(_ n: Int) -> String {
      var n = n + 1
      var letters = ""
      while n > 0 {
        n -= 1
        letters = String(UnicodeScalar(UInt8(97 + n % 26))) + letters
        n /= 26
      }
      return "x" + letters
    }
    let count = 32_530
    let tape = (0..<count).map { ": _\(name($0)) 2_m ;\n" }.joined() + "3_\(name(0)) >m\n"
    let result = try run(["check", "-"], input: tape)
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "-:32529:3: error: `\(name(32_528))` cannot be a unit of your own: this session already keeps 32,528 names "
          + "of units the table lacks, the most it can; use one of the units already defined [invalid-definition]",
        "-:32530:3: error: `\(name(32_529))` cannot be a unit of your own: this session already keeps 32,528 names "
          + "of units the table lacks, the most it can; use one of the units already defined [invalid-definition]",
      ])
    let eval = try run(["eval", "-"], input: tape)
    #expect(eval.stdout.split(separator: "\n").last?.hasSuffix("[6_m]") == true)
  }

  /// `update` rewrites the failing check in its currency's decimals; `--add` adds the checks of
  /// `added`; run again, nothing changes; `--write` says how many.
  @Test func updateWritesChecksInTheCurrencysDecimals() throws {
    let dir = try directory(with: ["budget.rpn": Self.tape])
    defer { try? FileManager.default.removeItem(at: dir) }
    let updated = try run(["update", "budget.rpn"], in: dir)
    #expect(updated.status == 0)
    #expect(updated.stdout == Self.updated)
    let added = try run(["update", "--add", "budget.rpn"], in: dir)
    #expect(added.stdout == Self.added)
    #expect(try run(["update", "--add", "-"], input: Self.added).stdout == Self.added)
    let write = try run(["update", "--add", "--write", "budget.rpn"], in: dir)
    #expect(write.status == 0)
    #expect(write.stderr == "budget.rpn: updated 1 failing check, added 4 checks\n")
    #expect(try String(contentsOf: dir.appendingPathComponent("budget.rpn"), encoding: .utf8) == Self.added)
  }
}

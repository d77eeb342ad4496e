// The command line with times and angles: `eval` prints them in their fields, `check` their
// diagnostics, `update` rewrites and adds checks in the top's fields.

import Foundation
import Testing

/// Times and angles through the real binary's command line, on a week's timesheet: days as end
/// minus start (two of them checked, one wrongly), the week's subtotal checked to the second
/// (wrongly), its pay as a plain number, a run's time and pace in minutes and seconds (checked),
/// a bearing in degrees, two malformed literals, and a time converted to an angle's format.
@Suite struct TimeCommandTests {
  static let tape = """
    ## Week 12
    17:30 9:00 - =8:30
    18:15 9:00 - 0:30 - =8:30
    12:00 7:45 - 17:15 13:30 - +
    16:00 8:00 -
    subtotal =week =33:00:00
    ## Pay
    week >h uval 18.50 *
    ## Runs and a bearing
    5:24_min 10 *
    52:30_min 10 / =5:15_min
    48:46:32_° 1:75 1:30:15_min
    1:30 >°:mm

    """

  /// The tape with its two failing checks updated, each in its own fields.
  static let updated =
    tape
    .replacingOccurrences(of: "0:30 - =8:30", with: "0:30 - =8:45")
    .replacingOccurrences(of: "=33:00:00", with: "=33:15:00")

  /// `updated` with a check on every line that has a value, no check and no diagnostic, in the
  /// top's fields and format (or as a plain number, for the pay).
  static let added = """
    ## Week 12
    17:30 9:00 - =8:30
    18:15 9:00 - 0:30 - =8:45
    12:00 7:45 - 17:15 13:30 - + =8:00
    16:00 8:00 - =8:00
    subtotal =week =33:15:00
    ## Pay
    week >h uval 18.50 * =615.125
    ## Runs and a bearing
    5:24_min 10 * =54:00_min
    52:30_min 10 / =5:15_min
    48:46:32_° 1:75 1:30:15_min
    1:30 >°:mm

    """

  /// The diagnostics of `updated` and `added`: the two literals and the conversion, which no
  /// update can mend. Columns count Unicode scalars: `°` is one.
  static let lasting = [
    "tape.rpn:12:12: error: `1:75` is not a time or angle: minutes and seconds go from 00 to 59; "
      + "did you mean `2:15`? [invalid-number]",
    "tape.rpn:12:17: error: `1:30:15_min` is not a time or angle: minutes take two fields, as in `4:35_min`; "
      + "hours, minutes and seconds are written, like `1:30:15` [invalid-number]",
    "tape.rpn:13:6: warning: cannot convert 1:30, a time, to °, an angle [unit-mismatch]",
  ]

  @Test func evalPrintsTimesInTheirFields() throws {
    let result = try run(["eval", "-"], input: Self.tape)
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        ## Week 12                      Σ 33:15 · 1 value · avg 33:15
        17:30 9:00 - =8:30              [8:30]
        18:15 9:00 - 0:30 - =8:30     ! [8:30 8:45]
        12:00 7:45 - 17:15 13:30 - +    [8:30 8:45 8:00]
        16:00 8:00 -                    [8:30 8:45 8:00 8:00]
        subtotal =week =33:00:00      ! [33:15]
        ## Pay                          Σ 615.125 · 1 value · avg 615.125
        week >h uval 18.50 *            [33:15 615.125]
        ## Runs and a bearing           4 values, mixed units
        5:24_min 10 *                   [33:15 615.125 54:00_min]
        52:30_min 10 / =5:15_min        [33:15 615.125 54:00_min 5:15_min]
        48:46:32_° 1:75 1:30:15_min   ! [33:15 615.125 54:00_min 5:15_min 48:46:32_°]
        1:30 >°:mm                    ! [33:15 615.125 54:00_min 5:15_min 48:46:32_° 1:30]

        """)
    // The diagnostics go to standard error, as `check` prints them.
    #expect(
      result.stderr.split(separator: "\n").map(String.init) == [
        "-:3:21: warning: expected 8:30, the top is 8:45 to the minute [check-failed]",
        "-:6:16: warning: expected 33:00:00, the top is 33:15:00 to the second [check-failed]",
      ] + Self.lasting.map { $0.replacingOccurrences(of: "tape.rpn:", with: "-:") })
  }

  /// The failing checks say where they round; each line `FILE:LINE:COL`; status 1.
  @Test func checkPrintsTheTimesDiagnostics() throws {
    let dir = try directory(with: ["tape.rpn": Self.tape, "updated.rpn": Self.updated])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["check", "tape.rpn"], in: dir)
    #expect(result.status == 1)
    #expect(
      result.stdout.split(separator: "\n").map(String.init) == [
        "tape.rpn:3:21: warning: expected 8:30, the top is 8:45 to the minute [check-failed]",
        "tape.rpn:6:16: warning: expected 33:00:00, the top is 33:15:00 to the second [check-failed]",
      ] + Self.lasting)
    #expect(result.stderr == "")
    // Updated, only what no check can mend is left.
    let updated = try run(["check", "updated.rpn"], in: dir)
    #expect(updated.status == 1)
    #expect(
      updated.stdout.split(separator: "\n").map(String.init)
        == Self.lasting.map { $0.replacingOccurrences(of: "tape.rpn:", with: "updated.rpn:") })
  }

  /// A timesheet with no mistake: `check` is silent and exits 0.
  @Test func checkPassesAClearTimesheet() throws {
    let clear = Self.updated.split(separator: "\n").prefix(11).joined(separator: "\n") + "\n"
    let result = try run(["check", "-"], input: clear)
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout == "")
    #expect(result.stderr == "")
  }

  /// `update` rewrites the failing checks in their own fields (`=8:30` → `=8:45`, `=33:00:00` →
  /// `=33:15:00`); `--add` also writes a check on each line without one, in the top's fields and
  /// format, except the lines with diagnostics. Run again, neither changes anything.
  @Test func updateWritesChecksInTheirFields() throws {
    let dir = try directory(with: ["tape.rpn": Self.tape])
    defer { try? FileManager.default.removeItem(at: dir) }
    let updated = try run(["update", "tape.rpn"], in: dir)
    #expect(updated.status == 0)
    #expect(updated.stdout == Self.updated)
    #expect(updated.stderr == "")
    let added = try run(["update", "--add", "tape.rpn"], in: dir)
    #expect(added.status == 0)
    #expect(added.stdout == Self.added)
    #expect(try run(["update", "--add", "-"], input: Self.added).stdout == Self.added)
    #expect(try run(["update", "--add", "--check", "-"], input: Self.added).status == 0)
  }

  /// `--check` counts what would change; `--write` changes it in place and says so; a second
  /// `--write` finds nothing to do.
  @Test func updateCheckAndWrite() throws {
    let dir = try directory(with: ["tape.rpn": Self.tape])
    defer { try? FileManager.default.removeItem(at: dir) }
    let check = try run(["update", "--add", "--check", "tape.rpn"], in: dir)
    #expect(check.status == 1)
    #expect(check.stdout == "")
    #expect(check.stderr == "tape.rpn: 2 failing checks would be updated, 4 checks would be added\n")
    let write = try run(["update", "--add", "--write", "tape.rpn"], in: dir)
    #expect(write.status == 0)
    #expect(write.stderr == "tape.rpn: updated 2 failing checks, added 4 checks\n")
    #expect(try String(contentsOf: dir.appendingPathComponent("tape.rpn"), encoding: .utf8) == Self.added)
    let again = try run(["update", "--add", "--write", "tape.rpn"], in: dir)
    #expect(again.status == 0)
    #expect(again.stderr == "nothing changed: tape.rpn is up to date\n")
  }
}

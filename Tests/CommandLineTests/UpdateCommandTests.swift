// `rpn-lsp update`: failing checks updated, checks added with `--add`, `--check` statuses, usage errors.

import Foundation
import Testing

/// `rpn-lsp update FILE|-` prints the tape with every failing check rewritten to the value the
/// tape computes now, in the check's own form; `--add` also adds a check to every line with
/// tokens, no check and a value on the stack. `--check` prints nothing and exits 1 when the
/// command would change the file. (`--write` is in `WriteInPlaceTests`.)
@Suite struct UpdateCommandTests {
  /// Passing checks, three failing ones in three forms, lines without a check, a check on an
  /// empty stack (a stack underflow, which no update can fix), and a `\r\n` line ending.
  static let tape = """
    # lunch split
    12.5 8 + =20.5
    3 / =6.9   # each of three\r
    1 3 / =0.334
    1400 =1.5e3
    2 2 *
    =x
    30 sin =-0.99
    clear
    =1

    """

  static let updated = """
    # lunch split
    12.5 8 + =20.5
    3 / =6.8   # each of three\r
    1 3 / =0.333
    1400 =1.4e3
    2 2 *
    =x
    30 sin =-0.99
    clear
    =1

    """

  static let added = """
    # lunch split
    12.5 8 + =20.5
    3 / =6.8   # each of three\r
    1 3 / =0.333
    1400 =1.4e3
    2 2 * =4
    =x =4
    30 sin =-0.99
    clear
    =1

    """

  @Test func updatePrintsTheTapeWithFailingChecksUpdated() throws {
    let dir = try directory(with: ["tape.rpn": Self.tape])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["update", "tape.rpn"], in: dir)
    #expect(result.status == 0)
    #expect(Array(result.stdout.utf8) == Array(Self.updated.utf8))
    #expect(result.stderr == "")
    // Printing leaves the file alone.
    #expect(try Data(contentsOf: dir.appendingPathComponent("tape.rpn")) == Data(Self.tape.utf8))
  }

  @Test func addAlsoWritesACheckOnEveryLineWithAValueAndNoCheck() throws {
    let result = try run(["update", "--add", "-"], input: Self.tape)
    #expect(result.status == 0)
    #expect(Array(result.stdout.utf8) == Array(Self.added.utf8))
    #expect(result.stderr == "")
  }

  /// Added checks are written as the display shows the values (15 significant digits), and they
  /// pass: none fails afterwards.
  @Test func addedChecksPass() throws {
    let input = "1 3 /\n2 sqrt\n1e20 3 *\n0.1 0.2 +\n-0 1 *\n"
    let result = try run(["update", "--add", "-"], input: input)
    #expect(
      result.stdout == "1 3 / =0.333333333333333\n2 sqrt =1.4142135623731\n1e20 3 * =3e+20\n"
        + "0.1 0.2 + =0.3\n-0 1 * =0\n")
    let check = try run(["check", "-"], input: result.stdout)
    #expect(check.status == 0, "\(check.stdout)")
  }

  @Test(arguments: [["update"], ["update", "--add"]])
  func updatingTwiceChangesNothingMore(_ command: [String]) throws {
    let once = try run(command + ["-"], input: Self.tape)
    let twice = try run(command + ["-"], input: once.stdout)
    #expect(twice.status == 0)
    #expect(Array(twice.stdout.utf8) == Array(once.stdout.utf8))
    #expect(try run(command + ["--check", "-"], input: once.stdout).status == 0)
  }

  @Test func updateUsesTheAngleUnit() throws {
    let tape = "30 sin =0.50\n"
    let degrees = try run(["update", "--angle-unit", "degrees", "--check", "-"], input: tape)
    #expect(degrees.status == 0)
    let radians = try run(["update", "-"], input: tape)
    #expect(radians.stdout == "30 sin =-0.99\n")
  }

  @Test func checkExitsOneWhenACheckFails() throws {
    let dir = try directory(with: ["tape.rpn": Self.tape, "updated.rpn": Self.updated, "added.rpn": Self.added])
    defer { try? FileManager.default.removeItem(at: dir) }
    let failing = try run(["update", "--check", "tape.rpn"], in: dir)
    #expect(failing.status == 1)
    #expect(failing.stdout == "")
    #expect(failing.stderr == "tape.rpn: 3 failing checks would be updated\n")

    let passing = try run(["update", "--check", "updated.rpn"], in: dir)
    #expect(passing.status == 0)
    #expect(passing.stdout == "")
    #expect(passing.stderr == "")

    // Several files: only those that would change are named.
    let several = try run(["update", "--check", "updated.rpn", "tape.rpn", "added.rpn"], in: dir)
    #expect(several.status == 1)
    #expect(several.stderr == "tape.rpn: 3 failing checks would be updated\n")
    #expect(try run(["update", "--check", "updated.rpn", "added.rpn"], in: dir).status == 0)
  }

  /// With `--add`, a line that has a value and no check is something to do: `--check` fails.
  @Test func checkWithAddCountsLinesWithoutACheck() throws {
    let dir = try directory(with: ["updated.rpn": Self.updated, "added.rpn": Self.added])
    defer { try? FileManager.default.removeItem(at: dir) }
    let missing = try run(["update", "--add", "--check", "updated.rpn"], in: dir)
    #expect(missing.status == 1)
    #expect(missing.stdout == "")
    #expect(missing.stderr == "updated.rpn: 2 checks would be added\n")
    let both = try run(["update", "--add", "--check", "-"], input: Self.tape)
    #expect(both.status == 1)
    #expect(both.stderr == "-: 3 failing checks would be updated, 2 checks would be added\n")
    let complete = try run(["update", "--add", "--check", "added.rpn"], in: dir)
    #expect(complete.status == 0)
    #expect(complete.stderr == "")
  }

  @Test func aTapeWithoutChecksIsPrintedAsItIs() throws {
    let tape = "1 2 +\n  zzz   # a mistake stays\r\n\r3"
    let result = try run(["update", "-"], input: tape)
    #expect(result.status == 0)
    #expect(Array(result.stdout.utf8) == Array(tape.utf8))
    #expect(try run(["update", "--check", "-"], input: tape).status == 0)
    #expect(try run(["update", "-"], input: "").stdout == "")
  }

  @Test func usageErrorsSayWhatToChange() throws {
    let dir = try directory(with: ["a.rpn": "1 =2\n", "b.rpn": "2\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let cases: [(arguments: [String], message: String)] = [
      (["update"], "update takes a file"),
      (["update", "--bogus", "a.rpn"], "unknown option '--bogus'"),
      (["update", "--write", "-"], "--write cannot rewrite standard input"),
      (["update", "-", "a.rpn"], "- (standard input) must be the only file"),
      (["update", "--check", "a.rpn", "-"], "- (standard input) must be the only file"),
      (["update", "a.rpn", "b.rpn"], "add --write to rewrite each in place, or --check"),
      (["update", "--check", "--write", "a.rpn"], "--check and --write exclude each other"),
      (["update", "--precision", "3", "a.rpn"], "update does not take --precision"),
      (["update", "--max-items", "3", "a.rpn"], "update does not take --max-items"),
      (["update", "--angle-unit", "grads", "a.rpn"], "--angle-unit takes 'radians' or 'degrees'"),
      (["update", "--angle-unit"], "--angle-unit needs a value"),
      (["format", "--add", "a.rpn"], "format does not take --add"),
      (["check", "--add", "a.rpn"], "check does not take --add"),
    ]
    try expectUsageErrors(cases, in: dir)
    // Nothing was written.
    #expect(try Data(contentsOf: dir.appendingPathComponent("a.rpn")) == Data("1 =2\n".utf8))
  }

  @Test func updateFailsOnIOErrors() throws {
    let dir = try directory(with: ["a.rpn": "1 =2\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let missing = try run(["update", "missing.rpn"], in: dir)
    #expect(missing.status == 2)
    #expect(missing.stdout == "")
    #expect(missing.stderr == "rpn-lsp: cannot read missing.rpn: there is no such file\n")
    // One unreadable file among several: the others are still checked; the status is 2.
    let mixed = try run(["update", "--check", "a.rpn", "missing.rpn"], in: dir)
    #expect(mixed.status == 2)
    #expect(mixed.stderr.contains("a.rpn: 1 failing check would be updated\n"))
    #expect(mixed.stderr.contains("missing.rpn"))
  }

  /// Printing (and `--check`) reads a file that is not valid UTF-8 as `eval` and `check` do,
  /// with U+FFFD in place of the bad bytes: only writing it back is refused.
  @Test func printingReadsInvalidUTF8WithReplacementCharacters() throws {
    let dir = try directory(with: [:])
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data([0x31, 0x20, 0xFF, 0x20, 0x3D, 0x32, 0x0A]).write(to: dir.appendingPathComponent("latin.rpn"))
    let result = try run(["update", "latin.rpn"], in: dir)
    #expect(result.status == 0)
    #expect(result.stdout == "1 \u{FFFD} =1\n")
    #expect(try run(["update", "--check", "latin.rpn"], in: dir).status == 1)
    // Nothing to update and nothing to format: the bad byte alone is no change.
    try Data([0x31, 0x20, 0xFF, 0x20, 0x3D, 0x31, 0x0A]).write(to: dir.appendingPathComponent("settled.rpn"))
    for command in ["update", "format"] {
      let settled = try run([command, "--check", "settled.rpn"], in: dir)
      #expect(settled.status == 0, "\(command)")
      #expect(settled.stderr == "", "\(command)")
    }
  }
}

/// `update --add` on a tape of a beginner's mistakes locks none of them in: no check on a line
/// with a diagnostic, none that repeats the number written on its line, values as displayed.
@Suite struct UpdateAddRuleTests {
  @Test func beginnersMistakesGetNoCheck() throws {
    let tape = """
      # rpn: precision=6
      3 + 4
      1/2
      1e999
      : half 2 /
      3,250.00 =salary
      salary 12 *
      5 = 7
      1 3 /

      """
    let result = try run(["update", "--add", "-"], input: tape)
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        # rpn: precision=6
        3 + 4
        1/2
        1e999
        : half 2 /
        3,250.00 =salary
        salary 12 * =39000
        5 = 7
        1 3 / =0.333333

        """)
  }

  /// `check` prints an infix habit as `info`, and it counts: the tape has something to look at.
  @Test func checkPrintsInfixAsInfo() throws {
    let result = try run(["check", "-"], input: "9\n10 / 2\n")
    #expect(result.status == 1)
    #expect(
      result.stdout == "-:2:4: info: this line reads as infix; in RPN the operands come first: `10 2 /` [infix]\n")
  }
}

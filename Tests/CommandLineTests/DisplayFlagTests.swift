import Foundation
import Testing

/// `--notation`, `--decimals` and `--grouping` on `eval`, `check` and `update`: flags override a
/// tape's `# rpn:` line, which overrides the defaults.
@Suite struct DisplayFlagTests {
  static let budget = "# rpn: notation=fixed decimals=2 grouping=true\n1234.5 =price\n3 *\n1 3 /\n"

  @Test func theTapesLineSetsTheDisplay() throws {
    let result = try run(["eval", "-"], input: Self.budget)
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "# rpn: notation=fixed decimals=2 grouping=true\n1234.5 =price  [1,234.50]\n3 *            [3,703.50]\n"
        + "1 3 /          [3,703.50 0.33]\n")
  }

  /// Each flag overrides its own key of the line; the other keys of the line still apply.
  @Test(arguments: [
    (["--decimals", "4"], ["[1,234.5000]", "[3,703.5000]", "[3,703.5000 0.3333]"]),
    // Like C's %.0f: 1234.5 is a tie, rounded to even.
    (["--decimals=0", "--no-grouping"], ["[1234]", "[3704]", "[3704 0]"]),
    (["--grouping=false"], ["[1234.50]", "[3703.50]", "[3703.50 0.33]"]),
    (["--notation", "Scientific"], ["[1.23e+03]", "[3.70e+03]", "[3.70e+03 3.33e-01]"]),
    (["--notation=engineering", "--decimals", "3"], ["[1.234e+03]", "[3.704e+03]", "[3.704e+03 333.3e-03]"]),
    (["--notation", "AUTO", "--precision=4"], ["[1,234]", "[3,704]", "[3,704 0.3333]"]),
  ])
  func flagsOverrideTheLine(_ flags: [String], _ labels: [String]) throws {
    let result = try run(["eval"] + flags + ["-"], input: Self.budget)
    #expect(result.status == 0, "\(result.stderr)")
    let shown = result.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: "  ").last ?? "") }
    #expect(shown.map { $0.trimmingCharacters(in: .whitespaces) } == labels)
  }

  @Test func withoutALineTheFlagsApplyToTheDefaults() throws {
    let result = try run(["eval", "--notation", "fixed", "--grouping", "-"], input: "1e6 3\n")
    #expect(result.stdout == "1e6 3  [1,000,000.00 3.00]\n")
  }

  /// `check`'s messages show values in the display (-2.25 to one decimal is -2.2, as C rounds the
  /// tie to even); one the display would round to zero is shown in full.
  @Test func checkShowsMessagesInTheDisplay() throws {
    let tape = "# rpn: notation=fixed decimals=1\n-2.25 sqrt\n-0.04 sqrt\n"
    let result = try run(["check", "-"], input: tape)
    #expect(result.status == 1)
    #expect(
      result.stdout
        == "-:2:7: warning: `sqrt` of -2.2 is undefined: a square root needs a value ≥ 0 [domain-error]\n"
        + "-:3:7: warning: `sqrt` of -0.04 is undefined: a square root needs a value ≥ 0 [domain-error]\n")
    let scientific = try run(["check", "--notation", "scientific", "-"], input: tape)
    #expect(scientific.stdout.hasPrefix("-:2:7: warning: `sqrt` of -2.2e+00 is undefined"))
  }

  /// `update --add` writes new checks as the display shows values (grouped when it groups), and
  /// they pass; a line that ends on the number written there gets none.
  @Test func updateWritesChecksInTheDisplay() throws {
    let fixed = try run(["update", "--add", "-"], input: Self.budget)
    #expect(
      fixed.stdout
        == "# rpn: notation=fixed decimals=2 grouping=true\n1234.5 =price\n3 * =3,703.50\n1 3 / =0.33\n")
    #expect(try run(["check", "-"], input: fixed.stdout).status == 0)
    let auto = try run(["update", "--add", "--notation", "auto", "-"], input: Self.budget)
    #expect(auto.stdout.hasSuffix("1 3 / =0.333333333333333\n"))
    let engineering = try run(["update", "--add", "--notation=engineering", "--decimals=1", "-"], input: "12345 1 *\n")
    #expect(engineering.stdout == "12345 1 * =12e+03\n")
    #expect(try run(["check", "-"], input: engineering.stdout).status == 0)
  }

  @Test func badDisplayFlags() throws {
    let dir = try directory(with: ["a.rpn": "1\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    try expectUsageErrors(
      [
        (
          ["eval", "--notation", "fancy", "a.rpn"],
          "--notation takes 'auto', 'fixed', 'scientific' or 'engineering', not 'fancy'"
        ),
        (["eval", "--decimals", "16", "a.rpn"], "--decimals takes a whole number from 0 to 15, not '16'"),
        (["eval", "--decimals=", "a.rpn"], "--decimals takes a whole number from 0 to 15, not ''"),
        (["eval", "--notation"], "--notation needs a value"),
        (["check", "--grouping=yes", "a.rpn"], "--grouping takes no value, or =true or =false, not 'yes'"),
        (["check", "--add=1", "a.rpn"], "check does not take --add"),
        (["update", "--add=1", "a.rpn"], "--add takes no value"),
        (["format", "--notation", "fixed", "a.rpn"], "format does not take --notation"),
        (["format", "--no-grouping", "a.rpn"], "format does not take --grouping"),
        (["eval", "--notatoin=fixed", "a.rpn"], "unknown option '--notatoin'"),
      ], in: dir)
  }
}

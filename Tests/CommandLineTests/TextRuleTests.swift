import Foundation
import Testing

/// Through the command line: a `# rpn:` line reads white space as the lexer does (any Unicode
/// White_Space), so `format` cannot change what a tape computes; a byte order mark is no text
/// and is kept, byte for byte, by `format --write` and `update --write`.
@Suite struct TextRuleTests {
  /// The settings line indented with NBSP applies before and after `format --write`: the check
  /// fails the same way both times.
  @Test func formatKeepsWhatAnIndentedSettingsLineSets() throws {
    let tape = "\u{A0}# rpn: angleUnit=degrees\n90 sin =0.894\n"
    let dir = try directory(with: ["t.rpn": tape])
    defer { try? FileManager.default.removeItem(at: dir) }
    let failing = "t.rpn:2:8: warning: expected 0.894, the top is 1 (1.000 to 3 decimals) [check-failed]\n"
    let before = try run(["check", "t.rpn"], in: dir)
    #expect(before.status == 1)
    #expect(before.stdout + before.stderr == failing)
    let formatted = try run(["format", "--write", "t.rpn"], in: dir)
    #expect(formatted.status == 0)
    let file = try Data(contentsOf: dir.appendingPathComponent("t.rpn"))
    #expect(Array(file) == Array("# rpn: angleUnit=degrees\n90 sin =0.894\n".utf8))
    let after = try run(["check", "t.rpn"], in: dir)
    #expect(after.status == 1)
    #expect(after.stdout + after.stderr == failing)
  }

  /// Em space between pairs, NBSP after `rpn:`, NBSP or ideographic space after a value: each
  /// is white space, and `format` leaves the line as it reads.
  @Test(arguments: [
    "# rpn: maxItems=3\u{2003}angleUnit=degrees\n", "# rpn:\u{A0}angleUnit=degrees\n",
    "# rpn: angleUnit=degrees\u{A0}\n", "# rpn: angleUnit=degrees\u{3000}\n",
  ])
  func whiteSpaceInsideASettingsLine(settings: String) throws {
    let tape = settings + "90 sin =1\n"
    let result = try run(["check", "-"], input: tape)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout + result.stderr == "")
    let formatted = try run(["format", "-"], input: tape)
    let again = try run(["check", "-"], input: formatted.stdout)
    #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
  }

  /// `\xEF\xBB\xBF1 2 + =4`: the check fails on 3 (the BOM is not glued to `1`), at column 7 as
  /// an editor shows the line (it hides the BOM), `update --write` writes `=3`, and the file still
  /// starts with the BOM; `format --write` keeps it too.
  @Test func aByteOrderMarkIsNoTextAndIsKept() throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let dir = try directory(with: [
      "u.rpn": "\u{FEFF}1 2 + =4\n", "f.rpn": "\u{FEFF}# rpn: angleUnit=degrees\n90   sin =1\n",
    ])
    defer { try? FileManager.default.removeItem(at: dir) }
    let checked = try run(["check", "u.rpn"], in: dir)
    #expect(checked.status == 1)
    #expect(checked.stdout.contains("expected 4, the top is 3 (3 to a whole number) [check-failed]"), "\(checked)")
    #expect(checked.stdout.hasPrefix("u.rpn:1:7: "), "\(checked)")
    #expect(!checked.stdout.contains("unknown"))
    let updated = try run(["update", "--write", "u.rpn"], in: dir)
    #expect(updated.status == 0, "\(updated)")
    #expect(Array(try Data(contentsOf: dir.appendingPathComponent("u.rpn"))) == bom + Array("1 2 + =3\n".utf8))
    // The settings line after the BOM applies: `90 sin` is 1 in degrees.
    let settings = try run(["check", "f.rpn"], in: dir)
    #expect(settings.status == 0, "\(settings)")
    let formatted = try run(["format", "--write", "f.rpn"], in: dir)
    #expect(formatted.status == 0, "\(formatted)")
    #expect(
      Array(try Data(contentsOf: dir.appendingPathComponent("f.rpn")))
        == bom + Array("# rpn: angleUnit=degrees\n90 sin =1\n".utf8))
    let printed = try run(["format", "-"], input: "\u{FEFF}  1   2 +\n")
    #expect(Array(printed.stdout.utf8) == bom + Array("1 2 +\n".utf8))
  }
}

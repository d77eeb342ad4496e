import Foundation
import Testing

/// The format characters that set the direction of text (U+202E and its kin) are printed
/// escaped, as control characters are: in tape text, in messages and in file names. Raw, a
/// U+202E in a word shows the rest of the terminal's line reversed, so that a message reads
/// otherwise than it is written.
@Suite struct DirectionalCharacterTests {
  @Test func checkPrintsThemEscapedInMessagesAndNames() throws {
    let dir = try directory(with: ["a\u{202E}b.rpn": "1 2 +\nab\u{202E}cd \u{2066}x\u{2069}\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let check = try run(["check", "a\u{202E}b.rpn"], in: dir)
    #expect(check.status == 1)
    #expect(
      check.stdout
        == "a\\u{202e}b.rpn:2:1: error: unknown word `ab\\u{202e}cd` [unknown-word]\n"
        + "a\\u{202e}b.rpn:2:7: error: unknown word `\\u{2066}x\\u{2069}` [unknown-word]\n")
  }

  @Test func evalPrintsThemEscapedInTheTape() throws {
    let eval = try run(["eval", "-"], input: "1 # \u{200F}note\u{061C}\n")
    #expect(eval.status == 0)
    #expect(eval.stdout.hasPrefix("1 # \\u{200f}note\\u{61c}"))
    #expect(!eval.stdout.unicodeScalars.contains { $0.value == 0x200F || $0.value == 0x061C })
  }
}

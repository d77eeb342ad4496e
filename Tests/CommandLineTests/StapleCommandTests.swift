import Foundation
import Testing

/// Through the built binary, as a new user meets them: the words other calculators taught them,
/// the suggestions for the ones that are not ours, and `pick` with a large n.
@Suite struct StapleCommandTests {
  @Test func staplesEvaluate() throws {
    let tape = "100 log10 1 1 atan2\nclear 1 sinh 5 fact\nclear 2 4 4 4 5 5 7 9 sdev\nclear 80 100 %ch 200 50 %T\n"
    let dir = try directory(with: ["staples.rpn": tape])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["eval", "staples.rpn"], in: dir)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        100 log10 1 1 atan2         [2 0.785398163397448]
        clear 1 sinh 5 fact         [1.1752011936438 120]
        clear 2 4 4 4 5 5 7 9 sdev  [2.1380899352994]
        clear 80 100 %ch 200 50 %T  [80 25 200 25]

        """)
  }

  @Test func suggestionsAndLargePicks() throws {
    let tape = "45 deg\n7 2 //\n2 3 x\n1/2\npi/2\n9 sqaure\nclear 1 2 2147483648 pick\n1e300 roll 2.5 fact\n"
    let dir = try directory(with: ["first-hour.rpn": tape])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["check", "first-hour.rpn"], in: dir)
    #expect(result.status == 1)
    #expect(
      result.stdout.split(separator: "\n") == [
        "first-hour.rpn:1:4: error: unknown word `deg` [unknown-word]",
        "first-hour.rpn:2:5: error: unknown word `//` [unknown-word]",
        "first-hour.rpn:3:5: error: unknown word `x`; did you mean `×`? [unknown-word]",
        "first-hour.rpn:4:1: error: unknown word `1/2`; did you mean `1 2 /`? [unknown-word]",
        "first-hour.rpn:5:1: error: unknown word `pi/2`; did you mean `pi 2 /`? [unknown-word]",
        "first-hour.rpn:6:3: error: unknown word `sqaure`; did you mean `sq`? [unknown-word]",
        "first-hour.rpn:7:22: warning: `pick` needs 2147483649 values but the stack holds only 3 [stack-underflow]",
        "first-hour.rpn:8:7: warning: `roll` needs 9223372036854775807 values but the stack holds only 4"
          + " [stack-underflow]",
        "first-hour.rpn:8:16: warning: `fact` of 2.5 is undefined: n must be a whole number ≥ 0 [domain-error]",
      ])
  }
}

import Testing

@testable import RPNEngine

/// Habits from other calculators: infix lines (`3 + 4`) and a check written with a space
/// (`= 7`), told with the RPN reading and a fix.
@Suite struct HabitTests {
  /// A line of exactly a number, a binary operator and a number: an underflow there says how it
  /// reads in RPN; with enough values it ran, and an `infix` note says the same.
  @Test(arguments: [
    ("3 + 4", "[3 4]", ["stack-underflow@0:2-3"]),
    ("10 / 2", "[10 2]", ["stack-underflow@0:3-4"]),
    ("5\n10 / 2", "[0.5 2]", ["infix@1:3-4"]),
    ("5\n2 ^ 3", "[25 3]", ["infix@1:2-3"]),
    ("5\n2 mod 3", "[1 3]", ["infix@1:2-5"]),
    ("0x10 - 0b1", "[16 1]", ["stack-underflow@0:5-6"]),
  ])
  func infixLines(source: String, stack: String, diagnostics: [String]) {
    check(source, stack: stack, diagnostics: diagnostics)
  }

  @Test func theMessagesGiveTheRPNReading() throws {
    let underflow = try #require(try Document(text: "3 + 4").diagnostics().first?.diagnostic)
    #expect(underflow.code == .stackUnderflow)
    #expect(underflow.severity == .warning)
    #expect(
      underflow.message == "`+` needs 2 values but the stack holds only 1; in RPN the operands come first: `3 4 +`")
    guard case .infix(let reading, let span, _) = underflow.problem else {
      Issue.record("not an infix problem: \(underflow.problem)")
      return
    }
    #expect(reading == "3 4 +")
    #expect(span == 0..<5)

    let note = try #require(try Document(text: "9\n10 × 2").diagnostics().first?.diagnostic)
    #expect(note.code == .infix)
    #expect(note.severity == .information)
    #expect(note.message == "this line reads as infix; in RPN the operands come first: `10 2 ×`")
    guard case .infix(_, let noteSpan, nil) = note.problem else {
      Issue.record("not an infix note: \(note.problem)")
      return
    }
    #expect(noteSpan == 0..<7)
  }

  /// A failure other than underflow keeps its code and gains the reading.
  @Test func anotherFailureOnAnInfixLineKeepsItsCode() throws {
    // 1 ÷ 0: `/` divides the value above the line by the first number.
    let found = try #require(try Document(text: "1\n0 / 2").diagnostics().first)
    #expect(found.line == 1)
    #expect(found.diagnostic.code == .divisionByZero)
    #expect(found.diagnostic.message == "`/` divides by zero; in RPN the operands come first: `0 2 /`")
  }

  /// Not infix: other shapes, stack words, variables, a definition, a check.
  @Test(arguments: [
    "3 4 +", "1 2 swap", "1 2 3", "1 + 2 +", "x + 1", "3 dup 4", ": f 1 + 2 ;", "1 2 + =3", "3 -4", "2 pi *",
  ])
  func notInfix(source: String) throws {
    let document = try Document(text: "=x\n1 =x drop 7 7 7\n" + source)
    let codes = document.diagnostics().filter { $0.line == 2 }.map(\.diagnostic)
    #expect(!codes.contains { if case .infix = $0.problem { true } else { false } }, "\(source)")
  }

  /// `= 7`: the message says how a check is written; the 7 is still a number.
  @Test func aCheckWrittenWithASpace() throws {
    let document = try #require(check("5 = 7", stack: "[5 7]", diagnostics: ["invalid-name@0:2-3"]))
    let diagnostic = try #require(document.diagnostics().first?.diagnostic)
    #expect(diagnostic.message == "`=` needs a name after it; a check is written without a space, like `=7`")
    #expect(diagnostic.problem == .spacedCheck(check: "=7", span: 2..<5))
    // `=` alone before anything else keeps its message.
    check("5 = x", stack: "[5]", diagnostics: ["invalid-name@0:2-3", "unknown-word@0:4-5"])
    let alone = try #require(try Document(text: "5 =").diagnostics().first?.diagnostic)
    #expect(alone.message == "`=` needs a name after it, like `=total`")
  }
}

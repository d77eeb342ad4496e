import Testing

@testable import RPNEngine

/// The suggestions of a tape's only diagnostic, an unknown word: their replacements, best first.
private func replacements(_ source: String) throws -> [String] {
  let all = try Document(text: source).diagnostics()
  try #require(all.count == 1, "diagnostics of \(source.debugDescription): \(all.map(\.diagnostic.message))")
  guard case .unknownWord(_, let suggestions, nil) = all[0].diagnostic.problem else {
    Issue.record("\(source.debugDescription): \(all[0].diagnostic.message), not an unknown word")
    return []
  }
  return suggestions.map(\.replacement)
}

/// Suggestions judged by how much of the word they keep: each row is what a new user typed and
/// every suggestion it gets, best first; a fix is the clear one only when it is alone.
@Suite struct SuggestionTests {
  /// Words people bring from other calculators that are builtins now: no diagnostic at all
  /// (they were `10 log`, `2 atan`, `sin`).
  @Test(arguments: ["100 log10", "1 2 atan2", "1 sinh", "2 cosh", "5 fact", "1 2 sdev", "80 100 %ch", "200 50 %t"])
  func staplesAreBuiltins(_ source: String) throws {
    #expect(try Document(text: source).diagnostics().isEmpty, "\(source)")
  }

  @Test(
    arguments: [
      // No letter replaced in a word of three characters or fewer: `deg` is not `neg` (which
      // negates), `lg` not `ln`, `sub` not `sum`, `su` not `sq`, `dip` not `dup`, `x*` not `**`.
      ("45 deg", []), ("dip", []), ("su", ["sum"]), ("lg", ["log"]), ("5 =x x*", ["x *"]),
      // Adding, dropping or swapping keeps what was typed, even in a short word.
      ("dpu", ["dup"]), ("du", ["dup"]), ("pie", ["pi"]), ("sqr", ["sqrt", "sq"]),
      // Never distance 2 below six characters (`rp` is no `rot`), at six it may be.
      ("rp", []), ("sqrtxx", ["sqrt"]), ("subtot", ["subtotal"]),
      // From four characters a replaced letter may be a slip (`swsp`), unless a dropped or added
      // one explains it without inventing a letter: `sine` is `sin`, not `sinh`.
      ("swsp", ["swap"]), ("sine", ["sin"]), ("sinn", ["sin"]), ("SINE", ["sin"]),
      // Glued symbols are another language's operator, not two of ours: `//` is no `/ /`.
      ("7 2 //", []), ("1 2 +=", []), ("1 2 */", []),
      // Other calculators' words, and slips of the longer ones.
      ("2 3 x", ["×"]), ("2 3 X", ["×"]), ("9 square", ["sq"]), ("9 sqaure", ["sq"]), ("9 SQUARE", ["sq"]),
      ("5 !", ["fact"]), ("1 2 sub", ["-"]), ("1 2 div", ["/"]), ("1 2 ad", []),
      // Only where the stack holds the operands: on an empty stack `x` was meant as a name.
      ("x", []), ("1 x", []), ("sqaure", []), ("sub", []), ("1 2 : f x ;", ["×"]),
      // Infix glued reads as RPN, operands first.
      ("1/2", ["1 2 /"]), ("pi/2", ["pi 2 /"]), ("2^-1", ["2 -1 ^"]), ("e**2", ["e 2 **"]), ("3×4", ["3 4 ×"]),
      ("5 =rate rate*12", ["rate 12 *"]), ("1/2/3", []), ("pi/x", []),
      // Splits keep where a space is missing.
      ("4+", ["4 +"]), ("dup+", ["dup +"]), ("ln2", ["2 ln"]),
    ] as [(String, [String])])
  func suggests(_ source: String, _ expected: [String]) throws {
    #expect(try replacements(source) == expected, "\(source.debugDescription)")
  }

  /// A fix is the one clear reading only when it is the only suggestion.
  @Test(arguments: [
    ("1/2", true), ("2 3 x", true), ("9 sqaure", true), ("4+", true), ("sqr", false), ("swpa", true), ("45 deg", false),
  ])
  func clearOnlyWhenAlone(_ source: String, _ clear: Bool) throws {
    let diagnostic = try #require(try Document(text: source).diagnostics().first?.diagnostic)
    guard case .unknownWord(_, let suggestions, _) = diagnostic.problem else {
      Issue.record("\(source): not an unknown word")
      return
    }
    #expect(Suggestions.isClear(suggestions) == clear, "\(source)")
  }

  /// The same word at another depth is read anew, though suggestions are remembered per word:
  /// `x` on an empty stack is a name, after two values a multiplication.
  @Test func readingsFollowTheDepth() throws {
    let document = try Document(text: "x\n1 2 x\nclear x 3 x\nclear 1 x")
    #expect(
      document.diagnostics().map(\.diagnostic.message) == [
        "unknown word `x`", "unknown word `x`; did you mean `×`?", "unknown word `x`", "unknown word `x`",
        "unknown word `x`",
      ])
  }

  /// The message offers the reading: `1/2` is written `1 2 /`.
  @Test func messageOffersTheReading() throws {
    let message = try #require(try Document(text: "1/2").diagnostics().first?.diagnostic.message)
    #expect(message == "unknown word `1/2`; did you mean `1 2 /`?")
  }
}

import Testing

@testable import RPNEngine

/// Work and memory bounded by the text: each line may run 16 steps per byte of its text (a
/// step of a word's use, 4 for a value `pick`, `roll`, `sum`, `avg`, `sdev` or `subtotal` reads),
/// read the stack it starts with once more, and leave 4 values per byte through words and `roll`.
/// What would pass is `too-complex` and changes nothing.
@Suite struct WorkBoundTests {
  /// A stack of `count` ones on one line (two bytes a value).
  private func deep(_ count: Int) -> String {
    Array(repeating: "1", count: count).joined(separator: " ")
  }

  private func codes(_ document: Document) -> [String] {
    document.diagnostics().map { "\($0.diagnostic.code.rawValue)@\($0.line):\($0.diagnostic.range.lowerBound)" }
  }

  /// `pick` inside a word read the whole stack at every step: 100 picks a use of `q2`. The use's
  /// 410 steps and its first read of the 2,000 values are paid (53 bytes: 848 steps); the second
  /// read is not, nor the second use.
  @Test func pickInAWordIsBoundedByItsLine() throws {
    let text =
      deep(2_000) + "\n: q depth pick drop ;\n: q1 " + Array(repeating: "q", count: 10).joined(separator: " ")
      + " ;\n: q2 " + Array(repeating: "q1", count: 10).joined(separator: " ")
      + " ;\nq2 q2 # a use of q2 runs 410 steps, paid by its line"
    let document = try Document(text: text)
    #expect(codes(document) == ["too-complex@4:0", "too-complex@4:3"])
    #expect(document.stack(afterLine: 4, keepingTop: 0).depth == 2_000)
    #expect(
      document.diagnostics().first?.diagnostic.message
        == "`q2` would run more than 848 steps on this line, the most a line of its length may run (16 per byte "
        + "of its text, and one read of the stack it starts with; each value `pick`, `roll`, `sum`, `avg` or `sdev` "
        + "reads counts as 4 steps); the stack is as it was before it. Split the work over several lines")
  }

  /// After one deep line, `depth pick drop` 250 times on the next: each pick reads 20,000 values.
  /// The line's free read pays for the first; its 64,000 steps (4 a value) for none more.
  @Test func depthPickOnADeepStackIsBounded() throws {
    let picks = Array(repeating: "depth pick drop", count: 250).joined(separator: " ")
    let document = try Document(text: deep(20_000) + "\n" + picks)
    let found = codes(document)
    #expect(found.count == 249 && found.allSatisfy { $0.hasPrefix("too-complex@1:") })
    #expect(found.first == "too-complex@1:\(1 * 16 + 6)")
    #expect(document.stack(afterLine: 1, keepingTop: 0).depth == 20_000)
  }

  /// `depth roll` moves the whole stack into the line's values, which become new nodes at its
  /// end: a line may move at most 4 values per byte of its text.
  @Test func depthRollOnADeepStackIsBounded() throws {
    let rolls = Array(repeating: "depth roll", count: 250).joined(separator: " ")
    let document = try Document(text: deep(20_000) + "\n" + rolls)
    let found = codes(document)
    #expect(found.count == 250 && found.allSatisfy { $0.hasPrefix("too-complex@1:") })
    #expect(document.nodes.count <= 20_000 + 250 + 1)
  }

  /// A use of a word over `sum` that fails changes nothing, so the next one sums again: each is
  /// paid for, and once the line's budget is spent the rest are refused without running.
  @Test func failingUsesOverSumAreBounded() throws {
    let uses = Array(repeating: "s", count: 100).joined(separator: " ")
    let document = try Document(text: deep(2_000) + "\n: s sum 0 / ;\n" + uses)
    let found = document.diagnostics().map(\.diagnostic.code)
    // 200 bytes: 3,200 steps; the first sum is the free read, the next would cost 3 + 4 × 2,000.
    #expect(found.count == 100)
    #expect(
      found.prefix(1).allSatisfy { $0 == .divisionByZero } && found.dropFirst(1).allSatisfy { $0 == .tooComplex })
    #expect(document.stack(afterLine: 2, keepingTop: 0).depth == 2_000)
  }

  /// Lines that push thousands of values through words and then `clear` kept every value as a
  /// node (16 pairs of such lines took 6.85 GB): now a line keeps at most 4 values per byte.
  @Test func valuesThroughWordsAreBoundedByTheText() throws {
    let prefix =
      ": a " + deep(98) + " ;\n: b " + Array(repeating: "a", count: 100).joined(separator: " ") + " ;\n"
    let pair = Array(repeating: "b", count: 50).joined(separator: " ") + "\nclear\n"
    let text = prefix + String(repeating: pair, count: 16)
    let document = try Document(text: text)
    #expect(document.nodes.count <= 4 * text.utf8.count)
    #expect(codes(document).count == 16 * 50)
  }

  /// The budget is the line's: an edit above does not change what a line may do, so editing
  /// keeps the same results as evaluating the whole text again.
  @Test func incrementalEvaluationKeepsTheBudget() throws {
    let picks = Array(repeating: "depth pick drop", count: 100).joined(separator: " ")
    let document = try Document(text: deep(20_000) + "\n" + picks + "\n1 +")
    let start = TextPosition(line: 0, utf8Column: 0)
    try document.replace(from: start, to: start, with: "1 ")
    let fresh = try Document(text: document.text)
    #expect(codes(document) == codes(fresh))
    #expect(document.stack(afterLine: 2, keepingTop: 3) == fresh.stack(afterLine: 2, keepingTop: 3))
  }
}

import Testing

@testable import RPNEngine

/// Work and memory bounded by the text: each line may run 16 steps per byte of its text (a
/// step of a word's use, 4 for a value `pick`, `roll`, `sum`, `avg`, `sdev` or `subtotal` reads)
/// plus what the lines above left unused (at most `Machine.reserveCap`), read the stack it starts
/// with once more, and leave 4 values per byte through words and `roll` plus the room left above
/// (at most `Machine.valueReserveCap`). What would pass is `too-complex` and changes nothing.
@Suite struct WorkBoundTests {
  /// A stack of `count` ones on one line (two bytes a value).
  private func deep(_ count: Int) -> String {
    Array(repeating: "1", count: count).joined(separator: " ")
  }

  private func codes(_ document: Document) -> [String] {
    document.eachFailure().map { "\($0.diagnostic.code.rawValue)@\($0.line):\($0.diagnostic.range.lowerBound)" }
  }

  /// `pick` inside a word read the whole stack at every step: 100 picks a use of `q2`, some
  /// 800,000 steps. The first use is paid from the reserve the lines above left; the second is
  /// refused without running.
  @Test func pickInAWordIsBoundedByItsLine() throws {
    let text =
      deep(2_000) + "\n: q depth pick drop ;\n: q1 " + Array(repeating: "q", count: 10).joined(separator: " ")
      + " ;\n: q2 " + Array(repeating: "q1", count: 10).joined(separator: " ")
      + " ;\nq2 q2 # a use of q2 runs 410 steps, paid by its line"
    let document = try Document(text: text)
    #expect(codes(document) == ["too-complex@4:3"])
    #expect(document.stack(afterLine: 4, keepingTop: 0).depth == 2_000)
    #expect(
      document.diagnostics().first?.diagnostic.message
        == "`q2` would run more than 1049424 steps on this line, the most it may run (16 per byte of its text, "
        + "what the lines above left unused, up to 1048576, and one read of the stack it starts with; each value "
        + "`pick`, `roll`, `sum`, `avg` or `sdev` reads counts as 4 steps); the stack is as it was before it. Split "
        + "the work over several lines")
  }

  /// After one deep line, `depth pick drop` 250 times on the next: each pick reads 20,000 values.
  /// The line's free read pays for the first; its 64,000 steps (4 a value) and the reserve for a
  /// dozen more.
  @Test func depthPickOnADeepStackIsBounded() throws {
    let picks = Array(repeating: "depth pick drop", count: 250).joined(separator: " ")
    let document = try Document(text: deep(20_000) + "\n" + picks)
    let found = codes(document)
    #expect(found.allSatisfy { $0.hasPrefix("too-complex@1:") })
    #expect(found.count <= 249 && found.count >= 249 - (picks.utf8.count * 16 + Machine.reserveCap) / 80_000)
    #expect(document.stack(afterLine: 1, keepingTop: 0).depth == 20_000)
  }

  /// `depth roll` moves the whole stack into the line's values, which become new nodes at its
  /// end: a line may move at most 4 values per byte of its text.
  @Test func depthRollOnADeepStackIsBounded() throws {
    let rolls = Array(repeating: "depth roll", count: 250).joined(separator: " ")
    let document = try Document(text: deep(20_000) + "\n" + rolls)
    let found = codes(document)
    #expect(found.allSatisfy { $0.hasPrefix("too-complex@1:") })
    #expect(found.count >= 250 - 1 - (rolls.utf8.count * 16 + Machine.reserveCap) / 80_000)
    #expect(document.nodes.count <= 20_000 + 4 * (rolls.utf8.count + 1) + Machine.valueReserveCap)
  }

  /// A use of a word over `sum` that fails changes nothing, so the next one sums again: each is
  /// paid for, and once the line's budget is spent the rest are refused without running.
  @Test func failingUsesOverSumAreBounded() throws {
    let uses = Array(repeating: "s", count: 1_000).joined(separator: " ")
    let document = try Document(text: deep(2_000) + "\n: s sum 0 / ;\n" + uses)
    let found = document.eachFailure().map(\.diagnostic.code)
    // 2,000 bytes: 32,000 steps and the reserve; the first sum is the free read, each next costs
    // 3 + 4 × 2,000, so a hundred-odd run and fail, and the rest are refused.
    #expect(found.count == 1_000)
    let ran = found.prefix { $0 == .divisionByZero }.count
    #expect(ran >= 1 && ran <= 1 + (2_000 * 16 + Machine.reserveCap) / 8_000)
    #expect(found.dropFirst(ran).allSatisfy { $0 == .tooComplex })
    #expect(document.stack(afterLine: 2, keepingTop: 0).depth == 2_000)
  }

  /// Lines that push thousands of values through words and then `clear` kept every value as a
  /// node (16 pairs of such lines took 6.85 GB): now the lines keep at most 4 values per byte of
  /// text, plus the reserve.
  @Test func valuesThroughWordsAreBoundedByTheText() throws {
    let prefix =
      ": a " + deep(98) + " ;\n: b " + Array(repeating: "a", count: 100).joined(separator: " ") + " ;\n"
    let pair = Array(repeating: "b", count: 50).joined(separator: " ") + "\nclear\n"
    let text = prefix + String(repeating: pair, count: 16)
    let document = try Document(text: text)
    #expect(document.nodes.count <= 4 * text.utf8.count + Machine.valueReserveCap)
    let refused = codes(document).count
    #expect(refused <= 16 * 50 && refused >= 16 * 50 - Machine.valueReserveCap / 9_800 - 16)
  }

  /// The work and room carried down are part of the state after a line: editing keeps the same
  /// results as evaluating the whole text again.
  @Test func incrementalEvaluationKeepsTheBudget() throws {
    let picks = Array(repeating: "depth pick drop", count: 100).joined(separator: " ")
    let document = try Document(text: deep(20_000) + "\n" + picks + "\n1 +")
    let start = TextPosition(line: 0, utf8Column: 0)
    try document.replace(from: start, to: start, with: "1 ")
    let fresh = try Document(text: document.text)
    #expect(codes(document) == codes(fresh))
    #expect(document.stack(afterLine: 2, keepingTop: 3) == fresh.stack(afterLine: 2, keepingTop: 3))
  }

  /// A costly word works on a short line of an ordinary tape: the lines above left their unused
  /// work to it. (It was `too-complex` when each line had only its own budget.)
  @Test func aCostlyWordWorksOnAShortLine() throws {
    let text = ": f 1 2 3 4 5 6 7 8 9 10 + + + + + + + + + ;\n: g f f f f f f f f f f ;\nf\ng\nsum"
    let document = try Document(text: text)
    #expect(codes(document) == [])
    #expect(document.stack(afterLine: 4, keepingTop: 1).top == [605])
  }

  /// Uses on one line that fail the same way are one diagnostic, on the first, counting the
  /// rest: a line of refused uses is one message, not one per use (a megabyte of them was
  /// 500,000 messages and 480 MB in `check`).
  @Test func repeatedFailuresOfUsesAreOneDiagnostic() throws {
    let document = try Document(text: "1 : z 0 / ;\nz z z 2\n")
    let found = document.diagnostics()
    #expect(found.count == 1)
    #expect(found.first?.diagnostic.range == 0..<1)
    #expect(found.first?.diagnostic.repeats == 2)
    #expect(
      found.first?.diagnostic.message
        == "`z` failed: in its definition (line 1), `/` divides by zero; the stack is as it was before `z`; "
        + "2 more uses after it on this line fail the same way")
    #expect(document.stack(afterLine: 1, keepingTop: 1).top == [2])
    let one = try Document(text: "1 : z 0 / ;\nz z\n").diagnostics()
    #expect(one.first?.diagnostic.message.hasSuffix("; 1 more use after it on this line fails the same way") == true)
  }

  /// Other diagnostics are listed one by one, and so are uses on a line that defines a word (a
  /// definition may change what a name means between two uses).
  @Test func otherRepeatedDiagnosticsAreListed() throws {
    let division = try Document(text: "1 0 / 0 /\n").diagnostics()
    #expect(division.map(\.diagnostic.range) == [4..<5, 8..<9])
    #expect(division.allSatisfy { $0.diagnostic.repeats == 0 })
    let defined = try Document(text: "1 : z 0 / ; z z\n").diagnostics()
    #expect(defined.map(\.diagnostic.range) == [12..<13, 14..<15])
    let unknown = try Document(text: "nope nope\n").diagnostics()
    #expect(unknown.count == 2)
  }
}

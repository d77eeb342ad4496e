import TestSupport
import Testing

@testable import RPNEngine

/// An edit of a value deep under a tall stack: the lines below show the new value, but only those
/// that read or pop it are evaluated again, and the result is the same as evaluating afresh.
@Suite struct DeepEditTests {
  /// One value per line: an edit in the middle evaluates one line and adds no node, and every
  /// line below shows the new value.
  @Test func aDeepValueIsOverwrittenInPlace() throws {
    let lines = 100_000
    let document = try Document(text: (1...lines).map(String.init).joined(separator: "\n"))
    let nodes = document.stackNodeCount
    let evaluated = document.linesEvaluated
    let result = try document.replace(
      from: TextPosition(line: 50_000, utf8Column: 0), to: TextPosition(line: 50_000, utf8Column: 5), with: "7")
    #expect(document.linesEvaluated - evaluated == 1)
    #expect(document.stackNodeCount == nodes)
    // The labels of every line below changed, so they count as evaluated again.
    #expect(result.reevaluatedLines == 50_000..<lines)
    let last = document.stack(afterLine: lines - 1, keepingTop: lines)
    #expect(last.depth == lines)
    #expect(last.top[49_999] == 50_000 && last.top[50_000] == 7 && last.top[50_001] == 50_002)
    #expect(document.stack(afterLine: 50_000, keepingTop: 2).top == [50_000, 7])
  }

  /// Only the lines that read the edited value are evaluated again: here `sum`, whose own value
  /// then changes in place too, and the check below it that reads that.
  @Test func onlyTheLinesThatReadTheValueAreEvaluated() throws {
    var text = (0..<1_000).map { "\($0 % 10)" }
    text[600] = "sum"
    text[601] = "=2700"
    text[700] = "dup drop"
    let document = try Document(text: text.joined(separator: "\n"))
    #expect(document.diagnostics().isEmpty)
    let evaluated = document.linesEvaluated
    try document.replace(
      from: TextPosition(line: 300, utf8Column: 0), to: TextPosition(line: 300, utf8Column: 1), with: "100")
    // Line 300 itself, `sum`, and the check; `dup drop` reads only the values above the sum.
    #expect(document.linesEvaluated - evaluated == 3)
    #expect(document.stack(afterLine: 600, keepingTop: 1).top == [2800])
    #expect(document.diagnostics().map(\.line) == [601])
    try expectSameAsFresh(document)
  }

  /// A change of how many values a line pushes moves every value below: each line is evaluated.
  @Test func aChangeOfDepthEvaluatesEveryLineBelow() throws {
    let document = try Document(text: (1...1_000).map(String.init).joined(separator: "\n"))
    let evaluated = document.linesEvaluated
    try document.replace(
      from: TextPosition(line: 500, utf8Column: 0), to: TextPosition(line: 500, utf8Column: 3), with: "1 2")
    #expect(document.linesEvaluated - evaluated == 500)
    try expectSameAsFresh(document)
  }

  /// Random edits of tall stacks, where most lines push one value and a few read, pop, store,
  /// check or define: after every edit the document is the document evaluated afresh, to the
  /// bottom of every stack.
  @Test func randomEditsOfTallStacksMatchFullEvaluation() throws {
    var skipped = 0
    for seed in UInt64(1)...UInt64(scaledCount(400)) {
      var random = SplitMix64(seed: seed)
      var reference = (0..<(20 + random.next(below: 100))).map { _ in tallStackLine(&random) }.joined(separator: "\n")
      let document = try Document(text: reference)
      for step in 1...30 {
        let lines = ReferenceText.lines(reference)
        let before = document.linesEvaluated
        let result: EditResult
        switch random.next(below: 20) {
        case 0..<12:
          // A line's whole text replaced: mostly a value by another value.
          let line = random.next(below: lines.count)
          let newText = random.next(below: 4) == 0 ? tallStackLine(&random) : "\(random.next(below: 50))"
          reference = ReferenceText.replace(
            reference, from: TextPosition(line: line, utf8Column: 0),
            to: TextPosition(line: line, utf8Column: lines[line].count), with: newText)
          result = try document.replace(
            from: TextPosition(line: line, utf8Column: 0), to: TextPosition(line: line, utf8Column: lines[line].count),
            with: newText)
        case 12..<14:
          // A digit typed at the end of a line.
          let line = random.next(below: lines.count)
          let end = TextPosition(line: line, utf8Column: lines[line].count)
          let digit = "\(random.next(below: 10))"
          reference = ReferenceText.replace(reference, from: end, to: end, with: digit)
          result = try document.replace(from: end, to: end, with: digit)
        case 14..<17:
          // Lines inserted, deleted or replaced.
          let first = random.next(below: lines.count + 1)
          let last = min(lines.count, first + random.next(below: 3))
          let replacement = (0..<random.next(below: 3)).map { _ in tallStackLine(&random) + "\n" }.joined()
          reference = ReferenceText.replaceLines(reference, first..<last, with: replacement)
          result = try document.replaceLines(first..<last, with: replacement)
        default:
          // Several values changed in one evaluation.
          var edits: [TextEdit] = []
          for _ in 0..<(2 + random.next(below: 2)) {
            let current = ReferenceText.lines(reference)
            let line = random.next(below: current.count)
            let newText = "\(random.next(below: 50))"
            let edit = TextEdit(
              from: TextPosition(line: line, utf8Column: 0),
              to: TextPosition(line: line, utf8Column: current[line].count), text: newText)
            reference = ReferenceText.replace(reference, from: edit.from, to: edit.to, with: edit.text)
            edits.append(edit)
          }
          result = try document.apply(edits)
        }
        skipped += result.reevaluatedLines.count - (document.linesEvaluated - before)
        guard document.text == reference else {
          Issue.record("text differs — seed \(seed), step \(step)")
          return
        }
        try expectSameAsFresh(document, context: "seed \(seed), step \(step)")
      }
    }
    // The edits skipped lines (else this test would not test the skipping): over 250 a seed.
    #expect(skipped > 250 * scaledCount(400))
  }

  private func expectSameAsFresh(_ document: Document, context: String = "") throws {
    let fresh = try Document(text: document.text)
    for line in 0..<fresh.lineCount {
      let depth = fresh.stack(afterLine: line, keepingTop: 0).depth
      let same =
        document.stack(afterLine: line, keepingTop: depth) == fresh.stack(afterLine: line, keepingTop: depth)
        && document.diagnostics(inLine: line) == fresh.diagnostics(inLine: line)
        && document.reach(ofLine: line) == fresh.reach(ofLine: line)
        && document.variables(afterLine: line).map { "\($0.name)=\($0.value)" }
          == fresh.variables(afterLine: line).map { "\($0.name)=\($0.value)" }
        && document.lines[line].lastX == fresh.lines[line].lastX
      if !same {
        Issue.record("line \(line) differs from a full evaluation — \(context): \(document.text.debugDescription)")
        return
      }
    }
    #expect(document.sections().map(\.summary) == fresh.sections().map(\.summary), "\(context)")
  }
}

/// A line of a tall stack: mostly one value; sometimes a line that reads or pops values, stores,
/// checks, defines or uses a word, starts a section, or pushes two values.
private func tallStackLine(_ random: inout SplitMix64) -> String {
  if random.next(below: 4) != 0 { return "\(random.next(below: 50))" }
  let others = [
    "dup", "drop", "+", "swap", "over", "=5", "=x", "x", "sum", "depth", "clear", "3 pick", "2 roll", "lastx",
    ": w 2 * ;", "w", "## S", "subtotal", "# note", "", "1 2", "neg", "=1", "dup drop", "avg", "7 =x", "rot",
    "5_km", "500_m +", ">mi", "_km", "=5_km", "3_h",
  ]
  return others[random.next(below: others.count)]
}

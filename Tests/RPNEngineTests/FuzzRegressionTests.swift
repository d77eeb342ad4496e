import Testing

@testable import RPNEngine

/// What the fuzz targets and the worst-case tapes found in the engine, one test each; the fuzz
/// targets' inputs are seeds in `Tests/Fuzz/seeds`.
extension FuzzRegressionTests {
  /// A check written for a line in engineering notation passes, as one written in any other
  /// notation does (README, Display: "it passes"). Found by the engine target (seed
  /// `engine/regression-engineering-check`): `111` at two significant digits is written
  /// `=110e+00`, whose zero is padding, but a check compares to its last written place, so it is
  /// read as 110 to a whole number and fails; `update --add --notation engineering` writes it so.
  @Test(arguments: [(111.0, 1), (111.0, 0), (0.000123456, 1), (1234.5, 0), (98_765.0, 1)])
  func aCheckWrittenInEngineeringNotationPasses(_ value: Double, _ decimals: Int) throws {
    // Computed (`1 *`): a line that ends on the number written there gets no check.
    let document = try Document(text: "\(value) 1 *")
    let display = DisplaySettings(notation: .engineering, decimals: decimals)
    let edit = try #require(document.checkAddition(line: 0, display: display))
    let checked = try Document(text: document.applying([edit]))
    #expect(checked.diagnostics().isEmpty, "\(value) checked as \(edit.text)")
  }

  /// The edits that remove every check do not overlap, as LSP requires of a workspace edit's
  /// edits (and `applying` of its line edits). Found by the engine target (seed
  /// `engine/regression-removing-adjacent-checks`, where `applying` trapped): when a line starts
  /// with a check followed by another, the first takes the space after it and the second the
  /// space before it, so "Remove every check" on `=1 =2` sends 0–3 and 2–5.
  @Test(arguments: [
    ("=1 =2", ""), ("1 =1 =1", "1"), ("=1 =2 5", "5"), ("  =1 =2 =3 # c", "  # c"),
  ])
  func removingAdjacentChecksDoesNotOverlap(_ text: String, _ expected: String) throws {
    let document = try Document(text: text)
    let edits = document.checkRemovals().sorted { $0.range.lowerBound < $1.range.lowerBound }
    let overlapping = zip(edits, edits.dropFirst()).filter { $0.0.range.upperBound > $0.1.range.lowerBound }
    #expect(overlapping.isEmpty, "\(edits.map(\.range))")
    guard overlapping.isEmpty else { return }  // `applying` traps on overlapping edits
    #expect(document.applying(edits) == expected)
  }

  /// A use of a word runs at most 10,000 steps, the steps of the words it uses counted (README,
  /// Limits). Found while writing rpn-bench's worst-case tapes: a word with an empty body costs
  /// no step, nor does a word made only of uses of it, however many: with `: e0 ;` and each
  /// level using the one below ten times, a use of level n runs 10ⁿ calls and counts none. `1 e9`
  /// takes 11 s in a release build, a use of level 12 hours: a 40-byte tape stops the server.
  @Test func usesOfEmptyWordsCountTowardTheLimit() throws {
    var lines = [": e0 ;"]
    for level in 1...5 {
      lines.append(": e\(level) " + Array(repeating: "e\(level - 1)", count: 10).joined(separator: " ") + " ;")
    }
    lines.append("1 e5")
    let document = try Document(text: lines.joined(separator: "\n"))
    #expect(document.wordStepsRun <= WordTable.limit, "one use of e5 ran \(document.wordStepsRun) steps")
  }
}

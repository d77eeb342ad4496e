import RPNEngine

extension Document {
  /// Every diagnostic with the uses counted on it (`repeats`) listed as well, each as a copy of
  /// it with no repeats: one entry per failing use, for tests that count uses.
  func eachFailure() -> [(line: Int, diagnostic: Diagnostic)] {
    diagnostics().flatMap { line, diagnostic in
      var one = diagnostic
      one.repeats = 0
      return Array(repeating: (line, one), count: 1 + diagnostic.repeats)
    }
  }
}

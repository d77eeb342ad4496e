// "Did you mean" for unknown words: close spellings and splits like `4+` → `4 +`.

/// "Did you mean" for unknown words (the `unknown-word` diagnostic).
///
/// A split into valid tokens (`4+` → `4 +`, `3dup` → `3 dup`) wins over a close word, because a
/// missing space is the likelier slip. Otherwise the closest operator, constant or visible
/// variable within edit distance 2 (optimal string alignment: a swap of neighbours counts 1),
/// compared ASCII case-insensitively for builtins and exactly for variables. A candidate must be
/// closer than the word is long (so that `x` is not "corrected" to `e`), and words shorter than
/// six characters get distance 1 only. Ties go to variables
/// (the user's own names), then to the builtins' table order.
package enum Suggestions {
  /// Longer words get no suggestion: no operator or plausible split is that long, and trying
  /// every cut of a megabyte token would take quadratic time.
  package static let maximumWordLength = 64

  package static func suggest(for word: String, visibleVariables: [String]) -> Suggestion? {
    guard word.utf8.count <= maximumWordLength else { return nil }
    if let parts = split(word, visibleVariables: visibleVariables) { return .split(parts) }
    let scalars = Array(word.unicodeScalars)
    let lowered = Array(asciiLowercased(word).unicodeScalars)
    // Within 2, and tighter for short words (a third of the length, at least 1), so that
    // `foo` is not "corrected" to `pow`.
    let limit = min(2, max(1, scalars.count / 3), scalars.count - 1)
    guard limit >= 1 else { return nil }
    var best: (distance: Int, word: String)?
    for variable in visibleVariables.sorted() {
      let d = distance(scalars, Array(variable.unicodeScalars), limit: limit)
      if d <= limit, d < (best?.distance ?? Int.max) { best = (d, variable) }
    }
    for builtin in Builtin.table {
      for spelling in builtin.spellings {
        let d = distance(lowered, Array(spelling.unicodeScalars), limit: limit)
        if d <= limit, d < (best?.distance ?? Int.max) { best = (d, spelling) }
      }
    }
    return best.map { .word($0.word) }
  }

  /// The word as two valid tokens, the longest valid left part first; nil when there is none.
  static func split(_ word: String, visibleVariables: [String]) -> [String]? {
    let scalars = Array(word.unicodeScalars)
    guard scalars.count >= 2 else { return nil }
    for cut in stride(from: scalars.count - 1, through: 1, by: -1) {
      let left = String(String.UnicodeScalarView(scalars[..<cut]))
      let right = String(String.UnicodeScalarView(scalars[cut...]))
      if isValidToken(left, visibleVariables), isValidToken(right, visibleVariables) { return [left, right] }
    }
    return nil
  }

  private static func isValidToken(_ text: String, _ visibleVariables: [String]) -> Bool {
    if case .value = NumberLiteral.parse(text) { return true }
    return Builtin.lookup(text) != nil || visibleVariables.contains { $0.utf8.elementsEqual(text.utf8) }
  }

  private static func asciiLowercased(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { scalar in
          (scalar.value >= 0x41 && scalar.value <= 0x5A) ? Unicode.Scalar(scalar.value | 0x20)! : scalar
        }))
  }

  /// Optimal string alignment distance; any result above `limit` is reported as `limit + 1`.
  package static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMinimum = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, previous2[j - 2] + 1) }
        current[j] = value
        rowMinimum = min(rowMinimum, value)
      }
      if rowMinimum > limit { return limit + 1 }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return min(previous[b.count], limit + 1)
  }
}

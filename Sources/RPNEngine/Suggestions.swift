// "Did you mean" for unknown words: close spellings, splits like `4+` → `4 +`, and `ln2` → `2 ln`.

/// A variable or a defined word visible where an unknown word stands.
package struct VisibleName: Equatable, Sendable {
  package var name: String
  /// A defined word (an operation), not a variable (a value).
  package var isWord: Bool

  package init(_ name: String, isWord: Bool) {
    self.name = name
    self.isWord = isWord
  }
}

/// "Did you mean" for unknown words (the `unknown-word` diagnostic): several suggestions, best
/// first.
///
/// 1. **Close words**: operators, constants, visible variables and words within edit distance 2
///    (optimal string alignment: a swap of neighbours counts 1), compared ASCII
///    case-insensitively for builtins and exactly for the user's names. A candidate must be
///    closer than the word is long (so that `x` is not "corrected" to `e`), and words shorter
///    than six characters get distance 1 only. Nearer first; among equals, the longer shared
///    beginning (`sqr` → `sqrt` before `sq`), then the user's names, then the builtins' order.
/// 2. **Splits** into two valid tokens that read as RPN: the right part must be an operation (an
///    operator, a function, a stack word or a defined word), since a value after an operator
///    (`ln2` → `ln 2`) or two values glued (`pie` → `pi e`) is not what was meant. `4+` → `4 +`,
///    `x*` → `x *`, `dup+` → `dup +`.
/// 3. **Operand first**: an operation glued to the number it was meant to act on, written in
///    RPN order: `ln2` → `2 ln`, `sqrt2` → `2 sqrt`.
///
/// A close word that is the word without a number or an operation glued to it (`+` for `4+`,
/// `ln` for `ln2`, `x` for `2x`) is left out: the other part was not a slip. A split with a
/// value on its left (`4+`, `3dup`, `x*`) is the likeliest slip of all, a missing space, and
/// comes first.
package enum Suggestions {
  /// Longer words get no suggestion: no operator or plausible split is that long, and trying
  /// every cut of a megabyte token would take quadratic time.
  package static let maximumWordLength = 64
  /// At most this many suggestions.
  package static let maximumCount = 4

  package static func suggest(for word: String, visibleNames: [VisibleName]) -> [Suggestion] {
    guard word.utf8.count <= maximumWordLength else { return [] }
    let found = splits(word, visibleNames: visibleNames)
    var result: [Suggestion] = found.readings.filter(\.missingSpace).map { .split($0.parts) }
    result += closeWords(word, visibleNames: visibleNames).filter { !found.glued.contains($0) }.map { .word($0) }
    result += found.readings.filter { !$0.missingSpace }.map { .split($0.parts) }
    return Array(result.prefix(maximumCount))
  }

  /// The close words, best first.
  private static func closeWords(_ word: String, visibleNames: [VisibleName]) -> [String] {
    let scalars = Array(word.unicodeScalars)
    let lowered = Array(asciiLowercased(word).unicodeScalars)
    // Within 2, and tighter for short words (a third of the length, at least 1), so that
    // `foo` is not "corrected" to `pow`.
    let limit = min(2, max(1, scalars.count / 3), scalars.count - 1)
    guard limit >= 1 else { return [] }
    // (distance, shared beginning, order) for each candidate; the user's names come first in order.
    var found: [(distance: Int, shared: Int, order: Int, word: String)] = []
    var seen = Set<String>()
    for (order, visible) in visibleNames.sorted(by: { $0.name < $1.name }).enumerated() {
      let candidate = Array(visible.name.unicodeScalars)
      let d = distance(scalars, candidate, limit: limit)
      if d <= limit, seen.insert(visible.name).inserted {
        found.append((d, sharedPrefix(scalars, candidate), order, visible.name))
      }
    }
    var order = visibleNames.count
    for builtin in Builtin.table {
      for spelling in builtin.spellings {
        order += 1
        let candidate = Array(spelling.unicodeScalars)
        let d = distance(lowered, candidate, limit: limit)
        if d <= limit, seen.insert(spelling).inserted {
          found.append((d, sharedPrefix(lowered, candidate), order, spelling))
        }
      }
    }
    found.sort { ($0.distance, -$0.shared, $0.order) < ($1.distance, -$1.shared, $1.order) }
    return found.map(\.word)
  }

  /// A reading of a word as two tokens: a split (`4 +`) or, operand first, a reordering (`2 ln`).
  private struct Reading {
    var parts: [String]
    /// A value (a number or a variable) glued to an operation: a missing space, the likeliest slip.
    var missingSpace: Bool
  }

  /// The splits that read as RPN, the longest left part first, then the operand-first readings;
  /// and every part of those, and every token glued to a number or an operation (`x` in `2x`,
  /// `ln` in `ln2`, but not `pi` in `pie`): as a close word it would drop the other part.
  private static func splits(_ word: String, visibleNames: [VisibleName]) -> (readings: [Reading], glued: Set<String>) {
    let scalars = Array(word.unicodeScalars)
    guard scalars.count >= 2 else { return ([], []) }
    var splits: [Reading] = []
    var reordered: [Reading] = []
    var glued = Set<String>()
    for cut in stride(from: scalars.count - 1, through: 1, by: -1) {
      let left = String(String.UnicodeScalarView(scalars[..<cut]))
      let right = String(String.UnicodeScalarView(scalars[cut...]))
      let leftKind = kind(of: left, visibleNames)
      let rightKind = kind(of: right, visibleNames)
      guard leftKind != .none, rightKind != .none else { continue }
      if rightKind == .number || rightKind == .operation { glued.insert(left) }
      if leftKind == .number || leftKind == .operation { glued.insert(right) }
      if rightKind == .operation {
        glued.formUnion([left, right])
        splits.append(Reading(parts: [left, right], missingSpace: leftKind == .number || leftKind == .value))
      } else if leftKind == .operation, rightKind == .number {
        reordered.append(Reading(parts: [right, left], missingSpace: false))
      }
    }
    return (splits + reordered, glued)
  }

  private enum TokenKind {
    case none
    case number
    /// A constant or a variable.
    case value
    /// An operator, a function, a stack word or a defined word.
    case operation
  }

  private static func kind(of text: String, _ visibleNames: [VisibleName]) -> TokenKind {
    if case .value = NumberLiteral.parse(text) { return .number }
    if let builtin = Builtin.lookup(text) { return Builtin.table[Int(builtin)].isConstant ? .value : .operation }
    guard let visible = visibleNames.first(where: { $0.name.utf8.elementsEqual(text.utf8) }) else { return .none }
    return visible.isWord ? .operation : .value
  }

  private static func sharedPrefix(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    zip(a, b).prefix { $0 == $1 }.count
  }

  private static func asciiLowercased(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { scalar in
          (scalar.value >= 0x41 && scalar.value <= 0x5A) ? Unicode.Scalar(UInt8(scalar.value | 0x20)) : scalar
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

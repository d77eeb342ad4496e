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
/// first. A suggestion must read as what the user meant; a wrong one offered with confidence
/// (`deg` → `neg`, which negates) is worse than none.
///
/// 1. **Other calculators' spellings**: a word other calculators or stack languages use for a
///    builtin (`x` → `×`, `square` → `sq`, PostScript's `sub` → `-`), or one slip from such a
///    word of four letters or more (`sqaure` → `sq`).
/// 2. **Splits** into two valid tokens that read as RPN: the right part must be an operation (an
///    operator, a function, a stack word or a defined word), since a value after an operator
///    (`ln2` → `ln 2`) or two values glued (`pie` → `pi e`) is not what was meant. `4+` → `4 +`,
///    `x*` → `x *`, `dup+` → `dup +`.
/// 3. **Infix, glued**: a value, a symbol operator of two operands and a value, written as
///    algebra (`1/2`, `pi/2`, `rate*12`), in RPN order: `1 2 /`, `pi 2 /`, `rate 12 *`.
/// 4. **Close words**: operators, constants, visible variables and words within edit distance 2
///    (optimal string alignment: a swap of neighbours counts 1), compared ASCII
///    case-insensitively for builtins and exactly for the user's names. How much of the word a
///    candidate keeps decides: a candidate must be closer than the word is long (`x` is not `e`);
///    words shorter than six characters get distance 1 only (`foo` is not `pow`); in a word of
///    three characters or fewer the one edit may add, drop or swap characters but not replace one
///    (`deg` is not `neg`, `lg` not `ln`, `sub` not `sum`: a third of such a word replaced is
///    another word, and every short word is one letter from some builtin); and a candidate one
///    replacement away is left out when another is one added or dropped character away, which
///    explains the slip without inventing a letter (`sine` → `sin`, not `sinh`). Nearer first;
///    among equals, the longer shared beginning (`sqr` → `sqrt` before `sq`), then the user's
///    names, then the builtins' order.
/// 5. **Operand first**: an operation glued to the number it was meant to act on, written in
///    RPN order: `ln2` → `2 ln`, `sqrt2` → `2 sqrt`.
///
/// A word of symbols only (`//`, `+=`, `==`) gets no split and no close word: it is another
/// language's operator (`//` is Python's floor division, or a comment), not two operators with
/// a space missing or a slip of one. A close word that is the word without a number or an
/// operation glued to it (`+` for `4+`, `ln` for `ln2`, `x` for `2x`) is left out: the other part
/// was not a slip. A split with a value on its left (`4+`, `3dup`, `x*`) is the likeliest slip
/// of all, a missing space, and comes right after the other calculators' spellings.
///
/// A fix is the one clear reading (`isClear`) when it is the only suggestion: with two (`sqr` →
/// `sqrt` or `sq`), only the user knows which was meant.
package enum Suggestions {
  /// Longer words get no suggestion: no operator or plausible split is that long, and trying
  /// every cut of a megabyte token would take quadratic time.
  package static let maximumWordLength = 64
  /// At most this many suggestions.
  package static let maximumCount = 4

  /// Words other calculators and stack languages use for a builtin, lowercased, and what to
  /// write here instead. Not aliases: each reads as the builtin only to someone who came from
  /// there (`x` is a variable's name to others, `div` integer division to some), and only where
  /// the stack holds the values the builtin takes (`clear =x x` meant a variable).
  package static let otherSpellings: [(spelling: String, replacement: String, operands: Int)] = [
    // The letter x typed for the multiplication sign, as on a calculator's key.
    ("x", "×", 2),
    // x² is called "square" (numpy, most calculators' manuals); `sq` is its name here.
    ("square", "sq", 1),
    // PostScript's and many stack languages' arithmetic.
    ("add", "+", 2), ("sub", "-", 2), ("mul", "*", 2), ("div", "/", 2),
    // The factorial key n! of scientific calculators.
    ("!", "fact", 1),
  ]

  /// The most values any reading of `otherSpellings` needs: a depth from here on reads the same.
  package static let deepestReading = 2

  /// The suggestions for `word` where the stack holds `depth` values (readings as another
  /// calculator's operator need their operands; the rest does not depend on the stack).
  package static func suggest(
    for word: String, visibleNames: NameIndex, depth: Int = deepestReading
  ) -> [Suggestion] {
    guard word.utf8.count <= maximumWordLength else { return [] }
    let lowered = asciiLowercased(word)
    let others = otherSpellings.filter { $0.operands <= depth }
    var result: [Suggestion] = others.filter { $0.spelling == lowered }.map { .word($0.replacement) }
    guard !isSymbolsOnly(word) else { return result }
    // A number glued to a unit (`12km`) meant the quantity `12_km`.
    if let quantity = Lexer.quantityReading(of: word) { result.append(.word(quantity)) }
    let found = splits(word, visibleNames: visibleNames)
    result += found.readings.filter(\.missingSpace).map { .split($0.parts) }
    result += infixReadings(word, visibleNames: visibleNames).map { .split($0) }
    for close in closeWords(word, visibleNames: visibleNames, others: others) where !found.glued.contains(close) {
      if !result.contains(.word(close)) { result.append(.word(close)) }
    }
    result += found.readings.filter { !$0.missingSpace }.map { .split($0.parts) }
    return Array(result.prefix(maximumCount))
  }

  /// Whether suggestions hold one clear reading, which an editor may apply as the preferred fix:
  /// exactly one suggestion.
  package static func isClear(_ suggestions: [Suggestion]) -> Bool { suggestions.count == 1 }

  /// Whether a word holds no letter, `_` or digit (`//`, `+=`, `√√`).
  private static func isSymbolsOnly(_ word: String) -> Bool {
    word.unicodeScalars.allSatisfy { !Lexer.isNameStart($0) && !NumberLiteral.isDigit($0) }
  }

  /// The close words, best first: the replacement of each (a builtin's spelling, a user's name,
  /// or what another calculator's spelling reads as here).
  private static func closeWords(
    _ word: String, visibleNames: NameIndex, others: [(spelling: String, replacement: String, operands: Int)]
  ) -> [String] {
    let scalars = Array(word.unicodeScalars)
    let lowered = Array(asciiLowercased(word).unicodeScalars)
    // Within 2, and tighter for short words (a third of the length, at least 1), so that
    // `foo` is not "corrected" to `pow`.
    let limit = min(2, max(1, scalars.count / 3), scalars.count - 1)
    guard limit >= 1 else { return [] }
    // (distance, replaces, shared beginning, order) for each candidate; the user's names come
    // first in order.
    var found: [(distance: Int, replaces: Bool, shared: Int, order: Int, word: String)] = []
    var seen = Set<String>()
    func consider(_ typed: [Unicode.Scalar], _ candidate: [Unicode.Scalar], order: Int, replacement: String) {
      let d = distance(typed, candidate, limit: limit)
      guard d <= limit else { return }
      let replaces = d == 1 && candidate.count == typed.count && !isSwap(typed, candidate)
      // Three characters or fewer: one replaced is a third of the word.
      if replaces && typed.count <= 3 { return }
      if seen.insert(replacement).inserted {
        found.append((d, replaces, sharedPrefix(typed, candidate), order, replacement))
      }
    }
    // Only the names that share a spelling with the word, a character or two deleted from each,
    // can be that close: the index gives them, so the cost does not grow with the names visible.
    let near = visibleNames.candidates(near: scalars, limit: limit).sorted()
    for (order, name) in near.enumerated() {
      consider(scalars, Array(name.unicodeScalars), order: order, replacement: name)
    }
    var order = visibleNames.count
    // The builtins' spellings too are looked up in an index, in their order.
    let builtins = builtinSpellings.index.candidates(near: lowered, limit: limit)
    for spelling in builtins.sorted(by: {
      builtinSpellings.order[$0, default: 0] < builtinSpellings.order[$1, default: 0]
    }) {
      consider(
        lowered, Array(spelling.unicodeScalars), order: order + 1 + builtinSpellings.order[spelling, default: 0],
        replacement: spelling)
    }
    order += builtinSpellings.order.count + builtinSpellings.duplicates
    // One slip from another calculator's word of four letters or more (`sqaure`); shorter ones
    // must be typed as they are (`ad` is not `add`).
    for other in others where other.spelling.unicodeScalars.count >= 4 {
      order += 1
      consider(lowered, Array(other.spelling.unicodeScalars), order: order, replacement: other.replacement)
    }
    // A candidate one added or dropped character away explains the slip better than one
    // replaced: `sine` is `sin` with an `e` too many, not `sinh` with a wrong last letter.
    if found.contains(where: { $0.distance == 1 && !$0.replaces }) {
      found.removeAll { $0.distance == 1 && $0.replaces }
    }
    found.sort { ($0.distance, -$0.shared, $0.order) < ($1.distance, -$1.shared, $1.order) }
    return found.map(\.word)
  }

  /// Every builtin's spellings, indexed, with the place of each in the builtins' order (its first).
  private static let builtinSpellings: (index: NameIndex, order: [String: Int], duplicates: Int) = {
    var index = NameIndex()
    var order: [String: Int] = [:]
    var position = 0
    var duplicates = 0
    for builtin in Builtin.table {
      for spelling in builtin.spellings {
        if order[spelling] == nil {
          order[spelling] = position
          index.insert(spelling, isWord: true)
        } else {
          duplicates += 1
        }
        position += 1
      }
    }
    return (index, order, duplicates)
  }()

  /// Whether two words of the same length differ by one swap of neighbours (`swpa`, `swap`).
  private static func isSwap(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
    guard a.count == b.count else { return false }
    let differing = a.indices.filter { a[$0] != b[$0] }
    return differing.count == 2 && differing[1] == differing[0] + 1 && a[differing[0]] == b[differing[1]]
      && a[differing[1]] == b[differing[0]]
  }

  /// The readings of a word written as algebra, `a OP b` with no spaces (`1/2`, `pi/2`), as RPN:
  /// `a b OP`. The operator is a symbol one of two operands and one result (`+ - * / ^`, not
  /// `%`, which keeps a); a and b are numbers, constants or variables.
  private static func infixReadings(_ word: String, visibleNames: NameIndex) -> [[String]] {
    let scalars = Array(word.unicodeScalars)
    // A word of letters and digits holds no operator: most unknown words, asked for nothing.
    guard scalars.count >= 3, scalars.contains(where: { !Lexer.isNameStart($0) && !NumberLiteral.isDigit($0) })
    else { return [] }
    var readings: [[String]] = []
    for start in 1..<(scalars.count - 1) {
      // The longest symbol operator is two characters (`**`).
      for end in (start + 1)...min(start + 2, scalars.count - 1) {
        let operatorText = String(String.UnicodeScalarView(scalars[start..<end]))
        guard let id = Builtin.lookup(operatorText), Builtin.isSymbolic(operatorText) else { continue }
        let builtin = Builtin.table[Int(id)]
        guard builtin.inputs == 2, builtin.outputs == 1, !builtin.readsWholeStack else { continue }
        let left = String(String.UnicodeScalarView(scalars[..<start]))
        let right = String(String.UnicodeScalarView(scalars[end...]))
        let isValue = { (kind: TokenKind) in kind == .number || kind == .value }
        guard isValue(kind(of: left, visibleNames)), isValue(kind(of: right, visibleNames)) else { continue }
        readings.append([left, right, operatorText])
      }
    }
    return readings
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
  private static func splits(_ word: String, visibleNames: NameIndex) -> (readings: [Reading], glued: Set<String>) {
    let view = word.unicodeScalars
    let cuts = Array(view.indices.dropFirst())
    guard !cuts.isEmpty else { return ([], []) }
    var splits: [Reading] = []
    var reordered: [Reading] = []
    var glued = Set<String>()
    // Most cuts of an unknown word leave a left part that is nothing: the right is not looked at.
    for cut in cuts.reversed() {
      let left = String(Substring(view[..<cut]))
      let leftKind = kind(of: left, visibleNames)
      guard leftKind != .none else { continue }
      let right = String(Substring(view[cut...]))
      let rightKind = kind(of: right, visibleNames)
      guard rightKind != .none else { continue }
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

  private static func kind(of text: String, _ visibleNames: NameIndex) -> TokenKind {
    if case .value = NumberLiteral.parse(text) { return .number }
    if let builtin = Builtin.lookup(text) { return Builtin.table[Int(builtin)].isConstant ? .value : .operation }
    guard let isWord = visibleNames.isWord(text) else { return .none }
    return isWord ? .operation : .value
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

  /// Optimal string alignment distance; any result above `limit` is reported as `limit + 1`. Its
  /// three rows live in one temporary allocation (on the stack when small): it is asked of many
  /// names per unknown word or unit, and three arrays per call were most of its cost.
  package static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    let width = b.count + 1
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { rows in
      guard let base = rows.baseAddress else { return limit + 1 }
      var previous2 = base
      var previous = base + width
      var current = base + 2 * width
      for j in 0..<width {
        previous2[j] = 0
        previous[j] = j
        current[j] = 0
      }
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

}

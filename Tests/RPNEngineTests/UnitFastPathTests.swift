import TestSupport
import Testing

@testable import RPNEngine

/// `+ - * /` on quantities take a fast path when both operands are on the line (`12_km 8_km +`)
/// or one is the top of the stack the line starts with (a running total's `+`), and `apply`'s
/// path inside a word's use (`: f + ;`). The three give the same stack, to the bit and the unit,
/// and the same diagnostics, for every pair of units (one unit, two of one dimension, two of
/// two, temperatures, plain numbers) and numbers (zero, negative, huge: overflow, division by
/// zero).
@Suite struct UnitFastPathTests {
  static let units = [
    "", "_km", "_m", "_mi", "_h", "_s", "_km/h", "_°C", "_°F", "_Δ°C", "_K", "_kWh", "_W", "_m^2", "_ft", "_km^2",
  ]
  static let numbers = ["0", "1", "2.5", "-3", "12.75", "1e308", "-1e308", "0.001", "7"]
  static let operators = ["+", "-", "*", "/"]

  /// The final stack's values (number bits and unit) and the diagnostics' codes and lines.
  static func outcome(_ text: String) throws -> (values: [Value], codes: [String]) {
    let document = try Document(text: text)
    let stack = document.stack(afterLine: document.lineCount - 1, keepingTop: 8)
    let codes = document.diagnostics().map { "\($0.diagnostic.code.rawValue)" }
    return (stack.top, codes)
  }

  @Test func theFastPathsAreApplysPath() throws {
    var random = SplitMix64(seed: 30)
    var compared = 0
    var mismatches: [String] = []
    for _ in 0..<3_000 {
      let a = Self.numbers[random.next(below: Self.numbers.count)] + Self.units[random.next(below: Self.units.count)]
      let b = Self.numbers[random.next(below: Self.numbers.count)] + Self.units[random.next(below: Self.units.count)]
      let op = Self.operators[random.next(below: Self.operators.count)]
      // The word is defined on a line of its own, above each form, so that every form's last
      // line holds the same tokens but the definition's.
      let inBuffer = try Self.outcome(": f \(op) ;\n\(a) \(b) \(op)")
      let onBase = try Self.outcome(": f \(op) ;\n\(a)\n\(b) \(op)")
      let throughApply = try Self.outcome(": f \(op) ;\n\(a) \(b) f")
      compared += 1
      for (name, fast) in [("in the line", inBuffer), ("on the stack", onBase)] {
        let same =
          fast.values.map(\.number.bitPattern) == throughApply.values.map(\.number.bitPattern)
          && fast.values.map(\.unit) == throughApply.values.map(\.unit) && fast.codes == throughApply.codes
        if !same && mismatches.count < 10 {
          mismatches.append("\(a) \(b) \(op) \(name): \(fast) vs \(throughApply)")
        }
      }
    }
    #expect(mismatches == [])
    #expect(compared == 3_000)
  }
}

/// An unknown unit's suggestions, looked up in an index of the table's names, are those that
/// comparing it with every name gives (the way they were found before the index, kept here):
/// for every name of the table with one, two and three characters deleted, added, replaced or
/// swapped, or its case changed.
@Suite struct UnitSuggestionIndexTests {
  /// The suggestions as every name compared gives them.
  static func compared(_ name: String) -> [String] {
    let lowered = name.lowercased()
    var found: [String] = []
    for candidate in UnitTable.allNames where candidate.lowercased() == lowered && !found.contains(candidate) {
      found.append(candidate)
    }
    if !found.isEmpty { return Array(found.prefix(3)) }
    let typed = Array(lowered.unicodeScalars)
    guard typed.count >= 2 else { return [] }
    for limit in 1...2 {
      for candidate in UnitTable.allNames where !found.contains(candidate) {
        let scalars = Array(candidate.lowercased().unicodeScalars)
        if scalars.count >= 2, Suggestions.distance(typed, scalars, limit: limit) <= limit { found.append(candidate) }
        if found.count >= 3 { return found }
      }
      if !found.isEmpty { return found }
    }
    return found
  }

  @Test func theIndexFindsWhatComparingEveryNameFinds() {
    var random = SplitMix64(seed: 31)
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ°µ/2")
    var mismatches: [String] = []
    var withSuggestions = 0
    var tried = 0
    for name in UnitTable.allNames {
      // Three mutations in a row: one, two and three edits away.
      var scalars = Array(name)
      for _ in 0..<3 {
        var mutated = scalars
        guard !mutated.isEmpty else { break }
        let at = random.next(below: mutated.count)
        switch random.next(below: 5) {
        case 0 where mutated.count > 1: mutated.remove(at: at)
        case 1: mutated.insert(letters[random.next(below: letters.count)], at: at)
        case 2: mutated[at] = letters[random.next(below: letters.count)]
        case 3 where at + 1 < mutated.count: mutated.swapAt(at, at + 1)
        default: mutated = Array(String(mutated).uppercased())
        }
        let typed = String(mutated)
        tried += 1
        let expected = UnitSuggestions.common[typed] ?? Self.compared(typed)
        let found = UnitSuggestions.suggest(typed)
        if found != expected && mismatches.count < 10 { mismatches.append("\(typed): \(found) vs \(expected)") }
        if !expected.isEmpty { withSuggestions += 1 }
        scalars = mutated
      }
    }
    #expect(mismatches == [])
    #expect(tried == 3 * UnitTable.allNames.count)
    #expect(withSuggestions > tried / 2)
  }
}

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

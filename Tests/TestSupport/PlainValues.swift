// Plain values written as numbers in tests: `let top: Value = 12.5`, `Value(3)`.

import RPNEngine

/// The engine makes a value from a literal, a count or a computation only, each with its unit;
/// tests write plain numbers, and compare them as the engine does: same bits, same unit.
extension Value: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
  package init(integerLiteral value: Int) { self.init(literal: Double(value)) }
  package init(floatLiteral value: Double) { self.init(literal: value) }

  /// A plain number.
  package init(_ number: Double) { self.init(literal: number) }
}

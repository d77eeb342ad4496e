// A value of the tape: what the stack, variables, checks, `lastx` and the display hold and pass.

/// A value the tape computes with. Today it is a plain number: on the stack and in a variable
/// always finite; `lastx` is `Value.none` (NaN) when there is none.
///
/// Everything that holds a value holds this type (the stack's nodes and the line's buffer, a
/// variable's `Bound`, a word's pushed literal, a check's expected value, a diagnostic's operands,
/// `StackPicture`, the document's queries), and arithmetic and comparison go through its own
/// operators or through the one place that computes each operation (`Machine.compute`). So a
/// unit is added here and there, not at every caller.
///
/// How a unit comes: a second stored property, `unit: UnitID`, an index into a table of the
/// units the document has met, with 0 for a plain number (so `Value(number)` stays plain and
/// every literal without a unit is what it is now). The operators below then look at the units
/// first: the fast path is both operands in the same unit (two plain numbers being the commonest
/// case), one compare of the two IDs, then exactly today's arithmetic on the numbers, keeping the
/// unit for `+ -` and combining the IDs for `* /` out of line; any other pair goes out of line to
/// the conversion and dimension rules. Equal units computing as plain numbers is also the
/// language's rule (a tape in euros adds up bit for bit like the same tape without units).
/// `StackNode` grows from 16 to 24 bytes then (or packs the unit beside its depth), and
/// `PackedBound` gives the unit a word of its own; `bitPattern` hashes the unit in, so caches
/// keyed on it stay right.
package struct Value: Equatable, Hashable, Sendable {
  /// The number, in the value's own unit once there are units. Read it to show or write the
  /// number; compute through the operators, so that a unit is not lost on the way.
  package var number: Double

  @inline(__always)
  package init(_ number: Double) { self.number = number }

  /// No value: what `lastx` holds before any operator consumed one. Never on the stack.
  package static let none = Value(.nan)

  package static let zero = Value(0)

  /// Whether the value may stand on the stack: not infinite, not NaN (a result that is not is
  /// an overflow or a domain error).
  @inline(__always)
  package var isFinite: Bool { number.isFinite }

  /// Whether this is `Value.none`.
  @inline(__always)
  package var isNone: Bool { number.isNaN }

  /// Whether a computation's result has no real value (a domain error, where not finite and not
  /// this is an overflow).
  @inline(__always)
  package var isNaN: Bool { number.isNaN }

  /// The value's bits: equal bits mean the same value shown the same way (`-0` and `0` differ),
  /// what caches of formatted text and the stack's in-place patching compare.
  @inline(__always)
  package var bitPattern: UInt64 { number.bitPattern }

  @inline(__always)
  package init(bitPattern: UInt64) { number = Double(bitPattern: bitPattern) }

  @inline(__always)
  package static func + (a: Value, b: Value) -> Value { Value(a.number + b.number) }

  @inline(__always)
  package static func - (a: Value, b: Value) -> Value { Value(a.number - b.number) }

  @inline(__always)
  package static func * (a: Value, b: Value) -> Value { Value(a.number * b.number) }

  @inline(__always)
  package static func / (a: Value, b: Value) -> Value { Value(a.number / b.number) }

  @inline(__always)
  package static func += (a: inout Value, b: Value) { a = a + b }

  @inline(__always)
  package static prefix func - (a: Value) -> Value { Value(-a.number) }
}

extension Value: Comparable {
  @inline(__always)
  package static func < (a: Value, b: Value) -> Bool { a.number < b.number }
}

/// A literal in code is a plain number: `let one: Value = 1`.
extension Value: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
  package init(floatLiteral value: Double) { self.init(value) }
  package init(integerLiteral value: Int) { self.init(Double(value)) }
}

/// A value prints as its number does (`12.5`), as `Double` prints: for tests and debugging, not
/// the display, which is `ValueFormat.format(_:display:)`.
extension Value: CustomStringConvertible {
  package var description: String { number.description }
}

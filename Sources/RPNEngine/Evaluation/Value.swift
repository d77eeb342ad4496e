// A value of the tape: what the stack, variables, checks, `lastx` and the display hold and pass.

/// A unit of measure a value carries: an index into the table of the units a document has met.
/// There are none yet: every value carries `none`, and everything that holds, compares, hashes or
/// computes a value carries its unit with it, so that units come as rules (in `Value`'s operators
/// and `Machine.compute`), not as a hunt for the places a unit would be dropped.
package struct UnitID: Hashable, Sendable {
  /// The unit's place in the registry (`Units`), and in its top bit whether it is a temperature
  /// on a scale (`isScale`).
  package let index: UInt32

  /// No unit: a plain number.
  package static let none = UnitID(index: 0)

  /// The top bit of `index`: `°C` or `°F` alone, a temperature on a scale whose zero is elsewhere,
  /// which adds and converts affinely. Kept in the ID so that "one unit, not a scale: compute as
  /// plain numbers" is one test, with no lookup.
  static let scaleFlag: UInt32 = 1 << 31

  /// Bit 30 of `index`: a unit shown in a sexagesimal format (`h:mm`), which keeps the format
  /// only where the unit is kept whole; one test, with no lookup, where a product would drop it.
  static let formatFlag: UInt32 = 1 << 30

  /// Bit 29 of `index`: a unit that measures in a currency (`EUR`, `EUR/h`), which the rates
  /// in force may convert where dimensions differ; one test on the path where they do.
  static let currencyFlag: UInt32 = 1 << 29

  /// Whether this is `°C` or `°F` alone (see `scaleFlag`).
  package var isScale: Bool { index & Self.scaleFlag != 0 }

  /// Whether values in this unit are shown in a sexagesimal format (see `formatFlag`).
  package var isFormatted: Bool { index & Self.formatFlag != 0 }

  /// Whether this unit measures in a currency (see `currencyFlag`).
  package var hasCurrency: Bool { index & Self.currencyFlag != 0 }

  /// The place in the registry, without the flags.
  var slot: Int { Int(index & ~(Self.scaleFlag | Self.formatFlag | Self.currencyFlag)) }
}

/// A value the tape computes with: a number and its unit (`UnitID.none` for a plain number). On the stack
/// and in a variable its number is always finite; `lastx` is `Value.none` when there is none.
///
/// Everything that holds a value holds this type (the stack's nodes and the line's buffer, a
/// variable's `PackedBound`, a word's pushed literal, a token's literal, a check's expected value,
/// a diagnostic's operands, `StackPicture`, the document's queries).
///
/// - Identity: two values are `==` when they are the same value shown the same way: the same
///   bits of the number (`-0` is not `0`; `Value.none` is itself) and the same unit. That is what
///   caches, the stack's in-place patching and "the state is what it was" compare, and what
///   `Hashable` hashes. A numeric question (is it zero, is it below another) is asked of the
///   number, where the unit's rule decides what it means (`isZero`, `number`).
/// - Making one: from a literal (`init(literal:)`, the lexer), as a count or a constant
///   (`count(_:)`, `pi`, `e`), or as a computation's result with the unit its rule gives
///   (`init(_:unit:)`, in `Machine.compute` and the operators here). Only this file and those read
///   the number's bits or wrap a raw number (`ArchitectureTests`).
package struct Value: Hashable, Sendable {
  /// The number, in the value's own unit. Read it to show or write the number; compute through
  /// `Machine.compute` and the operators, so that a unit is not lost on the way.
  package let number: Double
  package let unit: UnitID

  /// A computation's result, in the unit its rule gave.
  @inline(__always)
  package init(_ number: Double, unit: UnitID) {
    self.number = number
    self.unit = unit
  }

  /// A number literal as written (`12.5`, `0x1F`): a plain number.
  @inline(__always)
  package init(literal number: Double) {
    self.number = number
    self.unit = .none
  }

  /// A quantity literal as written (`12_km`): its number and the unit the lexer read.
  @inline(__always)
  package init(literal number: Double, unit: UnitID) {
    self.number = number
    self.unit = unit
  }

  /// A count (`depth`, the n of `avg`): a plain number.
  @inline(__always)
  package static func count(_ n: Int) -> Value { Value(Double(n), unit: .none) }

  /// No value: what `lastx` holds before any operator consumed one, and what a computation that
  /// has no real result gives (a domain error). Never on the stack.
  package static let none = Value(.nan, unit: .none)

  package static let zero = Value(0, unit: .none)
  package static let pi = Value(Double.pi, unit: .none)
  package static let e = Value(2.718_281_828_459_045_235_36, unit: .none)

  /// Whether the value may stand on the stack: not infinite, not NaN (a result that is not is
  /// an overflow or a domain error).
  @inline(__always)
  package var isFinite: Bool { number.isFinite }

  /// Whether this is `Value.none` (or any NaN: a result with no real value, a domain error).
  @inline(__always)
  package var isNone: Bool { number.isNaN }

  /// Whether the number is zero (either sign), whatever the unit.
  @inline(__always)
  package var isZero: Bool { number == 0 }

  /// The same unit, another number: what a rule that keeps the unit gives (`+`, `-`, `neg`).
  @inline(__always)
  package func with(_ number: Double) -> Value { Value(number, unit: unit) }

  /// The same number under another unit, unconverted: for `uval`'s plain number, a message's
  /// number shown alone, a unit word's unit. A conversion is `Units.convert`.
  package func relabeled(_ unit: UnitID) -> Value { Value(number, unit: unit) }

  @inline(__always)
  package static func == (a: Value, b: Value) -> Bool {
    a.number.bitPattern == b.number.bitPattern && a.unit == b.unit
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(number.bitPattern)
    hasher.combine(unit)
  }

  /// The value's identity in 64 bits, mixed for the document's own hash tables (a word's body,
  /// a formatted-text memo): equal values give equal fingerprints.
  @inline(__always)
  package var fingerprint: UInt64 { number.bitPattern ^ UInt64(unit.index) &* 0x9E37_79B9_7F4A_7C15 }

  /// The bits a `PackedBound` stores a variable's number in, and the value back from them with
  /// its unit. Only `PackedBound` asks.
  @inline(__always)
  var storedBits: UInt64 { number.bitPattern }

  @inline(__always)
  init(storedBits: UInt64, unit: UnitID) { self.init(Double(bitPattern: storedBits), unit: unit) }

  // MARK: Arithmetic in one unit
  // The fast path: both operands in the same unit. `Machine.compute` sends any other pair to the
  // unit's rules before it gets here; with no units yet, every pair is plain.

  @inline(__always)
  package static func + (a: Value, b: Value) -> Value { a.with(a.number + b.number) }

  @inline(__always)
  package static func - (a: Value, b: Value) -> Value { a.with(a.number - b.number) }

  @inline(__always)
  package static func += (a: inout Value, b: Value) { a = a + b }

  @inline(__always)
  package static prefix func - (a: Value) -> Value { a.with(-a.number) }
}

/// A value prints as its number does (`12.5`), as `Double` prints: for tests and debugging, not
/// the display, which is `ValueFormat.format(_:display:)`.
extension Value: CustomStringConvertible {
  package var description: String { number.description }
}

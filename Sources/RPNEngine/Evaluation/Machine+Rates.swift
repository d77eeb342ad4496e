// Rates: amounts in currencies converted by the unit definitions in force on the line (`: _EUR 1.08_USD ;`).

/// A unit as an exact multiple of units that no definition in force rewrites: `GBP` after
/// `: _EUR 1.08_USD ;` and `: _GBP 1.19_EUR ;` is 1.2852 `USD`.
struct RatedUnit {
  var scale: Exact
  var unit: UnitID
}

extension Machine {
  /// The name a unit's definition is bound under: `_` and the unit's name. No variable's name
  /// starts with `_`, so the two never meet.
  static func definitionName(of unit: String) -> String { "_" + unit }

  /// Forgets what was worked out under the definitions in force (rated units, the last rate,
  /// tokens read with the tape's units): at a restart, and when a definition is bound. Inlined:
  /// as a call in `restart`, which the evaluator's loop inlines, it cost every line 2
  /// instructions (the column tape +0.15%).
  @inline(__always)
  mutating func forgetRates() {
    if !rates.isEmpty { rates.removeAll(keepingCapacity: true) }
    if !tapeUnitKinds.isEmpty { tapeUnitKinds.removeAll(keepingCapacity: true) }
    rateMemo = nil
    rateMemoFast = DoubleRatio()
  }

  /// The top in a check's unit under the rates in force, or nil when it cannot be (another
  /// dimension with no rate, a unit on one side only): what a check compares.
  mutating func checked(_ top: Value, in unit: UnitID) -> Value? {
    guard top.unit != .none, unit != .none, case .success(let value) = convertRated(top, to: unit) else { return nil }
    return value
  }

  /// The definition in force of the table unit `atom` (a currency): the quantity one of it is,
  /// or nil when none is bound above. A unit defined with an empty body is bound to one of
  /// itself: no rate.
  mutating func definition(ofAtom atom: Int) -> Value? {
    guard let id = names.id(Self.definitionName(of: Units.atom(atom).name)),
      case .variable(let value) = bound(of: id)
    else { return nil }
    return value
  }

  /// `unit` under the definitions in force: each currency in it replaced, down its chain of
  /// rates, by the units its definition names. Remembered until a definition is bound or the
  /// machine restarts. Nil when the registry is full or a chain is deeper than any tape
  /// writes.
  mutating func rated(_ unit: UnitID) -> RatedUnit? {
    let unit = unit.unformatted
    guard unit.hasCurrency else { return RatedUnit(scale: Exact(1), unit: unit) }
    if let known = rates[unit] { return known }
    var scale = Exact(1)
    var result = UnitID.none
    for factor in unit.info.factors {
      guard
        let one = Units.shared.id([UnitFactor(atom: Int(factor.atom), prefix: Int(factor.prefix), power: 1)]),
        var part = factor.unit.isDefinable
          ? ratedCurrency(Int(factor.atom), one) : RatedUnit(scale: Exact(1), unit: one)
      else { return nil }
      if factor.power != 1 {
        guard case .success(let raised) = Units.power(part.unit, Int(factor.power)) else { return nil }
        part = RatedUnit(scale: part.scale.power(Int(factor.power)), unit: raised)
      }
      guard case .success(let (product, extra)) = Units.product(result, part.unit, dividing: false) else { return nil }
      result = product
      scale = scale * part.scale * (extra ?? Exact(1))
    }
    let rated = RatedUnit(scale: scale, unit: result)
    rates[unit] = rated
    return rated
  }

  /// A currency down its chain of definitions: each a quantity in others, followed while it is
  /// one currency alone (the common chain, `GBP` → `EUR` → `USD`, walked without recursion),
  /// and a compound one resolved whole.
  private mutating func ratedCurrency(_ atom: Int, _ unit: UnitID) -> RatedUnit? {
    var scale = Exact(1)
    var current = unit
    var atom = atom
    for _ in 0..<Self.maximumChain {
      guard let definition = definition(ofAtom: atom), definition.unit != current,
        let exact = Exact(definition.number)
      else { return RatedUnit(scale: scale, unit: current) }
      scale = scale * exact
      let factors = definition.unit.info.factors
      if factors.count == 1, factors[0].power == 1, factors[0].prefix < 0, factors[0].unit.isDefinable {
        atom = Int(factors[0].atom)
        current = definition.unit.unformatted
        continue
      }
      guard let inner = rated(definition.unit) else { return nil }
      return RatedUnit(scale: scale * inner.scale, unit: inner.unit)
    }
    return nil
  }

  /// The longest chain of rates followed (a tape's chain is a few long; the definitions refuse
  /// a cycle, so this only bounds the work).
  static let maximumChain = 100_000

  /// The exact number one of `from` is in `to` under the rates in force, when they link the two
  /// (their rated units have one dimension); nil otherwise.
  mutating func rate(from: UnitID, to: UnitID) -> Exact? {
    // A tape converts the same pair again and again (`>EUR` on every other line).
    if let memo = rateMemo, memo.from == from, memo.to == to { return memo.rate }
    var rate: Exact?
    if let a = rated(from), let b = rated(to), a.unit.sameDimension(as: b.unit), !a.unit.isScale, !b.unit.isScale {
      let ratio = a.unit == b.unit ? Exact(1) : Units.shared.ratio(from: a.unit, to: b.unit)
      rate = a.scale * ratio / b.scale
    }
    rateMemo = (from, to, rate)
    rateMemoFast = rate.map(DoubleRatio.init) ?? DoubleRatio()
    return rate
  }

  /// `value` in `unit` by the rates in force, or nil when none links them.
  mutating func converted(_ value: Value, to unit: UnitID) -> Value? {
    // The last pair again, its rate one hardware operation: no copy of the exact rate.
    if rateMemo?.from == value.unit, rateMemo?.to == unit, let number = rateMemoFast.convert(value.number) {
      return number.isFinite ? Value(number, unit: unit) : nil
    }
    guard let rate = rate(from: value.unit, to: unit) else { return nil }
    let number = rateMemoFast.convert(value.number) ?? Exact.convert(value.number, times: rate)
    return number.isFinite ? Value(number, unit: unit) : nil
  }

  /// Why two amounts in currencies could not meet: `noRate` when they differ in their
  /// currencies only (`EUR` and `USD`, `EUR/h` and `USD/h`), else what failed.
  static func rateFailure(_ failure: UnitFailure, _ a: UnitID, _ b: UnitID) -> UnitFailure {
    guard a.hasCurrency, b.hasCurrency, a.dimension.withoutExtraBases == b.dimension.withoutExtraBases else {
      return failure
    }
    return .noRate(a, b)
  }

  /// `>unit` under the rates in force: the conversion, or where dimensions differ and a
  /// currency is on either side, the rates' (`no-rate` when none links them).
  mutating func convertRated(_ a: Value, to unit: UnitID) -> Result<Value, UnitFailure> {
    // A currency on either side: the rates first, which also convert within one dimension.
    guard a.unit.hasCurrency || unit.hasCurrency, a.unit != .none else { return Self.convert(a, to: unit) }
    if let value = converted(a, to: unit) { return .success(value) }
    let result = Self.convert(a, to: unit)
    guard case .failure(.conversion) = result, a.unit.hasCurrency, unit.hasCurrency else { return result }
    return .failure(Self.rateFailure(.conversion(unit), a.unit, unit))
  }

  /// A computation on two values whose dimensions differed, tried again with the top converted
  /// to the other's unit by the rates in force; nil when no rate applies (the failure stands).
  mutating func retriedWithRates<T>(
    _ failure: OperationFailure, _ a: Value, _ b: Value, _ compute: (Value, Value) -> Result<T, OperationFailure>
  ) -> Result<T, OperationFailure>? {
    guard case .units(.dimensions) = failure, a.unit.hasCurrency || b.unit.hasCurrency, a.unit != .none,
      b.unit != .none
    else { return nil }
    if let b = converted(b, to: a.unit) { return compute(a, b) }
    let reason = Self.rateFailure(.dimensions, a.unit, b.unit)
    return reason == .dimensions ? nil : .failure(.units(reason))
  }

  /// `sum avg sdev subtotal` of amounts in several currencies: each converted to the lowest
  /// one's unit by the rates in force, then computed; nil when no rate applies.
  mutating func statisticWithRates(
    _ failure: OperationFailure, _ statistic: Operation.Statistic, _ values: [Value]
  ) -> Result<Value, OperationFailure>? {
    guard case .units(.dimensions) = failure, let first = values.first(where: { $0.unit != .none }),
      values.contains(where: \.unit.hasCurrency)
    else { return nil }
    var converted: [Value] = []
    converted.reserveCapacity(values.count)
    for value in values {
      if value.unit == .none || value.unit == first.unit {
        converted.append(value)
      } else if let rated = self.converted(value, to: first.unit) {
        converted.append(rated)
      } else {
        let reason = Self.rateFailure(.dimensions, first.unit, value.unit)
        return reason == .dimensions ? nil : .failure(.units(reason))
      }
    }
    return Self.compute(statistic, converted)
  }

  /// What a token the lexer read as an unknown unit is when the names it does not know are units
  /// the tape defines above (`3_pace` after `: _pace 0.75_m ;`): a quantity, a unit word or a
  /// check; nil when it is none, or one of those units has no definition in force.
  mutating func tapeUnitKind(_ token: UnsafeBufferPointer<UInt8>) -> TokenKind? {
    // A tape that uses its units writes the same few tokens again and again (`1_pace`, `>pace`):
    // remembered by text while the definitions in force are the same.
    let text = String(decoding: token, as: UTF8.self)
    if let known = tapeUnitKinds[text] { return known }
    let kind = workOutTapeUnitKind(token)
    if tapeUnitKinds.count >= 1_024 { tapeUnitKinds.removeAll(keepingCapacity: true) }
    tapeUnitKinds[text] = kind
    return kind
  }

  private mutating func workOutTapeUnitKind(_ token: UnsafeBufferPointer<UInt8>) -> TokenKind? {
    guard let kind = Lexer.classifyWithTapeUnits(token) else { return nil }
    let unit: UnitID
    switch kind {
    case .quantity(let value), .check(let value): unit = value.unit
    case .attach(let u), .convert(let u): unit = u
    default: return nil
    }
    for factor in unit.info.factors where factor.unit.isTapeUnit {
      guard definition(ofAtom: Int(factor.atom)) != nil else { return nil }
    }
    return kind
  }
}

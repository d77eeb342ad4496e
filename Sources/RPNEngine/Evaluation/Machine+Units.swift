// The units' rules of each operation: dimensions checked, operands converted, temperatures affine.

extension Machine {
  /// What an operation that adds or compares does with two temperatures.
  enum Additive {
    case add, subtract, extremum, modulo, linear
  }

  /// The radian and the degree, which trigonometry of an angle computes in (IDs are the
  /// process's: looked up once).
  private static let radian = Units.tableUnit("rad")
  private static let degree = Units.tableUnit("°")

  /// A lone temperature unit's role; `.none` for anything else.
  private static func role(_ unit: UnitID) -> TemperatureRole {
    unit == .none ? .none : Units.shared.temperature(unit)
  }

  /// `a` and `b` as numbers in one unit, and the unit of the result, for an operation that
  /// needs one dimension (`+ - mod min max %ch %t atan2`): the left operand's unit (a plain 0
  /// takes the other's), with temperatures' affine rules.
  static func align(_ a: Value, _ b: Value, _ operation: Additive) -> Result<(Double, Double, UnitID), UnitFailure> {
    // One unit, no scale: the numbers as they are (a tape in one unit adds as plain numbers do).
    if a.unit == b.unit && !a.unit.isScale { return .success((a.number, b.number, a.unit)) }
    if a.unit == .none {
      guard a.isZero else { return .failure(.dimensions) }
      if operation == .modulo, case .scale = role(b.unit) { return .failure(.temperatureScale) }
      return .success((a.number, b.number, b.unit))
    }
    if b.unit == .none {
      guard b.isZero else { return .failure(.dimensions) }
      if operation == .modulo, case .scale = role(a.unit) { return .failure(.temperatureScale) }
      return .success((a.number, b.number, a.unit))
    }
    let ra = role(a.unit)
    let rb = role(b.unit)
    let (scaleA, scaleB) = (a.unit.isScale, b.unit.isScale)
    guard a.unit.sameDimension(as: b.unit) else { return .failure(.dimensions) }
    func linear() -> Double { Units.convert(b.number, from: b.unit, to: a.unit, affine: false) }
    func affine() -> Double { Units.convert(b.number, from: b.unit, to: a.unit, affine: true) }
    guard scaleA || scaleB else { return .success((a.number, linear(), a.unit)) }
    switch operation {
    case .add:
      if scaleA && scaleB || ra == .absolute { return .failure(.temperatures) }
      if scaleA { return .success((a.number, linear(), a.unit)) }
      // A difference and a temperature: the temperature's scale.
      return .success((Units.convert(a.number, from: a.unit, to: b.unit, affine: false), b.number, b.unit))
    case .subtract:
      if scaleA && scaleB { return .success((a.number, affine(), Units.difference(of: a.unit))) }
      if scaleA { return .success((a.number, linear(), a.unit)) }
      if ra == .difference { return .failure(.temperatures) }
      return .success((a.number, affine(), a.unit))  // an absolute temperature less one on a scale
    case .extremum:
      if ra == .difference || rb == .difference { return .failure(.temperatureAndDifference) }
      return .success((a.number, affine(), a.unit))
    case .modulo, .linear:
      return .failure(.temperatureScale)
    }
  }

  /// `+ - * /` when an operand has a unit.
  static func arithmeticInUnits(_ arithmetic: Operation.Arithmetic, _ a: Value, _ b: Value)
    -> Result<Value, UnitFailure>
  {
    switch arithmetic {
    case .add, .subtract:
      if a.unit == b.unit && !a.unit.isScale {
        return .success(Value(arithmetic == .add ? a.number + b.number : a.number - b.number, unit: a.unit))
      }
      return align(a, b, arithmetic == .add ? .add : .subtract).map { x, y, unit in
        Value(arithmetic == .add ? x + y : x - y, unit: unit)
      }
    case .multiply, .divide:
      return Units.product(a.unit, b.unit, dividing: arithmetic == .divide).map { unit, scale in
        let dividing = arithmetic == .divide
        guard let scale else { return Value(dividing ? a.number / b.number : a.number * b.number, unit: unit) }
        // The scale joins the operands' product exactly, so the result rounds once.
        guard let exactB = Exact(b.number), let factor = dividing ? scale.dividing(by: exactB) : exactB * scale else {
          return Value(.nan, unit: unit)
        }
        return Value(Exact.convert(a.number, times: factor), unit: unit)
      }
    }
  }

  /// A computation on two values of which one at least has a unit (`^ % %ch %t mod min max atan2`).
  static func binaryInUnits(_ binary: Operation.Binary, _ a: Value, _ b: Value) -> Result<
    (Double, Double, UnitID), UnitFailure
  > {
    switch binary {
    case .power:
      guard b.unit == .none else { return .failure(.quantityExponent) }
      guard let (n, d) = Self.fraction(b.number) else { return .failure(.fractionalPower) }
      return Units.power(a.unit, n, over: d).map { (a.number, b.number, $0) }
    case .percent:
      guard b.unit == .none, a.unit != .none else { return .failure(.needsPlain) }
      if case .scale = role(a.unit) { return .failure(.temperatureScale) }
      return .success((a.number, b.number, a.unit))
    case .percentChange, .percentOfTotal, .atan2:
      return align(a, b, .linear).map { ($0.0, $0.1, .none) }
    case .modulo: return align(a, b, .modulo)
    case .minimum, .maximum: return align(a, b, .extremum)
    }
  }

  /// A plain exponent as a fraction n/d with a small d (`0.5` is 1/2), for the powers of a unit.
  private static func fraction(_ x: Double) -> (Int, Int)? {
    for d in 1...12 {
      let scaled = x * Double(d)
      if scaled == scaled.rounded(), Swift.abs(scaled) <= 10_000 { return (Int(scaled), d) }
    }
    return nil
  }

  /// A computation on one value that has a unit: the number it computes with (converted, for
  /// trigonometry of an angle), the unit of the result, and whether the number is in degrees.
  static func unaryInUnits(_ unary: Operation.Unary, _ a: Value) -> Result<
    (number: Double, unit: UnitID, degrees: Bool?), UnitFailure
  > {
    switch unary {
    case .negate, .absolute, .floor, .ceil, .round, .trunc: return .success((a.number, a.unit, nil))
    case .inverse: return Units.power(a.unit, -1).map { (a.number, $0, nil) }
    case .square: return Units.power(a.unit, 2).map { (a.number, $0, nil) }
    case .squareRoot: return Units.power(a.unit, 1, over: 2).map { (a.number, $0, nil) }
    case .sin, .cos, .tan:
      guard a.unit.dimension == .angle else { return .failure(.needsAngle) }
      if a.unit == radian { return .success((a.number, .none, false)) }
      guard let degree else { return .failure(.tooManyUnits) }
      return .success((Units.convert(a.number, from: a.unit, to: degree, affine: false), .none, true))
    case .unitValue: return .success((a.number, .none, nil))
    case .baseUnits:
      guard let base = Units.base(of: a.unit) else { return .failure(.tooManyUnits) }
      let temperature = role(a.unit)
      let affine = temperature != .none && temperature != .difference
      return .success((Units.convert(a.number, from: a.unit, to: base, affine: affine), base, nil))
    case .exp, .ln, .log10, .log2, .asin, .acos, .atan, .sinh, .cosh, .tanh, .asinh, .acosh, .atanh, .factorial:
      return .failure(.needsPlain)
    }
  }

  /// `sum`, `avg`, `sdev` (and `subtotal`) of values not all in one unit, or in one that is a
  /// temperature's scale: in the lowest quantity's unit, each value converted (plain zeros taking
  /// it); temperatures average on their scale, and neither add up nor mix with differences.
  static func totalInUnits(_ statistic: Operation.Statistic, _ values: [Value]) -> Result<[Double], UnitFailure> {
    guard let unit = values.first(where: { $0.unit != .none })?.unit else { return .success(values.map(\.number)) }
    let scales = values.contains { if case .scale = role($0.unit) { true } else { false } }
    if scales && statistic == .sum { return .failure(.temperatureScale) }
    if scales && values.contains(where: { role($0.unit) == .difference }) { return .failure(.temperatureAndDifference) }
    var numbers: [Double] = []
    numbers.reserveCapacity(values.count)
    for value in values {
      if value.unit == .none {
        guard value.isZero else { return .failure(.dimensions) }
        numbers.append(value.number)
        continue
      }
      guard value.unit.sameDimension(as: unit) else { return .failure(.dimensions) }
      numbers.append(Units.convert(value.number, from: value.unit, to: unit, affine: scales))
    }
    return .success(numbers)
  }

  /// `_unit`: a plain number given a unit.
  static func attach(_ unit: UnitID, to a: Value) -> Result<Value, UnitFailure> {
    guard a.unit == .none else { return .failure(.alreadyHasUnit(unit)) }
    return .success(Value(a.number, unit: unit))
  }

  /// `>unit`: a quantity converted to another unit of its dimension.
  static func convert(_ a: Value, to unit: UnitID) -> Result<Value, UnitFailure> {
    guard a.unit != .none else { return .failure(.plainConversion(unit)) }
    guard a.unit.sameDimension(as: unit) else { return .failure(.conversion(unit)) }
    let from = role(a.unit)
    let to = role(unit)
    let scaleFrom = from != .none && from != .absolute && from != .difference
    let scaleTo = to != .none && to != .absolute && to != .difference
    if scaleFrom && to == .difference || scaleTo && from == .difference {
      return .failure(.temperatureConversion(unit))
    }
    let affine = (scaleFrom || scaleTo) && from != .difference && to != .difference
    return .success(Value(Units.convert(a.number, from: a.unit, to: unit, affine: affine), unit: unit))
  }
}

// The algebra of units: products and quotients simplified in five steps, powers, conversions.

/// Why two units do not combine: what `unit-mismatch` words (with the operator and operands).
package enum UnitFailure: Error, Equatable, Hashable, Sendable {
  /// Operands whose dimensions must be one and are not (`12_km 3_h +`, `12_km 3 +`).
  case dimensions
  /// Two temperatures added (`20_°C 5_°C +`), or a temperature taken from a difference.
  case temperatures
  /// `* / ^ inv sq sqrt %` of a temperature on a scale (`°C`, `°F`), or `sum`, `subtotal`, `mod`.
  case temperatureScale
  /// A temperature and a difference together in `min` or `max`.
  case temperatureAndDifference
  /// A power that would not be whole (`1_m^3 sqrt`).
  case fractionalPower
  /// A power past 99 in size.
  case powerTooLarge
  /// A quantity as an exponent (`2 3_m ^`).
  case quantityExponent
  /// A function of plain numbers only (`ln`, `exp`, `asin`, `fact`, `%`'s b).
  case needsPlain
  /// `sin cos tan` of a quantity that is no angle.
  case needsAngle
  /// `_unit` on a value that has a unit already (quick fix: `>unit`).
  case alreadyHasUnit(UnitID)
  /// `>unit` of a plain number (quick fix: `_unit`).
  case plainConversion(UnitID)
  /// `>unit` to a unit of another dimension.
  case conversion(UnitID)
  /// `>Δ°C` of a temperature on a scale, or `>°C` of a difference.
  case temperatureConversion(UnitID)
  /// The process met more distinct units than it keeps.
  case tooManyUnits
  /// Amounts in two currencies (`EUR`, `USD`), which no rate in force above links: `no-rate`.
  case noRate(UnitID, UnitID)
}

extension Units {
  /// The unit of a product (`dividing`: a quotient) of `a` by `b`, with the exact scale its
  /// number takes from the conversions step (d) made (nil for none), by §'s five steps:
  /// (a) a's factors, then b's (inverted for a quotient); (b) a unit defined as a product
  /// (`mph`, `kn`, `Hz`) replaced by its definition when one of the definition's factors has the
  /// name of another factor; (c) factors of one name add their powers; (d) a factor whose unit
  /// measures what an earlier factor's does (`min` after `h`), or whose dimension with its power
  /// is an earlier one's (`m^2` after `ha`), converted into it and merged; (e) factors of power 0
  /// dropped, and with none left, a plain number.
  package static func product(_ a: UnitID, _ b: UnitID, dividing: Bool) -> Result<(UnitID, Exact?), UnitFailure> {
    if a.isFormatted || b.isFormatted {
      // A time or angle times or over a plain number keeps its format (`1:30 2 *`, `2 1:30 *`,
      // `1:30 2 /`); any other product is in the plain units (`2:15 40_EUR/h *`).
      if b == .none { return .success((a, nil)) }
      if a == .none && !dividing { return .success((b, nil)) }
      return product(a.unformatted, b.unformatted, dividing: dividing)
    }
    if let known = shared.knownProduct(a, b, dividing: dividing) { return .success(known) }
    let result = workOutProduct(a, b, dividing: dividing)
    if case .success(let product) = result { shared.rememberProduct(a, b, dividing: dividing, product) }
    return result
  }

  /// `product`, worked out.
  private static func workOutProduct(_ a: UnitID, _ b: UnitID, dividing: Bool) -> Result<(UnitID, Exact?), UnitFailure>
  {
    let left = a == .none ? [] : a.info.factors
    let right = b == .none ? [] : b.info.factors
    if left.contains(where: \.isScale) || right.contains(where: \.isScale) { return .failure(.temperatureScale) }
    // (a)
    var factors = left
    for var factor in right {
      if dividing { factor.power = -factor.power }
      factors.append(factor)
    }
    var scale = Exact(1)
    // (b)
    var i = 0
    while i < factors.count {
      let factor = factors[i]
      let definition = factor.unit.definition
      if !definition.isEmpty {
        let replacement = definition.compactMap { part -> UnitFactor? in
          guard case .unit(let atom, -1) = UnitTable.lookUp(part.name) else { return nil }
          return UnitFactor(atom: atom, prefix: -1, power: part.power * Int(factor.power))
        }
        let meets = replacement.contains { part in
          factors.indices.contains { $0 != i && factors[$0].sameName(as: part) }
        }
        if meets {
          if factor.prefix >= 0 {
            scale = scale * UnitTable.prefixes[Int(factor.prefix)].factor.power(Int(factor.power))
          }
          factors.replaceSubrange(i...i, with: replacement)
          i += replacement.count
          continue
        }
      }
      i += 1
    }
    // (c) and (d)
    var merged: [UnitFactor] = []
    for factor in factors {
      if let same = merged.firstIndex(where: { $0.sameName(as: factor) }) {
        merged[same].power += factor.power
        continue
      }
      let dimension = factor.unit.dimension
      if let earlier = merged.firstIndex(where: { $0.unit.dimension == dimension }) {
        scale = scale * (factor.unitFactor / merged[earlier].unitFactor).power(Int(factor.power))
        merged[earlier].power += factor.power
        continue
      }
      let whole = dimension.raised(to: Int(factor.power))
      if let earlier = merged.firstIndex(where: {
        let theirs = $0.unit.dimension.raised(to: Int($0.power))
        return theirs == whole || theirs.raised(to: -1) == whole
      }) {
        let same = merged[earlier].unit.dimension.raised(to: Int(merged[earlier].power)) == whole
        let power = same ? merged[earlier].power : -merged[earlier].power
        scale = scale * factor.unitFactor.power(Int(factor.power)) / merged[earlier].unitFactor.power(Int(power))
        merged[earlier].power += power
        continue
      }
      merged.append(factor)
    }
    // (e)
    merged.removeAll { $0.power == 0 }
    if merged.contains(where: { abs(Int($0.power)) > UnitExpression.maximumPower }) { return .failure(.powerTooLarge) }
    guard let id = shared.id(merged) else { return .failure(.tooManyUnits) }
    return .success((id, scale == Exact(1) ? nil : scale))
  }

  /// The unit raised to `n/d` (`sq` 2/1, `sqrt` 1/2, `inv` −1/1): every power times n over d,
  /// which must come out whole and at most 99 in size.
  package static func power(_ unit: UnitID, _ n: Int, over d: Int = 1) -> Result<UnitID, UnitFailure> {
    let factors = unit.info.factors
    if factors.contains(where: \.isScale) { return .failure(.temperatureScale) }
    var raised: [UnitFactor] = []
    for var factor in factors {
      let product = Int(factor.power) * n
      guard product % d == 0 else { return .failure(.fractionalPower) }
      guard abs(product / d) <= UnitExpression.maximumPower else { return .failure(.powerTooLarge) }
      factor.power = Int16(product / d)
      raised.append(factor)
    }
    guard let id = shared.id(raised) else { return .failure(.tooManyUnits) }
    return .success(id)
  }

  /// The SI base units of a unit's dimension, in `ubase`'s order: kg, m, s, A, K, rad, bit;
  /// then its currencies, each its own base.
  package static func base(of unit: UnitID) -> UnitID? {
    let dimension = unit.dimension
    var factors: [UnitFactor] = []
    for base in BaseDimension.allCases where dimension.power(of: base) != 0 {
      let power = Int(dimension.power(of: base))
      switch base {
      case .mass:
        let kilo = UnitTable.prefixes.firstIndex { $0.symbol == "k" } ?? -1
        factors.append(UnitFactor(atom: atomIndex("g"), prefix: kilo, power: power))
      case .length, .time, .current, .temperature, .angle, .data:
        factors.append(UnitFactor(atom: atomIndex(base.unitName), prefix: -1, power: power))
      }
    }
    // A currency is its own base.
    for e in dimension.extra { factors.append(UnitFactor(atom: Int(e.base), prefix: -1, power: Int(e.power))) }
    return shared.id(factors)
  }

  /// The index of a table unit by its name (one the table has).
  static func atomIndex(_ name: String) -> Int {
    if case .unit(let atom, _) = UnitTable.lookUp(name) { return atom }
    return 0
  }

  /// A unit of the table alone, unprefixed, to the first power (`rad`, `Δ°C`); nil when the
  /// registry is full.
  static func tableUnit(_ name: String) -> UnitID? {
    shared.id([UnitFactor(atom: atomIndex(name), prefix: -1, power: 1)])
  }

  /// The difference unit of a scale (`°C` → `Δ°C`); the unit itself for any other.
  package static func difference(of unit: UnitID) -> UnitID {
    guard unit.isScale, let factor = unit.info.factors.first else { return unit }
    return tableUnit(factor.unit.name == "°F" ? "Δ°F" : "Δ°C") ?? unit
  }

  /// A number in `from` converted to `to` (one dimension): the exact ratio of their factors, and
  /// for two temperatures on scales (`affine`) their offsets too, rounded once.
  package static func convert(_ x: Double, from: UnitID, to: UnitID, affine: Bool) -> Double {
    if from == to { return x }
    if affine {
      let (ratio, offset) = shared.affine(from: from, to: to)
      return Exact.convert(x, times: ratio, plus: offset)
    }
    return Exact.convert(x, times: shared.ratio(from: from, to: to))
  }
}

extension UnitFactor {
  /// Whether this is a temperature on a scale (`°C`, `°F`), which no product takes.
  var isScale: Bool {
    if case .scale = unit.temperature { return true }
    return false
  }
}

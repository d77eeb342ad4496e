// The rates in force at a point: what each currency (or unit of the tape's own) in a unit is defined as, and where.

/// A unit's definition in force, as hover shows it: `1 EUR = 1.08 USD`, line 3.
package struct RateNote: Equatable, Sendable {
  /// The unit defined: `EUR`.
  package var unit: String
  /// What one of it is: `1.08_USD`.
  package var value: Value
  /// The line of its definition (0-based).
  package var line: Int
}

extension Document {
  /// The top in a check's unit as the check at a UTF-8 offset of a line compares it: converted
  /// by the machine, with the rates in force there (`Machine.checked`).
  func checked(_ top: Value, in unit: UnitID, atLine line: Int, utf8Offset offset: Int) -> Value? {
    var observer = StopBefore(offset)
    var machine = run(line: line, observer: &observer)
    return machine.checked(top, in: unit)
  }

  /// The definitions in force right before a UTF-8 offset of a line of each currency and unit of
  /// the tape's own in `units` that has one (`EUR` in `EUR/h`), with their lines, then of those
  /// their definitions name, down the chains (`GBP`, then `EUR`), at most `limit`; none for a
  /// unit without such a part, nor for one defined with an empty body (a dimension of its own).
  package func rates(of units: [UnitID], atLine line: Int, utf8Offset offset: Int, limit: Int = 8) -> [RateNote] {
    var notes: [RateNote] = []
    var seen = Set<Int16>()
    var queue = units.filter(\.hasCurrency)
    while !queue.isEmpty, notes.count < limit {
      let unit = queue.removeFirst()
      for factor in unit.unformatted.info.factors where factor.unit.isDefinable && seen.insert(factor.atom).inserted {
        let name = Machine.definitionName(of: factor.unit.name)
        guard case .variable(let value) = boundValue(of: name, atLine: line, utf8Offset: offset),
          value.unit.info.factors.map(\.atom) != [factor.atom],
          let site = bindingSite(of: name, visibleAtLine: line, utf8Offset: offset)
        else { continue }
        notes.append(RateNote(unit: factor.unit.name, value: value, line: site.line))
        if value.unit.hasCurrency { queue.append(value.unit) }
      }
    }
    return Array(notes.prefix(limit))
  }
}

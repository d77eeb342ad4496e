// The units a person is offered: completion after `_` and `>`, and "Convert to …".

/// A unit as offered: its name as written, what it is called, and the unit it reads as.
package struct UnitChoice: Sendable {
  package let name: String
  package let title: String
  package let unit: UnitID
  /// A unit of the table itself (`km`, `kWh`, `km/h` are not; `m`, `mi`, `mph` are).
  package var isTableUnit = false
  /// The format this choice shows a time or angle in (`h:mm`), or nil for a unit.
  package var format: SexagesimalFormat? = nil
}

/// The built-in units in the order people reach for them: each unit of the table (its dimension's
/// commonest first), its everyday prefixed forms right after it (`m`, `km`, `cm`, `mm` …), then
/// the other names it goes by (`metre`). Read from the one table, `UnitTable.atoms`.
package enum UnitCatalog {
  /// The prefixed forms worth offering, by the unit they prefix; any other prefix still reads.
  private static let everyday: [String: [String]] = [
    "m": ["km", "cm", "mm", "µm", "nm"], "g": ["kg", "mg", "µg"], "s": ["ms", "µs", "ns"],
    "L": ["mL", "cL", "dL"], "W": ["kW", "MW", "GW"], "Wh": ["kWh", "MWh"], "J": ["kJ", "MJ"],
    "cal": ["kcal"], "Pa": ["kPa", "hPa", "MPa"], "N": ["kN"], "bar": ["mbar"], "A": ["mA"],
    "V": ["kV", "mV"], "Ω": ["kΩ", "MΩ"], "Hz": ["kHz", "MHz", "GHz"],
    "B": ["kB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB"], "bit": ["kbit", "Mbit", "Gbit"], "eV": ["keV", "MeV"],
  ]

  private static let prefixTitles: [String: String] = [
    "k": "kilo", "c": "centi", "m": "milli", "µ": "micro", "n": "nano", "d": "deci", "h": "hecto", "M": "mega",
    "G": "giga", "T": "tera", "Ki": "kibi", "Mi": "mebi", "Gi": "gibi", "Ti": "tebi",
  ]

  /// Compound units people write often, offered after the table's own.
  private static let compounds: [(name: String, title: String)] = [
    ("km/h", "kilometre per hour"), ("m/s", "metre per second"), ("m^2", "square metre"),
    ("km^2", "square kilometre"), ("ft^2", "square foot"), ("m^3", "cubic metre"), ("cm^3", "cubic centimetre"),
    ("m/s^2", "metre per second squared"), ("N*m", "newton metre"), ("kg/m^3", "kilogram per cubic metre"),
    ("mi/gal", "mile per US gallon"),
  ]

  /// Every unit offered, in order.
  package static let all: [UnitChoice] = {
    var main: [UnitChoice] = []
    var aliases: [UnitChoice] = []
    for atom in UnitTable.atoms {
      guard let unit = Units.unit(named: atom.name) else { continue }
      main.append(UnitChoice(name: atom.name, title: atom.title, unit: unit, isTableUnit: true))
      for name in everyday[atom.name] ?? [] {
        guard let prefixed = Units.unit(named: name) else { continue }
        let prefix = prefixTitles[String(name.dropLast(atom.name.count))] ?? ""
        main.append(UnitChoice(name: name, title: prefix + atom.title, unit: prefixed))
      }
      for alias in atom.names.dropFirst() {
        aliases.append(UnitChoice(name: alias, title: "\(atom.title) (same as `\(atom.name)`)", unit: unit))
      }
    }
    for (name, title) in compounds {
      guard let unit = Units.unit(named: name) else { continue }
      main.append(UnitChoice(name: name, title: title, unit: unit))
    }
    return main + aliases
  }()

  /// The units `value` converts to (`>unit`): its dimension's, without its own unit, in order.
  /// None for a plain number.
  package static func conversions(of value: Value) -> [UnitChoice] {
    guard value.unit != .none else { return [] }
    // One choice per unit: `deg` is `°` again.
    var offered: Set<UnitID> = [value.unit]
    return (formats + all).filter { offered.insert($0.unit).inserted && Machine.convert(value, to: $0.unit).isSuccess }
  }

  /// The sexagesimal formats, offered first to a time or an angle (`>h:mm`).
  package static let formats: [UnitChoice] = SexagesimalFormat.allCases.compactMap { format in
    Units.unit(of: format).map { UnitChoice(name: format.name, title: format.title, unit: $0, format: format) }
  }
}

extension UnitCatalog {
  /// "Convert to …": at most 8 units `value` converts to, the table's own units first (in its
  /// order, the commonest first), then their everyday prefixed forms.
  package static func conversionMenu(of value: Value) -> [UnitChoice] {
    conversionMenu(from: conversions(of: value))
  }

  /// "Convert to …" from the units a value converts to, in order: at most 8, the table's own
  /// units first, then the prefixed forms and others; the formats of a time or angle before.
  package static func conversionMenu(from choices: [UnitChoice]) -> [UnitChoice] {
    let units = choices.filter { $0.format == nil }
    return choices.filter { $0.format != nil }
      + Array((units.filter(\.isTableUnit) + units.filter { !$0.isTableUnit }).prefix(8))
  }
}

extension Result {
  fileprivate var isSuccess: Bool {
    if case .success = self { return true }
    return false
  }
}

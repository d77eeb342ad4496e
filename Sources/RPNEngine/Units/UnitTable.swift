// The built-in units of measure: names, dimensions, exact factors, prefixes, temperatures.

/// Which prefixes a unit takes.
package enum PrefixClass: Sendable {
  /// None: `min`, `ft`, `°C`.
  case none
  /// The SI prefixes, `q` to `Q`: `km`, `mg`, `µs`, `kWh`.
  case si
  /// `k M G T P E` and the binary `Ki Mi Gi Ti Pi Ei`: `kB`, `MiB`, `Gbit`.
  case data
}

/// A prefix: its symbol, its name and its exact factor.
package struct UnitPrefix: Sendable {
  package let symbol: String
  package let name: String
  package let factor: Exact
  /// Whether the data units take it (`k M G T P E`, and the binary ones only they take).
  package let forData: Bool
  /// Whether the other prefixable units take it (every SI prefix).
  package let forSI: Bool

  /// Whether a unit of this prefix class takes this prefix.
  package func applies(to prefixes: PrefixClass) -> Bool {
    switch prefixes {
    case .none: false
    case .si: forSI
    case .data: forData
    }
  }
}

/// What a unit is to temperature's affine rules.
package enum TemperatureRole: Sendable, Equatable {
  /// Not a temperature.
  case none
  /// A point on a scale with its zero elsewhere (`°C`, `°F`): kelvins = (x + offset) · factor.
  case scale(offset: Exact)
  /// Both a temperature and a difference (`K`, `°R`): its zero is absolute zero.
  case absolute
  /// A difference of temperatures (`Δ°C`, `Δ°F`).
  case difference
}

/// One unit of the built-in table: its names, what it measures, how many base units it is.
package struct UnitAtom: Sendable {
  /// Its names, the one the display writes first: `["m", "metre", "meter"]`.
  package let names: [String]
  /// The names that take prefixes (`m`, not `metre`; `L` and `l`).
  package let prefixedNames: [String]
  package let prefixes: PrefixClass
  /// What the unit is called in words ("metre", "mile per hour").
  package let title: String
  package let dimension: Dimension
  /// One of this unit in base units (kg, m, s, A, K, rad, bit), exactly.
  package let factor: Exact
  package let temperature: TemperatureRole
  /// For a unit defined as a product or quotient of others (`mph` = mi/h, `Hz` = 1/s): those
  /// factors, which `*` and `/` put in its place when one of them meets its own name.
  package let definition: [(name: String, power: Int)]
  /// A currency's minor units, the decimals an amount in it shows (EUR 2, JPY 0, KWD 3); nil
  /// for a currency without them (gold, `XAU`) and for every other unit.
  package let minorUnits: Int?
  /// Whether this is a currency (its dimension is a base of its own, `Dimension(ownBase:)`).
  package let isCurrency: Bool
  /// Whether this is a unit a tape names and defines itself (`: _pace 0.75_m ;`), not one of
  /// the table's: its dimension is a base of its own too.
  package let isTapeUnit: Bool

  /// Whether a definition in the tape may say what one of it is (`: _EUR 1.08_USD ;`): a
  /// currency or a tape's own unit, each a dimension of its own until then.
  package var isDefinable: Bool { isCurrency || isTapeUnit }

  /// The name the display writes.
  package var name: String { names[0] }
}

extension UnitAtom {
  init(
    _ names: [String], prefixed: [String]? = nil, _ prefixes: PrefixClass = .none, title: String,
    _ dimension: Dimension, _ factor: Exact, temperature: TemperatureRole = .none,
    definition: [(name: String, power: Int)] = [], currency: Bool = false, minorUnits: Int? = nil,
    tapeUnit: Bool = false
  ) {
    self.names = names
    self.prefixedNames = prefixes == .none ? [] : (prefixed ?? [names[0]])
    self.prefixes = prefixes
    self.title = title
    self.dimension = dimension
    self.factor = factor
    self.temperature = temperature
    self.definition = definition
    self.isCurrency = currency
    self.minorUnits = minorUnits
    self.isTapeUnit = tapeUnit
  }
}

/// The table of built-in units, in each dimension's commonest first (the order "Convert to …"
/// offers them), and the lookup of a name: whole first, then as a prefix and a unit that takes it.
package enum UnitTable {
  private static func decimal(_ text: String) -> Exact { Exact(decimal: text) ?? .zero }

  private static let pound = decimal("0.45359237")
  private static let gallon = decimal("0.003785411784")
  private static let imperialGallon = decimal("0.00454609")
  private static let degree = Exact.pi / Exact(180)

  /// Every built-in unit: the units of measure, then the currencies (`Currency.table`), each
  /// a dimension of its own.
  package static let atoms: [UnitAtom] = measures + Currency.atoms(from: measures.count)

  /// How many of `atoms` are units of measure (the rest are currencies).
  package static let measureCount = measures.count

  private static let measures: [UnitAtom] = [
    // length
    UnitAtom(["m", "metre", "meter"], .si, title: "metre", .length, Exact(1)),
    UnitAtom(["mi"], title: "mile", .length, decimal("1609.344")),
    UnitAtom(["ft"], title: "foot", .length, decimal("0.3048")),
    UnitAtom(["in"], title: "inch", .length, decimal("0.0254")),
    UnitAtom(["yd"], title: "yard", .length, decimal("0.9144")),
    UnitAtom(["nmi"], title: "nautical mile", .length, Exact(1852)),
    // mass
    UnitAtom(["g"], .si, title: "gram", .mass, Exact(1, over: 1000)),
    UnitAtom(["lb"], title: "pound", .mass, pound),
    UnitAtom(["oz"], title: "ounce", .mass, pound / Exact(16)),
    UnitAtom(["t"], .si, title: "tonne", .mass, Exact(1000)),
    UnitAtom(["st"], title: "stone", .mass, pound * Exact(14)),
    UnitAtom(["ct"], title: "carat", .mass, Exact(1, over: 5000)),
    // time
    UnitAtom(["s"], .si, title: "second", .time, Exact(1)),
    UnitAtom(["min"], title: "minute", .time, Exact(60)),
    UnitAtom(["h"], title: "hour", .time, Exact(3600)),
    UnitAtom(["d"], title: "day", .time, Exact(86400)),
    UnitAtom(["wk"], title: "week", .time, Exact(604_800)),
    UnitAtom(["yr"], title: "year (Julian, 365.25 days)", .time, Exact(31_557_600)),
    // volume
    UnitAtom(["L", "l"], prefixed: ["L", "l"], .si, title: "litre", .volume, Exact(1, over: 1000)),
    UnitAtom(["gal"], title: "US gallon", .volume, gallon),
    UnitAtom(["qt"], title: "US quart", .volume, gallon / Exact(4)),
    UnitAtom(["pt"], title: "US pint", .volume, gallon / Exact(8)),
    UnitAtom(["cup"], title: "US cup", .volume, gallon / Exact(16)),
    UnitAtom(["floz"], title: "US fluid ounce", .volume, gallon / Exact(128)),
    UnitAtom(["tbsp"], title: "tablespoon", .volume, gallon / Exact(256)),
    UnitAtom(["tsp"], title: "teaspoon", .volume, gallon / Exact(768)),
    UnitAtom(["galUK"], title: "imperial gallon", .volume, imperialGallon),
    UnitAtom(["ptUK"], title: "imperial pint", .volume, imperialGallon / Exact(8)),
    // area
    UnitAtom(["ha"], title: "hectare", .area, Exact(10000)),
    UnitAtom(["acre"], title: "acre", .area, decimal("4046.8564224")),
    // speed
    UnitAtom(
      ["mph"], title: "mile per hour", .speed, decimal("1609.344") / Exact(3600),
      definition: [("mi", 1), ("h", -1)]),
    UnitAtom(["kn"], title: "knot", .speed, Exact(1852, over: 3600), definition: [("nmi", 1), ("h", -1)]),
    // force
    UnitAtom(["N"], .si, title: "newton", .force, Exact(1)),
    UnitAtom(["lbf"], title: "pound-force", .force, decimal("4.4482216152605")),
    UnitAtom(["kgf"], title: "kilogram-force", .force, decimal("9.80665")),
    // energy
    UnitAtom(["J"], .si, title: "joule", .energy, Exact(1)),
    UnitAtom(["Wh"], .si, title: "watt-hour", .energy, Exact(3600)),
    UnitAtom(["cal"], .si, title: "calorie (thermochemical, 4.184 J)", .energy, decimal("4.184")),
    UnitAtom(["BTU"], title: "British thermal unit (IT)", .energy, decimal("1055.05585262")),
    UnitAtom(["eV"], .si, title: "electronvolt", .energy, decimal("1.602176634e-19")),
    // power
    UnitAtom(["W"], .si, title: "watt", .power, Exact(1)),
    UnitAtom(["hp"], title: "horsepower (mechanical)", .power, decimal("745.69987158227022")),
    UnitAtom(["PS"], title: "metric horsepower", .power, decimal("735.49875")),
    // pressure
    UnitAtom(["Pa"], .si, title: "pascal", .pressure, Exact(1)),
    UnitAtom(["bar"], .si, title: "bar", .pressure, Exact(100_000)),
    UnitAtom(["atm"], title: "standard atmosphere", .pressure, Exact(101_325)),
    // lbf/in² exactly (NIST SP 811, B.8): 6894.757293168361336…, of which a table's 16 digits
    // are a truncation (`1_psi ubase` would differ from `1_lbf/in^2 ubase` in the 17th digit).
    UnitAtom(["psi"], title: "pound per square inch", .pressure, decimal("4.4482216152605") / decimal("0.00064516")),
    UnitAtom(["mmHg"], title: "millimetre of mercury", .pressure, decimal("133.322387415")),
    UnitAtom(["torr"], title: "torr", .pressure, Exact(101_325, over: 760)),
    // electricity, frequency
    UnitAtom(["A"], .si, title: "ampere", .current, Exact(1)),
    UnitAtom(["V"], .si, title: "volt", .voltage, Exact(1)),
    UnitAtom(
      ["\u{03A9}", "ohm", "\u{2126}"], prefixed: ["\u{03A9}", "ohm", "\u{2126}"], .si, title: "ohm", .resistance,
      Exact(1)),
    UnitAtom(["Hz"], .si, title: "hertz", .frequency, Exact(1), definition: [("s", -1)]),
    // data
    UnitAtom(["B"], .data, title: "byte", .data, Exact(8)),
    UnitAtom(["bit"], .data, title: "bit", .data, Exact(1)),
    // angle
    UnitAtom(["rad"], title: "radian", .angle, Exact(1)),
    UnitAtom(["°", "deg"], title: "degree", .angle, degree),
    UnitAtom(["′", "arcmin"], title: "minute of arc", .angle, degree / Exact(60)),
    UnitAtom(["″", "arcsec"], title: "second of arc", .angle, degree / Exact(3600)),
    UnitAtom(["grad"], title: "gradian", .angle, Exact.pi / Exact(200)),
    UnitAtom(["turn"], title: "turn", .angle, Exact.pi * Exact(2)),
    // temperature
    UnitAtom(["K"], .si, title: "kelvin", .temperature, Exact(1), temperature: .absolute),
    UnitAtom(
      ["°C", "degC"], title: "degree Celsius", .temperature, Exact(1),
      temperature: .scale(offset: decimal("273.15"))),
    UnitAtom(
      ["°F", "degF"], title: "degree Fahrenheit", .temperature, Exact(5, over: 9),
      temperature: .scale(offset: decimal("459.67"))),
    UnitAtom(["°R"], title: "degree Rankine", .temperature, Exact(5, over: 9), temperature: .absolute),
    UnitAtom(
      ["\u{0394}°C", "deltaC", "\u{2206}°C"], title: "difference in degrees Celsius", .temperature, Exact(1),
      temperature: .difference),
    UnitAtom(
      ["\u{0394}°F", "deltaF", "\u{2206}°F"], title: "difference in degrees Fahrenheit", .temperature,
      Exact(5, over: 9),
      temperature: .difference),
  ]

  /// The SI prefixes (`µ` also as `u` and U+03BC), then the binary ones of the data units.
  package static let prefixes: [UnitPrefix] = {
    let si: [(String, String, Int)] = [
      ("q", "quecto", -30), ("r", "ronto", -27), ("y", "yocto", -24), ("z", "zepto", -21), ("a", "atto", -18),
      ("f", "femto", -15), ("p", "pico", -12), ("n", "nano", -9), ("\u{00B5}", "micro", -6), ("\u{03BC}", "micro", -6),
      ("u", "micro", -6), ("m", "milli", -3), ("c", "centi", -2), ("d", "deci", -1), ("da", "deca", 1),
      ("h", "hecto", 2), ("k", "kilo", 3), ("M", "mega", 6), ("G", "giga", 9), ("T", "tera", 12),
      ("P", "peta", 15), ("E", "exa", 18), ("Z", "zetta", 21), ("Y", "yotta", 24), ("R", "ronna", 27),
      ("Q", "quetta", 30),
    ]
    let data: Set<String> = ["k", "M", "G", "T", "P", "E"]
    var all = si.map { symbol, name, exponent in
      UnitPrefix(
        symbol: symbol, name: name, factor: Exact(10).power(exponent), forData: data.contains(symbol), forSI: true)
    }
    let binary = ["Ki": "kibi", "Mi": "mebi", "Gi": "gibi", "Ti": "tebi", "Pi": "pebi", "Ei": "exbi"]
    for (i, symbol) in ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"].enumerated() {
      all.append(
        UnitPrefix(
          symbol: symbol, name: binary[symbol] ?? symbol, factor: Exact(1024).power(i + 1), forData: true,
          forSI: false))
    }
    return all
  }()

  /// The index of an atom in `atoms` by each of its names.
  private static let byName: [String: Int] = {
    var index: [String: Int] = [:]
    for (i, atom) in atoms.enumerated() {
      for name in atom.names where index[name] == nil { index[name] = i }
    }
    return index
  }()

  /// The index of the prefix the display writes for each symbol (`µ` for `u` and U+03BC).
  package static func displayedPrefix(_ index: Int) -> Int {
    switch prefixes[index].symbol {
    case "u", "\u{03BC}": prefixes.firstIndex { $0.symbol == "\u{00B5}" } ?? index
    default: index
    }
  }

  /// What a unit name is: an atom with a prefix index (-1 for none); or why it is none.
  package enum Lookup: Equatable, Sendable {
    case unit(atom: Int, prefix: Int)
    /// A prefix on a unit that takes none, or none of that class (`kmin`, `kft`, `cB`).
    case prefixNotTaken(atom: Int, prefix: Int)
    case unknown
  }

  /// The unit a name means: the whole name first (`min`, `Pa`, `ft`, `pt`, `ct`), then a prefix
  /// and a name that takes it (`mm`, `kWh`, `MiB`).
  package static func lookUp(_ name: String) -> Lookup {
    if let atom = byName[name] { return .unit(atom: atom, prefix: -1) }
    var refused: Lookup = .unknown
    for (p, prefix) in prefixes.enumerated() where name.hasPrefix(prefix.symbol) {
      let rest = String(name.dropFirst(prefix.symbol.count))
      guard let atom = byName[rest] else { continue }
      if atoms[atom].prefixedNames.contains(rest) && prefix.applies(to: atoms[atom].prefixes) {
        return .unit(atom: atom, prefix: p)
      }
      refused = .prefixNotTaken(atom: atom, prefix: p)
    }
    return refused
  }

  /// Every name a unit can be written with, prefixed ones included, for suggestions: each
  /// atom's names, and each prefix on each name that takes it.
  package static let allNames: [String] = {
    var names: [String] = []
    for atom in atoms {
      names += atom.names
      for name in atom.prefixedNames {
        for prefix in prefixes where prefix.applies(to: atom.prefixes) && prefix.symbol != "\u{03BC}" {
          names.append(prefix.symbol + name)
        }
      }
    }
    return names
  }()
}

// Dimensions: what a unit measures, as powers of the base dimensions, and its name in words.

/// A base dimension, in the order `ubase` writes base units: kg, m, s, A, K, rad, bit. Each
/// currency and each unit defined with an empty body will be a base of its own, after these.
package enum BaseDimension: Int, CaseIterable, Sendable {
  case mass, length, time, current, temperature, angle, data

  /// The SI base unit (or the base the table measures the dimension in) as `ubase` writes it.
  package var unitName: String {
    switch self {
    case .mass: "kg"
    case .length: "m"
    case .time: "s"
    case .current: "A"
    case .temperature: "K"
    case .angle: "rad"
    case .data: "bit"
    }
  }

  /// The dimension in words: "a length".
  package var noun: String {
    switch self {
    case .mass: "a mass"
    case .length: "a length"
    case .time: "a time"
    case .current: "a current"
    case .temperature: "a temperature"
    case .angle: "an angle"
    case .data: "an amount of data"
    }
  }
}

/// A power of a base dimension past the seven: a currency's own (`EUR`) or a tape's own unit's
/// (`pace`), each a base until a definition in the tape links it to another. The base is the
/// unit's index in `Units.atom(_:)`.
package struct ExtraPower: Hashable, Sendable {
  package var base: Int32
  package var power: Int16
}

/// What a unit measures: a power of each base dimension (`speed` is length¹·time⁻¹). Two units
/// convert into each other when their dimensions are equal.
package struct Dimension: Hashable, Sendable {
  /// The power of each base, indexed by `BaseDimension.rawValue`; trailing zeros trimmed, so
  /// that equal dimensions are equal arrays.
  package private(set) var powers: [Int16]
  /// The powers of the bases past the seven (currencies), by base, none 0: sparse, since a tape
  /// names a few of the many.
  package private(set) var extra: [ExtraPower]

  package init(_ powers: [Int16] = [], extra: [ExtraPower] = []) {
    self.powers = powers
    self.extra = extra.filter { $0.power != 0 }.sorted { $0.base < $1.base }
    trim()
  }

  /// The dimension of a base of its own: a currency's, by its index in `UnitTable.atoms`.
  package init(ownBase atom: Int) {
    self.init([], extra: [ExtraPower(base: Int32(atom), power: 1)])
  }

  /// Whether a currency (a base past the seven) is part of it: `EUR`, `EUR/h`.
  package var hasExtraBases: Bool { !extra.isEmpty }

  /// The dimension without its currencies: what must agree when two amounts in currencies meet
  /// and no rate links them (`EUR/h` and `USD/h` agree: `h^-1`).
  package var withoutExtraBases: Dimension { Dimension(powers) }

  package init(_ base: BaseDimension, _ power: Int16 = 1) {
    var powers = [Int16](repeating: 0, count: base.rawValue + 1)
    powers[base.rawValue] = power
    self.init(powers)
  }

  /// A plain number's dimension: every power 0.
  package static let none = Dimension()

  package var isNone: Bool { powers.isEmpty && extra.isEmpty }

  package func power(of base: BaseDimension) -> Int16 {
    base.rawValue < powers.count ? powers[base.rawValue] : 0
  }

  private mutating func trim() {
    while let last = powers.last, last == 0 { powers.removeLast() }
  }

  package static func * (a: Dimension, b: Dimension) -> Dimension {
    var powers = [Int16](repeating: 0, count: max(a.powers.count, b.powers.count))
    for (i, p) in a.powers.enumerated() { powers[i] += p }
    for (i, p) in b.powers.enumerated() { powers[i] += p }
    if a.extra.isEmpty && b.extra.isEmpty { return Dimension(powers) }
    var extra = a.extra
    for e in b.extra {
      if let i = extra.firstIndex(where: { $0.base == e.base }) { extra[i].power += e.power } else { extra.append(e) }
    }
    return Dimension(powers, extra: extra)
  }

  /// The dimension raised to a whole power.
  package func raised(to n: Int) -> Dimension {
    let k = Int16(clamping: n)
    return Dimension(powers.map { $0 * k }, extra: extra.map { ExtraPower(base: $0.base, power: $0.power * k) })
  }

  // The named dimensions the table and the messages use.
  package static let length = Dimension(.length)
  package static let mass = Dimension(.mass)
  package static let time = Dimension(.time)
  package static let current = Dimension(.current)
  package static let temperature = Dimension(.temperature)
  package static let angle = Dimension(.angle)
  package static let data = Dimension(.data)
  package static let area = length.raised(to: 2)
  package static let volume = length.raised(to: 3)
  package static let frequency = time.raised(to: -1)
  package static let speed = length * frequency
  package static let acceleration = speed * frequency
  package static let force = mass * acceleration
  package static let energy = force * length
  package static let power = energy * frequency
  package static let pressure = force * area.raised(to: -1)
  package static let charge = current * time
  package static let voltage = power * current.raised(to: -1)
  package static let resistance = voltage * current.raised(to: -1)
  package static let density = mass * volume.raised(to: -1)
  package static let dataRate = data * frequency

  /// The dimensions that have a common name, with it.
  private static let named: [(Dimension, String)] = [
    (.length, "a length"), (.mass, "a mass"), (.time, "a time"), (.current, "a current"),
    (.temperature, "a temperature"), (.angle, "an angle"), (.data, "an amount of data"),
    (.area, "an area"), (.volume, "a volume"), (.frequency, "a frequency"), (.speed, "a speed"),
    (.acceleration, "an acceleration"), (.force, "a force"), (.energy, "an energy"), (.power, "a power"),
    (.pressure, "a pressure"), (.charge, "a charge"), (.voltage, "a voltage"), (.resistance, "a resistance"),
    (.density, "a density"), (.dataRate, "a data rate"), (.angle * .frequency, "an angular speed"),
  ]

  /// The dimension in words, with its article where it has a common name ("a length", "a
  /// speed"), else as base units ("m*kg/s^3"); a plain number's is "a plain number".
  package var inWords: String {
    if isNone { return "a plain number" }
    if let name = Self.named.first(where: { $0.0 == self })?.1 { return name }
    if powers.isEmpty, extra.count == 1, extra[0].power == 1 {
      let atom = Units.atom(Int(extra[0].base))
      return atom.isCurrency ? "an amount of \(atom.name)" : "a quantity in \(atom.name)"
    }
    return "in " + baseUnits
  }

  /// The dimension as base units, numerator in `ubase`'s order then the denominator:
  /// `kg*m^2/s^2`.
  package var baseUnits: String {
    var factors: [(String, Int)] = []
    for base in BaseDimension.allCases where power(of: base) != 0 {
      factors.append((base.unitName, Int(power(of: base))))
    }
    for e in extra { factors.append((Units.atom(Int(e.base)).name, Int(e.power))) }
    return UnitSpelling.write(factors)
  }
}

/// How a unit is written for display: numerator factors joined by `*`, powers as `^N`, then `/`
/// and the denominator (in parentheses when it has several factors); with no factor above the
/// line, negative powers (`s^-1`, since `1/s` after a number would read back as a number).
package enum UnitSpelling {
  package static func write(_ factors: [(name: String, power: Int)]) -> String {
    let numerator = factors.filter { $0.power > 0 }
    let denominator = factors.filter { $0.power < 0 }
    func one(_ name: String, _ power: Int) -> String { power == 1 ? name : "\(name)^\(power)" }
    if numerator.isEmpty {
      return denominator.map { one($0.name, $0.power) }.joined(separator: "*")
    }
    var text = numerator.map { one($0.name, $0.power) }.joined(separator: "*")
    if !denominator.isEmpty {
      let below = denominator.map { one($0.name, -$0.power) }.joined(separator: "*")
      text += denominator.count == 1 ? "/" + below : "/(" + below + ")"
    }
    return text
  }
}

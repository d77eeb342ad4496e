// What the unit diagnostics say: why a unit is malformed, what an unknown one may have meant, why units do not fit.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension UnitSyntaxError {
  /// Why the unit is malformed and how to write it; `part` is the text at fault, `token` the
  /// whole token.
  package func explanation(part: String, token: String) -> String {
    switch self {
    case .empty: return "a unit must follow `_` or `>`, with no space, like `12_km` or `>mi`"
    case .missingName: return "a unit is missing beside `\(part)`; write units like `km/h` or `m/s^2`"
    case .twoSlashes:
      return "a unit has at most one `/`; write \(UnitSuggestions.rewritten(token).map { "`\($0)`" } ?? "`m/s^2`")"
    case .productAfterSlash:
      return "after `/`, several units go in parentheses; write "
        + (UnitSuggestions.rewritten(token).map { "`\($0)`" } ?? "`J/(kg*K)`")
    case .parentheses: return "parentheses only hold a denominator's units, like `J/(kg*K)`"
    case .badPower: return "a power is a whole number after `^`, like `m^2` or `s^-1`"
    case .powerOutOfRange: return "a power is a whole number from -99 to 99, other than 0"
    case .badCharacter: return "`\(part)` cannot be part of a unit; units are names joined by `*` or `/`, like `kW*h`"
    case .tooLong:
      return "a unit expression has at most \(UnitExpression.maximumFactors) factors and "
        + "\(UnitExpression.maximumLength) bytes"
    case .temperatureInCompound:
      return "`\(part)` is a temperature on a scale and cannot be part of a compound unit or take a power; "
        + "use `K` or `Δ°C`"
    case .prefixNotTaken:
      return "`\(part)` is a prefix on a unit that takes none (or not that one); "
        + "prefixes go on SI units like `m`, `g`, `s`, `W`, and `k M G T P E Ki Mi …` on `B` and `bit`"
    case .integerLiteral:
      return "a unit cannot follow an integer written in a radix (`0x`, `0o`, `0b`); write the number in decimal"
    case .misplacedOne: return "`1` may only stand alone above the line, like `1/s`"
    case .unknownFormat:
      return "`\(part)` is no format; times and angles convert to "
        + SexagesimalFormat.allCases.map { "`>\($0.name)`" }.joined(separator: ", ")
    }
  }
}

extension UnitFailure {
  /// The sentence of a `unit-mismatch` at `word` with these operands (bottom to top).
  func message(word: String, operands: [Value], show: (Value) -> String) -> String {
    func typeset(_ value: Value) -> String {
      value.unit == .none || value.unit.isFormatted
        ? show(value) : show(value.relabeled(.none)) + " " + value.unit.spelling
    }
    func described(_ value: Value) -> String { "\(typeset(value)) is \(value.unit.dimension.inWords)" }
    let a = operands.count >= 2 ? operands[operands.count - 2] : operands.first
    let b = operands.last
    switch self {
    case .dimensions:
      guard let a, let b else { return "`\(word)` needs values of one dimension" }
      var message = "`\(word)` needs one dimension: \(described(a)), \(described(b))"
      if a.unit == .none, b.unit != .none {
        message += "; write `\(show(a))_\(b.unit.spelling)`"
      } else if b.unit == .none, a.unit != .none {
        message += "; write `\(show(b))_\(a.unit.spelling)`"
      }
      return message
    case .temperatures:
      guard let a, let b else { return "`\(word)` adds two temperatures" }
      if a.unit.info.temperature == .difference {
        return "`\(word)` takes a temperature (\(typeset(b))) from a difference (\(typeset(a))); "
          + "write the temperature first"
      }
      let change = b.relabeled(Units.difference(of: b.unit))
      return "`\(word)` adds two temperatures (\(typeset(a)) and \(typeset(b))): "
        + "write the change as `\(show(b))_\(change.unit.spelling)`"
    case .temperatureScale:
      let which = operands.first { $0.unit.info.isScale }.map(typeset) ?? "a temperature"
      return "`\(word)` of \(which): a temperature on a scale (°C, °F) cannot be multiplied, divided, raised, "
        + "added up or taken modulo; convert it to `K` first (`>K`), or use a difference (`Δ°C`)"
    case .temperatureAndDifference:
      return "`\(word)` mixes temperatures and differences of temperature ("
        + operands.map(typeset).joined(separator: ", ") + ")"
    case .fractionalPower:
      return "`\(word)` of \(operands.map(typeset).joined(separator: " and ")): the unit's powers would not be whole "
        + "numbers"
    case .powerTooLarge:
      return "`\(word)` of \(operands.map(typeset).joined(separator: " and ")): a unit's power would pass "
        + "\(UnitExpression.maximumPower)"
    case .quantityExponent:
      return "`\(word)`: the exponent \(b.map(typeset) ?? "") must be a plain number; `uval` drops its unit"
    case .needsPlain:
      let quantity = operands.last { $0.unit != .none } ?? b ?? .zero
      return "`\(word)` takes plain numbers: \(described(quantity)); `uval` drops the unit"
    case .needsAngle:
      return "`\(word)` takes an angle (`30_°`) or a plain number: \(b.map(described) ?? "")"
    case .alreadyHasUnit(let unit):
      return "`\(word)`: \(b.map(typeset) ?? "the top") has a unit already; to convert it, write "
        + "`>\(unit.spelling)`"
    case .plainConversion(let unit):
      return "`\(word)`: \(b.map(show) ?? "the top") is a plain number, with no unit to convert; to give it one, "
        + "write `_\(unit.spelling)`"
    case .conversion(let unit):
      guard let b else { return "`\(word)` cannot convert" }
      return "cannot convert \(typeset(b)), \(b.unit.dimension.inWords), to \(unit.spelling), "
        + "\(unit.dimension.inWords)"
    case .temperatureConversion(let unit):
      guard let b else { return "`\(word)` cannot convert" }
      if unit.info.temperature == .difference {
        return "cannot convert \(typeset(b)), a temperature, to \(unit.spelling), a difference of temperature; "
          + "subtract two temperatures to get one"
      }
      return "cannot convert \(typeset(b)), a difference of temperature, to \(unit.spelling), a temperature; "
        + "add it to a temperature, or convert it to `Δ\(unit.spelling)`"
    case .tooManyUnits:
      return "`\(word)`: this session has met \(Units.capacity) distinct units, the most it keeps"
    case .noRate(let x, let y):
      let (p, q) = (x.currencyName, y.currencyName)
      let what = operands.count >= 2 ? " (\(typeset(operands[0])) and \(typeset(operands[1])))" : ""
      return "`\(word)`: no rate above links \(p) and \(q)\(what); write what one \(p) is in \(q) on a line "
        + "above, `: _\(p) RATE_\(q) ;` with the rate for RATE (`: _EUR 1.08_USD ;` reads 1 EUR = 1.08 USD)"
    }
  }
}

/// What an unknown unit name may have meant: common spellings, the same name in another case,
/// and names close to it.
package enum UnitSuggestions {
  /// Spellings people write for units, with the unit meant.
  static let common: [String: [String]] = [
    "kmh": ["km/h"], "kph": ["km/h"], "KPH": ["km/h"], "kmph": ["km/h"], "mps": ["m/s"],
    "KB": ["kB", "KiB"], "Kb": ["kbit", "Kibit"], "kb": ["kbit", "kB"], "C": ["°C"], "F": ["°F"], "R": ["°R"],
    "hr": ["h"], "hrs": ["h"], "hour": ["h"], "hours": ["h"], "mins": ["min"], "minute": ["min"], "minutes": ["min"],
    "sec": ["s"], "secs": ["s"], "second": ["s"], "seconds": ["s"], "day": ["d"], "days": ["d"],
    "week": ["wk"], "weeks": ["wk"], "year": ["yr"], "years": ["yr"], "y": ["yr"],
    "lbs": ["lb"], "pound": ["lb"], "pounds": ["lb"], "ounce": ["oz"], "ounces": ["oz"],
    "sqft": ["ft^2"], "sqm": ["m^2"], "sqmi": ["mi^2"], "sqin": ["in^2"], "cc": ["cm^3"],
    "kilometre": ["km"], "kilometer": ["km"], "kilometres": ["km"], "kilometers": ["km"],
    "mile": ["mi"], "miles": ["mi"], "meters": ["m"], "metres": ["m"], "foot": ["ft"], "feet": ["ft"],
    "inch": ["in"], "inches": ["in"], "yard": ["yd"], "yards": ["yd"],
    "gram": ["g"], "grams": ["g"], "kilogram": ["kg"], "kilograms": ["kg"], "kilo": ["kg"], "kilos": ["kg"],
    "liter": ["L"], "litre": ["L"], "liters": ["L"], "litres": ["L"], "gallon": ["gal"], "gallons": ["gal"],
    "celsius": ["°C"], "fahrenheit": ["°F"], "kelvin": ["K"], "degrees": ["°"], "degree": ["°"],
    "kwh": ["kWh"], "KWh": ["kWh"], "KWH": ["kWh"], "kw": ["kW"], "KW": ["kW"], "Kw": ["kW"],
    "knot": ["kn"], "knots": ["kn"], "kt": ["kn"], "joule": ["J"], "watt": ["W"], "watts": ["W"],
    "volt": ["V"], "volts": ["V"], "amp": ["A"], "amps": ["A"], "hertz": ["Hz"], "byte": ["B"], "bytes": ["B"],
    "bits": ["bit"], "b": ["bit", "B"], "us": ["µs"], "tbs": ["tbsp"], "tblsp": ["tbsp"], "fl_oz": ["floz"],
  ]

  /// The unit names by their lowercased spelling, each with its place in the table's order (the
  /// order suggestions are listed in); a name the table lists twice, once, at its first place.
  private static let byLowered: [String: [(order: Int, name: String)]] = {
    var names: [String: [(order: Int, name: String)]] = [:]
    for (order, name) in UnitTable.allNames.enumerated() {
      let lowered = name.lowercased()
      if names[lowered]?.contains(where: { $0.name == name }) == true { continue }
      names[lowered, default: []].append((order, name))
    }
    return names
  }()

  /// The lowercased unit names, indexed by their spellings with up to two characters deleted, so
  /// that an unknown unit's close names are looked up, not searched for: a megabyte of distinct
  /// unknown units took 45 s comparing each with every name of the table.
  private static let index = NameIndex(byLowered.keys.sorted().map { VisibleName($0, isWord: false) })

  /// At most three units `name` may have meant: a common spelling's unit; else the names that
  /// differ from it in case only; else those within one edit of it in any case, else two (names
  /// of two characters or more), in the table's order.
  package static func suggest(_ name: String) -> [String] {
    if let known = common[name] { return known }
    if let known = memo.known(name) { return known }
    let found = lookUp(name)
    memo.remember(name, found)
    return found
  }

  /// `suggest`, worked out: the index narrows the names to compare, which for a short name is
  /// still most of the table, hence `memo`.
  private static func lookUp(_ name: String) -> [String] {
    let lowered = name.lowercased()
    if let sameButCase = byLowered[lowered] { return sameButCase.prefix(3).map(\.name) }
    let typed = Array(lowered.unicodeScalars)
    guard typed.count >= 2, typed.count <= Suggestions.maximumWordLength else { return [] }
    for limit in 1...2 {
      var found: [(order: Int, name: String)] = []
      for candidate in index.candidates(near: typed, limit: limit) {
        let scalars = Array(candidate.unicodeScalars)
        guard scalars.count >= 2, Suggestions.distance(typed, scalars, limit: limit) <= limit else { continue }
        found += byLowered[candidate] ?? []
      }
      if !found.isEmpty { return found.sorted { $0.order < $1.order }.prefix(3).map(\.name) }
    }
    return []
  }

  /// The suggestions worked out for the unknown units met, by name: a tape that writes one
  /// unknown unit on every line (200,000 lines took 12 s) works them out once.
  private static let memo = SuggestionMemo()

  /// A malformed unit expression written the way the grammar takes it, when its parts are plain
  /// names: the denominators after the first `/` gathered in parentheses, names merged by their
  /// powers (`m/s/s` → `m/s^2`, `J/kg*K` → `J/(kg*K)`).
  static func rewritten(_ token: String) -> String? {
    let start =
      token.firstIndex { $0 == "_" || $0 == ">" || $0 == "→" }.map { token.index(after: $0) } ?? token.startIndex
    let unit = token[start...]
    let parts = unit.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count >= 2 else { return nil }
    var factors: [(name: String, power: Int)] = []
    func add(_ text: Substring, sign: Int) -> Bool {
      for piece in text.split(whereSeparator: { $0 == "*" || $0 == "·" || $0 == "(" || $0 == ")" }) {
        let pieces = piece.split(separator: "^")
        guard let name = pieces.first, !name.isEmpty, pieces.count <= 2 else { return false }
        let power = pieces.count == 2 ? Int(pieces[1]) ?? 0 : 1
        guard power != 0 else { return false }
        if let i = factors.firstIndex(where: { $0.name == String(name) }) {
          factors[i].power += power * sign
        } else {
          factors.append((String(name), power * sign))
        }
      }
      return true
    }
    guard add(parts[0], sign: 1) else { return nil }
    for part in parts.dropFirst() { guard add(part, sign: -1) else { return nil } }
    factors.removeAll { $0.power == 0 }
    guard !factors.isEmpty else { return nil }
    return UnitSpelling.write(factors)
  }
}

extension Problem {
  /// The problem of a token whose unit is unknown or malformed: `unknown-unit` with its
  /// suggestions, or `invalid-unit` with the part at fault.
  init(_ problem: UnitProblem, token bytes: UnsafeBufferPointer<UInt8>) {
    let token = String(decoding: bytes, as: UTF8.self)
    func text(_ span: UnitSpan) -> String {
      let range = span.range.clamped(to: 0..<bytes.count)
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
    switch problem {
    case .unknown(let span):
      let name = text(span)
      self = .unknownUnit(token: token, name: name, suggestions: UnitSuggestions.suggest(name))
    case .malformed(let error, let span):
      self = .invalidUnit(token: token, error: error, part: text(span))
    }
  }
}

/// What `UnitSuggestions` found for each unknown unit name, shared by the documents of the
/// process (a lock guards it, as it does the unit registry); cleared when it holds
/// `capacity` names, so that it stays small whatever the tapes write.
private final class SuggestionMemo: @unchecked Sendable {
  static let capacity = 4_096
  private let lock: UnsafeMutablePointer<pthread_mutex_t>
  private var found: [String: [String]] = [:]

  init() {
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_mutex_t())
    pthread_mutex_init(lock, nil)
  }

  func known(_ name: String) -> [String]? {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return found[name]
  }

  func remember(_ name: String, _ suggestions: [String]) {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    if found.count >= Self.capacity { found.removeAll(keepingCapacity: true) }
    found[name] = suggestions
  }
}

extension UnitID {
  /// The first currency this unit measures in (`EUR` of `EUR/h`), by its code; the unit's
  /// spelling when it has none.
  var currencyName: String {
    guard let base = dimension.extra.first else { return spelling }
    return Units.atom(Int(base.base)).name
  }
}

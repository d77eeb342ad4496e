// The units a process has met: each compound unit once, by ID, with its dimension, factor and spelling.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One factor of a unit: a table unit, its prefix (an index into `UnitTable.prefixes`, or -1) and
/// its power (`km^2`: `m`, `k`, 2).
package struct UnitFactor: Hashable, Sendable {
  package var atom: Int16
  package var prefix: Int16
  package var power: Int16

  package init(atom: Int, prefix: Int, power: Int) {
    self.atom = Int16(atom)
    self.prefix = Int16(prefix)
    self.power = Int16(clamping: power)
  }

  package var unit: UnitAtom { Units.atom(Int(atom)) }

  /// The factor's name as the display writes it, without its power: `km`, `°C`, `µs`.
  package var name: String {
    prefix < 0 ? unit.name : UnitTable.prefixes[UnitTable.displayedPrefix(Int(prefix))].symbol + unit.name
  }

  /// One of this factor's unit (prefix included, power not) in base units.
  package var unitFactor: Exact {
    prefix < 0 ? unit.factor : UnitTable.prefixes[Int(prefix)].factor * unit.factor
  }

  /// The same unit: the same table unit with the same prefix (aliases and `u`/`µ` count as one).
  func sameName(as other: UnitFactor) -> Bool {
    guard atom == other.atom else { return false }
    if prefix < 0 || other.prefix < 0 { return prefix == other.prefix }
    return UnitTable.displayedPrefix(Int(prefix)) == UnitTable.displayedPrefix(Int(other.prefix))
  }
}

/// What a unit is: its factors as written (merged by name), what it measures, how many base
/// units one of it is, what it is to temperature's rules, and how it is written.
package struct UnitInfo: Sendable {
  package let factors: [UnitFactor]
  package let dimension: Dimension
  /// One of this unit in base units, exactly.
  package let factor: Exact
  /// A lone temperature unit's role (`°C` a scale, `K` absolute, `Δ°C` a difference); `.none`
  /// for every other unit, compounds included (`J/K` is linear).
  package let temperature: TemperatureRole
  /// How the display writes it: `m/s^2`, `kg*m^2/s^2`, `J/(kg*K)`.
  package let spelling: String
  /// The sexagesimal format its values are shown in (`h:mm`), or nil: a formatted unit has the
  /// factors of its plain one (`h`), and its own ID.
  package let format: SexagesimalFormat?
  /// A formatted unit's plain unit (`h` for `h:mm`), kept where it is made so that a conversion
  /// need not look its factors up again; `none` for a unit with no format.
  let plain: UnitID

  init(factors: [UnitFactor], format: SexagesimalFormat? = nil, plain: UnitID = .none) {
    self.factors = factors
    self.format = format
    self.plain = plain
    var dimension = Dimension.none
    var factor = Exact(1)
    for f in factors {
      dimension = dimension * f.unit.dimension.raised(to: Int(f.power))
      factor = factor * f.unitFactor.power(Int(f.power))
    }
    self.dimension = dimension
    self.factor = factor
    if factors.count == 1, factors[0].power == 1 {
      temperature = factors[0].unit.temperature
    } else {
      temperature = .none
    }
    spelling = UnitSpelling.write(factors.map { ($0.name, Int($0.power)) })
  }

  /// A temperature on a scale with its zero elsewhere: `°C` or `°F`.
  package var isScale: Bool {
    if case .scale = temperature { return true }
    return false
  }

  /// The offset of a scale (`°C`: 273.15), zero for anything else.
  package var offset: Exact {
    if case .scale(let offset) = temperature { return offset }
    return .zero
  }
}

/// The table of every unit met, by ID: each distinct unit interned once, for the whole process
/// (units are values of the language: their IDs are the same in every document, and the
/// display and the rules find a unit's facts by its ID). Guarded by a lock, since the tests run
/// documents on several threads; the server asks from one.
///
/// It grows with the distinct units a session writes or computes, which the text bounds; past
/// `capacity` a new unit is refused (a `unit-mismatch` or `invalid-unit` naming the limit), so
/// that a hostile session cannot grow it without end.
package final class Units: @unchecked Sendable {
  package static let shared = Units()

  /// The most distinct units a process keeps.
  package static let capacity = 1 << 18

  /// The most ratios (and, apart, temperatures' ratios and offsets) kept between two units.
  package static let pairCapacity = 1 << 14

  private let lock: UnsafeMutablePointer<pthread_mutex_t>
  private var infos: [UnitInfo] = [UnitInfo(factors: [])]
  private var ids: [[UnitFactor]: UInt32] = [[]: 0]
  /// The formatted units made so far, by their plain unit's ID and format.
  private var formattedIDs: [UInt64: UInt32] = [:]
  /// Ratios (and a temperature's ratio and offset) between two units, by their IDs: a pair of
  /// the units met, so up to `capacity`² of them. Cleared when `pairCapacity` are kept, so that
  /// a long session that converts between ever new units does not grow them without end.
  private var linear: [UInt64: Exact] = [:]
  private var affine: [UInt64: (Exact, Exact)] = [:]
  /// Units already read, by their text when it is short (`km`, `m/s^2`): a tape writes the same
  /// few units again and again, and reading one (parsing, looking names up) costs far more than
  /// this lookup. Cleared when full.
  /// A direct-mapped table (a text's slot is a hash of it; a new text takes the slot over): a
  /// lookup is a few instructions, where a dictionary's hashing cost hundreds.
  @exclusivity(unchecked) private var read = [ReadSlot](repeating: ReadSlot(), count: slotCount)
  /// Products and quotients already worked out, by their operands' IDs, the same way: a tape
  /// multiplies the same units again and again.
  @exclusivity(unchecked) private var products = [ProductSlot](repeating: ProductSlot(), count: slotCount)
  private static let slotCount = 1024

  /// A slot for `key`'s two words.
  @inline(__always)
  private static func slot(_ low: UInt64, _ high: UInt64) -> Int {
    Int(truncatingIfNeeded: (low &* 0x9E37_79B9_7F4A_7C15 ^ high &* 0xC2B2_AE3D_27D4_EB4F) >> 54)
  }

  private init() {
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_mutex_t())
    pthread_mutex_init(lock, nil)
  }

  @inline(__always)
  private func locked<T>(_ body: () -> T) -> T {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return body()
  }

  /// The ID of a unit with these factors (none for no factor), or nil when the table is full.
  package func id(_ factors: [UnitFactor]) -> UnitID? {
    if factors.isEmpty { return UnitID.none }
    return locked {
      if let id = ids[factors] { return UnitID(index: id) }
      guard infos.count < Self.capacity else { return nil }
      let info = UnitInfo(factors: factors)
      let id =
        UInt32(infos.count) | (info.isScale ? UnitID.scaleFlag : 0)
        | (info.dimension.hasExtraBases ? UnitID.currencyFlag : 0)
      infos.append(info)
      ids[factors] = id
      return UnitID(index: id)
    }
  }

  /// The unit `plain` (`h`, `min` or `°`) shown in `format`, or nil when the table is full.
  package func formatted(_ plain: UnitID, _ format: SexagesimalFormat) -> UnitID? {
    let key = UInt64(plain.index) << 8 | UInt64(format.rawValue)
    return locked {
      if let id = formattedIDs[key] { return UnitID(index: id) }
      guard infos.count < Self.capacity, plain.slot < infos.count else { return nil }
      let info = UnitInfo(factors: infos[plain.slot].factors, format: format, plain: plain)
      let id = UInt32(infos.count) | UnitID.formatFlag
      infos.append(info)
      formattedIDs[key] = id
      return UnitID(index: id)
    }
  }

  /// The unit a short text was read as before, if any.
  fileprivate func known(_ text: ShortText) -> UnitID? {
    let i = Self.slot(text.low, text.high)
    return locked {
      let slot = read[i]
      return slot.low == text.low && slot.high == text.high ? UnitID(index: slot.unit) : nil
    }
  }

  fileprivate func remember(_ text: ShortText, as unit: UnitID) {
    let i = Self.slot(text.low, text.high)
    locked { read[i] = ReadSlot(low: text.low, high: text.high, unit: unit.index) }
  }

  /// A product (`dividing`: a quotient) of two units worked out before, if any.
  func knownProduct(_ a: UnitID, _ b: UnitID, dividing: Bool) -> (UnitID, Exact?)? {
    let key = UInt64(a.index) << 32 | UInt64(b.index)
    let i = Self.slot(key, dividing ? 1 : 2)
    return locked {
      let slot = products[i]
      guard slot.used, slot.key == key, slot.dividing == dividing else { return nil }
      return (slot.unit, slot.scale)
    }
  }

  func rememberProduct(_ a: UnitID, _ b: UnitID, dividing: Bool, _ result: (UnitID, Exact?)) {
    let key = UInt64(a.index) << 32 | UInt64(b.index)
    let i = Self.slot(key, dividing ? 1 : 2)
    locked {
      products[i] = ProductSlot(used: true, key: key, dividing: dividing, unit: result.0, scale: result.1)
    }
  }

  /// What a unit is.
  package func info(_ unit: UnitID) -> UnitInfo {
    locked { unit.slot < infos.count ? infos[unit.slot] : infos[0] }
  }

  /// What a unit measures, read alone: the rules ask it on every conversion, where a copy of the
  /// whole `UnitInfo` (its arrays and strings retained and released) cost more than the answer.
  func dimension(_ unit: UnitID) -> Dimension {
    locked { unit.slot < infos.count ? infos[unit.slot].dimension : .none }
  }

  /// Whether two units measure the same, compared in place.
  func sameDimension(_ a: UnitID, _ b: UnitID) -> Bool {
    locked {
      let none = Dimension.none
      return (a.slot < infos.count && a != .none ? infos[a.slot].dimension : none)
        == (b.slot < infos.count && b != .none ? infos[b.slot].dimension : none)
    }
  }

  /// A lone temperature unit's role (`.none` for any other unit), read alone.
  func temperature(_ unit: UnitID) -> TemperatureRole {
    locked { unit.slot < infos.count ? infos[unit.slot].temperature : .none }
  }

  /// How many units are known (for tests and the bench).
  package var count: Int { locked { infos.count } }

  /// How many ratios between two units are kept (for tests).
  package var keptRatios: (linear: Int, affine: Int) { locked { (linear.count, affine.count) } }

  /// The exact ratio of one of `from` to one of `to`, both of one dimension.
  package func ratio(from: UnitID, to: UnitID) -> Exact {
    // A format is no unit of its own to convert: its plain unit's ratios serve, kept once (the
    // formats would otherwise each add a ratio to every unit a time is converted to and from).
    let from = from.isFormatted ? from.unformatted : from
    let to = to.isFormatted ? to.unformatted : to
    let key = UInt64(from.index) << 32 | UInt64(to.index)
    if let ratio = locked({ linear[key] }) { return ratio }
    let ratio = info(from).factor / info(to).factor
    locked {
      if linear.count >= Self.pairCapacity { linear.removeAll(keepingCapacity: true) }
      linear[key] = ratio
    }
    return ratio
  }

  /// The ratio and offset that take a temperature on `from`'s scale to `to`'s:
  /// y = x·ratio + offset.
  package func affine(from: UnitID, to: UnitID) -> (ratio: Exact, offset: Exact) {
    let key = UInt64(from.index) << 32 | UInt64(to.index)
    if let pair = locked({ affine[key] }) { return pair }
    let a = info(from)
    let b = info(to)
    let ratio = a.factor / b.factor
    let offset = a.offset * ratio - b.offset
    locked {
      if affine.count >= Self.pairCapacity { affine.removeAll(keepingCapacity: true) }
      affine[key] = (ratio, offset)
    }
    return (ratio, offset)
  }
}

extension UnitID {
  /// What this unit is.
  package var info: UnitInfo { Units.shared.info(self) }

  /// How the display writes the unit (`km/h`); empty for a plain number.
  package var spelling: String { self == .none ? "" : info.spelling }

  package var dimension: Dimension { self == .none ? .none : Units.shared.dimension(self) }

  /// Whether this unit measures what `other` does (`km` and `mi`; a plain number only a plain one).
  package func sameDimension(as other: UnitID) -> Bool { self == other || Units.shared.sameDimension(self, other) }

  /// The sexagesimal format values in this unit are shown in, or nil.
  package var format: SexagesimalFormat? { isFormatted ? info.format : nil }

  /// The unit without its format (`h:mm` → `h`); the unit itself when it has none.
  package var unformatted: UnitID {
    isFormatted ? info.plain : self
  }
}

extension Units {
  /// The unit a time or angle in `format` is in: `h`, `min` or `°` shown in it (nil only when
  /// the table is full).
  package static func unit(of format: SexagesimalFormat) -> UnitID? {
    formattedUnits[Int(format.rawValue)]
  }

  /// The five formatted units, by format, made once: every time literal and `>h:mm` asks, and
  /// the registry's IDs never change.
  private static let formattedUnits: [UnitID?] =
    [nil]
    + SexagesimalFormat.allCases.map { format in
      tableUnit(format.unit.tableName).flatMap { shared.formatted($0, format) }
    }
}

/// The units tapes name and define themselves (`pace` of `: _pace 0.75_m ;`), each a table
/// unit past `UnitTable.atoms` with a dimension of its own, interned once by name for the
/// process. Apart from the registry, with a lock of its own: the registry's lock is held while a
/// unit's factors are read.
private final class TapeUnits: @unchecked Sendable {
  static let shared = TapeUnits()
  /// The most the process keeps: atoms are 16-bit.
  static let capacity = Int(Int16.max) - UnitTable.atoms.count

  private let lock: UnsafeMutablePointer<pthread_mutex_t>
  private var atoms: [UnitAtom] = []
  private var byName: [String: Int] = [:]

  private init() {
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_mutex_t())
    pthread_mutex_init(lock, nil)
  }

  func atom(_ k: Int) -> UnitAtom {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return atoms[k]
  }

  /// The index in `Units.atom(_:)` of the tape's unit `name`, made on first use; nil when the
  /// process keeps as many as it can.
  func index(named name: String) -> Int? {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    if let k = byName[name] { return UnitTable.atoms.count + k }
    guard atoms.count < Self.capacity else { return nil }
    let index = UnitTable.atoms.count + atoms.count
    atoms.append(UnitAtom([name], title: name, Dimension(ownBase: index), Exact(1), tapeUnit: true))
    byName[name] = atoms.count - 1
    return index
  }
}

extension Units {
  /// A table unit by its index: one of `UnitTable.atoms`, or past them a tape's own unit.
  package static func atom(_ index: Int) -> UnitAtom {
    index < UnitTable.atoms.count ? UnitTable.atoms[index] : TapeUnits.shared.atom(index - UnitTable.atoms.count)
  }

  /// The unit a parsed expression names (the token's bytes hold the names), its factors merged
  /// by name; or why it is none. With `tapeUnits`, a name the table does not hold is a unit of
  /// the tape's own (`pace`), which evaluation then looks for a definition of.
  package static func resolve(
    _ factors: [UnitExpression.Factor], in bytes: UnsafeBufferPointer<UInt8>, offset: Int = 0,
    tapeUnits: Bool = false
  ) -> Result<UnitID, UnitProblem> {
    var resolved: [UnitFactor] = []
    resolved.reserveCapacity(factors.count)
    for factor in factors {
      let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[factor.name]), as: UTF8.self)
      let span = UnitSpan((factor.name.lowerBound - offset)..<(factor.name.upperBound - offset))
      switch UnitTable.lookUp(name) {
      case .unit(let atom, let prefix):
        let new = UnitFactor(
          atom: atom, prefix: prefix < 0 ? -1 : UnitTable.displayedPrefix(prefix), power: factor.power)
        if let same = resolved.firstIndex(where: { $0.sameName(as: new) }) {
          resolved[same].power += new.power
        } else {
          resolved.append(new)
        }
      case .prefixNotTaken: return .failure(.malformed(.prefixNotTaken, span))
      case .unknown:
        guard tapeUnits, let atom = TapeUnits.shared.index(named: name) else { return .failure(.unknown(span)) }
        let new = UnitFactor(atom: atom, prefix: -1, power: factor.power)
        if let same = resolved.firstIndex(where: { $0.atom == new.atom }) {
          resolved[same].power += new.power
        } else {
          resolved.append(new)
        }
      }
    }
    if resolved.contains(where: { abs(Int($0.power)) > UnitExpression.maximumPower }) {
      let whole = UnitSpan(
        (factors[0].name.lowerBound - offset)..<(factors[factors.count - 1].name.upperBound - offset))
      return .failure(.malformed(.powerOutOfRange, whole))
    }
    resolved.removeAll { $0.power == 0 }
    let scales = resolved.contains { if case .scale = $0.unit.temperature { true } else { false } }
    if scales && (resolved.count > 1 || resolved[0].power != 1) {
      let i = factors.firstIndex {
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[$0.name]), as: UTF8.self)
        if case .unit(let atom, _) = UnitTable.lookUp(name), case .scale = UnitTable.atoms[atom].temperature {
          return true
        }
        return false
      }
      let at = factors[i ?? 0].name
      return .failure(.malformed(.temperatureInCompound, UnitSpan((at.lowerBound - offset)..<(at.upperBound - offset))))
    }
    guard let id = shared.id(resolved) else {
      return .failure(.malformed(.tooLong, UnitSpan(0..<0)))
    }
    return .success(id)
  }

  /// The unit of a unit expression written in `bytes[range]` (`km/h`), as the lexer reads it:
  /// parsed, then resolved. Offsets in a problem are relative to `bytes`' start.
  package static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Result<UnitID, UnitProblem> {
    let key = ShortText(bytes, range)
    if let key, let known = shared.known(key) { return .success(known) }
    switch UnitExpression.parse(bytes, range) {
    case .failure(let problem): return .failure(problem)
    case .success(let factors):
      if factors.isEmpty { return .failure(.malformed(.missingName, UnitSpan(range))) }
      let result = resolve(factors, in: bytes)
      if let key, case .success(let unit) = result { shared.remember(key, as: unit) }
      return result
    }
  }

  /// `read(_:_:)` with the names the table does not hold taken as the tape's own units (not
  /// remembered: the lexer reads such a name as unknown, and evaluation decides).
  package static func read(tapeUnitsIn bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Result<
    UnitID, UnitProblem
  > {
    switch UnitExpression.parse(bytes, range) {
    case .failure(let problem): return .failure(problem)
    case .success(let factors):
      if factors.isEmpty { return .failure(.malformed(.missingName, UnitSpan(range))) }
      return resolve(factors, in: bytes, tapeUnits: true)
    }
  }

  /// `read(_:_:)`, first asking `memo`, the text read last, which it then holds this one; `key`
  /// is the text's (`UnitMemo.key`), worked out by the caller as it scanned the text.
  @inline(__always)
  static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, key: UInt64, memo: inout UnitMemo)
    -> Result<UnitID, UnitProblem>
  {
    if key != 0 && key == memo.key { return .success(memo.unit) }
    if key != 0 && key == memo.olderKey {
      // The other of two units a tape writes in turn (`12_EUR`, `3_USD`): swapped to the front.
      (memo.key, memo.unit, memo.olderKey, memo.olderUnit) = (memo.olderKey, memo.olderUnit, memo.key, memo.unit)
      return .success(memo.unit)
    }
    let result = read(bytes, range)
    if case .success(let unit) = result {
      (memo.olderKey, memo.olderUnit) = (memo.key, memo.unit)
      (memo.key, memo.unit) = (key, unit)
    }
    return result
  }

  /// The unit a name or expression written as text means (`"km/h"`), for tests and the
  /// server's completions: nil when it is none.
  /// With `tapeUnits`, a name the table does not hold is a unit of the tape's own.
  package static func unit(named text: String, tapeUnits: Bool = false) -> UnitID? {
    var text = text
    return text.withUTF8 { bytes in
      let result = tapeUnits ? read(tapeUnitsIn: bytes, 0..<bytes.count) : read(bytes, 0..<bytes.count)
      if case .success(let id) = result { return id }
      return nil
    }
  }
}

/// A unit as hover tells it: its name in words, what it measures, and how many base units one
/// of it is, exactly.
package struct UnitDescription: Equatable, Sendable {
  /// As the display writes it: `km/h`.
  package var spelling: String
  /// In words: "kilometre", "mile per hour"; a compound unit's spelling.
  package var name: String
  /// "a length", "a speed", "in m*kg/s^3".
  package var dimension: String
  /// The base units of its dimension: `m/s`.
  package var baseUnits: String
  /// One of it in base units, exactly: `1000`, `0.3048`, `201168/125`; with the offset of a
  /// temperature's scale (`(x + 273.15) K`).
  package var factor: String
}

extension UnitID {
  /// The unit in words, for hover.
  package var description: UnitDescription {
    let info = info
    var name = info.spelling
    if info.factors.count == 1, info.factors[0].power == 1 {
      let factor = info.factors[0]
      let prefix = factor.prefix < 0 ? "" : UnitTable.prefixes[Int(factor.prefix)].name
      name = prefix + factor.unit.title
    }
    if let format = info.format { name += " shown as \(format.name)" }
    let base = Units.base(of: self)?.spelling ?? ""
    var factor = info.factor.decimalDescription ?? info.factor.description
    if case .scale(let offset) = info.temperature {
      let shift = offset.decimalDescription ?? offset.description
      factor = info.factor == Exact(1) ? "(x + \(shift))" : "(x + \(shift))·\(factor)"
    }
    return UnitDescription(
      spelling: info.spelling, name: name, dimension: info.dimension.inWords, baseUnits: base, factor: factor)
  }
}

/// Unit texts of up to seven bytes and the units they read as: what a scanner remembers of the
/// two units it read last, so that a tape in one unit does not go to the registry (and its lock) for
/// each quantity. The registry's IDs never change, so what it remembers stays true.
package struct UnitMemo {
  /// The key of a text: its bytes, the first lowest, and its length in the top byte; 0 (no text)
  /// for a text too long to be held or not all ASCII, which then never matches.
  var key: UInt64 = 0
  var unit = UnitID.none
  /// The text read before it, and its unit: a tape that writes two units in turn hits too.
  var olderKey: UInt64 = 0
  var olderUnit = UnitID.none
}

/// Up to 15 bytes of text in two words, its length in the last byte: a key that needs no
/// allocation.
private struct ShortText {
  var low: UInt64 = 0
  var high: UInt64 = 0

  init?(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
    // Not empty: an empty slot's words are those of an empty text.
    guard !range.isEmpty, range.count <= 15 else { return nil }
    for (k, i) in range.enumerated() {
      if k < 8 { low |= UInt64(bytes[i]) << (8 * k) } else { high |= UInt64(bytes[i]) << (8 * (k - 8)) }
    }
    high |= UInt64(range.count) << 56
  }
}

/// A read-cache slot: a unit's text (as `ShortText`'s words; empty: length 0, which no text has)
/// and the unit it was read as.
private struct ReadSlot {
  var low: UInt64 = 0
  var high: UInt64 = 0
  var unit: UInt32 = 0
}

/// A product-cache slot: the operands' IDs, whether a quotient, and the result.
private struct ProductSlot {
  var used = false
  var key: UInt64 = 0
  var dividing = false
  var unit = UnitID.none
  var scale: Exact? = nil
}

extension Units {
  /// How many names of units the table lacks (the tapes' own) a session keeps.
  static var tapeUnitCapacity: Int { TapeUnits.capacity }
}

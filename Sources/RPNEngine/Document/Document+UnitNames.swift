// Units a tape defines, as names: where each currency or unit of the tape's own is defined and written.

/// One place a tape writes a currency or a unit of its own: the name of its definition
/// (`: _pace 0.75_m ;`), or a use inside a token (`3_pace`, `_pace`, `>pace`, `=2_pace`,
/// `12_pace/h`, `5_€`).
package struct UnitOccurrence: Equatable, Sendable {
  package var line: Int
  /// The whole token.
  package var range: Range<Int>
  /// The unit's name as the token writes it (`pace` of `3_pace/h`, `€` of `5_€`).
  package var nameRange: Range<Int>
  /// Whether this is the name of a definition (`_pace` after `:`).
  package var isDefinition: Bool
}

/// A unit's definition that succeeded, as symbols and inlay hints show it.
package struct UnitDefinition: Equatable, Sendable {
  /// The unit, as the table or the tape names it (`EUR` for `: _€ … ;`).
  package var name: String
  /// What one of it is (`1.08_USD`), or nil for an empty body: a dimension of its own.
  package var value: Value?
  package var line: Int
  /// From `:` to `;`.
  package var definitionRange: Range<Int>
  /// The defined unit's token (`_pace`).
  package var nameRange: Range<Int>
}

extension Document {
  /// The name a unit written in `bytes[range]` has when a tape may define it: a currency's code
  /// (`EUR`, for `€` too), or a name the table does not hold (a unit of the tape's own, `pace`);
  /// nil for the table's other units and their prefixed forms.
  static func definableUnitName(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    switch UnitTable.lookUp(text) {
    case .unit(let atom, let prefix):
      return prefix < 0 && UnitTable.atoms[atom].isCurrency ? UnitTable.atoms[atom].name : nil
    case .unknown: return text
    case .prefixNotTaken: return nil
    }
  }

  /// The units a token writes, each with its name's range in the line: the unit of a quantity, a
  /// check, or a unit word (`_x`, `>x`, `->x`, `→x`), factor by factor; none for other tokens
  /// or a unit that does not parse.
  static func unitNames(in bytes: UnsafeBufferPointer<UInt8>, token: Token) -> [UnitExpression.Factor] {
    switch token.kind {
    case .quantity, .attach, .convert, .check, .invalidUnit: break
    default: return []
    }
    let range = token.range.clamped(to: 0..<bytes.count)
    guard !range.isEmpty else { return [] }
    let text = UnsafeBufferPointer(rebasing: bytes[range])
    let start = Lexer.unitWordStart(text).map { range.lowerBound + $0 } ?? (Lexer.unitSeparator(in: bytes, range) + 1)
    guard start < range.upperBound, case .success(let factors) = UnitExpression.parse(bytes, start..<range.upperBound)
    else { return [] }
    return factors
  }

  /// The unit a definition's name token defines when a tape may define it (`_EUR`, `_pace`; `_€`
  /// defines `EUR`): nil for any other token (`_km`, `_EUR/h`, a name).
  static func definedUnitName(_ bytes: UnsafeBufferPointer<UInt8>, _ token: Token) -> String? {
    guard token.range.lowerBound < bytes.count, bytes[token.range.lowerBound] == 0x5F else { return nil }
    let factors = unitNames(in: bytes, token: token)
    return factors.count == 1 ? definableUnitName(bytes, factors[0].name) : nil
  }

  /// The currency or unit of the tape's own written at a UTF-8 offset of a line (in the token
  /// containing it, else ending there; the name containing the offset or ending at it), with its
  /// name (`EUR` for `€`); nil anywhere else.
  package func definableUnit(atLine line: Int, utf8Offset offset: Int) -> (name: String, occurrence: UnitOccurrence)? {
    guard lines.indices.contains(line) else { return nil }
    return withLexedLine(line) { lexed in
      guard let k = lexed.tokens.firstIndex(where: { $0.isAtCursor(offset) }) else { return nil }
      let token = lexed.tokens[k]
      let factors = Self.unitNames(in: lexed.bytes, token: token)
      guard
        let factor = factors.first(where: { $0.name.contains(offset) })
          ?? factors.first(where: { $0.name.upperBound == offset })
          ?? (factors.count == 1 ? factors.first : nil),
        let name = Self.definableUnitName(lexed.bytes, factor.name)
      else { return nil }
      let isDefinition = lexed.definitions.contains { $0.name == k } && factors.count == 1 && factor.power == 1
      return (
        name, UnitOccurrence(line: line, range: token.range, nameRange: factor.name, isDefinition: isDefinition)
      )
    }
  }

  /// Every definition and use of the currency or unit of the tape's own `name` (a currency by its
  /// code; its sign's uses included), top to bottom.
  package func unitOccurrences(of name: String) -> [UnitOccurrence] {
    guard !name.isEmpty else { return [] }
    // A line that holds no byte the unit's spellings start with is skipped before it is lexed.
    var firstBytes = Set<UInt8>()
    if case .unit(let atom, _) = UnitTable.lookUp(name) {
      firstBytes.formUnion(UnitTable.atoms[atom].names.compactMap(\.utf8.first))
    } else if let first = name.utf8.first {
      firstBytes.insert(first)
    }
    var result: [UnitOccurrence] = []
    for line in 0..<lineCount {
      withUTF8(ofLine: line) { bytes in
        guard bytes.contains(where: firstBytes.contains) else { return }
        let lexed = LexedLine(bytes)
        let definitionNames = lexed.definitionNames
        for (k, token) in lexed.tokens.enumerated() {
          let factors = Self.unitNames(in: bytes, token: token)
          for factor in factors where Self.definableUnitName(bytes, factor.name) == name {
            result.append(
              UnitOccurrence(
                line: line, range: token.range, nameRange: factor.name,
                isDefinition: definitionNames.contains(k) && factors.count == 1 && factor.power == 1))
          }
        }
      }
    }
    return result
  }

  /// The definition in force of the currency or unit of the tape's own `name` right before a
  /// UTF-8 offset of a line (its `_name` token); nil when there is none above.
  package func unitDefinitionSite(of name: String, atLine line: Int, utf8Offset offset: Int) -> BindingSite? {
    bindingSite(of: Machine.definitionName(of: name), visibleAtLine: line, utf8Offset: offset)
  }

  /// The units a line's definitions defined (those that succeeded), in order, with where each
  /// definition's `;` ends: where the inlay hint of what the unit is goes. Cheap on a line
  /// without `:`.
  package func definedUnits(inLine line: Int) -> [(endOffset: Int, unit: UnitDefinition)] {
    guard lines.indices.contains(line), lines[line].hasDefinition else { return [] }
    let found = withLexedLine(line) { lexed -> [(end: Int, name: String, definition: Range<Int>, token: Range<Int>)] in
      lexed.definitions.compactMap { span in
        guard let nameIndex = span.name, let end = span.end, lexed.tokens[nameIndex].kind != .name,
          definitionSucceeded(span, in: lexed, line: line)
        else { return nil }
        let token = lexed.tokens[nameIndex]
        guard let name = Self.definedUnitName(lexed.bytes, token) else { return nil }
        return (lexed.tokens[end].range.upperBound, name, lexed.range(of: span), token.range)
      }
    }
    return found.compactMap { found in
      guard
        case .variable(let value) = boundValue(
          of: Machine.definitionName(of: found.name), atLine: line, utf8Offset: found.end)
      else { return nil }
      let own = Self.isNewDimension(value, of: found.name)
      return (
        found.end,
        UnitDefinition(
          name: found.name, value: own ? nil : value, line: line, definitionRange: found.definition,
          nameRange: found.token)
      )
    }
  }

  /// Every unit definition that succeeded, top to bottom.
  package func definedUnits() -> [UnitDefinition] {
    var result: [UnitDefinition] = []
    for line in lines.indices where lines[line].hasDefinition {
      result.append(contentsOf: definedUnits(inLine: line).map(\.unit))
    }
    return result
  }
}

extension Document {
  /// The units of the tape's own defined above a UTF-8 offset of a line, by name, as completion
  /// offers them: each titled by what one of it is (`1 pace = 0.75 m`), or as a dimension of its own.
  package func ownUnits(atLine line: Int, utf8Offset offset: Int) -> [UnitChoice] {
    let ids = ownUnitNames
    guard lines.indices.contains(line), !ids.isEmpty else { return [] }
    var observer = StopBefore(offset)
    var machine = run(line: line, observer: &observer)
    return ownUnits(ids, in: &machine)
  }

  /// The IDs of the names that bind units of the tape's own (`_pace`; not a currency's `_EUR`).
  private var ownUnitNames: [Int] {
    names.names.indices.filter { id in
      let name = names.names[id]
      guard name.utf8.first == 0x5F, name.utf8.count > 1 else { return false }
      if case .unknown = UnitTable.lookUp(String(name.dropFirst())) { return true }
      return false
    }
  }

  /// `ownUnits(atLine:utf8Offset:)` of the names `ids`, with the definitions in force in `machine`.
  private func ownUnits(_ ids: [Int], in machine: inout Machine) -> [UnitChoice] {
    var choices: [UnitChoice] = []
    for id in ids {
      guard case .variable(let value) = machine.bound(of: Int32(id)) else { continue }
      let name = String(names.names[id].dropFirst())
      guard let unit = Units.unit(named: name, tapeUnits: true) else { continue }
      let title =
        Self.isNewDimension(value, of: name)
        ? "a unit of the tape's own, a dimension of its own"
        : "a unit of the tape's own: " + ValueFormat.rate(name, is: value)
      choices.append(UnitChoice(name: name, title: title, unit: unit))
    }
    return choices.sorted { $0.name < $1.name }
  }

  /// Whether a unit's definition bound it to one of itself (an empty body): a dimension of its own.
  static func isNewDimension(_ value: Value, of name: String) -> Bool {
    let factors = value.unit.info.factors
    return factors.count == 1 && factors[0].unit.name == name
  }

  /// The units `value` converts to (`>unit`) at a UTF-8 offset of a line: for an amount or a
  /// quantity in a unit of the tape's own, by the definitions in force there (the currencies a
  /// rate links, the units of the tape's own above), in the catalog's order, those of the tape's
  /// own last; for any other, `UnitCatalog.conversions(of:)`.
  package func conversions(of value: Value, atLine line: Int, utf8Offset offset: Int) -> [UnitChoice] {
    guard value.unit.hasCurrency, lines.indices.contains(line) else { return UnitCatalog.conversions(of: value) }
    var observer = StopBefore(offset)
    var machine = run(line: line, observer: &observer)
    let own = ownUnits(ownUnitNames, in: &machine)
    var offered: Set<UnitID> = [value.unit]
    return (UnitCatalog.all + own).filter { choice in
      offered.insert(choice.unit).inserted && machine.checked(value, in: choice.unit) != nil
    }
  }
}

extension ValueFormat {
  /// What one of a unit is, as a tape defines it: `1.08_USD`, the number in full (an amount's
  /// minor units would round a rate away: `0.0062_EUR`, not `0.01_EUR`).
  package static func definition(_ value: Value, display: DisplaySettings = DisplaySettings()) -> String {
    format(value.relabeled(.none), display: display) + "_" + value.unit.spelling
  }

  /// A unit's definition as a sentence: `1 EUR = 1.08 USD`.
  package static func rate(_ unit: String, is value: Value, display: DisplaySettings = DisplaySettings()) -> String {
    "1 \(unit) = \(format(value.relabeled(.none), display: display)) \(value.unit.spelling)"
  }
}

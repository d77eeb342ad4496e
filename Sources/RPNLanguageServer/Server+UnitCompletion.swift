// Completion of a unit: after `_`, `>`, `->`, `→`, and after a number's `_`.

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// The completion of the unit being typed in `token`, or nil when the cursor is not in a unit:
  /// after a unit word's mark (`_km`, `>mi`, `->mi`, `→mi`) or a literal's `_` (`12_km`,
  /// `=12.5_km`). Only the factor at the cursor is completed (`km/h` after its `/`). After `>`
  /// only the units the top converts to (an amount: the currencies a rate above links it to);
  /// otherwise every unit, the tape's own defined above, then those of the top's dimension first.
  /// Items have kind Unit, a `filterText`, and replace the factor being typed.
  func unitCompletion(
    _ document: Document, line: Int, token: Token, column: Int, converter: PositionConverter
  ) -> JSONValue? {
    let located = document.unitSite(line: line, token: token, column: column)
    guard let located else { return nil }
    let typed: [UInt8] = document.withUTF8(ofLine: line) { Array($0[located.factor.lowerBound..<column]) }
    let top = document.scope(atLine: line, utf8Offset: token.range.lowerBound).top
    let editRange = converter.range(line: line, utf8Range: located.factor)
    // What is offered: after `>`, what the top converts to (nothing for a plain top); else all,
    // the top's dimension first.
    let choices: [UnitChoice]
    if located.converts && located.factor.lowerBound == located.start {
      choices = top.map { document.conversions(of: $0, atLine: line, utf8Offset: token.range.lowerBound) } ?? []
    } else {
      // The tape's own units first: a name typed after `_` that the table lacks is most likely one.
      choices = document.ownUnits(atLine: line, utf8Offset: token.range.lowerBound) + UnitCatalog.all
    }
    let dimension = top.flatMap { $0.unit == .none ? nil : $0.unit.dimension }
    var items: [CompletionItem] = []
    for (index, choice) in choices.enumerated() {
      guard typed.isEmpty || Self.unitMatches(choice.name, typed: typed) else { continue }
      let first = dimension != nil && choice.unit.dimension == dimension
      let digits = String(index)
      items.append(
        CompletionItem(
          label: choice.name, filterText: choice.name, kind: .unit,
          documentation: "\(choice.title): \(choice.unit.dimension.inWords)", newText: choice.name,
          detail: choice.title,
          sortText: (first ? "0" : "1") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits))
    }
    return JSONValue(encoding: CompletionList(isIncomplete: false, editRange: editRange, items: items))
  }

  /// Whether a unit's name starts with what is typed: case-sensitive, as unit names are (`Mm` is
  /// not `mm`), except that a lower-case start also offers the upper-case name (`kw` → `kW`).
  private static func unitMatches(_ name: String, typed: [UInt8]) -> Bool {
    let bytes = Array(name.utf8)
    guard bytes.count >= typed.count else { return false }
    if bytes.starts(with: typed) { return true }
    let fold = { (b: UInt8) in b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
    return zip(bytes, typed).allSatisfy { fold($0) == fold($1) }
  }
}

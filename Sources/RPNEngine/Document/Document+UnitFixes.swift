// The quick fixes of the units' diagnostics, as edits: what the server offers to fix them.

/// A fix: a title that says what it does, and its edits (several lines for a rename).
package struct UnitFix: Equatable, Sendable {
  package var title: String
  package var edits: [LineEdit]
}

extension Document {
  /// The fixes of a units diagnostic of `line` (nil fix for others), the likeliest first:
  /// `_mi` on a quantity → `>mi`; `>km` of a plain number → `_km`; a plain literal that meets a
  /// quantity in `+ - min max mod` → the quantity's unit written on it (`3` → `3_km`); a
  /// temperature literal added to another → the change as a difference (`5_°C` → `5_Δ°C`);
  /// `=_x` → `_x` renamed `x_` in the whole document.
  package func unitFixes(line: Int, for diagnostic: Diagnostic) -> [UnitFix] {
    switch diagnostic.problem {
    case .unitMismatch(_, _, .alreadyHasUnit(let unit)):
      let mark = diagnostic.range.lowerBound..<(diagnostic.range.lowerBound + 1)
      return [UnitFix(title: "Convert with `>\(unit.spelling)`", edits: [LineEdit(line: line, range: mark, text: ">")])]
    case .unitMismatch(_, _, .plainConversion(let unit)):
      let start = withUTF8(ofLine: line) { bytes in
        Lexer.unitWordStart(UnsafeBufferPointer(rebasing: bytes[diagnostic.range])) ?? 1
      }
      let mark = diagnostic.range.lowerBound..<(diagnostic.range.lowerBound + start)
      return [
        UnitFix(
          title: "Give it the unit with `_\(unit.spelling)`", edits: [LineEdit(line: line, range: mark, text: "_")])
      ]
    case .unitMismatch(_, let operands, .dimensions) where operands.count == 2:
      // One plain operand, not 0, and one quantity: the plain one's literal takes the unit.
      let (a, b) = (operands[0], operands[1])
      guard (a.unit == .none) != (b.unit == .none) else { return [] }
      let (plain, quantity) = a.unit == .none ? (a, b) : (b, a)
      guard let literal = literal(before: diagnostic.range.lowerBound, inLine: line, matching: plain, quantity: false)
      else { return [] }
      let text = "_" + quantity.unit.spelling
      let edit = LineEdit(line: line, range: literal.upperBound..<literal.upperBound, text: text)
      return [UnitFix(title: "Write the number in \(quantity.unit.spelling)", edits: [edit])]
    case .unitMismatch(_, let operands, .temperatures) where operands.count == 2:
      // The right operand, written as a temperature, meant as a change.
      let b = operands[1]
      let difference = Units.difference(of: b.unit)
      guard difference != b.unit,
        let literal = literal(before: diagnostic.range.lowerBound, inLine: line, matching: b, quantity: true)
      else { return [] }
      let unitStart = withUTF8(ofLine: line) { Lexer.unitSeparator(in: $0, literal) } + 1
      let edit = LineEdit(line: line, range: unitStart..<literal.upperBound, text: difference.spelling)
      return [UnitFix(title: "Write the change as \(difference.spelling)", edits: [edit])]
    case .invalidName(let token, .underscore):
      return [renameUnderscored(String(token.drop { $0 == "=" }))]
    default:
      return []
    }
  }

  /// The nearest literal before `offset` on the line that wrote `value` (a plain number, or with
  /// `quantity` a quantity in its unit): its range.
  private func literal(before offset: Int, inLine line: Int, matching value: Value, quantity: Bool) -> Range<Int>? {
    let tokens = tokens(ofLine: line).tokens
    for token in tokens.reversed() where token.range.upperBound <= offset {
      switch token.kind {
      case .number(let written) where !quantity && written == value: return token.range
      case .quantity(let written) where quantity && written == value: return token.range
      default: continue
      }
    }
    return nil
  }

  /// `_x` renamed `x_` wherever it is written, stores (`=_x`) and uses (`_x`).
  private func renameUnderscored(_ name: String) -> UnitFix {
    let renamed = String(name.drop { $0 == "_" }) + "_"
    var edits: [LineEdit] = []
    for line in 0..<lineCount {
      withLexedLine(line) { lexed in
        for token in lexed.tokens {
          let text = String(decoding: UnsafeBufferPointer(rebasing: lexed.bytes[token.range]), as: UTF8.self)
          if text == name { edits.append(LineEdit(line: line, range: token.range, text: renamed)) }
          if text == "=" + name { edits.append(LineEdit(line: line, range: token.range, text: "=" + renamed)) }
        }
      }
    }
    return UnitFix(title: "Rename `\(name)` to `\(renamed)` everywhere", edits: edits)
  }
}

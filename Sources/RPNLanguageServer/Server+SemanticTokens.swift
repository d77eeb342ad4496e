// `textDocument/semanticTokens/full` and `/range`: colour for editors without a grammar.

import JSONRPC
import LSPTypes
import RPNEngine

/// Semantic tokens: how editors without a grammar for `.rpn` get colour.
extension Server {
  /// No modifier, without an empty array literal (see `SemanticTokenModifiers.constant`).
  private static let unmodified = SemanticTokenModifiers(rawValue: 0)

  /// `textDocument/semanticTokens/full`.
  func semanticTokensFull(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let open = try openDocument(params).open
    return semanticTokens(open.document, lines: 0..<open.document.lineCount, within: nil)
  }

  /// `textDocument/semanticTokens/range`: the tokens of `full` that overlap the range.
  func semanticTokensRange(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let open = try openDocument(params).open
    let range = try LSPRange.decode(params?["range"], field: "range")
    let last = min(range.end.line, open.document.lineCount - 1)
    guard range.start.line <= last else { return JSONValue(encoding: SemanticTokens(data: [])) }
    return semanticTokens(open.document, lines: range.start.line..<(last + 1), within: range)
  }

  /// Numbers `number`; builtins by their kind in the builtins table: symbolic operators
  /// `operator`, named functions and stack words `function` + `defaultLibrary`; constants
  /// `variable` + `readonly` + `defaultLibrary`; units `type` + `defaultLibrary` (a quantity's unit
  /// after its number and `_`; a unit word `_km`, `>mi` whole), a unit of the tape's own `type`
  /// alone, the unit a unit's definition defines (`_pace`) `type` + `declaration`; stores one `variable` + `declaration` over
  /// `=name`; `:` and `;` `keyword`; a definition's name `function` + `declaration`; uses of a
  /// word `function`, of a variable `variable`; comments `comment`; unknown words (and invalid
  /// stores or definition names) none. Encoded relative, in the negotiated units.
  private func semanticTokens(_ document: Document, lines: Range<Int>, within range: LSPRange?) -> JSONValue {
    let converter = converter(for: document)
    var data: [Int] = []
    var previousLine = 0
    var previousStart = 0
    document.forEachRoledLine(in: lines) { line, bytes, tokens, commentStart in
      var spans: [(range: Range<Int>, type: SemanticTokenType, modifiers: SemanticTokenModifiers)] = []
      spans.reserveCapacity(tokens.count + 2)
      for token in tokens {
        // A unit of the tape's own is a type, not the default library's.
        let unitModifiers = token.hasTapeUnit ? Self.unmodified : .defaultLibrary
        switch token.role {
        case .number: spans.append((token.range, .number, Self.unmodified))
        case .builtin(.constant): spans.append((token.range, .variable, .constant))
        case .builtin(.symbolicOperator): spans.append((token.range, .operator, Self.unmodified))
        case .builtin(.namedFunction), .builtin(.stackWord): spans.append((token.range, .function, .defaultLibrary))
        case .check(let mark, let value, let unit):
          // `=` as an operator, the value written as a number, its unit as a type.
          spans.append((mark, .operator, Self.unmodified))
          spans.append((value, .number, Self.unmodified))
          if let unit { spans.append((unit, .type, unitModifiers)) }
        case .quantity(let number, let unit):
          spans.append((number, .number, Self.unmodified))
          // A time written without a unit (`1:30`) is a number alone.
          if !unit.isEmpty { spans.append((unit, .type, unitModifiers)) }
        case .unitWord(let mark, let unit):
          // The whole word, its `_`, `>`, `->` or `→` with it, is a type.
          spans.append((mark.lowerBound..<unit.upperBound, .type, unitModifiers))
        case .store: spans.append((token.range, .variable, .declaration))
        case .definitionKeyword: spans.append((token.range, .keyword, Self.unmodified))
        case .definedName: spans.append((token.range, .function, .declaration))
        case .definedUnit: spans.append((token.range, .type, .declaration))
        case .word: spans.append((token.range, .function, Self.unmodified))
        case .variable: spans.append((token.range, .variable, Self.unmodified))
        }
      }
      if let commentStart { spans.append((commentStart..<bytes.count, .comment, Self.unmodified)) }
      // Columns in the negotiated units, walking the line once.
      var units = 0
      var offset = 0
      func advance(to target: Int) -> Int {
        units += converter.character(of: target - offset, in: UnsafeBufferPointer(rebasing: bytes[offset...]))
        offset = target
        return units
      }
      for span in spans {
        let start = advance(to: span.range.lowerBound)
        let end = advance(to: span.range.upperBound)
        if let range {
          let startPosition = Position(line: line, character: start)
          let endPosition = Position(line: line, character: end)
          if endPosition <= range.start || startPosition >= range.end { continue }
        }
        data.append(line - previousLine)
        data.append(line == previousLine ? start - previousStart : start)
        data.append(end - start)
        data.append(Int(span.type.rawValue))
        data.append(Int(span.modifiers.rawValue))
        previousLine = line
        previousStart = start
      }
    }
    return JSONValue(encoding: SemanticTokens(data: data))
  }
}

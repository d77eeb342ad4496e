// What a token at a cursor is, as plain data for hover: its meaning where it stands, or its part of a definition.

/// The token at a cursor as the document tells it: what it is where it stands (or its part of the
/// definition that holds it), the stacks before and after it, and its diagnostic. Plain data, as
/// rust-analyzer's `ide` layer answers: the server words it and reads no token kind, no check's
/// text and no literal's bytes. A new kind of token adds its case to `TokenMeaning`, here.
package struct TokenFacts: Equatable, Sendable {
  /// The token's UTF-8 range in its line.
  package var range: Range<Int>
  /// The token as written.
  package var text: String
  package var place: Place
  /// The stacks before and after the token (up to the top values asked for). In a definition they
  /// are the stack at its `:`, which its tokens never see where they are written.
  package var before: StackPicture
  package var after: StackPicture
  /// The token's diagnostic; on the name of a definition that defined nothing, the first
  /// diagnostic of that definition (why it defined nothing).
  package var diagnostic: Diagnostic?

  /// Where a token stands: in the line, where it runs, or in a definition (`:` to `;`).
  package enum Place: Equatable, Sendable {
    /// Outside any definition: what the token is there, and the stacks are its own.
    case line(TokenMeaning)
    /// Inside a definition.
    case definition(DefinitionPart)
  }
}

/// What a token is where it stands.
package enum TokenMeaning: Equatable, Sendable {
  /// A number literal: its value, and whether it is written in a radix (`0x1F`).
  case number(Value, isRadix: Bool)
  /// A number written wrongly.
  case invalidNumber(NumberProblem)
  /// A quantity literal (`12_km`): its value with its unit.
  case quantity(Value)
  /// A unit word: its unit, and whether it converts (`>mi`) or attaches (`_km`).
  case unitWord(UnitID, converts: Bool)
  /// A unit unknown or written wrongly.
  case invalidUnit(UnitProblem)
  /// A check `=value`, or nil when there is nothing to tell of it but its text (it does not read
  /// as a check, or it is in a definition's body, which never runs where it is written).
  case check(CheckFacts?)
  /// An operator or constant: its row in `Builtin.table`, its kind as spelled (`+` an operator,
  /// `add` a function), and whether it is spelled other than by its own name (an alias, `√`).
  case builtin(Builtin.ID, kind: Builtin.Kind, isAlias: Bool)
  /// A use of a defined word.
  case word(WordInfo)
  /// A use of a variable: its value, and the line (0-based) of the store in effect, if it has one.
  case variable(name: String, value: Value, storedOnLine: Int?)
  /// A store `=name`: the value it stores; nil when it failed, or does not run where it is written.
  case store(name: String, value: Value?)
  /// A `=` with no valid name after it.
  case invalidStore
  /// A name bound to nothing, or a token the language does not read (`4+`).
  case unknownWord
  /// `:`, which starts a definition.
  case colon
  /// `;`, which ends a definition.
  case semicolon
}

/// A check as hover tells it: the value written, the places it compares, and what the top before
/// it makes of it.
package struct CheckFacts: Equatable, Sendable {
  /// The value as written, without its `=`.
  package var written: String
  /// The places the check compares, in words (`to 2 decimals`, `to a whole number`).
  package var places: String
  /// The top before the check against it; nil on an empty stack.
  package var outcome: CheckOutcome?
}

/// The top of the stack against a check.
package struct CheckOutcome: Equatable, Sendable {
  package var passes: Bool
  package var top: Value
  /// The top rounded to the places the check compares, as a reader would write it.
  package var rounded: String
}

/// A token's part of the definition that holds it; each part tells the word the definition
/// defined, when it succeeded.
package enum DefinitionPart: Equatable, Sendable {
  /// The `:`.
  case colon(defines: WordInfo?)
  /// The `;`.
  case end(defines: WordInfo?)
  /// The token in the name's place; `isName` is false for one that cannot name a word (`: dup …`).
  case name(defines: WordInfo?, isName: Bool)
  /// A token of the body, and what it means where the definition is (a name what it meant at the
  /// `:`; a check and a store only what they are). `wordName` is the definition's name as written,
  /// when its name's place holds a name.
  case body(TokenMeaning, wordName: String?, defines: WordInfo?)
  /// The name of a unit's definition (`_EUR` in `: _EUR 1.08_USD ;`): the unit, and its
  /// definition when it succeeded.
  case unitName(String, defines: UnitDefinition?)
  /// A token of a unit's body, which runs once, where it is written.
  case unitBody(TokenMeaning, unit: String, defines: UnitDefinition?)
}

extension Document {
  /// What the token at a cursor is (`Token.isAtCursor`), with the stacks around it (up to `count`
  /// top values): nil where there is none (white space, a comment, a blank line). Evaluates the
  /// line again, up to the cursor only.
  package func tokenFacts(atLine line: Int, utf8Offset offset: Int, keepingTop count: Int) -> TokenFacts? {
    let traces = trace(line: line, keepingTop: count, near: offset, includingStores: false)
    guard let trace = traces.first(where: { $0.token.isAtCursor(offset) }) else { return nil }
    let token = trace.token
    return withLexedLine(line) { lexed in
      let text = lexed.text(token.range)
      var facts = TokenFacts(
        range: token.range, text: text, place: .line(.unknownWord), before: trace.before, after: trace.after,
        diagnostic: trace.diagnostic)
      if let span = lexed.definition(containing: token.range.lowerBound),
        let index = lexed.tokens.firstIndex(where: { $0.range == token.range }),
        span.tokens(tokenCount: lexed.tokens.count).contains(index)
      {
        let unit = span.name.flatMap { Self.definedUnitName(lexed.bytes, lexed.tokens[$0]) }
        let word = unit == nil ? definedWord(atLine: line, span: span) : nil
        let definedUnit = unit.flatMap { _ in
          definedUnits(inLine: line).first { $0.unit.definitionRange == lexed.range(of: span) }?.unit
        }
        let part: DefinitionPart
        switch index {
        case span.name where unit != nil:
          part = .unitName(unit ?? "", defines: definedUnit)
          if facts.diagnostic == nil, definedUnit == nil {
            let range = lexed.range(of: span)
            facts.diagnostic = diagnostics(inLine: line).first { range.contains($0.range.lowerBound) }
          }
        case span.colon where unit != nil, span.end where unit != nil:
          part = .unitName(unit ?? "", defines: definedUnit)
        case span.colon: part = .colon(defines: word)
        case span.end: part = .end(defines: word)
        case span.name:
          let isName = if case .name = token.kind { true } else { false }
          part = .name(defines: word, isName: isName)
          // A definition that failed defines nothing: its name says why.
          if facts.diagnostic == nil, word == nil {
            let range = lexed.range(of: span)
            facts.diagnostic = diagnostics(inLine: line).first { range.contains($0.range.lowerBound) }
          }
        default:
          let wordName = span.name.flatMap { name -> String? in
            guard case .name = lexed.tokens[name].kind else { return nil }
            return lexed.text(lexed.tokens[name].range)
          }
          let colonOffset = lexed.tokens[span.colon].range.lowerBound
          let meaning = bodyMeaning(trace, text: text, line: line, colonOffset: colonOffset, lexed: lexed)
          part =
            unit.map { .unitBody(meaning, unit: $0, defines: definedUnit) }
            ?? .body(meaning, wordName: wordName, defines: word)
        }
        facts.place = .definition(part)
      } else if case .name = token.kind, trace.diagnostic?.code != .unknownWord,
        let word = word(meantBy: text, atLine: line, utf8Offset: token.range.lowerBound)
      {
        facts.place = .line(.word(word))
      } else {
        facts.place = .line(meaning(trace, text: text, line: line, lexed: lexed))
      }
      return facts
    }
  }

  /// What a token is where it runs, from its trace.
  private func meaning(_ trace: TokenTrace, text: String, line: Int, lexed: LexedLine) -> TokenMeaning {
    let token = trace.token
    switch token.kind {
    case .number(let value):
      let isRadix = RadixLiteral.isRadixLiteral(UnsafeBufferPointer(rebasing: lexed.bytes[token.range]))
      return .number(value, isRadix: isRadix)
    case .check(let expected):
      // The lexer read the value: the check's places and form come from its text.
      let check = CheckLiteral(value: expected, token: UnsafeBufferPointer(rebasing: lexed.bytes[token.range]))
      let outcome = trace.before.top.last.map { top in
        let compared =
          top.unit == expected.unit
          ? top : checked(top, in: expected.unit, atLine: line, utf8Offset: token.range.lowerBound)
        return CheckOutcome(
          passes: compared.map(check.passes) ?? false, top: compared ?? top,
          rounded: check.rounded(compared ?? top))
      }
      return .check(CheckFacts(written: String(text.dropFirst()), places: check.places, outcome: outcome))
    case .invalidNumber(let problem):
      return .invalidNumber(problem)
    case .quantity(let value):
      return .quantity(value)
    case .attach(let unit):
      return .unitWord(unit, converts: false)
    case .convert(let unit):
      return .unitWord(unit, converts: true)
    case .invalidUnit(let problem):
      // A unit the table lacks that ran (no diagnostic) is one the tape defines above: read again
      // with the tape's units.
      if trace.diagnostic?.code != .unknownUnit, case .unknown = problem,
        let kind = Lexer.classifyWithTapeUnits(UnsafeBufferPointer(rebasing: lexed.bytes[token.range]))
      {
        var known = trace
        known.token.kind = kind
        return meaning(known, text: text, line: line, lexed: lexed)
      }
      return .invalidUnit(problem)
    case .builtin(let id):
      let builtin = Builtin.table[Int(id)]
      return .builtin(id, kind: builtin.kind(ofSpelling: text), isAlias: text.lowercased() != builtin.name)
    case .name:
      guard trace.diagnostic == nil, let value = trace.after.top.last else { return .unknownWord }
      let store = bindingInEffect(of: text, atLine: line, utf8Offset: token.range.lowerBound)
      return .variable(name: text, value: value, storedOnLine: store?.line)
    case .store:
      let name = lexed.text(token.nameRange)
      guard trace.diagnostic == nil, let value = trace.after.top.last else { return .store(name: name, value: nil) }
      return .store(name: name, value: value)
    case .invalidStore:
      return .invalidStore
    case .unknown:
      return .unknownWord
    case .colon:
      return .colon
    case .semicolon:
      return .semicolon
    }
  }

  /// What a body token is where its definition is: a name what it meant at the `:` (its trace's
  /// stacks are the `:`'s, which it never sees); a check and a store only what they are.
  private func bodyMeaning(
    _ trace: TokenTrace, text: String, line: Int, colonOffset: Int, lexed: LexedLine
  ) -> TokenMeaning {
    switch trace.token.kind {
    case .name:
      if trace.diagnostic?.code != .unknownWord, let word = word(meantBy: text, atLine: line, utf8Offset: colonOffset) {
        return .word(word)
      }
      guard
        let value = scope(atLine: line, utf8Offset: colonOffset).variables.first(where: { $0.name == text })?.value
      else { return .unknownWord }
      let store = bindingInEffect(of: text, atLine: line, utf8Offset: colonOffset)
      return .variable(name: text, value: value, storedOnLine: store?.line)
    case .check:
      return .check(nil)
    case .store:
      return .store(name: lexed.text(trace.token.nameRange), value: nil)
    default:
      return meaning(trace, text: text, line: line, lexed: lexed)
    }
  }
}

extension Document {
  /// A quantity in SI base units (`ubase`), or nil when it has no unit or the result would not
  /// be finite.
  package func inBaseUnits(_ value: Value) -> Value? {
    guard value.unit != .none else { return nil }
    guard case .success(let base) = Machine.compute(.baseUnits, value, degrees: false), base.isFinite else {
      return nil
    }
    return base
  }
}

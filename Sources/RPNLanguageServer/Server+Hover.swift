// `textDocument/hover`: what the token is (a word: its effect, definition and line), the stacks, its diagnostic.

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// `textDocument/hover`: what the token is, the stack before and after it, and its
  /// diagnostic; every value as the document's display shows it. A radix literal (`0x1F`) shows
  /// its value in hex, octal and binary too, and so does any value that is an integer below 2^53
  /// (a number, a variable, a store) in a tape that has a radix literal somewhere: in a budget,
  /// `hex 0xCB2` under 3250 is noise. Null on whitespace, comments and blank lines, except for
  /// `# rpn:` comments (`settingsHover`).
  ///
  /// A use of a defined word, and a definition's name, show the word: its effect, its definition
  /// as written and the line it is defined on. The tokens of a definition (`:` to `;`) show no
  /// stack: the definition leaves the stack as it is, and a body's tokens run at each use of the
  /// word, not where they are written, so no stack there would be the one they see. A body token
  /// says what it is and in which word it runs; a name there means what it meant above the
  /// definition (a variable's value is taken there).
  func hover(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (open, position) = try documentAndPosition(params)
    let document = open.document
    guard position.line < document.lineCount else { return .null }
    let column = converter(for: document).textPosition(position).utf8Column
    let display = display(of: document)
    let markdown = client.hoverFormat == .markdown
    let code = { (text: String) in markdown ? Self.markdownCode(text) : text }
    guard let facts = document.tokenFacts(atLine: position.line, utf8Offset: column, keepingTop: display.maxItems)
    else {
      guard let found = settingsHover(document, line: position.line, utf8Offset: column, code: code) else {
        return .null
      }
      return hoverJSON(found.lines, range: found.range, line: position.line, document: document)
    }
    var lines: [String]
    switch facts.place {
    case .definition(let part):
      lines = describe(part, text: facts.text, document: document, display: display, code: code)
    case .line(let meaning):
      lines = describe(meaning, text: facts.text, document: document, display: display, code: code)
      lines += rateLines(
        meaning, top: facts.before.top.last, document: document, line: position.line, offset: facts.range.lowerBound,
        code: code)
      lines.append("")
      lines.append("Stack before: " + code(facts.before.label(display: display)))
      lines.append("Stack after: " + code(facts.after.label(display: display)))
    }
    if let diagnostic = facts.diagnostic {
      lines.append("")
      lines.append(Self.describe(diagnostic, display: display, markdown: markdown))
    }
    return hoverJSON(lines, range: facts.range, line: position.line, document: document)
  }

  /// A hover's result: its lines as one markup text in the client's format, and its range (UTF-8
  /// offsets in `line`).
  func hoverJSON(_ lines: [String], range: Range<Int>, line: Int, document: Document) -> JSONValue {
    let markdown = client.hoverFormat == .markdown
    // Markdown needs two trailing spaces for a line break; an empty line is a paragraph break.
    let value = lines.map { markdown && !$0.isEmpty ? $0 + "  " : $0 }.joined(separator: "\n")
      .replacingOccurrences(of: "  \n\n", with: "\n\n").trimmingTrailingSpaces()
    return JSONValue(
      encoding: Hover(
        contents: MarkupContent(kind: markdown ? .markdown : .plaintext, value: value),
        range: converter(for: document).range(line: line, utf8Range: range)))
  }

  /// Tape text as a markdown code span that nothing in it can close: the fence is one backtick
  /// longer than the longest run of backticks in it, and a text that starts or ends with a
  /// backtick or a space is padded with one space each side (markdown takes those off again).
  /// Inside, markdown reads nothing: ``a`[click](https://evil.example)`b`` stays text, no link.
  static func markdownCode(_ text: String) -> String {
    var longest = 0
    var run = 0
    for byte in text.utf8 {
      run = byte == UInt8(ascii: "`") ? run + 1 : 0
      longest = max(longest, run)
    }
    let fence = String(repeating: "`", count: longest + 1)
    let padded = text.first == "`" || text.last == "`" || text.first == " " || text.last == " "
    return padded ? "\(fence) \(text) \(fence)" : fence + text + fence
  }

  /// A diagnostic's message for a markdown hover. The message quotes tape text between single
  /// backticks, which a backtick in that text can close: what follows would be read as markdown,
  /// a link among it. A message that holds what makes a link or HTML (`[`, `]`, `<`, `>`, `&`,
  /// `://` or `www.`, which some renderers link bare) has every ASCII punctuation character
  /// escaped, so that it reads exactly as the plain message (its backticks shown as written); any
  /// other is left as it is, its quotes code spans. No message of the server's own holds those.
  static func markdownSafe(_ message: String) -> String {
    guard message.contains(where: { "[]<>&".contains($0) }) || message.contains("://") || message.contains("www.")
    else { return message }
    var escaped = ""
    for character in message {
      if character.isASCII, character.isPunctuation || character.isSymbol { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }

  /// A diagnostic as a hover's last line: `warning [code]: message`, values in the display, the
  /// message made safe for a markdown hover (`markdownSafe`).
  static func describe(_ diagnostic: Diagnostic, display: DisplaySettings, markdown: Bool) -> String {
    let message = diagnostic.message(display: display)
    return "\(diagnostic.severity.rawValue) [\(diagnostic.code.rawValue)]: "
      + (markdown ? markdownSafe(message) : message)
  }

  /// The line that shows a value that is an integer of magnitude below 2^53 in hex, octal and
  /// binary, as literals that read back as it, when `shown` (the tape writes integers in a radix);
  /// no line for any other value.
  private static func integerForms(_ value: Value, shown: @autoclosure () -> Bool, code: (String) -> String)
    -> [String]
  {
    guard let forms = ValueFormat.integerForms(value), shown() else { return [] }
    return ["hex \(code(forms.hex)), octal \(code(forms.octal)), binary \(code(forms.binary))"]
  }

  /// The rates in force for a quantity's or a unit word's currencies (a conversion's, the top's
  /// too), down their chains: "rate: `1 EUR = 1.08 USD`, line 3", one line each.
  private func rateLines(
    _ meaning: TokenMeaning, top: Value?, document: Document, line: Int, offset: Int, code: (String) -> String
  ) -> [String] {
    let units: [UnitID]
    switch meaning {
    case .quantity(let value): units = [value.unit]
    case .unitWord(let id, let converts): units = converts ? [top?.unit ?? .none, id] : [id]
    default: return []
    }
    return document.rates(of: units, atLine: line, utf8Offset: offset).map { note in
      "rate: \(code(ValueFormat.rate(note.unit, is: note.value))), line \(note.line + 1)"
    }
  }

  /// The line that gives a unit's exact factor to its base units.
  private static func unitLines(_ unit: UnitDescription, code: (String) -> String) -> [String] {
    guard unit.baseUnits != unit.spelling, !unit.baseUnits.isEmpty else { return [] }
    let one =
      unit.factor.hasPrefix("(")
      ? "x \(unit.spelling) = \(unit.factor) \(unit.baseUnits)"
      : "1 \(unit.spelling) = \(unit.factor) \(unit.baseUnits)"
    return ["exactly: \(code(one))"]
  }

  /// What a token is, in words: its first line names it and gives its value, the lines after it
  /// say more (a builtin's effect, a check's outcome, an integer's other radixes).
  private func describe(
    _ meaning: TokenMeaning, text: String, document: Document, display: DisplaySettings, code: (String) -> String
  ) -> [String] {
    let show = { (value: Value) in ValueFormat.format(value, display: display) }
    switch meaning {
    case .number(let value, let isRadix):
      let shown = show(value)
      let number = shown == text ? "number \(code(shown))" : "number \(code(text)) = \(code(shown))"
      return [number] + Self.integerForms(value, shown: isRadix || document.hasRadixLiteral, code: code)
    case .check(nil):
      return ["check \(code(text))"]
    case .check(let check?):
      var lines = ["check \(code(text)): the top must be \(code(check.written)) \(check.places)"]
      if let outcome = check.outcome {
        let verdict = outcome.passes ? "passes" : "fails"
        lines.append(
          "\(verdict): the top is \(code(show(outcome.top))) (\(code(outcome.rounded)) \(check.places))")
      }
      return lines
    case .invalidNumber(let problem):
      if problem == .outOfRange { return ["number \(code(text)), out of the range of a double"] }
      return ["\(code(text)): a number written wrongly"]
    case .quantity(let value):
      let unit = value.unit.description
      var lines = ["quantity \(code(show(value))): \(unit.name), \(unit.dimension)"]
      lines += Self.unitLines(unit, code: code)
      if unit.baseUnits != unit.spelling, let base = document.inBaseUnits(value) {
        lines.append("in SI base units: \(code(show(base)))")
      }
      return lines
    case .unitWord(let unitID, let converts):
      let unit = unitID.description
      let verb = converts ? "converts the top to" : "gives a plain number the unit"
      return ["unit \(code(text)): \(verb) \(unit.name) (\(code(unit.spelling))), \(unit.dimension)"]
        + Self.unitLines(unit, code: code)
    case .invalidUnit:
      return ["\(code(text)): a unit unknown or written wrongly"]
    case .builtin(let id, let kind, let isAlias):
      let builtin = Builtin.table[Int(id)]
      let alias = isAlias ? " (\(code(builtin.name)))" : ""
      return ["\(kind.noun) \(code(text))\(alias): \(builtin.meaning)", code(builtin.effect)]
    case .word(let word):
      return describe(word, code: code)
    case .variable(let name, let value, let storedOnLine):
      var description = "variable \(code(name)) = \(code(show(value)))"
      if let storedOnLine { description += ", stored on line \(storedOnLine + 1)" }
      return [description] + Self.integerForms(value, shown: document.hasRadixLiteral, code: code)
    case .store(let name, nil):
      return ["store into \(code(name))"]
    case .store(let name, let value?):
      return ["store into \(code(name)): \(code(show(value)))"]
        + Self.integerForms(value, shown: document.hasRadixLiteral, code: code)
    case .invalidStore:
      return ["store \(code(text))"]
    case .unknownWord:
      return ["unknown word \(code(text))"]
    case .colon:
      return ["\(code(":")) starts a definition: \(code(": name body… ;"))"]
    case .semicolon:
      return ["\(code(";")) ends a definition"]
    }
  }
}

extension Server {
  /// A defined word: what it is and where it is defined, its effect, its definition as written.
  private func describe(_ word: WordInfo, code: (String) -> String) -> [String] {
    [
      "word \(code(word.name)), defined on line \(word.line + 1)", code(word.effect.description),
      code(word.definitionText),
    ]
  }

  /// A token of a definition: the `:` and `;` as markers (and the word, when the definition
  /// defined one), the name as the word it defines, a body token as what it is, in which word.
  private func describe(
    _ part: DefinitionPart, text: String, document: Document, display: DisplaySettings, code: (String) -> String
  ) -> [String] {
    switch part {
    case .colon(let word):
      return ["\(code(":")) starts a definition: \(code(": name body… ;"))"] + defined(word, code: code)
    case .end(let word):
      return ["\(code(";")) ends a definition"] + defined(word, code: code)
    case .name(let word?, _):
      return describe(word, code: code)
    case .name(nil, let isName):
      guard isName else { return ["\(code(text)) cannot be defined"] }
      return ["definition of \(code(text)), which defines nothing: it has an error"]
    case .unitName(let unit, let definition):
      return Self.describe(unit: unit, definition, code: code)
    case .unitBody(let meaning, let unit, let definition):
      let note =
        definition == nil
        ? "In the definition of the unit \(code(unit)), which has an error: it defines nothing"
        : "In the definition of the unit \(code(unit)): it runs once, here"
      return describe(meaning, text: text, document: document, display: display, code: code) + ["", note]
    case .body(let meaning, let name, let word):
      let note: String
      switch (name, word) {
      case (let name?, _?): note = "In the body of \(code(name)): it runs at each use of \(code(name)), not here"
      case (let name?, nil): note = "In the body of \(code(name)), whose definition has an error: it never runs"
      case (nil, _): note = "In the body of a definition that has an error: it never runs"
      }
      return describe(meaning, text: text, document: document, display: display, code: code) + ["", note]
    }
  }

  /// A unit's definition, on its name, `:` or `;`: the unit and what one of it is (`1 EUR = 1.08
  /// USD`), or that it is a dimension of its own; or that the definition defines nothing.
  private static func describe(unit: String, _ definition: UnitDefinition?, code: (String) -> String) -> [String] {
    let what: String
    if case .unit(let atom, _) = UnitTable.lookUp(unit) {
      what = "currency \(code(unit)) (\(UnitTable.atoms[atom].title))"
    } else {
      what = "unit \(code(unit)) (the tape's own)"
    }
    guard let definition else { return ["definition of the \(what), which defines nothing: it has an error"] }
    let line = "\(what), defined on line \(definition.line + 1)"
    guard let value = definition.value else { return [line + ": a dimension of its own"] }
    return [line + ": " + code(ValueFormat.rate(unit, is: value))]
  }

  /// The word a definition defined, after a blank line; nothing when it defined none.
  private func defined(_ word: WordInfo?, code: (String) -> String) -> [String] {
    word.map { [""] + describe($0, code: code) } ?? []
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var result = self
    while result.hasSuffix(" ") { result.removeLast() }
    return result
  }

  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}

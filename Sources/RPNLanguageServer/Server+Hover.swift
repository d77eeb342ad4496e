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
    let traces = document.trace(line: position.line, keepingTop: display.maxItems, near: column, includingStores: false)
    let markdown = client.hoverFormat == .markdown
    let code = { (text: String) in markdown ? Self.markdownCode(text) : text }
    guard let trace = traces.first(where: { $0.token.isAtCursor(column) }) else {
      guard let found = settingsHover(document, line: position.line, utf8Offset: column, code: code) else {
        return .null
      }
      return hoverJSON(found.lines, range: found.range, line: position.line, document: document)
    }
    let text = document.withUTF8(ofLine: position.line) {
      String(decoding: UnsafeBufferPointer(rebasing: $0[trace.token.range]), as: UTF8.self)
    }
    var lines: [String] = []
    var diagnostic = trace.diagnostic
    if let place = DefinitionPlace(of: trace.token, line: position.line, in: document) {
      lines = describe(place, trace, text: text, document: document, display: display, code: code)
      // A definition that failed defines nothing: its name says why.
      if diagnostic == nil, place.index == place.span.name, place.word == nil {
        diagnostic = document.diagnostics(inLine: position.line).first { place.range.contains($0.range.lowerBound) }
      }
    } else {
      // An unknown word is bound to nothing: no need to ask.
      if case .name = trace.token.kind, trace.diagnostic?.code != .unknownWord,
        let word = document.word(meantBy: text, atLine: position.line, utf8Offset: trace.token.range.lowerBound)
      {
        lines = describe(word, code: code)
      } else {
        lines = describe(trace, text: text, line: position.line, document: document, display: display, code: code)
      }
      lines.append("")
      lines.append(
        "Stack before: " + code(trace.before.label(display: display)))
      lines.append("Stack after: " + code(trace.after.label(display: display)))
    }
    if let diagnostic {
      lines.append("")
      lines.append(Self.describe(diagnostic, display: display, markdown: markdown))
    }
    return hoverJSON(lines, range: trace.token.range, line: position.line, document: document)
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

  private func describe(
    _ trace: TokenTrace, text: String, line: Int, document: Document, display: DisplaySettings,
    code: (String) -> String
  ) -> [String] {
    let show = { (value: Value) in ValueFormat.format(value, display: display) }
    switch trace.token.kind {
    case .number(let value):
      let shown = show(value)
      let number = shown == text ? "number \(code(shown))" : "number \(code(text)) = \(code(shown))"
      let radix = Array(text.utf8.prefix(5)).withUnsafeBufferPointer { RadixLiteral.isRadixLiteral($0) }
      return [number] + Self.integerForms(value, shown: radix || document.hasRadixLiteral, code: code)
    case .check:
      guard let check = CheckLiteral(text) else { return ["check \(code(text))"] }
      let written = String(text.dropFirst())
      var lines = ["check \(code(text)): the top must be \(code(written)) \(CheckLiteral.places(check.decimals))"]
      if let top = trace.before.top.last {
        let rounded = CheckLiteral.rounded(top, decimals: check.decimals)
        let verdict = check.passes(top) ? "passes" : "fails"
        lines.append(
          "\(verdict): the top is \(code(show(top))) (\(code(rounded)) \(CheckLiteral.places(check.decimals)))")
      }
      return lines
    case .invalidNumber(let problem):
      if problem == .outOfRange { return ["number \(code(text)), out of the range of a double"] }
      return ["\(code(text)): a number written wrongly"]
    case .builtin(let id):
      let builtin = Builtin.table[Int(id)]
      let kind = builtin.kind(ofSpelling: text).noun
      let alias = text.lowercased() == builtin.name ? "" : " (\(code(builtin.name)))"
      return ["\(kind) \(code(text))\(alias): \(builtin.meaning)", code(builtin.effect)]
    case .name:
      guard trace.diagnostic == nil, let value = trace.after.top.last else { return ["unknown word \(code(text))"] }
      var description = "variable \(code(text)) = \(code(show(value)))"
      if let store = document.bindingInEffect(of: text, atLine: line, utf8Offset: trace.token.range.lowerBound) {
        description += ", stored on line \(store.line + 1)"
      }
      return [description] + Self.integerForms(value, shown: document.hasRadixLiteral, code: code)
    case .store:
      let name = String(text.dropFirst())
      guard trace.diagnostic == nil, let value = trace.after.top.last else { return ["store into \(code(name))"] }
      return ["store into \(code(name)): \(code(show(value)))"]
        + Self.integerForms(value, shown: document.hasRadixLiteral, code: code)
    case .invalidStore:
      return ["store \(code(text))"]
    case .unknown:
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
    _ place: DefinitionPlace, _ trace: TokenTrace, text: String, document: Document, display: DisplaySettings,
    code: (String) -> String
  ) -> [String] {
    let defined = place.word.map { [""] + describe($0, code: code) } ?? []
    switch place.index {
    case place.span.colon:
      return ["\(code(":")) starts a definition: \(code(": name body… ;"))"] + defined
    case place.span.end:
      return ["\(code(";")) ends a definition"] + defined
    case place.span.name:
      if let word = place.word { return describe(word, code: code) }
      guard case .name = trace.token.kind else { return ["\(code(text)) cannot be defined"] }
      return ["definition of \(code(text)), which defines nothing: it has an error"]
    default:
      let note: String
      switch (place.nameText, place.word) {
      case (let name?, _?): note = "In the body of \(code(name)): it runs at each use of \(code(name)), not here"
      case (let name?, nil): note = "In the body of \(code(name)), whose definition has an error: it never runs"
      case (nil, _): note = "In the body of a definition that has an error: it never runs"
      }
      return describe(bodyToken: trace, text: text, place: place, document: document, display: display, code: code) + [
        "", note,
      ]
    }
  }

  /// A body token as what it is where the definition is: a name means what it meant above it.
  /// (Its trace's stacks are the stack at the `:`, which it never sees: they are not shown.)
  private func describe(
    bodyToken trace: TokenTrace, text: String, place: DefinitionPlace, document: Document, display: DisplaySettings,
    code: (String) -> String
  ) -> [String] {
    switch trace.token.kind {
    case .name:
      let start = place.colonOffset
      if trace.diagnostic?.code != .unknownWord,
        let word = document.word(meantBy: text, atLine: place.line, utf8Offset: start)
      {
        return describe(word, code: code)
      }
      guard
        let value = document.scope(atLine: place.line, utf8Offset: start).variables.first(where: { $0.name == text })?
          .value
      else { return ["unknown word \(code(text))"] }
      var description = "variable \(code(text)) = \(code(ValueFormat.format(value, display: display)))"
      if let store = document.bindingInEffect(of: text, atLine: place.line, utf8Offset: start) {
        description += ", stored on line \(store.line + 1)"
      }
      return [description] + Self.integerForms(value, shown: document.hasRadixLiteral, code: code)
    case .check:
      return ["check \(code(text))"]
    case .store:
      return ["store into \(code(String(text.dropFirst())))"]
    default:
      return describe(trace, text: text, line: place.line, document: document, display: display, code: code)
    }
  }
}

/// Where a token stands in the definition that holds it (`:` to `;`), and the word that
/// definition defined, if it succeeded.
private struct DefinitionPlace {
  var line: Int
  var span: DefinitionSpan
  var tokens: [Token]
  /// The token's index in `tokens`.
  var index: Int
  var word: WordInfo?
  /// The name as written, when the definition has a name token.
  var nameText: String?

  init?(of token: Token, line: Int, in document: Document) {
    guard let (span, tokens) = document.definition(atLine: line, utf8Offset: token.range.lowerBound),
      let index = tokens.firstIndex(where: { $0.range == token.range }),
      span.tokens(tokenCount: tokens.count).contains(index)
    else { return nil }
    self.line = line
    self.span = span
    self.tokens = tokens
    self.index = index
    word = document.definedWord(atLine: line, span: span)
    nameText = span.name.flatMap { name in
      guard case .name = tokens[name].kind else { return nil }
      return document.withUTF8(ofLine: line) {
        String(decoding: UnsafeBufferPointer(rebasing: $0[tokens[name].range]), as: UTF8.self)
      }
    }
  }

  /// Where the `:` starts: what the body's names mean is what they meant there.
  var colonOffset: Int { tokens[span.colon].range.lowerBound }

  /// The definition's UTF-8 range, `:` to `;` (to the line's last token without `;`).
  var range: Range<Int> {
    let indices = span.tokens(tokenCount: tokens.count)
    return tokens[indices.lowerBound].range.lowerBound..<tokens[indices.upperBound - 1].range.upperBound
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

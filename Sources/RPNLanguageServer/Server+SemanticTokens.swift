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
    guard range.start.line <= last else { return ["data": []] }
    return semanticTokens(open.document, lines: range.start.line..<(last + 1), within: range)
  }

  /// Numbers `number`; builtins by their kind in the builtins table: symbolic operators
  /// `operator`, named functions and stack words `function` + `defaultLibrary`; constants
  /// `variable` + `readonly` + `defaultLibrary`; stores one `variable` + `declaration` over
  /// `=name`; `:` and `;` `keyword`; a definition's name `function` + `declaration`; uses of a
  /// word `function`, of a variable `variable`; comments `comment`; unknown words (and invalid
  /// stores or definition names) none. Encoded relative, in the negotiated units.
  private func semanticTokens(_ document: Document, lines: Range<Int>, within range: LSPRange?) -> JSONValue {
    let converter = converter(for: document)
    var data: [JSONValue] = []
    var previousLine = 0
    var previousStart = 0
    // Which names are words, kept up to date line by line (a range asks what is bound above it).
    var words = WordNames(document, from: lines.lowerBound)
    for line in lines {
      // Uses of names that are not visible are unknown words: they get no token.
      let diagnostics = document.diagnostics(inLine: line)
      let unknown = diagnostics.isEmpty ? [] : diagnostics.filter { $0.code == .unknownWord }.map(\.range)
      document.withUTF8(ofLine: line) { bytes in
        let (tokens, commentStart) = Lexer.tokens(of: bytes)
        // Made at the line's first `:`; most lines have none.
        var layout: DefinitionLayout?
        var spans: [(range: Range<Int>, type: SemanticTokenType, modifiers: SemanticTokenModifiers)] = []
        for (k, token) in tokens.enumerated() {
          // A definition's name that is no name (`: dup … ;`) is in error, like an invalid store: none.
          if let layout, layout.invalidNames.contains(k) { continue }
          switch token.kind {
          case .number, .invalidNumber:
            spans.append((token.range, .number, Self.unmodified))
          case .builtin(let id):
            let symbolic = !Lexer.isName(UnsafeBufferPointer(rebasing: bytes[token.range]))
            switch Builtin.kind(id, spelledSymbolically: symbolic) {
            case .constant: spans.append((token.range, .variable, .constant))
            case .symbolicOperator: spans.append((token.range, .operator, Self.unmodified))
            case .namedFunction, .stackWord: spans.append((token.range, .function, .defaultLibrary))
            }
          case .check:
            // `=` as an operator, the value written as a number.
            spans.append((token.range.lowerBound..<(token.range.lowerBound + 1), .operator, Self.unmodified))
            spans.append(((token.range.lowerBound + 1)..<token.range.upperBound, .number, Self.unmodified))
          case .store:
            // A store in a body never runs; one that failed has its diagnostic.
            if words.mayHoldWords, layout?.body(containing: k) == nil,
              !diagnostics.contains(where: { $0.range == token.range })
            {
              words.stored(Self.text(bytes, token.nameRange))
            }
            spans.append((token.range, .variable, .declaration))
          case .colon:
            if layout == nil { layout = DefinitionLayout(tokens, diagnostics: diagnostics) }
            spans.append((token.range, .keyword, Self.unmodified))
          case .semicolon:
            if let name = layout?.wordDefined(endingAt: k) { words.defined(Self.text(bytes, tokens[name].range)) }
            spans.append((token.range, .keyword, Self.unmodified))
          case .name where layout?.names.contains(k) == true:
            spans.append((token.range, .function, .declaration))
          case .name where !unknown.contains(token.range):
            let body = layout?.body(containing: k)
            if body?.checked ?? true {
              // Bound, since it is no unknown word: a word or a variable.
              let isWord = words.mayHoldWords && words.isWord(Self.text(bytes, token.range))
              spans.append((token.range, isWord ? .function : .variable, Self.unmodified))
            } else if let body {
              // A body without `;` is not evaluated, so a name there may be bound to nothing: the
              // engine says what it meant at the `:`. (Rare: such a line is being typed.)
              let name = Self.text(bytes, token.range)
              if document.isVariable(name, atLine: line, utf8Offset: body.colonOffset) {
                spans.append((token.range, .variable, Self.unmodified))
              } else if document.word(meantBy: name, atLine: line, utf8Offset: body.colonOffset) != nil {
                spans.append((token.range, .function, Self.unmodified))
              }
            }
          default:
            break
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
          data.append(JSONValue(line - previousLine))
          data.append(JSONValue(line == previousLine ? start - previousStart : start))
          data.append(JSONValue(end - start))
          data.append(JSONValue(span.type.rawValue))
          data.append(JSONValue(span.modifiers.rawValue))
          previousLine = line
          previousStart = start
        }
      }
    }
    return ["data": .array(data)]
  }
}

extension Server {
  fileprivate static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }
}

/// Which names are words at a point of a walk down the document, kept as the walk goes: a
/// definition that succeeded binds its name to a word at its `;`, a store that succeeded binds
/// its name to a variable. One table for the whole request, so telling a word from a variable
/// costs a lookup.
///
/// A walk from the first line starts with nothing bound and needs nothing until the first word
/// is defined (on most tapes, nothing at all). A walk from a line below asks the engine, once per
/// name, what the name meant where the walk started, unless the walk bound it first.
private struct WordNames {
  private var words: Set<String> = []
  /// Only for a walk from a line below the first: the names known to be variables.
  private var variables: Set<String> = []
  /// Where a walk from a line below the first started, to ask what names meant there.
  private let start: (document: Document, line: Int)?

  init(_ document: Document, from line: Int) {
    start = line == 0 ? nil : (document, line)
  }

  /// Whether a name bound may be a word: if not, it is a variable, and a store changes nothing.
  var mayHoldWords: Bool { start != nil || !words.isEmpty }

  /// Whether a name that is bound (no unknown word) is a word.
  mutating func isWord(_ name: String) -> Bool {
    if words.contains(name) { return true }
    guard let start, !variables.contains(name) else { return false }
    if start.document.isVariable(name, atLine: start.line, utf8Offset: 0) {
      variables.insert(name)
      return false
    }
    words.insert(name)
    return true
  }

  /// A store that succeeded: the name is a variable's from here on.
  mutating func stored(_ name: String) {
    words.remove(name)
    if start != nil { variables.insert(name) }
  }

  /// A definition that succeeded, at its `;`: the name is a word's from here on.
  mutating func defined(_ name: String) {
    words.insert(name)
    if start != nil { variables.remove(name) }
  }
}

/// Where a line's definitions are, as token indices, and which of them succeeded.
private struct DefinitionLayout {
  /// The names the definitions define.
  var names: [Int] = []
  /// The tokens that stand where a definition's name goes but are no names.
  var invalidNames: [Int] = []
  /// Each body, where its `:` starts, and whether evaluation checked it (it has a `;`).
  private var bodies: [(tokens: Range<Int>, colonOffset: Int, checked: Bool)] = []
  /// The `;` of each definition that succeeded, and its name.
  private var defined: [(end: Int, name: Int)] = []

  /// A definition succeeds when none of its tokens, `:` to `;`, has a diagnostic (a definition
  /// with any error defines nothing), and it has a name and a `;`.
  init(_ tokens: [Token], diagnostics: [Diagnostic]) {
    for span in Lexer.definitions(in: tokens) {
      if let name = span.name {
        if case .name = tokens[name].kind { names.append(name) } else { invalidNames.append(name) }
      }
      let colonOffset = tokens[span.colon].range.lowerBound
      bodies.append((span.body(tokenCount: tokens.count), colonOffset, span.end != nil))
      guard let name = span.name, case .name = tokens[name].kind, let end = span.end else { continue }
      let range = colonOffset..<tokens[end].range.upperBound
      if !diagnostics.contains(where: { range.contains($0.range.lowerBound) }) { defined.append((end, name)) }
    }
  }

  /// The body that holds the token at index `k`, if any.
  func body(containing k: Int) -> (tokens: Range<Int>, colonOffset: Int, checked: Bool)? {
    bodies.first { $0.tokens.contains(k) }
  }

  /// The name of the word that the `;` at index `k` defines, if its definition succeeded.
  func wordDefined(endingAt k: Int) -> Int? { defined.first { $0.end == k }?.name }
}

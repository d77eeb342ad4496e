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
    // Whether a word may be bound: not before the first definition that succeeded. A full
    // request reads every line from the top, so it finds that line on its way and asks nothing
    // about the names above it; a range asks about its names from its first line.
    var wordsDefined = lines.lowerBound > 0
    for line in lines {
      // Uses of names that are not visible are unknown words: they get no token.
      let diagnostics = document.diagnostics(inLine: line)
      let unknown = diagnostics.isEmpty ? [] : diagnostics.filter { $0.code == .unknownWord }.map(\.range)
      document.withUTF8(ofLine: line) { bytes in
        let (tokens, commentStart) = Lexer.tokens(of: bytes)
        var names = NameKinds()
        var spans: [(range: Range<Int>, type: SemanticTokenType, modifiers: SemanticTokenModifiers)] = []
        for (k, token) in tokens.enumerated() {
          // A definition's name that is no name (`: dup … ;`) is in error, like an invalid store: none.
          if names.hasReadDefinitions && names.isInvalidDefinitionName(k) { continue }
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
            names.rebind(token.nameRange, in: bytes)
            spans.append((token.range, .variable, .declaration))
          case .colon:
            if !names.hasReadDefinitions {
              names.readDefinitions(of: tokens)
              if !wordsDefined { wordsDefined = !document.definedWords(inLine: line).isEmpty }
            }
            spans.append((token.range, .keyword, Self.unmodified))
          case .semicolon:
            if names.hasReadDefinitions { names.definitionEnded(at: k, in: tokens, bytes) }
            spans.append((token.range, .keyword, Self.unmodified))
          case .name where names.definesName(k):
            spans.append((token.range, .function, .declaration))
          case .name where !unknown.contains(token.range):
            let type = names.type(
              ofUse: k, in: tokens, bytes, line: line, document: document, wordsDefined: wordsDefined)
            if let type { spans.append((token.range, type, Self.unmodified)) }
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

/// Tells, for the name uses of one line, which name a word and which a variable, asking the
/// document once per name (again after the line binds the name anew): a line's names are few,
/// and most lines have none. Made for every line, so it costs nothing until asked.
///
/// A name in a definition's body means what it meant above the definition, so it is looked up
/// where the `:` stands (the engine, asked at a body token, would see the word that the
/// definition is defining already bound). A definition binds its name at its `;`.
private struct NameKinds {
  /// What a name means at a point of the line.
  private enum Meaning {
    case word, variable
    /// Only in a body without `;`: evaluation does not look at such a body, so a name there
    /// that is bound to nothing has no diagnostic to say so.
    case unbound

    var type: SemanticTokenType? {
      switch self {
      case .word: .function
      case .variable: .variable
      case .unbound: nil
      }
    }
  }

  /// Whether `readDefinitions(of:)` ran: the line has a `:`.
  private(set) var hasReadDefinitions = false
  /// The token indices of the names the line's definitions define.
  private var definitionNames: [Int] = []
  /// The token indices that stand where a definition's name goes but are no names.
  private var invalidDefinitionNames: [Int] = []
  /// Each definition's body (token indices), where its `:` starts, and whether evaluation
  /// checked it (it has a `;`).
  private var bodies: [(tokens: Range<Int>, colonOffset: Int, checked: Bool)] = []
  /// The `;` of each definition that has a name, and the name's token index.
  private var ends: [(end: Int, name: Int)] = []
  /// What each name asked about means, until the line binds it again.
  private var known: [String: Meaning] = [:]

  /// Reads where the line's definitions are; at the first `:`, before the name after it.
  mutating func readDefinitions(of tokens: [Token]) {
    hasReadDefinitions = true
    for span in Lexer.definitions(in: tokens) {
      if let name = span.name {
        if case .name = tokens[name].kind {
          definitionNames.append(name)
          if let end = span.end { ends.append((end, name)) }
        } else {
          invalidDefinitionNames.append(name)
        }
      }
      let colonOffset = tokens[span.colon].range.lowerBound
      bodies.append((span.body(tokenCount: tokens.count), colonOffset, span.end != nil))
    }
  }

  /// Whether the name token at index `k` is the name a definition defines.
  func definesName(_ k: Int) -> Bool { !definitionNames.isEmpty && definitionNames.contains(k) }

  /// Whether the token at index `k` stands where a definition's name goes but is no name.
  func isInvalidDefinitionName(_ k: Int) -> Bool { invalidDefinitionNames.contains(k) }

  /// The type of the name use at token index `k` (not an unknown word): `function` for a word,
  /// `variable` for a variable; nil for a name bound to nothing in a body without `;`.
  /// `wordsDefined` false says that no word is bound yet: every name bound is a variable.
  mutating func type(
    ofUse k: Int, in tokens: [Token], _ bytes: UnsafeBufferPointer<UInt8>, line: Int, document: Document,
    wordsDefined: Bool
  ) -> SemanticTokenType? {
    let body = bodies.isEmpty ? nil : bodies.first { $0.tokens.contains(k) }
    let checked = body?.checked ?? true
    if !wordsDefined && checked { return .variable }
    let range = tokens[k].range
    let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    if let meaning = known[name] { return meaning.type }
    let offset = body?.colonOffset ?? range.lowerBound
    let meaning: Meaning
    if document.isVariable(name, atLine: line, utf8Offset: offset) {
      meaning = .variable
    } else if checked {
      meaning = .word  // Bound, since it is no unknown word.
    } else if wordsDefined, document.word(named: name, atLine: line, utf8Offset: offset) != nil {
      meaning = .word
    } else {
      meaning = .unbound
    }
    known[name] = meaning
    return meaning.type
  }

  /// A store of the name at `range`: the uses after it mean what it stored.
  mutating func rebind(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
    guard !known.isEmpty else { return }
    known[String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)] = nil
  }

  /// The `;` at index `k`: the definition it ends binds its name from here on.
  mutating func definitionEnded(at k: Int, in tokens: [Token], _ bytes: UnsafeBufferPointer<UInt8>) {
    guard let definition = ends.first(where: { $0.end == k }) else { return }
    rebind(tokens[definition.name].range, in: bytes)
  }
}

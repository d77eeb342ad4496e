// A line's tokens with what each is in the document (a number, a use of a word, a definition's name…), for the features that show them.

/// What a token is, read from the document as evaluation tells it: the one place a feature asks
/// whether a name is a word's or a variable's, and whether a definition's name is one. A new kind
/// of token adds its role here; the features map roles, not token kinds.
package enum TokenRole: Equatable, Sendable {
  /// A number, or a number written wrongly.
  case number
  /// An operator or constant, as its spelling shows it (`+` a symbolic operator, `add` a function).
  case builtin(Builtin.Kind)
  /// A check `=value`, in its parts: where its `=` is, where the value written after it is, and
  /// its unit after the `_` when it has one (what semantic tokens colour as an operator, a number
  /// and a type).
  case check(mark: Range<Int>, value: Range<Int>, unit: Range<Int>?)
  /// A quantity `12_km`: its number and its unit (after the `_`).
  case quantity(number: Range<Int>, unit: Range<Int>)
  /// A unit word `_km`, `>mi`, `->mi`, `→mi`: its sign and its unit.
  case unitWord(mark: Range<Int>, unit: Range<Int>)
  /// A store `=name` with a valid name.
  case store
  /// `:` or `;`.
  case definitionKeyword
  /// The name a definition defines (a valid name after its `:`).
  case definedName
  /// The unit a unit's definition defines (`_EUR` in `: _EUR 1.08_USD ;`, `_pace`).
  case definedUnit
  /// A use of a defined word.
  case word
  /// A use of a variable.
  case variable
}

extension Token {
  /// Whether a cursor at a UTF-8 offset is inside the value this token writes (a check's number,
  /// past its `=`): a value being written, where no word is being typed and completion offers
  /// nothing. (The cursor is on the token: `isAtCursor`.)
  package func isWritingValue(at offset: Int) -> Bool {
    guard case .check = kind else { return false }
    return offset > range.lowerBound
  }
}

/// A token and its role.
package struct RoledToken: Equatable, Sendable {
  package var range: Range<Int>
  package var role: TokenRole
  /// Whether its unit names a unit of the tape's own (`3_pace`, `>pace`), which the table lacks
  /// and a definition above made known.
  package var hasTapeUnit = false
}

extension Document {
  /// A line lexed, for the document's readers: the one way they get a line's tokens (a reader
  /// that can skip a line by its bytes makes its `LexedLine` inside `withUTF8(ofLine:)` instead).
  package func withLexedLine<R>(_ line: Int, _ body: (LexedLine) -> R) -> R {
    withUTF8(ofLine: line) { body(LexedLine($0)) }
  }

  /// A line's tokens as the lexer splits them, and where its comment starts: what the features
  /// that need a token's extent read (the token at a cursor, a line's span), so that they do not
  /// lex themselves.
  package func tokens(ofLine line: Int) -> (tokens: [Token], commentStart: Int?) {
    withLexedLine(line) { ($0.tokens, $0.commentStart) }
  }

  /// Why a text cannot be a variable's or a word's name (a rename's new name), or nil if it can.
  package static func nameProblem(_ name: String) -> InvalidName? { Lexer.nameProblem(name) }

  /// Visits each of `lines` with its UTF-8 bytes, its tokens that have a role (in order; a token
  /// with none, such as an unknown word or an invalid store, is left out) and where its comment
  /// starts. One walk down the lines keeps which names are words, so that telling a word from a
  /// variable costs a lookup.
  package func forEachRoledLine(
    in lines: Range<Int>,
    _ body: (_ line: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ tokens: [RoledToken], _ commentStart: Int?) -> Void
  ) {
    var words = WordNames(self, from: lines.lowerBound)
    for line in lines {
      // Uses of names that are not visible are unknown words: they get no role.
      let diagnostics = diagnostics(inLine: line)
      let unknown = diagnostics.isEmpty ? [] : diagnostics.filter { $0.code == .unknownWord }.map(\.range)
      withLexedLine(line) { lexed in
        let bytes = lexed.bytes
        let tokens = lexed.tokens
        // Made at the line's first `:`; most lines have none.
        var layout: DefinitionLayout?
        var roled: [RoledToken] = []
        roled.reserveCapacity(tokens.count)
        for (k, token) in tokens.enumerated() {
          // A definition's name that is no name (`: dup … ;`) is in error, like an invalid store: none.
          if let layout, layout.invalidNames.contains(k) { continue }
          if let layout, layout.units.contains(k) {
            roled.append(RoledToken(range: token.range, role: .definedUnit))
            continue
          }
          let role: TokenRole
          var kind = token.kind
          // A unit the table lacks that no diagnostic calls unknown is one the tape defined
          // above: the token read again with the tape's units.
          var hasTapeUnit = false
          if case .invalidUnit(.unknown) = kind,
            !diagnostics.contains(where: { token.range.contains($0.range.lowerBound) && $0.code == .unknownUnit }),
            let known = Lexer.classifyWithTapeUnits(UnsafeBufferPointer(rebasing: bytes[token.range]))
          {
            kind = known
            hasTapeUnit = true
          }
          switch kind {
          case .number, .invalidNumber:
            role = .number
          case .quantity:
            let split = Lexer.unitSeparator(in: bytes, token.range)
            // A time with no unit written (`1:30`) has an empty unit at its end.
            let unit = Swift.min(split + 1, token.range.upperBound)..<token.range.upperBound
            role = .quantity(number: token.range.lowerBound..<split, unit: unit)
          case .attach, .convert:
            let start =
              token.range.lowerBound + (Lexer.unitWordStart(UnsafeBufferPointer(rebasing: bytes[token.range])) ?? 1)
            role = .unitWord(mark: token.range.lowerBound..<start, unit: start..<token.range.upperBound)
          case .builtin(let id):
            let symbolic = !Lexer.isName(UnsafeBufferPointer(rebasing: bytes[token.range]))
            role = .builtin(Builtin.kind(id, spelledSymbolically: symbolic))
          case .check(let value):
            let mark = token.range.lowerBound..<(token.range.lowerBound + 1)
            if value.unit != .none {
              let split = Lexer.unitSeparator(in: bytes, token.range)
              let unit = Swift.min(split + 1, token.range.upperBound)..<token.range.upperBound
              role = .check(mark: mark, value: mark.upperBound..<split, unit: unit.isEmpty ? nil : unit)
            } else {
              role = .check(mark: mark, value: mark.upperBound..<token.range.upperBound, unit: nil)
            }
          case .store:
            // A store in a body never runs; one that failed has its diagnostic.
            if words.mayHoldWords, layout?.body(containing: k) == nil,
              !diagnostics.contains(where: { $0.range == token.range })
            {
              words.stored(lexed.text(token.nameRange))
            }
            role = .store
          case .colon:
            if layout == nil { layout = DefinitionLayout(lexed, diagnostics: diagnostics) }
            role = .definitionKeyword
          case .semicolon:
            if let name = layout?.wordDefined(endingAt: k) { words.defined(lexed.text(tokens[name].range)) }
            role = .definitionKeyword
          case .name where layout?.names.contains(k) == true:
            role = .definedName
          case .name where !unknown.contains(token.range):
            let body = layout?.body(containing: k)
            if body?.checked ?? true {
              // Bound, since it is no unknown word: a word or a variable.
              let isWord = words.mayHoldWords && words.isWord(lexed.text(token.range))
              role = isWord ? .word : .variable
            } else if let body {
              // A body without `;` is not evaluated, so a name there may be bound to nothing: what
              // it meant at the `:`. (Rare: such a line is being typed.)
              let name = lexed.text(token.range)
              if isVariable(name, atLine: line, utf8Offset: body.colonOffset) {
                role = .variable
              } else if word(meantBy: name, atLine: line, utf8Offset: body.colonOffset) != nil {
                role = .word
              } else {
                continue
              }
            } else {
              continue
            }
          case .name, .invalidStore, .unknown, .invalidUnit:
            continue
          }
          roled.append(RoledToken(range: token.range, role: role, hasTapeUnit: hasTapeUnit))
        }
        body(line, bytes, roled, lexed.commentStart)
      }
    }
  }
}

/// Which names are words at a point of a walk down the document, kept as the walk goes: a
/// definition that succeeded binds its name to a word at its `;`, a store that succeeded binds
/// its name to a variable. One table for the whole walk, so telling a word from a variable
/// costs a lookup.
///
/// A walk from the first line starts with nothing bound and needs nothing until the first word
/// is defined (on most tapes, nothing at all). A walk from a line below asks the document, once per
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
  /// The tokens that stand where a definition's name goes but are no names (nor units).
  var invalidNames: [Int] = []
  /// The units that definitions define (`_EUR`, `_pace`).
  var units: [Int] = []
  /// Each body, where its `:` starts, and whether evaluation checked it (it has a `;`).
  private var bodies: [(tokens: Range<Int>, colonOffset: Int, checked: Bool)] = []
  /// The `;` of each definition that succeeded, and its name.
  private var defined: [(end: Int, name: Int)] = []

  /// A definition succeeds when none of its tokens, `:` to `;`, has a diagnostic (a definition
  /// with any error defines nothing), and it has a name and a `;`.
  init(_ lexed: LexedLine, diagnostics: [Diagnostic]) {
    let tokens = lexed.tokens
    for span in lexed.definitions {
      if let name = span.name {
        switch tokens[name].kind {
        case .name: names.append(name)
        case .attach, .invalidUnit(.unknown):
          // `_EUR`, `_pace`: one unit that a tape may define (not `_km`, which it may not).
          if Document.definedUnitName(lexed.bytes, tokens[name]) != nil {
            units.append(name)
          } else {
            invalidNames.append(name)
          }
        default: invalidNames.append(name)
        }
      }
      let colonOffset = tokens[span.colon].range.lowerBound
      bodies.append((span.body(tokenCount: tokens.count), colonOffset, span.end != nil))
      guard let name = span.name, case .name = tokens[name].kind, let end = span.end,
        Document.definitionSucceeded(span, in: lexed, diagnostics: diagnostics)
      else { continue }
      defined.append((end, name))
    }
  }

  /// The body that holds the token at index `k`, if any.
  func body(containing k: Int) -> (tokens: Range<Int>, colonOffset: Int, checked: Bool)? {
    bodies.first { $0.tokens.contains(k) }
  }

  /// The name of the word that the `;` at index `k` defines, if its definition succeeded.
  func wordDefined(endingAt k: Int) -> Int? { defined.first { $0.end == k }?.name }
}

extension Document {
  /// The unit being typed at `column` in `token` of `line`, or nil when the cursor is in no unit.
  package func unitSite(line: Int, token: Token, column: Int) -> UnitSite? {
    withUTF8(ofLine: line) { Lexer.unitSite(in: $0, token: token.range, column: column) }
  }
}

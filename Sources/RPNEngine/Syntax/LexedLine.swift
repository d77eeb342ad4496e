// One line lexed: its bytes, tokens, comment and definitions, the one way readers get a line's tokens.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a definition's tokens are in its line, as indices into the line's tokens.
package struct DefinitionSpan: Equatable, Sendable {
  /// The `:`.
  package var colon: Int
  /// The token right after `:`, unless that is `;` or the line ends.
  package var name: Int?
  /// The `;`, or nil when the line has none.
  package var end: Int?

  /// The body's tokens: between the name and `;` (to the line's end when unterminated).
  package func body(tokenCount: Int) -> Range<Int> {
    let start = (name ?? colon) + 1
    return start..<max(start, end ?? tokenCount)
  }

  /// Every token index of the definition, `:` to `;`.
  package func tokens(tokenCount: Int) -> Range<Int> { colon..<((end ?? (tokenCount - 1)) + 1) }
}

/// A line as the syntax layer reads it: its UTF-8 bytes, its tokens, where its comment starts and
/// where its definitions are.
///
/// Everything that reads a line's tokens after evaluation (the document's queries, the habits
/// told after a line runs) makes one of these; only the evaluator streams tokens from
/// `TokenScanner` as it runs. So a new kind of token is read in the lexer and met in the switches
/// over `TokenKind`, not lexed again by each reader. It holds the bytes it was made from: use it
/// only while they live (inside `Document.withLexedLine` or the `withUTF8` that gave them).
///
/// Lines are lexed when read, not kept: tokens cost several times the text (about 30 bytes a
/// token against a few bytes of source), and a reader that can skip a line by its bytes alone
/// (it holds no `:`, no `=`) does so before making one.
package struct LexedLine {
  package let bytes: UnsafeBufferPointer<UInt8>
  package let tokens: [Token]
  package let commentStart: Int?
  /// Each `:` and the tokens up to the next `;` (a `:` before it is part of the body, as
  /// evaluation reads it), in order.
  package let definitions: [DefinitionSpan]

  package init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    (tokens, commentStart) = Lexer.tokens(of: bytes)
    // Most lines hold no `:`; one `memchr` says so sooner than a walk over their tokens.
    let hasColon = bytes.baseAddress.map { memchr($0, 0x3A, bytes.count) != nil } ?? false
    definitions = hasColon ? Self.definitions(in: tokens) : []
  }

  /// The text of a range of the line.
  package func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  /// Whether the bytes of a range of the line are exactly `target`.
  package func spells(_ range: Range<Int>, _ target: some Sequence<UInt8>) -> Bool {
    bytes[range].elementsEqual(target)
  }

  /// The indices of the tokens that definitions name (the token right after each `:` that starts
  /// a definition, not one inside a body).
  package var definitionNames: Set<Int> { Set(definitions.compactMap(\.name)) }

  /// The token indices of definitions, `:` to `;`: tokens that are never evaluated where they
  /// stand (a store in a body, or in the name's place, stores nothing).
  package var definitionTokens: Set<Int> {
    var inside = Set<Int>()
    for span in definitions { inside.formUnion(span.tokens(tokenCount: tokens.count)) }
    return inside
  }

  /// The UTF-8 range of a definition: from its `:` to the end of its `;`, or of the line's last
  /// token when it has none.
  package func range(of span: DefinitionSpan) -> Range<Int> {
    let indices = span.tokens(tokenCount: tokens.count)
    return tokens[indices.lowerBound].range.lowerBound..<tokens[indices.upperBound - 1].range.upperBound
  }

  /// The definition whose `:`…`;` holds a UTF-8 offset (the end of its `;` included), if any.
  package func definition(containing offset: Int) -> DefinitionSpan? {
    definitions.first { span in
      let range = range(of: span)
      return range.lowerBound <= offset && offset <= range.upperBound
    }
  }

  private static func definitions(in tokens: [Token]) -> [DefinitionSpan] {
    var spans: [DefinitionSpan] = []
    var k = 0
    while k < tokens.count {
      guard case .colon = tokens[k].kind else {
        k += 1
        continue
      }
      var span = DefinitionSpan(colon: k, name: nil, end: nil)
      var j = k + 1
      while j < tokens.count {
        if case .semicolon = tokens[j].kind { break }
        j += 1
      }
      if j > k + 1 { span.name = k + 1 }
      span.end = j < tokens.count ? j : nil
      spans.append(span)
      k = j + 1
    }
    return spans
  }
}

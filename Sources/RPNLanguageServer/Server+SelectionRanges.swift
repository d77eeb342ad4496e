// `textDocument/selectionRange`: the token at a position, then its line's tokens, its section, the document.

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// `textDocument/selectionRange`: for each position, the token there (`Token.isAtCursor`), then
  /// the line's tokens (the first one's start to the last one's end), then the section (its
  /// heading's start to the end of its last line), then the whole document, each the `parent` of
  /// the one before. A level equal to the one inside it is left out, and so is a level that does
  /// not hold the position (editors reject a chain whose first range misses it): off a token,
  /// the chain starts at the line's tokens when they hold the position (white space between
  /// two), else at the section (a comment, a blank line), or the document before any heading.
  func selectionRanges(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let document = try openDocument(params).open.document
    guard let positions = params?["positions"]?.arrayValue else {
      throw .invalidParams("positions must be an array of positions")
    }
    var cursors: [TextPosition] = []
    for (index, json) in positions.enumerated() {
      let position = try Position.decode(json, field: "positions[\(index)]")
      cursors.append(clampedToDocument(converter(for: document).textPosition(position), document))
    }
    return .array(cursors.map { selectionRange(at: $0, in: document) })
  }

  /// A position past the last line as the end of the document, as LSP clamps it.
  private func clampedToDocument(_ cursor: TextPosition, _ document: Document) -> TextPosition {
    guard cursor.line >= document.lineCount else { return cursor }
    let last = document.lineCount - 1
    return TextPosition(line: last, utf8Column: document.utf8Count(ofLine: last))
  }

  private func selectionRange(at cursor: TextPosition, in document: Document) -> JSONValue {
    let converter = converter(for: document)
    let line = cursor.line
    let column = cursor.utf8Column
    var levels: [LSPRange] = []  // Innermost first.
    let tokens = document.withUTF8(ofLine: line) { Lexer.tokens(of: $0).tokens }
    if let token = tokens.first(where: { $0.isAtCursor(column) }) {
      levels.append(converter.range(line: line, utf8Range: token.range))
    }
    if let first = tokens.first, let last = tokens.last, first.range.lowerBound <= column,
      column <= last.range.upperBound
    {
      levels.append(converter.range(line: line, utf8Range: first.range.lowerBound..<last.range.upperBound))
    }
    let end = { (line: Int) in converter.position(line: line, utf8Column: document.utf8Count(ofLine: line)) }
    if let section = document.section(containingLine: line) {
      levels.append(LSPRange(start: Position(line: section.headingLine, character: 0), end: end(section.lastLine)))
    }
    levels.append(LSPRange(start: Position(line: 0, character: 0), end: end(document.lineCount - 1)))
    var chain: JSONValue?
    for (index, range) in levels.enumerated().reversed() where index == 0 || range != levels[index - 1] {
      chain = chain.map { ["range": range.json, "parent": $0] } ?? ["range": range.json]
    }
    return chain ?? .null
  }
}

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
  ///
  /// A request may hold thousands of positions on one long line, so the work is done line by
  /// line, not position by position: each line with positions is converted, lexed and measured
  /// once, its positions taken left to right, and each section's range is found once. (Position
  /// by position, 4,000 positions on a 1 MB line took 50 s: a lexing of the line each.)
  func selectionRanges(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let document = try openDocument(params).open.document
    guard let positions = params?["positions"]?.arrayValue else {
      throw .invalidParams("positions must be an array of positions")
    }
    var requested: [Position] = []
    requested.reserveCapacity(positions.count)
    for (index, json) in positions.enumerated() {
      requested.append(try Position.decode(json, field: "positions[\(index)]"))
    }
    // A position past the last line stands for the end of the document, as LSP clamps it: on the
    // last line, after all of its other positions.
    let lastLine = document.lineCount - 1
    let key = { (position: Position) in
      position.line > lastLine ? (lastLine, Int.max) : (position.line, position.character)
    }
    let order = requested.indices.sorted { key(requested[$0]) < key(requested[$1]) }
    var chains = [SelectionRange](repeating: SelectionRange(levels: []), count: requested.count)
    var levels = SelectionLevels(document: document, converter: converter(for: document))
    var first = 0
    while first < order.count {
      let line = key(requested[order[first]]).0
      var end = first + 1
      while end < order.count, key(requested[order[end]]).0 == line { end += 1 }
      let group = order[first..<end]
      let answers = levels.chains(line: line, characters: group.map { key(requested[$0]).1 })
      for (index, chain) in zip(group, answers) { chains[index] = chain }
      first = end
    }
    return JSONValue(encoding: chains)
  }
}

/// The selection chains of one request, line by line: what every line shares (the document's
/// range, each section's) is found once.
private struct SelectionLevels {
  let document: Document
  let converter: PositionConverter
  /// The heading lines, top to bottom, to find a line's section by bisection.
  private let headings: [Int]
  private var sectionRanges: [Int: LSPRange] = [:]
  private let whole: LSPRange

  init(document: Document, converter: PositionConverter) {
    self.document = document
    self.converter = converter
    headings = document.headingLines()
    let last = document.lineCount - 1
    whole = LSPRange(
      start: Position(line: 0, character: 0),
      end: converter.position(line: last, utf8Column: document.utf8Count(ofLine: last)))
  }

  /// The chains for positions on `line` (in the negotiated encoding's code units, `Int.max` for
  /// the line's end), given in increasing order: one pass of the line converts them, one lexing
  /// finds their tokens.
  mutating func chains(line: Int, characters: [Int]) -> [SelectionRange] {
    let columns = document.withUTF8(ofLine: line) { utf8Columns(of: characters, in: $0) }
    let tokens = document.tokens(ofLine: line).tokens
    // The levels that every position of the line shares, converted before the tokens' ranges, so
    // that those go left to right from the line's start (`PositionConverter` counts on from the
    // last position it converted).
    var lineRange: (utf8: Range<Int>, lsp: LSPRange)?
    if let first = tokens.first, let last = tokens.last {
      let utf8 = first.range.lowerBound..<last.range.upperBound
      lineRange = (utf8, converter.range(line: line, utf8Range: utf8))
    }
    let section = sectionRange(containing: line)
    var answers: [SelectionRange] = []
    answers.reserveCapacity(columns.count)
    _ = converter.position(line: line, utf8Column: 0)
    var next = 0  // The first token that may hold the next column (columns increase).
    for column in columns {
      var levels: [LSPRange] = []  // Innermost first.
      while next < tokens.count, tokens[next].range.upperBound < column { next += 1 }
      if next < tokens.count, tokens[next].isAtCursor(column) {
        levels.append(converter.range(line: line, utf8Range: tokens[next].range))
      }
      if let lineRange, lineRange.utf8.lowerBound <= column, column <= lineRange.utf8.upperBound {
        levels.append(lineRange.lsp)
      }
      if let section { levels.append(section) }
      levels.append(whole)
      // A level equal to the one inside it is left out.
      let distinct = levels.enumerated().filter { index, range in index == 0 || range != levels[index - 1] }
      answers.append(SelectionRange(levels: distinct.map(\.element)))
    }
    return answers
  }

  /// The UTF-8 columns of positions on a line, given in increasing order (`Int.max`: the line's
  /// end), in one pass of the line: each is counted on from the one before, as code units add up.
  private func utf8Columns(of characters: [Int], in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
    var columns: [Int] = []
    columns.reserveCapacity(characters.count)
    var column = 0
    var units = 0
    for character in characters {
      guard converter.encoding != .utf8 else {
        columns.append(converter.utf8Column(of: character, in: bytes))
        continue
      }
      let rest = UnsafeBufferPointer(rebasing: bytes[column...])
      let next = column + converter.utf8Column(of: character - units, in: rest)
      units += converter.character(of: next - column, in: rest)
      column = next
      columns.append(column)
    }
    return columns
  }

  /// The range of the section that holds `line`, from its heading's start to the end of its last
  /// line; nil before the first heading. Found once per section.
  private mutating func sectionRange(containing line: Int) -> LSPRange? {
    // The last heading at or before the line.
    var low = 0
    var high = headings.count
    while low < high {
      let middle = (low + high) / 2
      if headings[middle] <= line { low = middle + 1 } else { high = middle }
    }
    guard low > 0 else { return nil }
    let heading = headings[low - 1]
    if let known = sectionRanges[heading] { return known }
    guard let section = document.section(containingLine: heading) else { return nil }
    let last = section.lastLine
    let range = LSPRange(
      start: Position(line: section.headingLine, character: 0),
      end: converter.position(line: last, utf8Column: document.utf8Count(ofLine: last)))
    sectionRanges[heading] = range
    return range
  }
}

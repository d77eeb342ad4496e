// The one place that converts between LSP positions (UTF-8, UTF-16) and the engine's UTF-8 offsets.

import JSONRPC
import LSPTypes
import RPNEngine

/// The one place that converts between LSP positions (in the negotiated encoding's code units)
/// and the engine's (UTF-8 offsets within a line). Positions past a line's end clamp to its end,
/// and a position inside a character (between the two halves of a surrogate pair, or inside a
/// multi-byte UTF-8 sequence) moves to that character's start.
struct PositionConverter {
  let encoding: PositionEncodingKind
  let document: Document
  /// The last position converted to code units, from which the next one on the same line counts
  /// (forward or back): a request's answers go along lines left to right (a quick fix for each of a line's 300,000
  /// failing checks), and counting every one from the line's start would cost the square of the
  /// line. A converter lives for one request, so the text cannot change under it.
  private let last = LastPosition()

  private final class LastPosition {
    var line = -1
    var utf8Column = 0
    var units = 0
  }

  init(encoding: PositionEncodingKind, document: Document) {
    self.encoding = encoding
    self.document = document
  }

  /// An LSP position as an engine position. A line past the end is left for the engine to clamp
  /// to the end of the document.
  func textPosition(_ position: Position) -> TextPosition {
    guard position.line < document.lineCount else {
      return TextPosition(line: position.line, utf8Column: 0)
    }
    let column = document.withUTF8(ofLine: position.line) { self.utf8Column(of: position.character, in: $0) }
    return TextPosition(line: position.line, utf8Column: column)
  }

  /// An engine position as an LSP position.
  func position(line: Int, utf8Column: Int) -> Position {
    guard line < document.lineCount else { return Position(line: line, character: 0) }
    guard encoding != .utf8 else {
      return Position(line: line, character: document.withUTF8(ofLine: line) { min(utf8Column, $0.count) })
    }
    let units = document.withUTF8(ofLine: line) { bytes in
      let end = min(max(utf8Column, 0), bytes.count)
      var units: Int
      if last.line == line, last.utf8Column <= end {
        units = last.units + unitCount(UnsafeBufferPointer(rebasing: bytes[last.utf8Column..<end]))
      } else if last.line == line, end < last.utf8Column, last.utf8Column - end < end {
        units = last.units - unitCount(UnsafeBufferPointer(rebasing: bytes[end..<last.utf8Column]))
      } else {
        units = unitCount(UnsafeBufferPointer(rebasing: bytes[..<end]))
      }
      (last.line, last.utf8Column, last.units) = (line, end, units)
      return units
    }
    return Position(line: line, character: units)
  }

  /// An LSP position as the place it stands for: past its line's end, the line's end (as LSP
  /// prescribes); inside a character, that character's start. A line past the end of the
  /// document is left as it is.
  func clamped(_ position: Position) -> Position {
    guard position.line < document.lineCount else { return position }
    return self.position(line: position.line, utf8Column: textPosition(position).utf8Column)
  }

  func range(line: Int, utf8Range: Range<Int>) -> LSPRange {
    LSPRange(
      start: position(line: line, utf8Column: utf8Range.lowerBound),
      end: position(line: line, utf8Column: utf8Range.upperBound))
  }

  /// An engine edit within a line as LSP's `TextEdit`.
  func textEdit(_ edit: LineEdit) -> LSPTextEdit {
    LSPTextEdit(range: range(line: edit.line, utf8Range: edit.range), newText: edit.text)
  }

  func utf8Column(of character: Int, in line: UnsafeBufferPointer<UInt8>) -> Int {
    switch encoding {
    case .utf8:
      var column = min(character, line.count)
      while column > 0, column < line.count, line[column] & 0xC0 == 0x80 { column -= 1 }
      return column
    case .utf16, .utf32:
      var units = 0
      var i = 0
      while i < line.count {
        let length = Self.scalarLength(line[i])
        let width = length == 4 && encoding == .utf16 ? 2 : 1
        if units + width > character { break }
        units += width
        i = min(i + length, line.count)
      }
      return i
    }
  }

  func character(of utf8Column: Int, in line: UnsafeBufferPointer<UInt8>) -> Int {
    let end = min(utf8Column, line.count)
    guard encoding != .utf8 else { return end }
    return end <= 0 ? 0 : unitCount(UnsafeBufferPointer(rebasing: line[..<end]))
  }

  /// How many UTF-16 or UTF-32 code units the characters starting in `bytes` take: one for each
  /// byte that is not a continuation byte, and one more in UTF-16 for each lead of four (the
  /// document's text is always valid UTF-8). Additive, so a count can go on from where an earlier
  /// one stopped.
  private func unitCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var units = 0
    let surrogates = encoding == .utf16
    for byte in bytes where byte & 0xC0 != 0x80 {
      units += surrogates && byte >= 0xF0 && byte <= 0xF7 ? 2 : 1
    }
    return units
  }

  /// The length of the UTF-8 sequence a lead byte starts (1 for anything malformed).
  @inline(__always)
  static func scalarLength(_ lead: UInt8) -> Int {
    switch lead {
    case 0xF0...0xF7: 4
    case 0xE0...0xEF: 3
    case 0xC0...0xDF: 2
    default: 1
    }
  }
}

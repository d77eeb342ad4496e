import RPNEngine

/// An independent model of a document's text: edits spliced into a plain byte array, positions
/// clamped as `Document.replace` documents (LSP's rule), with none of the engine's line records.
/// The differential tests and the engine fuzz target (`Tests/Fuzz/build.sh` compiles this file
/// into it) edit it beside a `Document`, so that a bug that corrupts the text under edits cannot
/// hide behind a fresh document made from the corrupted text.
package enum ReferenceText {
  /// Each line's bytes without its break.
  package static func lines(_ text: String) -> [[UInt8]] {
    let bytes = Array(text.utf8)
    return ranges(bytes).map { Array(bytes[$0.content]) }
  }

  /// Each line's content range and the end of its break. Only `\n`, `\r\n` and `\r` break a line.
  package static func ranges(_ bytes: [UInt8]) -> [(content: Range<Int>, end: Int)] {
    var result: [(content: Range<Int>, end: Int)] = []
    var start = 0
    var i = 0
    while i < bytes.count {
      if bytes[i] == 0x0A || bytes[i] == 0x0D {
        let breakLength = bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
        result.append((start..<i, i + breakLength))
        i += breakLength
        start = i
      } else {
        i += 1
      }
    }
    result.append((start..<bytes.count, bytes.count))
    return result
  }

  /// The byte offset of a position: a line past the end is the end of the text, a column past a
  /// line's end is its end, and a column inside a multi-byte character is that character's start.
  package static func offset(_ position: TextPosition, in bytes: [UInt8]) -> Int {
    guard position.line >= 0 else { return 0 }
    // The line's start, found by counting breaks: no array of every line per edit.
    var start = 0
    var line = 0
    while line < position.line {
      guard let next = bytes[start...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return bytes.count }
      start = bytes[next] == 0x0D && next + 1 < bytes.count && bytes[next + 1] == 0x0A ? next + 2 : next + 1
      line += 1
    }
    let end = bytes[start...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? bytes.count
    var offset = start + min(max(position.utf8Column, 0), end - start)
    while offset > start, offset < end, bytes[offset] & 0xC0 == 0x80 { offset -= 1 }
    return offset
  }

  /// Replaces the text between two positions (in either order) with `newText`.
  package static func replace(
    _ bytes: inout [UInt8], from start: TextPosition, to end: TextPosition, with newText: String
  ) {
    var lower = offset(start, in: bytes)
    var upper = offset(end, in: bytes)
    if upper < lower { swap(&lower, &upper) }
    bytes.replaceSubrange(lower..<upper, with: newText.utf8)
  }

  package static func replace(_ text: String, from start: TextPosition, to end: TextPosition, with newText: String)
    -> String
  {
    var bytes = Array(text.utf8)
    replace(&bytes, from: start, to: end, with: newText)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Replaces whole lines, their breaks included; a range past the end reaches the end of the text.
  package static func replaceLines(_ text: String, _ range: Range<Int>, with newText: String) -> String {
    let bytes = Array(text.utf8)
    let lines = ranges(bytes)
    let lower = range.lowerBound < lines.count ? lines[range.lowerBound].content.lowerBound : bytes.count
    let upper = range.upperBound < lines.count ? lines[range.upperBound].content.lowerBound : bytes.count
    return String(decoding: bytes[..<lower] + Array(newText.utf8) + bytes[upper...], as: UTF8.self)
  }
}

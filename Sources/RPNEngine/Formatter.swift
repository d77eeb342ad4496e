// The one layout that formatting in the editor and `rpn-lsp format` share.

/// The layout of formatting: one space between tokens, one space before a trailing
/// comment, no leading or trailing whitespace (a whitespace-only line becomes empty, unless that
/// would join two line breaks into one). Tokens,
/// comment text, blank lines and line endings stay as written, so no stack label or diagnostic
/// can change: tokens are split only at whitespace and `#`, and only whitespace moves.
package enum Formatter {
  /// A line's formatted text, or nil when it is formatted already.
  package static func format(line bytes: UnsafeBufferPointer<UInt8>) -> String? {
    let (tokens, commentStart) = Lexer.tokens(of: bytes)
    var formatted: [UInt8] = []
    formatted.reserveCapacity(bytes.count)
    for token in tokens {
      if !formatted.isEmpty { formatted.append(0x20) }
      formatted.append(contentsOf: bytes[token.range])
    }
    if let commentStart {
      if !formatted.isEmpty { formatted.append(0x20) }
      formatted.append(contentsOf: bytes[commentStart...])
      trimTrailingWhitespace(&formatted)
    }
    return formatted.elementsEqual(bytes) ? nil : String(decoding: formatted, as: UTF8.self)
  }

  /// The replacement text of every line of `lines` that needs one.
  package static func edits(_ document: Document, lines: Range<Int>? = nil) -> [(line: Int, text: String)] {
    // Clamped to the document; a range past its end is empty (found by fuzzing: it trapped).
    let range =
      lines.map { requested in
        let lower = min(max(0, requested.lowerBound), document.lineCount)
        return lower..<max(lower, min(document.lineCount, requested.upperBound))
      } ?? 0..<document.lineCount
    var edits: [(line: Int, text: String)] = []
    for line in range {
      if let text = format(line: line, of: document) { edits.append((line, text)) }
    }
    return edits
  }

  /// The whole document formatted, line endings kept.
  package static func format(_ document: Document) -> String {
    var output = ""
    for line in 0..<document.lineCount {
      output += format(line: line, of: document) ?? document.text(ofLine: line)
      output += document.terminator(ofLine: line).string
    }
    return output
  }

  /// One line of a document formatted, or nil when it stays as it is. A whitespace-only line
  /// between a `\r` and a `\n` stays: emptied, its two line breaks would read as one `\r\n`
  /// and the lines below would move up (keeping every line wins over trimming that one).
  private static func format(line: Int, of document: Document) -> String? {
    guard let text = document.withUTF8(ofLine: line, { format(line: $0) }) else { return nil }
    if text.isEmpty, line > 0, document.terminator(ofLine: line - 1) == .cr, document.terminator(ofLine: line) == .lf {
      return nil
    }
    return text
  }

  private static func trimTrailingWhitespace(_ bytes: inout [UInt8]) {
    while let last = bytes.last {
      if last == 0x20 || (last >= 0x09 && last <= 0x0D) {
        bytes.removeLast()
        continue
      }
      // A multi-byte whitespace character (U+00A0, U+2028, U+3000, …) at the end.
      var start = bytes.count - 1
      while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
      let scalar = bytes.withUnsafeBufferPointer { Lexer.decode($0, at: start) }
      guard scalar.length == bytes.count - start, Lexer.isWhitespace(scalar.value) else { return }
      bytes.removeLast(scalar.length)
    }
  }
}

// The one layout that formatting in the editor and `rpn-lsp format` share.

/// The layout of formatting: one space between tokens, one space before a trailing
/// comment, no leading or trailing whitespace (a whitespace-only line becomes empty, unless that
/// would join two line breaks into one). Tokens,
/// comment text, blank lines and line endings stay as written, so no stack label or diagnostic
/// can change: tokens are split only at whitespace and `#`, and only whitespace moves.
///
/// Trailing comments that were aligned stay aligned (as gofmt keeps them): consecutive lines
/// with tokens and a trailing comment that starts at the same column (in terminal columns, as
/// `eval` counts them) get their comments in one column again, one space after the longest
/// line's tokens.
package enum Formatter {
  /// A line's formatted text, or nil when it is formatted already. With `commentColumn`, a
  /// trailing comment starts at that column (at least one space after the tokens). With
  /// `keepingByteOrderMark` (the first line of a file), a byte order mark that starts the line
  /// stays: it says how the file is encoded, and a tool that rewrites the file keeps it. On any
  /// other line it is white space, and goes.
  package static func format(
    line bytes: UnsafeBufferPointer<UInt8>, commentColumn: Int? = nil, keepingByteOrderMark: Bool = false
  ) -> String? {
    let lexed = LexedLine(bytes)
    let (tokens, commentStart) = (lexed.tokens, lexed.commentStart)
    var formatted: [UInt8] = []
    formatted.reserveCapacity(bytes.count)
    let mark = keepingByteOrderMark ? Lexer.byteOrderMarkLength(bytes) : 0
    formatted.append(contentsOf: bytes[0..<mark])
    for token in tokens {
      if formatted.count > mark { formatted.append(0x20) }
      formatted.append(contentsOf: bytes[token.range])
    }
    if let commentStart {
      if formatted.count > mark {
        let width = commentColumn.map { $0 - TapeReport.displayWidth(String(decoding: formatted, as: UTF8.self)) }
        formatted.append(contentsOf: repeatElement(0x20, count: max(1, width ?? 1)))
      }
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
    var columns = CommentColumns(document)
    for line in range {
      if let text = format(line: line, of: document, columns: &columns) { edits.append((line, text)) }
    }
    return edits
  }

  /// The whole document formatted, line endings kept.
  package static func format(_ document: Document) -> String {
    var output = ""
    var columns = CommentColumns(document)
    for line in 0..<document.lineCount {
      output += format(line: line, of: document, columns: &columns) ?? document.text(ofLine: line)
      output += document.terminator(ofLine: line).string
    }
    return output
  }

  /// One line of a document formatted, or nil when it stays as it is. A whitespace-only line
  /// between a `\r` and a `\n` stays: emptied, its two line breaks would read as one `\r\n`
  /// and the lines below would move up (keeping every line wins over trimming that one).
  private static func format(line: Int, of document: Document, columns: inout CommentColumns) -> String? {
    let column = columns.column(ofLine: line)
    guard
      let text = document.withUTF8(
        ofLine: line, { format(line: $0, commentColumn: column, keepingByteOrderMark: line == 0) })
    else { return nil }
    if text.isEmpty, line > 0, document.terminator(ofLine: line - 1) == .cr, document.terminator(ofLine: line) == .lf {
      return nil
    }
    return text
  }

  /// The column of each aligned trailing comment, found run by run: each run is read once, so
  /// that formatting stays linear in the document.
  private struct CommentColumns {
    let document: Document
    /// The last run found: its lines and the column its comments go to.
    var run: (lines: Range<Int>, column: Int?) = (0..<0, nil)

    init(_ document: Document) { self.document = document }

    /// Where a line's trailing comment goes when it belongs to an aligned run; nil otherwise.
    mutating func column(ofLine line: Int) -> Int? {
      if !run.lines.contains(line) {
        guard let here = layout(ofLine: line) else { return nil }
        var start = line
        while start > 0, let above = layout(ofLine: start - 1), above.comment == here.comment { start -= 1 }
        var end = line + 1
        var widest = here.tokens
        for k in start..<line { widest = max(widest, layout(ofLine: k)?.tokens ?? 0) }
        while end < document.lineCount, let below = layout(ofLine: end), below.comment == here.comment {
          widest = max(widest, below.tokens)
          end += 1
        }
        run = (start..<end, end - start >= 2 ? widest + 1 : nil)
      }
      return run.column
    }

    /// A line with tokens and a trailing comment: the width of its tokens formatted, and the
    /// column its comment starts at as written. Nil for any other line.
    private func layout(ofLine line: Int) -> (tokens: Int, comment: Int)? {
      document.withLexedLine(line) { lexed -> (tokens: Int, comment: Int)? in
        guard let commentStart = lexed.commentStart, !lexed.tokens.isEmpty else { return nil }
        var width = lexed.tokens.count - 1
        for token in lexed.tokens { width += TapeReport.displayWidth(lexed.text(token.range)) }
        return (width, TapeReport.displayWidth(lexed.text(0..<commentStart)))
      }
    }
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

// The command line's views of a document: the annotated tape and `check`'s diagnostic lines.

/// The command line's views of a document (`eval` and `check`): the tape with its stack labels, and
/// diagnostics as `FILE:LINE:COL: severity: MESSAGE [code]`. Pure text; the executable does I/O.
package enum TapeReport {
  /// Labels start at least two columns after the widest line with tokens, but no further right
  /// than this, so that one long line does not push every label off the screen.
  package static let maximumLabelColumn = 60

  /// The document with each line's stack label in one column on its right, and each heading's
  /// section summary in the same column. Other lines without tokens are printed unchanged; lines
  /// with a label lose their trailing whitespace. A line with diagnostics is marked with `! `
  /// before its label (the other labels move two columns right, to stay in one column). Lines
  /// end in `\n`. Control characters of the
  /// tape are escaped (`\x1b`), so that printing it cannot command the terminal.
  package static func annotated(_ document: Document, display: DisplaySettings = DisplaySettings()) -> String {
    var rows: [(text: String, width: Int, label: String?, marked: Bool)] = []
    rows.reserveCapacity(document.lineCount)
    var widest = 0
    var summaries: [Int: String] = [:]
    for section in document.sections() {
      summaries[section.headingLine] = section.summary.text { ValueFormat.format($0, display: display) }
    }
    for line in 0..<document.lineCount {
      var text = ControlCharacters.escaped(document.text(ofLine: line))
      let marked = document.hasDiagnostics(line: line)
      let label: String?
      if let summary = summaries[line] {
        label = summary
      } else if document.hintOffset(ofLine: line) != nil {
        label = document.stack(afterLine: line, keepingTop: display.maxItems).label(display: display)
      } else if marked {
        label = ""  // a `# rpn:` line with a bad setting: marked, with no label
      } else {
        rows.append((text, 0, nil, false))
        continue
      }
      while let last = text.unicodeScalars.last, Lexer.isWhitespace(last.value) { text.unicodeScalars.removeLast() }
      let width = displayWidth(text)
      widest = max(widest, width)
      rows.append((text, width, label, marked))
    }
    let column = min(widest, maximumLabelColumn) + 2
    // Lines with diagnostics get `! ` before their label, and the other labels two spaces more,
    // so that labels stay in one column.
    let gutter = rows.contains { $0.marked } ? 2 : 0
    var output = ""
    // A document ending with a line break has an empty last line that is not printed.
    let printed = document.lineCount > 1 && rows.last?.text.isEmpty == true ? rows.dropLast() : rows[...]
    for row in printed {
      output += row.text
      if let label = row.label {
        output += String(repeating: " ", count: max(2, column - row.width))
        if gutter > 0 { output += row.marked ? (label.isEmpty ? "!" : "! ") : "  " }
        output += label
      }
      output += "\n"
    }
    return output
  }

  /// One line per diagnostic: `FILE:LINE:COL: warning|error: MESSAGE [code]`, with LINE and COL
  /// 1-based and COL counting Unicode scalars.
  package static func diagnosticLines(
    _ document: Document, fileName: String, display: DisplaySettings = DisplaySettings()
  ) -> [String] {
    var lines: [String] = []
    forEachDiagnosticLine(document, fileName: fileName, display: display) { lines.append($0) }
    return lines
  }

  /// Visits the lines `diagnosticLines` returns, one at a time, so that printing them holds one.
  package static func forEachDiagnosticLine(
    _ document: Document, fileName: String, display: DisplaySettings = DisplaySettings(),
    _ body: (String) -> Void
  ) {
    // A line's diagnostics come in order: count scalars on from the previous one, so that a line
    // of many diagnostics is read once, not once per diagnostic.
    var counted = (line: -1, offset: 0, column: 0)
    let shownName = ControlCharacters.escaped(fileName)
    document.forEachDiagnostic { line, diagnostic in
      if counted.line != line {
        // A byte order mark that starts the file is no character: editors read it and hide it,
        // so columns on the first line count from after it.
        let start = line == 0 ? document.withUTF8(ofLine: 0) { Lexer.byteOrderMarkLength($0) } : 0
        counted = (line, start, 0)
      }
      let offset = max(counted.offset, diagnostic.range.lowerBound)
      counted.column += document.withUTF8(ofLine: line) { bytes in
        scalarCount(UnsafeBufferPointer(rebasing: bytes[min(counted.offset, bytes.count)..<min(offset, bytes.count)]))
      }
      counted.offset = offset
      body(
        "\(shownName):\(line + 1):\(counted.column + 1): \(diagnostic.severity.rawValue): \(diagnostic.message(display: display)) "
          + "[\(diagnostic.code.rawValue)]")
    }
  }

  /// The number of Unicode scalars in UTF-8 bytes: the bytes that do not continue a scalar.
  package static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 0
    for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
    return count
  }

  /// Terminal columns: wide East Asian characters and emoji take two, combining marks none.
  package static func displayWidth(_ text: String) -> Int {
    var width = 0
    for scalar in text.unicodeScalars {
      let v = scalar.value
      if v < 0x300 {
        width += v == 0x09 ? 4 : 1
        continue
      }
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .format: continue
      default: break
      }
      switch v {
      case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
        width += 2
      default:
        width += 1
      }
    }
    return width
  }
}

// Writing checks: the edits that update failing checks, add a check to lines, or remove checks.

/// One replacement inside a line: a range of UTF-8 offsets and the text that replaces it.
package struct LineEdit: Equatable, Sendable {
  package var line: Int
  package var range: Range<Int>
  package var text: String

  package init(line: Int, range: Range<Int>, text: String) {
    self.line = line
    self.range = range
    self.text = text
  }
}

extension Document {
  /// The edit that makes a failing check pass: its value rewritten for the current top, in the
  /// check's own form (`=0.334` → `=0.333`, `=1.5e3` → `=1.4e3`). Nil when the check at `range`
  /// of `line` does not fail.
  package func checkUpdate(line: Int, range: Range<Int>) -> LineEdit? {
    guard let diagnostic = diagnostics(inLine: line).first(where: { $0.range == range }) else { return nil }
    return checkUpdate(line: line, for: diagnostic)
  }

  /// The edits that make every failing check of `lines` pass (all lines when nil), top to bottom.
  package func checkUpdates(inLines lines: Range<Int>? = nil) -> [LineEdit] {
    let range = lines.map { $0.clamped(to: 0..<lineCount) } ?? 0..<lineCount
    return range.flatMap { line in diagnostics(inLine: line).compactMap { checkUpdate(line: line, for: $0) } }
  }

  /// The update for a diagnostic of `line`, when it is a failing check: the top it failed on is
  /// in the diagnostic, so nothing is evaluated again (and a caller that holds the line's
  /// diagnostics already need not read them again: a line of many failing checks stays linear).
  package func checkUpdate(line: Int, for diagnostic: Diagnostic) -> LineEdit? {
    guard case .checkFailed(_, let top, _, _) = diagnostic.problem else { return nil }
    let check = withUTF8(ofLine: line) { CheckLiteral(token: UnsafeBufferPointer(rebasing: $0[diagnostic.range])) }
    guard let check else { return nil }
    return LineEdit(line: line, range: diagnostic.range, text: "=" + check.updated(to: top))
  }

  /// The edit that writes a line's result as a check: ` =VALUE` right after its last token
  /// (before any comment), the value as `display` shows it (`CheckLiteral.written`). Nil for a
  /// line without tokens, with a check already, with a diagnostic (its result is not what was
  /// meant: `3 + 4`), whose top is the number written last on it (`8 =coffee`: a check would
  /// only repeat it), whose tokens are all definitions (`onlyDefines`), or after which the stack
  /// is empty.
  package func checkAddition(line: Int, display: DisplaySettings = DisplaySettings()) -> LineEdit? {
    guard let end = hintOffset(ofLine: line), !hasCheck(line: line), !hasDiagnostics(line: line),
      !lines[line].topIsWritten, !onlyDefines(line: line), let top = stack(afterLine: line, keepingTop: 1).top.last
    else { return nil }
    return LineEdit(line: line, range: end..<end, text: " =" + CheckLiteral.written(top, display: display))
  }

  /// Whether a line's tokens are all definitions (`: w dup ;`, `: _EUR 1.08_USD ;`): it leaves
  /// the stack as the line above did, so it has no result of its own to check.
  private func onlyDefines(line: Int) -> Bool {
    guard lines[line].hasDefinition else { return false }
    return withLexedLine(line) { $0.definitionTokens.count == $0.tokens.count }
  }

  /// The edits that add a check to every line with tokens that has none (and a stack to check).
  package func checkAdditions(inLines lines: Range<Int>? = nil, display: DisplaySettings = DisplaySettings())
    -> [LineEdit]
  {
    let range = lines.map { $0.clamped(to: 0..<lineCount) } ?? 0..<lineCount
    return range.compactMap { checkAddition(line: $0, display: display) }
  }

  /// The edits that remove every check of `lines` (all lines when nil), each with the white
  /// space before it (or after it, for a check that starts its line); consecutive checks go in one
  /// edit, so that edits never overlap.
  package func checkRemovals(inLines lines: Range<Int>? = nil) -> [LineEdit] {
    let range = lines.map { $0.clamped(to: 0..<lineCount) } ?? 0..<lineCount
    var edits: [LineEdit] = []
    for line in range {
      withLexedLine(line) { lexed in
        let (tokens, comment) = (lexed.tokens, lexed.commentStart)
        let isCheck = tokens.map { token in
          switch token.kind {
          case .check: return true
          // A check of a quantity in a unit of the tape's own (`=2_pace`): the lexer calls its
          // unit unknown, and evaluation takes it for a check where the unit is defined.
          case .invalidUnit(.unknown) where lexed.bytes[token.range.lowerBound] == 0x3D:
            if case .check? = Lexer.classifyWithTapeUnits(UnsafeBufferPointer(rebasing: lexed.bytes[token.range])) {
              return true
            }
            return false
          default: return false
          }
        }
        guard isCheck.contains(true) else { return }
        guard isCheck.contains(false) else {
          // Only checks: the white space around them goes too, up to a comment.
          let start = comment == nil ? 0 : tokens[0].range.lowerBound
          edits.append(LineEdit(line: line, range: start..<(comment ?? lexed.bytes.count), text: ""))
          return
        }
        // One edit for each run of checks, so that no two edits touch: a run with a token before
        // it takes the white space before it, one that starts the line the white space after it.
        var index = 0
        while index < tokens.count {
          guard isCheck[index] else {
            index += 1
            continue
          }
          var last = index
          while last + 1 < tokens.count, isCheck[last + 1] { last += 1 }
          let range =
            index > 0
            ? tokens[index - 1].range.upperBound..<tokens[last].range.upperBound
            : tokens[index].range.lowerBound..<tokens[last + 1].range.lowerBound
          edits.append(LineEdit(line: line, range: range, text: ""))
          index = last + 1
        }
      }
    }
    return edits
  }

  /// Whether some check of the document fails: whether `checkUpdates()` has an edit.
  package var hasFailingCheck: Bool {
    lines.contains { record in
      record.diagnostics >= 0 && diagnosticLists[Int(record.diagnostics)].contains { $0.code == .checkFailed }
    }
  }

  /// Whether some line of the document holds a check: whether `checkRemovals()` has an edit.
  package var hasAnyCheck: Bool {
    lines.contains { $0.hasCheck }
  }

  /// Whether some line could take a check (`checkAddition`'s rule): whether `checkAdditions()`
  /// has an edit. One pass over the line records, for the actions on every check, which editors
  /// ask for on every move of the cursor.
  package var canAddCheck: Bool {
    lines.indices.contains { k in
      let line = lines[k]
      return line.lastTokenEnd >= 0 && !line.hasCheck && line.diagnostics < 0 && !line.topIsWritten && line.stack >= 0
        && !onlyDefines(line: k)
    }
  }

  /// Whether a line holds a check token. Recorded when the line is evaluated, so that asking it
  /// of every line of a long tape costs no lexing.
  package func hasCheck(line: Int) -> Bool {
    lines.indices.contains(line) && lines[line].hasCheck
  }

  /// The text of the document with line edits applied (edits of one line must not overlap).
  package func applying(_ edits: [LineEdit]) -> String {
    var byLine: [Int: [LineEdit]] = [:]
    for edit in edits { byLine[edit.line, default: []].append(edit) }
    var result: [UInt8] = []
    for line in 0..<lineCount {
      withUTF8(ofLine: line) { bytes in
        var position = 0
        for edit in (byLine[line] ?? []).sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
          result.append(contentsOf: bytes[position..<edit.range.lowerBound])
          result.append(contentsOf: edit.text.utf8)
          position = edit.range.upperBound
        }
        result.append(contentsOf: bytes[position...])
      }
      result.append(contentsOf: terminator(ofLine: line).utf8)
    }
    return String(decoding: result, as: UTF8.self)
  }
}

// Editing: splicing text in, clamping positions as LSP does, and evaluating what the edits touched.

extension Document {
  /// Replaces the text from `start` to `end` with `newText`. Positions are clamped as LSP does:
  /// a line past the end means the end of the document, a column past a line's end means its end
  /// (and a column inside a multi-byte character means that character's start).
  @discardableResult
  package func replace(from start: TextPosition, to end: TextPosition, with newText: String) throws(DocumentError)
    -> EditResult
  {
    try apply([TextEdit(from: start, to: end, text: newText)])
  }

  /// Applies edits in order, each in the positions left by the one before (as LSP's
  /// `didChange` does), then evaluates once. If one is refused (too large), those before it stay
  /// applied and evaluated, and the error is thrown.
  @discardableResult
  package func apply(_ edits: [TextEdit]) throws(DocumentError) -> EditResult {
    do {
      for edit in edits { try stage(edit) }
    } catch {
      _ = evaluateStaged()
      throw error
    }
    return evaluateStaged()
  }

  /// Changes the text without evaluating: the text and line queries see the edit at once, the
  /// results (stacks, diagnostics) only after `evaluateStaged()`. For callers that must read the
  /// text between edits, such as an LSP server converting each change's positions.
  package func stage(_ edit: TextEdit) throws(DocumentError) {
    try splice(from: edit.from, to: edit.to, with: edit.text)
  }

  /// Whether edits were staged and not evaluated yet.
  package var hasStagedEdits: Bool { pending != nil }

  /// Evaluates what the staged edits touched, once.
  @discardableResult
  package func evaluateStaged() -> EditResult { evaluatePending() }

  private func splice(from start: TextPosition, to end: TextPosition, with newText: String) throws(DocumentError) {
    var start = clamp(start)
    var end = clamp(end)
    if end < start { swap(&start, &end) }
    let firstLine = start.line
    var replacement: [UInt8] = []
    replacement.reserveCapacity(start.utf8Column + newText.utf8.count + 16)
    withUTF8(ofLine: start.line) { replacement.append(contentsOf: $0[..<start.utf8Column]) }
    replacement.append(contentsOf: newText.utf8)
    // An edit that ends at the start of a line, with text that ends in a line break (or nothing),
    // leaves that line as it is: only the lines above it are replaced. (Unless a "\r" would meet
    // the "\n" of an empty line there and merge into one break.)
    let endLineIsLoneLF = lines[end.line].length == 0 && lines[end.line].terminator == .lf
    let endsWithBreak = replacement.last == 0x0A || (replacement.last == 0x0D && !endLineIsLoneLF)
    let deletesWholeLines =
      replacement.isEmpty && !(start.line > 0 && lines[start.line - 1].terminator == .cr && endLineIsLoneLF)
    if end.utf8Column == 0, end.line > start.line, endsWithBreak || deletesWholeLines {
      return try spliceWhole(lines: start.line..<end.line, with: replacement)
    }
    withUTF8(ofLine: end.line) { replacement.append(contentsOf: $0[end.utf8Column...]) }
    replacement.append(contentsOf: lines[end.line].terminator.utf8)
    try spliceWhole(lines: firstLine..<(end.line + 1), with: replacement)
  }

  /// Replaces whole lines, terminators included, with `newText` (which carries its own line
  /// breaks). Replacing `2..<3` with `"1 2 +\n"` swaps line 2 for one new line.
  @discardableResult
  package func replaceLines(_ range: Range<Int>, with newText: String) throws(DocumentError) -> EditResult {
    let lower = min(max(range.lowerBound, 0), lines.count)
    let upper = min(max(range.upperBound, lower), lines.count)
    let end =
      upper == lines.count
      ? TextPosition(line: lines.count - 1, utf8Column: Int(lines[lines.count - 1].length))
      : TextPosition(line: upper, utf8Column: 0)
    return try replace(from: TextPosition(line: lower, utf8Column: 0), to: end, with: newText)
  }

  /// Changes the settings; re-evaluates everything when the result depends on them.
  package func update(settings newSettings: EvaluationSettings) {
    editorSettings = newSettings
    let effective = overridingSettings.applied(to: documentSettings.applied(to: newSettings))
    guard effective != settings else { return }
    settings = effective
    evaluate(from: 0, through: lines.count)
    collectGarbageIfNeeded()
  }

  private func clamp(_ position: TextPosition) -> TextPosition {
    if position.line < 0 { return TextPosition(line: 0, utf8Column: 0) }
    if position.line >= lines.count {
      return TextPosition(line: lines.count - 1, utf8Column: Int(lines[lines.count - 1].length))
    }
    var column = min(max(position.utf8Column, 0), Int(lines[position.line].length))
    withUTF8(ofLine: position.line) { bytes in
      while column > 0, column < bytes.count, bytes[column] & 0xC0 == 0x80 { column -= 1 }
    }
    return TextPosition(line: position.line, utf8Column: column)
  }

  /// Replaces `range` (whole lines with their terminators) by the lines of `replacement`, which
  /// ends with the terminator of the range's last line (none for the document's last line).
  private func spliceWhole(lines range: Range<Int>, with replacement: [UInt8]) throws(DocumentError) {
    var range = range
    var replacement = replacement
    // A "\r" ending the line above and a "\n" starting the replacement are one line break.
    if range.lowerBound > 0, lines[range.lowerBound - 1].terminator == .cr, replacement.first == 0x0A {
      range = (range.lowerBound - 1)..<range.upperBound
      var joined: [UInt8] = []
      withUTF8(ofLine: range.lowerBound) { joined.append(contentsOf: $0) }
      joined.append(0x0D)
      replacement = joined + replacement
    }
    var removedBytes = 0
    // A line's bytes are its text and its line break: both leave the document.
    for index in range { removedBytes += Int(lines[index].length) + lines[index].terminator.byteCount }
    let newLive = liveTextBytes - removedBytes + replacement.count
    guard newLive <= limit else { throw .tooLarge(utf8Count: newLive, limit: limit) }
    if storage.count + replacement.count > Int(UInt32.max) || storage.count > 2 * liveTextBytes + (64 << 10) {
      compactStorage()
    }
    let base = UInt32(storage.count)
    storage.append(contentsOf: replacement)
    var newRecords: [LineRecord] = []
    replacement.withUnsafeBufferPointer { bytes in
      LineSplitter.split(bytes, base: base) { newRecords.append(LineRecord(start: $0, length: $1, terminator: $2)) }
    }
    // The replacement ends with the range's last terminator; past it there is no new line.
    if lines[range.upperBound - 1].terminator != .none, let last = newRecords.last, last.length == 0,
      last.terminator == .none
    {
      newRecords.removeLast()
    }
    for index in range where lines[index].diagnostics >= 0 { freeDiagnosticSlot(lines[index].diagnostics) }
    for index in range where lines[index].hasRadixLiteral { radixLiteralLines -= 1 }
    // Each new line takes over the nodes of the old line in its place, so that a line edited
    // without changing how many values it pushes overwrites its values in place when evaluated.
    for k in 0..<min(range.count, newRecords.count) {
      newRecords[k].stack = lines[range.lowerBound + k].stack
      newRecords[k].pushed = lines[range.lowerBound + k].pushed
    }
    // What the state was after the replaced lines: once the new lines reach it again, nothing
    // below can change.
    let oldEnd = lines[range.upperBound - 1]
    lines.replaceSubrange(range, with: newRecords)
    liveTextBytes = newLive
    let first = range.lowerBound
    let count = newRecords.count
    let change = count - range.count
    if let before = pending {
      // Several edits: evaluate once over the union of what they touched (in today's lines).
      let lower = min(first, before.dirty.lowerBound)
      let upper = before.dirty.upperBound > first ? max(first + count, before.dirty.upperBound + change) : first + count
      pending = PendingEdit(
        dirty: lower..<upper, settling: nil, lineCountChange: before.lineCountChange + change)
    } else {
      pending = PendingEdit(
        dirty: first..<first + count, settling: LineState(oldEnd), lineCountChange: change)
    }
  }

  /// Evaluates what the spliced edits touched, then collects garbage.
  private func evaluatePending() -> EditResult {
    guard let edit = pending else {
      return EditResult(replacedLines: 0..<0, reevaluatedLines: 0..<0, lineCountChange: 0)
    }
    pending = nil
    // An edit at or above the first token may change the `# rpn:` lines: when what they set
    // changes evaluation, everything is evaluated again.
    let before = documentSettings
    if edit.dirty.lowerBound <= settingsRegionEnd, refreshDocumentSettings() {
      let end = evaluate(from: 0, through: lines.count)
      collectGarbageIfNeeded()
      return EditResult(
        replacedLines: edit.dirty, reevaluatedLines: 0..<end, lineCountChange: edit.lineCountChange,
        documentSettingsChanged: true)
    }
    let end = evaluate(from: edit.dirty.lowerBound, through: edit.dirty.upperBound, settlingAt: edit.settling)
    collectGarbageIfNeeded()
    return EditResult(
      replacedLines: edit.dirty, reevaluatedLines: edit.dirty.lowerBound..<end, lineCountChange: edit.lineCountChange,
      documentSettingsChanged: documentSettings != before)
  }
}

/// A position in a document: a line and a UTF-8 offset within it, both 0-based.
package struct TextPosition: Equatable, Comparable, Sendable {
  package var line: Int
  package var utf8Column: Int

  package init(line: Int, utf8Column: Int) {
    self.line = line
    self.utf8Column = utf8Column
  }

  package static func < (a: TextPosition, b: TextPosition) -> Bool {
    (a.line, a.utf8Column) < (b.line, b.utf8Column)
  }
}

/// One change of a document's text: replace `from..<to` with `text`.
package struct TextEdit: Equatable, Sendable {
  package var from: TextPosition
  package var to: TextPosition
  package var text: String

  package init(from: TextPosition, to: TextPosition, text: String) {
    self.from = from
    self.to = to
    self.text = text
  }
}

/// Lines spliced but not yet evaluated: `dirty` must be evaluated; `settling` is the old state
/// after the replaced lines when there was a single splice.
struct PendingEdit {
  var dirty: Range<Int>
  var settling: LineState?
  var lineCountChange: Int
}

/// The state after a line, as the next line starts from it: stack, bindings and `lastx`.
struct LineState {
  var stack: Int32
  var env: Int32
  var lastX: Value
  var reserve: Int32
  var valueReserve: Int32

  init(_ record: LineRecord) {
    stack = record.stack
    env = record.env
    lastX = record.lastX
    reserve = record.reserve
    valueReserve = record.valueReserve
  }
}

/// What an edit changed, in the lines of the edited document.
package struct EditResult: Equatable, Sendable {
  /// The lines whose text is new (for several edits at once: a range covering all of them).
  package var replacedLines: Range<Int>
  /// The lines evaluated again: the replaced ones, then those below until the state settled.
  /// Lines outside it kept their results.
  package var reevaluatedLines: Range<Int>
  /// How many lines the document gained (negative: lost).
  package var lineCountChange: Int
  /// Whether the document's `# rpn:` lines now set something else: every value shown may change.
  package var documentSettingsChanged = false
}

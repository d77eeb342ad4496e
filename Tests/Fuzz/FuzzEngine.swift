import RPNEngine

/// Target 2: a document (the input's bytes, or words of the language the input picks), then
/// random edits, some staged and evaluated at once as the server does, and changes of the
/// editor's angle unit. Inside: every edit is made to a plain copy of the text too
/// (`ReferenceText`), and the document's text must equal it, after each staged edit as well; after
/// every step the edited document equals a fresh one made from that copy (every value of every
/// stack, diagnostics, hints, `lastx`-dependent labels, variables, sections, settings lines and
/// the document's settings), every diagnostic range lies in its line, every label is well formed
/// and the fresh evaluation ran no more steps in words than the README's limits allow; after the
/// last step, checks written back (updated, or added in the document's display) pass, and the
/// edits that remove every check do not overlap and leave none.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEngine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var stream = ByteStream(bytes: UnsafeBufferPointer(start: data, count: size))
  let mode = stream.byte()
  var text = ""
  if mode & 0x80 == 0 {
    text = String(decoding: stream.take(stream.int(below: 512)), as: UTF8.self)
  } else {
    for _ in 0..<stream.int(below: 24) { text += stream.pick(fuzzVocabulary) + (stream.byte() < 160 ? " " : "\n") }
  }
  var settings = EvaluationSettings(angleMode: mode & 1 == 0 ? .radians : .degrees)
  // The command line's flags, now and then: they win over the document's `# rpn:` lines.
  var overriding = DocumentSettings()
  if mode & 0x40 != 0 {
    overriding.angleMode = mode & 2 == 0 ? .radians : .degrees
    overriding.notation = Notation.allCases[Int(mode >> 2) % Notation.allCases.count]
  }
  let editorDisplay = DisplaySettings(
    precision: 1 + Int(mode >> 2) % 17, maxItems: 1 + Int(mode >> 3) % 6,
    notation: Notation.allCases[Int(mode >> 4) % Notation.allCases.count], decimals: Int(mode) % 16,
    grouping: mode & 0x20 != 0)
  guard let document = try? Document(text: text, settings: settings, overriding: overriding) else { return 0 }
  var reference = Array(text.utf8)
  check(document, reference, settings, overriding, editorDisplay, traceLine: 0)
  while !stream.isAtEnd {
    let action = stream.byte()
    if action < 12 {
      // The editor's settings change (`workspace/didChangeConfiguration`).
      settings.angleMode = settings.angleMode == .radians ? .degrees : .radians
      document.update(settings: settings)
    } else {
      var edits: [TextEdit] = []
      for _ in 0...(stream.int(below: 3)) {
        let start = TextPosition(line: stream.int(below: document.lineCount + 2), utf8Column: stream.int(below: 40))
        let end = TextPosition(line: stream.int(below: document.lineCount + 2), utf8Column: stream.int(below: 40))
        var snippet = ""
        for _ in 0..<stream.int(below: 5) {
          snippet += stream.byte() < 200 ? stream.pick(fuzzVocabulary) : String(decoding: stream.take(4), as: UTF8.self)
        }
        edits.append(TextEdit(from: start, to: end, text: snippet))
      }
      // Each edit lands in the positions the one before left, staged or applied. None can be
      // refused: these documents stay far below `Document.maximumUTF8Count`.
      if action < 48 {
        // As the server does with a batch of `didChange`s: each staged (the text changes at once,
        // and the server reads it between them), then one evaluation.
        for edit in edits {
          do { try document.stage(edit) } catch { fatalError("a staged edit was refused: \(error)") }
          ReferenceText.replace(&reference, from: edit.from, to: edit.to, with: edit.text)
          guard document.text.utf8.elementsEqual(reference) else {
            fatalError("the text differs after staging \(edit)")
          }
        }
        document.evaluateStaged()
      } else {
        do { try document.apply(edits) } catch { fatalError("an edit was refused: \(error)") }
        for edit in edits { ReferenceText.replace(&reference, from: edit.from, to: edit.to, with: edit.text) }
      }
    }
    check(document, reference, settings, overriding, editorDisplay, traceLine: stream.int(below: document.lineCount))
  }
  checkWrittenChecks(document, settings, overriding, editorDisplay)
  return 0
}

private func check(
  _ document: Document, _ reference: [UInt8], _ settings: EvaluationSettings, _ overriding: DocumentSettings,
  _ editorDisplay: DisplaySettings, traceLine: Int
) {
  // The fresh document is made from the reference, not from the document's own text, so that a
  // text the edits corrupted is caught here, not evaluated afresh and found equal.
  guard document.text.utf8.elementsEqual(reference) else { fatalError("the text differs from the reference") }
  guard let fresh = try? Document(utf8: reference, settings: settings, overriding: overriding) else {
    fatalError("text refused")
  }
  // The settings: the `# rpn:` lines read again, and what they make of the editor's.
  guard document.documentSettings == fresh.documentSettings else {
    fatalError("document settings differ: \(document.documentSettings) and \(fresh.documentSettings)")
  }
  guard document.settings == fresh.settings else { fatalError("evaluation settings differ") }
  let display = document.display(over: editorDisplay)
  guard display == fresh.display(over: editorDisplay) else { fatalError("display settings differ") }
  guard fresh.lineCount == document.lineCount else { fatalError("line counts differ") }
  for line in 0..<document.lineCount {
    // Every value, not the top few: a value patched in place deep under the top (an edit that
    // pushes as many values as before) is what an incremental evaluation can get wrong unseen.
    // Compared by bits, so that `-0` and `0` (shown differently) differ.
    let picture = document.stack(afterLine: line, keepingTop: .max)
    let freshPicture = fresh.stack(afterLine: line, keepingTop: .max)
    guard picture.depth == freshPicture.depth,
      picture.top == freshPicture.top
    else { fatalError("stack differs on line \(line)") }
    let diagnostics = document.diagnostics(inLine: line)
    guard diagnostics == fresh.diagnostics(inLine: line) else { fatalError("diagnostics differ on line \(line)") }
    guard document.hintOffset(ofLine: line) == fresh.hintOffset(ofLine: line) else { fatalError("hints differ") }
    guard document.reach(ofLine: line) == fresh.reach(ofLine: line) else { fatalError("reach differs on \(line)") }
    guard document.hasCheck(line: line) == fresh.hasCheck(line: line) else { fatalError("checks differ on \(line)") }
    guard document.isHeading(line) == fresh.isHeading(line) else { fatalError("headings differ on line \(line)") }
    let variables = document.variables(afterLine: line)
    let freshVariables = fresh.variables(afterLine: line)
    guard variables.map({ $0.name }) == freshVariables.map({ $0.name }),
      variables.map({ $0.value }) == freshVariables.map({ $0.value })
    else { fatalError("variables differ after line \(line)") }
    let comment = document.settingsComment(inLine: line)
    let freshComment = fresh.settingsComment(inLine: line)
    guard comment?.comment == freshComment?.comment, comment?.applies == freshComment?.applies else {
      fatalError("the settings comment of line \(line) differs")
    }
    let length = document.withUTF8(ofLine: line) { $0.count }
    for diagnostic in diagnostics where diagnostic.range.isEmpty || diagnostic.range.upperBound > length {
      fatalError("diagnostic range \(diagnostic.range) outside line \(line) of \(length) bytes")
    }
    for shown in [DisplaySettings(maxItems: 4), display] {
      let label = picture.label(display: shown)
      guard label.hasPrefix("["), label.hasSuffix("]"), !label.contains("nan"), !label.contains("inf") else {
        fatalError("malformed label \(label)")
      }
    }
  }
  // Sections: the same headings, lines and summaries (a sum may be NaN, when values overflow
  // both ways: compared bit for bit).
  let sections = document.sections()
  let freshSections = fresh.sections()
  guard sections.count == freshSections.count,
    zip(sections, freshSections).allSatisfy({ a, b in
      a.headingLine == b.headingLine && a.lastLine == b.lastLine && a.title == b.title && a.titleRange == b.titleRange
        && a.summary == b.summary
    })
  else { fatalError("sections differ") }
  guard document.commentRuns() == fresh.commentRuns() else { fatalError("comment runs differ") }
  guard document.trace(line: traceLine) == fresh.trace(line: traceLine) else {
    fatalError("the trace of line \(traceLine) differs")
  }
  // The README's limits: a use runs at most `WordTable.limit` steps, and a use and the space
  // after it are at least two bytes; a document of n bytes runs at most 16 × (n + 1) steps (its
  // last line counts a break it has not) plus the reserve the first line starts with.
  let bytes = reference.count
  let bound = min((bytes + 1) / 2 * wordStepLimit, 16 * (bytes + 1) + lineReserveCap)
  if fresh.wordStepsRun > bound {
    fatalError("an evaluation ran \(fresh.wordStepsRun) steps in words, past \(bound)")
  }
}

/// Checks written back pass on the next run: every failing check updated, a check added to every
/// other line with tokens, in the document's display. Removing every check leaves none. (Once,
/// after the last edit: three more evaluations per step would slow the target down threefold.)
private func checkWrittenChecks(
  _ document: Document, _ settings: EvaluationSettings, _ overriding: DocumentSettings,
  _ editorDisplay: DisplaySettings
) {
  let display = document.display(over: editorDisplay)
  let written = document.applying(document.checkUpdates() + document.checkAdditions(display: display))
  guard let rewritten = try? Document(text: written, settings: settings, overriding: overriding) else {
    fatalError("rewritten text refused")
  }
  if let failed = rewritten.diagnostics().first(where: { $0.diagnostic.code == .checkFailed }) {
    fatalError("a written check fails on line \(failed.line): \(failed.diagnostic.message)")
  }
  let removals = document.checkRemovals().sorted { ($0.line, $0.range.lowerBound) < ($1.line, $1.range.lowerBound) }
  if zip(removals, removals.dropFirst()).contains(where: {
    $0.line == $1.line && $0.range.upperBound > $1.range.lowerBound
  }) {
    fatalError("the edits that remove every check overlap: \(removals)")
  }
  let removed = document.applying(removals)
  guard let unchecked = try? Document(text: removed, settings: settings, overriding: overriding) else {
    fatalError("text without checks refused")
  }
  if unchecked.hasAnyCheck { fatalError("a check is left after removing every check") }
}

/// The steps a use may run: the engine's `WordTable.limit`, which is not visible outside it.
private let wordStepLimit = 10_000

/// The work a line may draw from the lines above, and the first line starts with: the engine's
/// `Machine.reserveCap`, which is not visible outside it.
private let lineReserveCap = 1 << 20

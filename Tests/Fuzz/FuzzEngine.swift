import RPNEngine

/// Target 2: a document (the input's bytes, or words of the language the input picks), then
/// random edits, some staged and evaluated at once as the server does, and changes of the
/// editor's angle unit. Inside: after every step the edited document equals a fresh one made
/// from its text (stacks, diagnostics, hints, `lastx`-dependent labels, variables, sections,
/// settings lines and the document's settings), every diagnostic range lies in its line and every
/// label is well formed; after the last step, checks written back (updated, or added in the
/// document's display) pass, and removing every check leaves none.
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
  var settings = EvaluationSettings(angleUnit: mode & 1 == 0 ? .radians : .degrees)
  // The command line's flags, now and then: they win over the document's `# rpn:` lines.
  var overriding = DocumentSettings()
  if mode & 0x40 != 0 {
    overriding.angleUnit = mode & 2 == 0 ? .radians : .degrees
    overriding.notation = Notation.allCases[Int(mode >> 2) % Notation.allCases.count]
  }
  let editorDisplay = DisplaySettings(
    precision: 1 + Int(mode >> 2) % 17, maxItems: 1 + Int(mode >> 3) % 6,
    notation: Notation.allCases[Int(mode >> 4) % Notation.allCases.count], decimals: Int(mode) % 16,
    grouping: mode & 0x20 != 0)
  guard let document = try? Document(text: text, settings: settings, overriding: overriding) else { return 0 }
  check(document, settings, overriding, editorDisplay, traceLine: 0)
  while !stream.isAtEnd {
    let action = stream.byte()
    if action < 12 {
      // The editor's settings change (`workspace/didChangeConfiguration`).
      settings.angleUnit = settings.angleUnit == .radians ? .degrees : .radians
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
      if action < 48 {
        // As the server does with a batch of `didChange`s: each staged, then one evaluation.
        for edit in edits { try? document.stage(edit) }
        document.evaluateStaged()
      } else {
        _ = try? document.apply(edits)
      }
    }
    check(document, settings, overriding, editorDisplay, traceLine: stream.int(below: document.lineCount))
  }
  checkWrittenChecks(document, settings, overriding, editorDisplay)
  return 0
}

private func check(
  _ document: Document, _ settings: EvaluationSettings, _ overriding: DocumentSettings,
  _ editorDisplay: DisplaySettings, traceLine: Int
) {
  guard let fresh = try? Document(text: document.text, settings: settings, overriding: overriding) else {
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
    let picture = document.stack(afterLine: line, keepingTop: 16)
    guard picture == fresh.stack(afterLine: line, keepingTop: 16) else { fatalError("stack differs on line \(line)") }
    let diagnostics = document.diagnostics(inLine: line)
    guard diagnostics == fresh.diagnostics(inLine: line) else { fatalError("diagnostics differ on line \(line)") }
    guard document.hintOffset(ofLine: line) == fresh.hintOffset(ofLine: line) else { fatalError("hints differ") }
    guard document.reach(ofLine: line) == fresh.reach(ofLine: line) else { fatalError("reach differs on \(line)") }
    guard document.hasCheck(line: line) == fresh.hasCheck(line: line) else { fatalError("checks differ on \(line)") }
    guard document.isHeading(line) == fresh.isHeading(line) else { fatalError("headings differ on line \(line)") }
    let variables = document.variables(afterLine: line)
    let freshVariables = fresh.variables(afterLine: line)
    guard variables.map({ $0.name }) == freshVariables.map({ $0.name }),
      variables.map({ $0.value.bitPattern }) == freshVariables.map({ $0.value.bitPattern })
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
        && a.summary.count == b.summary.count && a.summary.sum.bitPattern == b.summary.sum.bitPattern
    })
  else { fatalError("sections differ") }
  guard document.commentRuns() == fresh.commentRuns() else { fatalError("comment runs differ") }
  guard document.trace(line: traceLine) == fresh.trace(line: traceLine) else {
    fatalError("the trace of line \(traceLine) differs")
  }
  // A use is at least two bytes and runs at most `WordTable.limit` steps (README, Limits).
  let bound = max(1, fresh.text.utf8.count / 2) * wordStepLimit
  if emptyWordsCount && fresh.wordStepsRun > bound {
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
  let addedIn = display.notation == .engineering && !engineeringChecksPass ? DisplaySettings() : display
  let written = document.applying(document.checkUpdates() + document.checkAdditions(display: addedIn))
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
    if removalsMayOverlap { return }
    fatalError("the edits that remove every check overlap: \(removals)")
  }
  let removed = document.applying(removals)
  guard let unchecked = try? Document(text: removed, settings: settings, overriding: overriding) else {
    fatalError("text without checks refused")
  }
  if unchecked.hasAnyCheck { fatalError("a check is left after removing every check") }
}

/// Whether a check written in engineering notation passes. Not yet: `111` at two significant
/// digits is written `=110e+00`, which is read as a whole number and fails (found by this target;
/// the seed `regression-engineering-check` and the test `aCheckWrittenInEngineeringNotationPasses`
/// keep it). Until the engine is fixed this target writes such checks in `auto` notation, so that
/// it can look for other bugs; once fixed, this is true and they are checked again.
private let engineeringChecksPass: Bool = {
  let display = DisplaySettings(notation: .engineering, decimals: 1)
  return CheckLiteral("=" + CheckLiteral.written(111, display: display))?.passes(111) == true
}()

/// Whether the edits that remove every check may overlap. They do: on a line that starts with a
/// check followed by another (`=1 =2`), both take the space between them (found by this target;
/// the seed `regression-removing-adjacent-checks` and the test
/// `removingAdjacentChecksDoesNotOverlap` keep it). Until the engine is fixed this target skips
/// the removal of such documents' checks; once fixed, this is false and they are checked again.
private let removalsMayOverlap: Bool = {
  guard let document = try? Document(text: "=1 =2") else { return true }
  let edits = document.checkRemovals()
  return edits.count == 2 && edits[0].range.overlaps(edits[1].range)
}()

/// The steps a use may run: the engine's `WordTable.limit`, which is not visible outside it.
private let wordStepLimit = 10_000

/// Whether uses of empty words count toward the cost limit. They do not: `: e0 ;` costs no step,
/// nor does a word made only of its uses, so nesting them runs unbounded calls (the test
/// `usesOfEmptyWordsCountTowardTheLimit` keeps it). Until the engine is fixed this target does
/// not check the bound on the steps run; once fixed, it does.
private let emptyWordsCount: Bool = {
  var lines = [": e0 ;"]
  for level in 1...4 {
    lines.append(": e\(level) " + Array(repeating: "e\(level - 1)", count: 10).joined(separator: " ") + " ;")
  }
  guard let document = try? Document(text: (lines + ["1 e4"]).joined(separator: "\n")) else { return false }
  return document.wordStepsRun <= wordStepLimit
}()

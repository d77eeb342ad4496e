import RPNEngine

/// Target 2: arbitrary bytes as a document, then random line edits. Inside: the incremental
/// model equals a full evaluation after every edit, every diagnostic range lies in its line,
/// every label is well formed, and checks written back (updated or added) pass.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEngine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var stream = ByteStream(bytes: UnsafeBufferPointer(start: data, count: size))
  let textLength = stream.int(below: 512)
  let text = String(decoding: stream.take(textLength), as: UTF8.self)
  let settings = EvaluationSettings(angleUnit: stream.byte() & 1 == 0 ? .radians : .degrees)
  guard let document = try? Document(text: text, settings: settings) else { return 0 }
  check(document, settings)
  while !stream.isAtEnd {
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
    _ = try? document.apply(edits)
    check(document, settings)
  }
  return 0
}

private func check(_ document: Document, _ settings: EvaluationSettings) {
  guard let fresh = try? Document(text: document.text, settings: settings) else { fatalError("text refused") }
  // Checks written back pass on the next run: every failing check updated, a check added to
  // every other line with tokens.
  let written = document.applying(document.checkUpdates() + document.checkAdditions())
  guard let rewritten = try? Document(text: written, settings: settings) else { fatalError("rewritten text refused") }
  if let failed = rewritten.diagnostics().first(where: { $0.diagnostic.code == .checkFailed }) {
    fatalError("a written check fails on line \(failed.line): \(failed.diagnostic.message)")
  }
  guard fresh.lineCount == document.lineCount else { fatalError("line counts differ") }
  for line in 0..<document.lineCount {
    let picture = document.stack(afterLine: line, keepingTop: 16)
    guard picture == fresh.stack(afterLine: line, keepingTop: 16) else { fatalError("stack differs on line \(line)") }
    let diagnostics = document.diagnostics(inLine: line)
    guard diagnostics == fresh.diagnostics(inLine: line) else { fatalError("diagnostics differ on line \(line)") }
    guard document.hintOffset(ofLine: line) == fresh.hintOffset(ofLine: line) else { fatalError("hints differ") }
    let length = document.withUTF8(ofLine: line) { $0.count }
    for diagnostic in diagnostics where diagnostic.range.isEmpty || diagnostic.range.upperBound > length {
      fatalError("diagnostic range \(diagnostic.range) outside line \(line) of \(length) bytes")
    }
    let label = picture.label(display: DisplaySettings(maxItems: 4))
    guard label.hasPrefix("["), label.hasSuffix("]"), !label.contains("nan"), !label.contains("inf") else {
      fatalError("malformed label \(label)")
    }
  }
}

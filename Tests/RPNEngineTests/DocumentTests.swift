import Testing

@testable import RPNEngine

/// The stack label after every line.
private func labels(_ document: Document) -> [String] {
  (0..<document.lineCount).map { document.stack(afterLine: $0).label() }
}

/// Every diagnostic of a document, compactly.
private func diagnostics(_ document: Document) -> [String] {
  document.diagnostics().map { compact($0.diagnostic, line: $0.line) }
}

private func at(_ line: Int, _ column: Int) -> TextPosition {
  TextPosition(line: line, utf8Column: column)
}

@Suite struct DocumentTests {
  // MARK: Inlay hint offsets

  @Test func hintGoesRightAfterTheLastToken() throws {
    let document = try Document(text: "1 2 +\n1 2 +  # total\n\n   \n# note\n  5  \n\u{E9}t\u{E9} 1 # ☕\nzzz")
    #expect((0..<8).map(document.hintOffset(ofLine:)) == [5, 5, nil, nil, nil, 3, 7, 3])
    #expect(document.hintOffset(ofLine: 8) == nil)
    #expect(document.hintOffset(ofLine: -1) == nil)
  }

  // MARK: Lines and text

  @Test func anEmptyDocumentHasOneLine() throws {
    let document = try Document(text: "")
    #expect(document.lineCount == 1)
    #expect(document.text == "")
    #expect(document.stack(afterLine: 0).label() == "[]")
  }

  @Test(arguments: ["", "1", "1\n", "1\r\n2\r3\n", "a\r\n\r\nb\n\rc", "é 😀\u{2028}x\r\n# ☕\r", "\n\n\n"])
  func textRoundTrips(_ text: String) throws {
    let document = try Document(text: text)
    #expect(Array(document.text.utf8) == Array(text.utf8))
    let lines = (0..<document.lineCount).map { document.text(ofLine: $0) + document.terminator(ofLine: $0).string }
    #expect(Array(lines.joined().utf8) == Array(text.utf8))
  }

  @Test func stackBeforeALineIsTheStackAfterTheOneAbove() throws {
    let document = try Document(text: "1\n2\n+")
    #expect(document.stack(beforeLine: 0).label() == "[]")
    #expect(document.stack(beforeLine: 1).label() == "[1]")
    #expect(document.stack(beforeLine: 2).label() == "[1 2]")
    #expect(document.stack(afterLine: 2).label() == "[3]")
    #expect(document.stack(afterLine: 2) == StackPicture(depth: 1, top: [3]))
  }

  @Test func stackPicturesKeepTheDepth() throws {
    let document = try Document(text: "1 2 3 4 5")
    #expect(document.stack(afterLine: 0, keepingTop: 2) == StackPicture(depth: 5, top: [4, 5]))
    #expect(document.stack(afterLine: 0, keepingTop: 2).label(display: DisplaySettings(maxItems: 2)) == "[… 4 5]")
  }

  // MARK: Trace

  @Test func traceGivesTheStackAroundEachToken() throws {
    let document = try Document(text: "1 2 +\n3 swap zzz +")
    let trace = document.trace(line: 1)
    #expect(trace.map(\.token.range) == [0..<1, 2..<6, 7..<10, 11..<12])
    #expect(trace.map { $0.before.label() } == ["[3]", "[3 3]", "[3 3]", "[3 3]"])
    #expect(trace.map { $0.after.label() } == ["[3 3]", "[3 3]", "[3 3]", "[6]"])
    #expect(trace.map { $0.diagnostic?.code } == [nil, nil, .unknownWord, nil])
    #expect(trace[0].token.kind == .number(3))
    #expect(trace[2].token.kind == .name)
    // Tracing changes nothing.
    #expect(labels(document) == ["[3]", "[6]"])
    #expect(diagnostics(document) == ["unknown-word@1:7-10"])
  }

  @Test func traceSeesVariablesAndFailures() throws {
    let document = try Document(text: "5 =x\nx 0 / =y y")
    let trace = document.trace(line: 1)
    #expect(trace.map { $0.after.label() } == ["[5 5]", "[5 5 0]", "[5 5 0]", "[5 5 0]", "[5 5 0 0]"])
    #expect(trace.map { $0.diagnostic?.code } == [nil, nil, .divisionByZero, nil, nil])
    #expect(trace[2].diagnostic?.range == 4..<5)
  }

  @Test func traceKeepsTheRequestedTop() throws {
    let document = try Document(text: "1 2 3\n4")
    let trace = document.trace(line: 1, keepingTop: 2)
    #expect(trace.count == 1)
    #expect(trace[0].before == StackPicture(depth: 3, top: [2, 3]))
    #expect(trace[0].after == StackPicture(depth: 4, top: [3, 4]))
    #expect(document.trace(line: 7).isEmpty)
  }

  @Test func traceSaysStoredLater() throws {
    let document = try Document(text: "x\n1 =x")
    let message = document.trace(line: 0).first?.diagnostic?.message ?? ""
    #expect(message.contains("stored later, on line 2"))
  }

  // MARK: Reach

  @Test(arguments: [
    ("+", 2), ("dup", 1), ("5", 0), ("sum", 3), ("avg", 3), ("clear", 3), ("drop", 1), ("swap", 2), ("over", 2),
    ("rot", 3), ("+ +", 3), ("5 +", 1), ("=x", 1), ("neg", 1), ("1 2 + +", 1), ("%", 2), ("", 0), ("# c", 0),
    ("pi", 0), ("4 5 6 7 sum", 3), ("drop drop drop", 3), ("zzz", 0),
  ])
  func reachCountsTheValuesALineCanDependOn(_ line: String, _ reach: Int) throws {
    let document = try Document(text: "1 2 3\n" + line)
    #expect(document.reach(ofLine: 1) == reach)
    #expect(document.reach(ofLine: 0) == 0)
  }

  // MARK: Edits

  @Test func anEditStopsWhereTheStateSettles() throws {
    let document = try Document(text: "1\n2\n+\nclear 0 0 +\n5")
    let result = try document.replace(from: at(1, 0), to: at(1, 1), with: "3")
    #expect(result == EditResult(replacedLines: 1..<2, reevaluatedLines: 1..<4, lineCountChange: 0))
    #expect(labels(document) == ["[1]", "[1 3]", "[4]", "[0]", "[0 5]"])
    #expect(document.text == "1\n3\n+\nclear 0 0 +\n5")
    // `lastx` is part of the state: after a bare `clear` it still differs (3, not 2), so the
    // line below is evaluated too.
    let bare = try Document(text: "1\n2\n+\nclear\n5")
    let further = try bare.replace(from: at(1, 0), to: at(1, 1), with: "3")
    #expect(further == EditResult(replacedLines: 1..<2, reevaluatedLines: 1..<5, lineCountChange: 0))
  }

  /// The state after the edited line is what it was: nothing below needs evaluating.
  @Test func anEditThatChangesNoStateStopsAtTheEditedLine() throws {
    let document = try Document(text: "1\n2\n3")
    let result = try document.replace(from: at(1, 0), to: at(1, 1), with: "2.0")
    #expect(result == EditResult(replacedLines: 1..<2, reevaluatedLines: 1..<2, lineCountChange: 0))
    #expect(labels(document) == ["[1]", "[1 2]", "[1 2 3]"])
  }

  @Test func variablesArePartOfTheState() throws {
    let document = try Document(text: "5 =x drop\n1\n2\nx")
    let result = try document.replaceLines(0..<1, with: "6 =x drop\n")
    #expect(result.reevaluatedLines == 0..<4)
    #expect(labels(document) == ["[]", "[1]", "[1 2]", "[1 2 6]"])
  }

  @Test func aLaterStoreHidesAChangedVariable() throws {
    let document = try Document(text: "5 =x drop\n7 =x drop\nx\nx")
    let result = try document.replaceLines(0..<1, with: "6 =x drop\n")
    // Line 1 has the state it had: x is 7 and the stack is empty.
    #expect(result.reevaluatedLines == 0..<2)
    #expect(labels(document) == ["[]", "[]", "[7]", "[7 7]"])
  }

  @Test func replaceLinesSwapsWholeLines() throws {
    let document = try Document(text: "1\n2\n3\n4")
    var result = try document.replaceLines(2..<3, with: "1 2 *\n")
    #expect(result == EditResult(replacedLines: 2..<3, reevaluatedLines: 2..<4, lineCountChange: 0))
    #expect(document.text == "1\n2\n1 2 *\n4")
    #expect(labels(document) == ["[1]", "[1 2]", "[1 2 2]", "[1 2 2 4]"])

    result = try document.replaceLines(1..<3, with: "")
    #expect(result.lineCountChange == -2)
    #expect(document.text == "1\n4")
    #expect(labels(document) == ["[1]", "[1 4]"])

    result = try document.replaceLines(1..<1, with: "x =x\n9 =x\n")
    #expect(result.lineCountChange == 2)
    #expect(document.text == "1\nx =x\n9 =x\n4")
    #expect(labels(document) == ["[1]", "[1]", "[1 9]", "[1 9 4]"])
    #expect(diagnostics(document) == ["unknown-word@1:0-1"])
  }

  @Test func replaceLinesAtTheEnd() throws {
    let document = try Document(text: "1\n2")
    let result = try document.replaceLines(1..<2, with: "3 +")
    #expect(result == EditResult(replacedLines: 1..<2, reevaluatedLines: 1..<2, lineCountChange: 0))
    #expect(document.text == "1\n3 +")
    #expect(labels(document) == ["[1]", "[4]"])
    try document.replaceLines(5..<9, with: "\n5")
    #expect(document.text == "1\n3 +\n5")
    #expect(labels(document) == ["[1]", "[4]", "[4 5]"])
  }

  @Test func replaceAcrossLines() throws {
    let document = try Document(text: "1\n2\n3")
    let result = try document.replace(from: at(0, 1), to: at(2, 0), with: " ")
    #expect(result == EditResult(replacedLines: 0..<1, reevaluatedLines: 0..<1, lineCountChange: -2))
    #expect(document.text == "1 3")
    #expect(labels(document) == ["[1 3]"])
  }

  @Test func replacingReversedPositionsReplacesTheSameText() throws {
    let document = try Document(text: "1 2 3")
    try document.replace(from: at(0, 4), to: at(0, 2), with: "+")
    #expect(document.text == "1 +3")
  }

  @Test func splittingALineInTwo() throws {
    let document = try Document(text: "1 2 +\n5")
    let result = try document.replace(from: at(0, 3), to: at(0, 3), with: "\r\n")
    #expect(result.replacedLines == 0..<2)
    #expect(result.lineCountChange == 1)
    #expect(document.text == "1 2\r\n +\n5")
    #expect(labels(document) == ["[1 2]", "[3]", "[3 5]"])
  }

  // MARK: "\r" then "\n" is one line break

  @Test func insertingLFAfterCRMakesOneBreak() throws {
    let document = try Document(text: "1\r2")
    #expect(document.lineCount == 2)
    let result = try document.replace(from: at(1, 0), to: at(1, 0), with: "\n")
    #expect(result.lineCountChange == 0)
    #expect(document.lineCount == 2)
    #expect(document.terminator(ofLine: 0) == .crlf)
    #expect(document.text == "1\r\n2")
    #expect(labels(document) == ["[1]", "[1 2]"])
  }

  @Test func insertingCRBeforeLFMakesOneBreak() throws {
    let document = try Document(text: "1\n2")
    let result = try document.replace(from: at(0, 1), to: at(0, 1), with: "\r")
    #expect(result.lineCountChange == 0)
    #expect(document.lineCount == 2)
    #expect(document.terminator(ofLine: 0) == .crlf)
    #expect(document.text == "1\r\n2")
  }

  @Test func deletingBetweenCRAndLFMakesOneBreak() throws {
    let document = try Document(text: "1\rx\n2")
    #expect(document.lineCount == 3)
    try document.replace(from: at(1, 0), to: at(1, 1), with: "")
    #expect(document.text == "1\r\n2")
    #expect(document.lineCount == 2)
    #expect(labels(document) == ["[1]", "[1 2]"])
  }

  @Test func insertingLFAfterATrailingCR() throws {
    let document = try Document(text: "1\r")
    try document.replace(from: at(1, 0), to: at(1, 0), with: "\n")
    #expect(document.text == "1\r\n")
    #expect(document.lineCount == 2)
    #expect(document.terminator(ofLine: 0) == .crlf)
  }

  // MARK: Clamping

  @Test func positionsPastTheEndAreClamped() throws {
    let document = try Document(text: "1 2\n3")
    try document.replace(from: at(0, 100), to: at(0, 100), with: " +")
    #expect(document.text == "1 2 +\n3")
    try document.replace(from: at(9, 0), to: at(12, 4), with: " *")
    #expect(document.text == "1 2 +\n3 *")
    #expect(labels(document) == ["[3]", "[9]"])
    try document.replace(from: at(-3, -1), to: at(0, 0), with: "2 ")
    #expect(document.text == "2 1 2 +\n3 *")
    try document.replace(from: at(1, -5), to: at(1, 1), with: "4")
    #expect(document.text == "2 1 2 +\n4 *")
    #expect(labels(document) == ["[2 3]", "[2 12]"])
  }

  @Test func aColumnInsideACharacterMeansItsStart() throws {
    let document = try Document(text: "é")
    try document.replace(from: at(0, 1), to: at(0, 1), with: "x")
    #expect(document.text == "xé")
    try document.replace(from: at(0, 1), to: at(0, 4), with: "")
    #expect(document.text == "x")
  }

  @Test func editsKeepTheTextRoundTrip() throws {
    let document = try Document(text: "a\r\nb\rc\n")
    try document.replace(from: at(1, 0), to: at(1, 1), with: "B\n")
    #expect(document.text == "a\r\nB\n\rc\n")
    #expect(document.lineCount == 5)
    try document.replace(from: at(0, 0), to: at(4, 0), with: "")
    #expect(document.text == "")
    #expect(document.lineCount == 1)
  }

  // MARK: Settings

  @Test func changingTheAngleUnitReevaluates() throws {
    let document = try Document(text: "90 sin")
    #expect(document.stack(afterLine: 0).label() == "[0.893996663600558]")
    document.update(settings: EvaluationSettings(angleMode: .degrees))
    #expect(document.stack(afterLine: 0).label() == "[1]")
  }
}

/// A document made from UTF-8 bytes (the command line's files) is the document of their text:
/// ASCII taken as it is, other valid UTF-8 too, invalid bytes read as U+FFFD.
@Suite struct DocumentFromBytesTests {
  @Test(arguments: [
    [UInt8]("1 2 +\n3 =x\n".utf8), [UInt8]("größe 😀 1,5\r\n2 √".utf8), [0x31, 0x20, 0xFF, 0x0A, 0x32, 0xC3],
    [], [UInt8](repeating: 0x31, count: 17),
  ])
  func bytesMakeTheDocumentOfTheirText(_ bytes: [UInt8]) throws {
    let fromBytes = try Document(utf8: bytes)
    let fromText = try Document(text: String(decoding: bytes, as: UTF8.self))
    #expect(fromBytes.text == fromText.text)
    #expect(fromBytes.lineCount == fromText.lineCount)
    for line in 0..<fromText.lineCount {
      #expect(fromBytes.stack(afterLine: line) == fromText.stack(afterLine: line))
      #expect(fromBytes.diagnostics(inLine: line) == fromText.diagnostics(inLine: line))
    }
    #expect(throws: DocumentError.self) { try Document(utf8: [UInt8](repeating: 0x31, count: 10), limit: 9) }
  }
}

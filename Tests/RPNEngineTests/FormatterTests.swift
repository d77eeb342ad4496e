import Foundation
import TestSupport
import Testing

@testable import RPNEngine

/// A line formatted by `Formatter.format(line:)`; nil when it is formatted already.
private func format(line: String) -> String? {
  var line = line
  return line.withUTF8 { Formatter.format(line: $0) }
}

/// Every Unicode White_Space scalar that does not end a line.
private let whitespace: [String] =
  ["\t", "\u{B}", "\u{C}", " ", "\u{85}", "\u{A0}", "\u{1680}"]
  + (0x2000...0x200A).map { String(Unicode.Scalar($0)!) } + [
    "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}",
  ]

/// Tokens of every kind of the README's token rules and the README's diagnostics table: numbers (valid and out of range), operators and
/// constants in several spellings and cases, stores (valid, failing, invalid), uses (visible or
/// not), glued and unknown words, and non-ASCII text.
private let tokens: [String] = [
  "1", "2.5", "−3", "-0", ".5", "12.", "1e3", "2.5E-4", "1_000", "0.000_1", "1e999", "1e-999", "+7",
  "+", "-", "−", "*", "×", "/", "÷", "^", "**", "pow", "%", "mod", "neg", "CHS", "abs", "inv", "sq", "sqrt", "√",
  "Sqrt", "ln", "sin", "floor", "round", "dup", "DUP", "drop", "swap", "over", "rot", "clear", "depth", "sum", "avg",
  "pi", "π", "PI", "e", "E",
  "=a", "=b", "=é", "=rate", "=", "=9x", "=dup", "=a-b", "a", "b", "é", "rate", "ratr", "zz", "4+", "3dup", "dupp",
  "😀", "$", "1.2.3", "a#b", "1#", "日本",
]

/// Comment texts (after `#`), with whitespace inside and at the end.
private let comments: [String] = [
  "", " note", "  spaced   out  ", " ☕ 😀", "#", " tab\there\t", " nbsp\u{A0}", " end\u{2028}", " \u{3000}", " 1 2 +",
  "\u{C}", " x\u{85}",
]

private let terminators = ["\n", "\r\n", "\r"]

/// A random document: blank lines, whitespace-only lines, lines of tokens with any whitespace
/// around and between them, comments with or without tokens, and every kind of line ending.
private func randomDocument(seed: UInt64) -> String {
  var random = SplitMix64(seed: seed)
  func spaces(_ range: ClosedRange<Int>) -> String {
    (0..<Int.random(in: range, using: &random)).map { _ in whitespace.randomElement(using: &random)! }.joined()
  }
  var text = ""
  let lineCount = Int.random(in: 1...12, using: &random)
  for index in 0..<lineCount {
    switch Int.random(in: 0..<10, using: &random) {
    case 0: break  // Blank.
    case 1: text += spaces(1...4)  // Whitespace only.
    default:
      text += spaces(0...2)
      let count = Int.random(in: 0...6, using: &random)
      for k in 0..<count {
        if k > 0 { text += spaces(1...3) }
        text += tokens.randomElement(using: &random)!
      }
      if Bool.random(using: &random) {
        text += spaces(count == 0 ? 0...2 : (Bool.random(using: &random) ? 0...3 : 1...3))
        text += "#" + comments.randomElement(using: &random)!
      }
      text += spaces(0...2)
    }
    let last = index == lineCount - 1
    if !last || Bool.random(using: &random) { text += terminators.randomElement(using: &random)! }
  }
  return text
}

/// What formatting must keep of a line: its stack label and its diagnostics (code, token text
/// and message; their columns move).
private struct LineState: Equatable, CustomStringConvertible {
  var stack: StackPicture
  var diagnostics: [String]
  var terminator: LineTerminator

  var description: String { "\(stack.label(display: DisplaySettings(maxItems: 1000))) \(diagnostics) \(terminator)" }
}

private func states(_ document: Document) -> [LineState] {
  (0..<document.lineCount).map { line in
    let bytes = Array(document.text(ofLine: line).utf8)
    let diagnostics = document.diagnostics(inLine: line).map { diagnostic in
      let token = String(decoding: bytes[diagnostic.range], as: UTF8.self)
      return "\(diagnostic.code.rawValue) \(token.debugDescription): \(diagnostic.message)"
    }
    return LineState(
      stack: document.stack(afterLine: line, keepingTop: 1000), diagnostics: diagnostics,
      terminator: document.terminator(ofLine: line))
  }
}

/// The layout of the README's table of server features, written out independently of the formatter: the tokens joined by one
/// space, then one space and the comment without its trailing whitespace.
private func expectedLayout(_ line: String) -> String {
  let (tokens, commentStart) = Lexer.tokens(of: line)
  let bytes = Array(line.utf8)
  var parts = tokens.map { String(decoding: bytes[$0.range], as: UTF8.self) }
  if let commentStart {
    var comment = Array(String(decoding: bytes[commentStart...], as: UTF8.self).unicodeScalars)
    while let last = comment.last, last.properties.isWhitespace { comment.removeLast() }
    parts.append(String(String.UnicodeScalarView(comment)))
  }
  return parts.joined(separator: " ")
}

@Suite struct FormatterTests {
  @Test(
    arguments: [
      ("  1   2\t+  ", "1 2 +"),
      ("1 2 +", nil),
      ("", nil),
      ("   ", ""),
      ("\t\u{C}\u{2028}", ""),
      ("# note  ", "# note"),
      ("   # note", "# note"),
      ("1 2 +    # sum ×\u{A0} ", "1 2 + # sum ×"),
      ("1 2 +# sum", "1 2 + # sum"),
      ("a#b", "a #b"),
      ("#  keeps  inner   spaces", nil),
      ("\u{A0}x\u{2028}x\u{3000}*\u{85}", "x x *"),
      ("😀  √   4", "😀 √ 4"),
      ("1 # ok", nil),
      ("1\u{2029}# x\u{205F}", "1 # x"),
    ] as [(String, String?)])
  func formatsOneLine(line: String, formatted: String?) {
    #expect(format(line: line) == formatted, "\(line.debugDescription)")
  }

  @Test func editsCoverOnlyTheLinesAskedForAndOnlyThoseThatChange() throws {
    let document = try Document(text: " 1\n2\n 3 \r\n# x \r4")
    #expect(Formatter.edits(document).map { "\($0.line) \($0.text)" } == ["0 1", "2 3", "3 # x"])
    #expect(Formatter.edits(document, lines: 1..<3).map { "\($0.line) \($0.text)" } == ["2 3"])
    #expect(Formatter.edits(document, lines: 3..<99).map { "\($0.line) \($0.text)" } == ["3 # x"])
    #expect(Formatter.edits(document, lines: 5..<9).isEmpty)
    #expect(Formatter.format(document) == "1\n2\n3\r\n# x\r4")
  }

  /// Over seeded random documents: formatting is idempotent, gives the README's table of server features's layout, and keeps
  /// every line, its line ending, its stack label and its diagnostics. Each property that fails
  /// is reported once, with how many documents broke it and the first seeds (`randomDocument`
  /// makes a document again from its seed).
  @Test func formattingIsIdempotentAndChangesNoMeaning() throws {
    let documents: UInt64 = 2_000
    var failures: [String: [String]] = [:]
    for seed in 1...documents {
      let text = randomDocument(seed: seed)
      func fail(_ property: String, _ detail: String) {
        failures[property, default: []].append("seed \(seed): \(text.debugDescription): \(detail)")
      }
      let document = try Document(text: text)
      let formatted = Formatter.format(document)
      let again = try Document(text: formatted)
      if Formatter.format(again) != formatted || !Formatter.edits(again).isEmpty {
        fail("idempotent", "\(formatted.debugDescription) formats to \(Formatter.format(again).debugDescription)")
      }
      // The edits, applied line by line, give the same text.
      var edited = (0..<document.lineCount).map { document.text(ofLine: $0) }
      for (line, replacement) in Formatter.edits(document) { edited[line] = replacement }
      let editedText = (0..<document.lineCount).map { edited[$0] + document.terminator(ofLine: $0).string }.joined()
      if editedText != formatted {
        fail("edits agree with format", "\(editedText.debugDescription) ≠ \(formatted.debugDescription)")
      }
      guard again.lineCount == document.lineCount else {
        fail("lines kept", "\(document.lineCount) lines became \(again.lineCount): \(formatted.debugDescription)")
        continue
      }
      let before = states(document)
      let after = states(again)
      for line in 0..<document.lineCount {
        if before[line] != after[line] {
          fail("stacks, diagnostics and line endings kept", "line \(line): \(before[line]) became \(after[line])")
        }
        var layout = expectedLayout(document.text(ofLine: line))
        // A whitespace-only line between a "\r" and a "\n" stays: emptied, the two breaks would
        // be one "\r\n" and every line below would move up.
        if layout.isEmpty, line > 0, document.terminator(ofLine: line - 1) == .cr,
          document.terminator(ofLine: line) == .lf
        {
          layout = document.text(ofLine: line)
        }
        // Aligned comments may stand further right: the gap before `#` (which no token holds)
        // is then wider than one space.
        var got = again.text(ofLine: line)
        if got != layout, let hash = got.firstIndex(of: "#"), got[..<hash].hasSuffix("  ") {
          got = got[..<hash].replacingOccurrences(of: " +$", with: " ", options: .regularExpression) + got[hash...]
        }
        if got != layout {
          fail("layout", "line \(line) is \(again.text(ofLine: line).debugDescription), not \(layout.debugDescription)")
        }
      }
    }
    for property in [
      "idempotent", "edits agree with format", "lines kept", "stacks, diagnostics and line endings kept", "layout",
    ] {
      let failed = failures[property] ?? []
      #expect(
        failed.isEmpty, "\(property): \(failed.count) of \(documents) documents fail; the first: \(failed.prefix(2))")
    }
  }

  /// Trailing comments that were aligned on consecutive lines stay aligned, one space after the
  /// longest line's tokens (as gofmt keeps them); comments that were not aligned get one space.
  @Test(
    arguments: [
      ("1 2 +      # a\n10  4 −    # b\n", "1 2 +  # a\n10 4 − # b\n"),
      ("1 +   # a\n2     # b\n3 # c\n", "1 + # a\n2   # b\n3 # c\n"),
      ("1 +  # a\n2  # b\n", "1 + # a\n2 # b\n"),
      ("1 +   # a\n\n2     # b\n", "1 + # a\n\n2 # b\n"),
      ("1 +   # a\n# note\n2     # b\n", "1 + # a\n# note\n2 # b\n"),
      ("1 +   # a\n5\n2     # b\n", "1 + # a\n5\n2 # b\n"),
      // Columns as a terminal shows them: an emoji takes two, a tab four (as `eval` counts).
      ("😀 √ # a\n4    # b\n", nil), ("😀  √ # a\n4     # b\n", "😀 √ # a\n4    # b\n"),
      ("1\t2 +   # a\r\n3          # b\r\n", "1 2 + # a\r\n3     # b\r\n"),
      ("a   # x\nbb  # y\nccc # z\n", nil),
    ] as [(String, String?)])
  func alignedCommentsStayAligned(text: String, formatted: String?) throws {
    let document = try Document(text: text)
    #expect(Formatter.format(document) == (formatted ?? text), "\(text.debugDescription)")
    #expect(Formatter.edits(document).isEmpty == (formatted == nil))
    // Formatting one line of a run aligns it with the whole run.
    let lastLine = Formatter.edits(document, lines: 1..<2).first?.text ?? document.text(ofLine: 1)
    #expect(lastLine == (try Document(text: formatted ?? text)).text(ofLine: 1))
    let again = try Document(text: Formatter.format(document))
    #expect(Formatter.edits(again).isEmpty, "idempotent")
  }

  /// Found by the property test: a whitespace-only line between a `\r` and a `\n` became empty,
  /// and the two line breaks joined into one `\r\n`, so the document lost a line.
  @Test(arguments: [" 1\r \n2\n", "1\r\t\n", "\r\u{A0}\n"])
  func aWhitespaceOnlyLineBetweenCRAndLFKeepsItsLine(text: String) throws {
    let document = try Document(text: text)
    let formatted = try Document(text: Formatter.format(document))
    #expect(formatted.lineCount == document.lineCount, "\(Formatter.format(document).debugDescription)")
    #expect(
      (0..<formatted.lineCount).map { formatted.terminator(ofLine: $0) }
        == (0..<document.lineCount).map { document.terminator(ofLine: $0) })
  }
}

/// Crashes the fuzzers found, kept as regression tests.
@Suite struct FuzzRegressionTests {
  /// `rangeFormatting` from line 10 of a 2-line document built a reversed range and trapped.
  @Test func formattingARangePastTheEndIsEmpty() throws {
    let document = try Document(text: "  1  2 +\n3")
    #expect(Formatter.edits(document, lines: 10..<12).isEmpty)
    #expect(Formatter.edits(document, lines: 1..<12).isEmpty)
    #expect(Formatter.edits(document, lines: -3..<1).map(\.text) == ["1 2 +"])
  }
}

/// The size limit is enforced on open and on every edit, and a refused edit changes nothing.
@Suite struct DocumentLimitTests {
  @Test func aDocumentPastItsLimitIsRefused() throws {
    #expect(throws: DocumentError.tooLarge(utf8Count: 11, limit: 10)) { try Document(text: "1 2 + 3 4 +", limit: 10) }
    let document = try Document(text: "1 2 +", limit: 10)
    #expect(throws: DocumentError.tooLarge(utf8Count: 11, limit: 10)) {
      try document.replace(
        from: TextPosition(line: 0, utf8Column: 5), to: TextPosition(line: 0, utf8Column: 5), with: " 7 * 9")
    }
    #expect(document.text == "1 2 +")
    #expect(document.stack(afterLine: 0).label() == "[3]")
    try document.replace(
      from: TextPosition(line: 0, utf8Column: 5), to: TextPosition(line: 0, utf8Column: 5), with: " 2 *")
    #expect(document.stack(afterLine: 0).label() == "[6]")
  }
}

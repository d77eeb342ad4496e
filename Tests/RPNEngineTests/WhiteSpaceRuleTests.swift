import Testing

@testable import RPNEngine

/// One white space rule (Unicode White_Space, as the lexer reads it) for tokens, `# rpn:` lines
/// and formatting, and a byte order mark at the start of a line read as no text.
@Suite struct WhiteSpaceRuleTests {
  /// Every white space character the lexer skips, beyond the ASCII space: NBSP, U+2003, U+3000,
  /// U+2028, U+0085, vertical tab, form feed, tab.
  static let spaces = ["\u{A0}", "\u{2003}", "\u{3000}", "\u{2028}", "\u{85}", "\u{B}", "\u{C}", "\t"]

  /// A `# rpn:` line indented with any of them is a setting, as it is once formatted.
  @Test(arguments: spaces)
  func anIndentedSettingsLineApplies(space: String) throws {
    let text = space + "# rpn: angleUnit=degrees\n90 sin =1"
    check(text, stack: "[1]")
    let formatted = Formatter.format(try Document(text: text))
    #expect(formatted == "# rpn: angleUnit=degrees\n90 sin =1")
    check(formatted, stack: "[1]")
  }

  /// Inside the line, any of them parts `#`, `rpn:` and the pairs, and ends a value.
  @Test(arguments: spaces)
  func whiteSpaceInsideTheSettingsLine(space: String) throws {
    check("#\(space)rpn:\(space)angleUnit=degrees\(space)\n90 sin", stack: "[1]")
    let document = try #require(check("# rpn: maxItems=3\(space)angleUnit=degrees\(space)\n90 sin", stack: "[1]"))
    let pairs = try #require(document.settingsComment(inLine: 0)).comment.pairs.map(\.text)
    #expect(pairs == ["maxItems=3", "angleUnit=degrees"])
    #expect(document.display(over: DisplaySettings()).maxItems == 3)
  }

  @Test func theIssueExamples() throws {
    check("\u{A0}# rpn: angleUnit=degrees\n90 sin =0.894", stack: "[1]", diagnostics: ["check-failed@1:7-13"])
    check("# rpn: maxItems=3\u{2003}angleUnit=degrees\n90 sin =1", stack: "[1]")
    check("# rpn:\u{A0}angleUnit=degrees\n90 sin =1", stack: "[1]")
    check("# rpn: angleUnit=degrees\u{A0}\n90 sin =1", stack: "[1]")
    check("# rpn: angleUnit=degrees\u{3000}\n90 sin =1", stack: "[1]")
    // A character that is no white space (U+200B, zero width space, is not White_Space) still
    // makes one pair, as it makes one token.
    check(
      "# rpn: maxItems=3\u{200B}angleUnit=degrees\n90 sin", stack: "[0.893996663600558]",
      diagnostics: ["invalid-setting@0:7-37"])
  }

  /// A byte order mark that starts the text is no text: not part of the first token, and no
  /// hiding place for a `# rpn:` line. Formatting keeps it on the first line.
  @Test func aByteOrderMarkIsNoText() throws {
    check("\u{FEFF}1 2 + =3", stack: "[3]")
    let failing = try #require(check("\u{FEFF}1 2 + =4", stack: "[3]", diagnostics: ["check-failed@0:9-11"]))
    #expect(failing.diagnostics().map(\.diagnostic.message) == ["expected 4, the top is 3 (3 to a whole number)"])
    check("\u{FEFF}# rpn: angleUnit=degrees\n90 sin", stack: "[1]")
    check("\u{FEFF}  # rpn: angleUnit=degrees\n90 sin", stack: "[1]")
    #expect(Formatter.format(try Document(text: "\u{FEFF}  1   2 +\n\u{FEFF} 3")) == "\u{FEFF}1 2 +\n3")
    #expect(Formatter.edits(try Document(text: "\u{FEFF}# rpn: angleUnit=degrees\n90 sin =1")).isEmpty)
    #expect(Formatter.edits(try Document(text: "\u{FEFF} 1")).map(\.text) == ["\u{FEFF}1"])
    // Anywhere but at the start of a line it is a character of a token, as any other.
    check("1\u{FEFF} 2", stack: "[2]", diagnostics: ["unknown-word@0:0-4"])
    // Its tokens keep their offsets in the line: after the mark's three bytes.
    let document = try Document(text: "\u{FEFF}12 x")
    #expect(document.withUTF8(ofLine: 0) { Lexer.tokens(of: $0).tokens.map(\.range) } == [3..<5, 6..<7])
  }
}

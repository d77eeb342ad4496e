import Foundation
import Testing

@testable import RPNEngine

/// `# rpn: key=value …` lines before the first token: the tape's own settings.
@Suite struct DocumentSettingsTests {
  @Test func theAngleUnitAppliesToTheWholeTape() {
    check("# rpn: angleUnit=degrees\n90 sin", stack: "[1]")
    check("  #rpn:   ANGLEUNIT=Degrees\n\n90 sin", stack: "[1]")
    check("# budget\n# rpn: angleUnit=degrees\n90 sin", stack: "[1]")
    check("# rpn: angleUnit=radians angleUnit=degrees\n90 sin", stack: "[1]", diagnostics: [])
    // After the first token, a plain comment.
    check("0\n# rpn: angleUnit=degrees\n90 sin", stack: "[0 0.893996663600558]")
    check("# rpn angleUnit=degrees\n90 sin", stack: "[0.893996663600558]")
  }

  /// Each pair that does not apply is a warning on it; the others still apply.
  @Test func badPairsAreWarnedAndTheRestApply() throws {
    let text =
      "# rpn: foo=1 decimals=20 notation=fancy grouping=yes angleUnit=degrees precision=0 maxItems=0 x= =3 plain\n90 sin"
    let document = try Document(text: text)
    #expect(document.stack(afterLine: 1).top == [1])
    let found = document.diagnostics().map { compact($0.diagnostic, line: $0.line) }
    #expect(
      found == [
        "invalid-setting@0:7-12", "invalid-setting@0:13-24", "invalid-setting@0:25-39", "invalid-setting@0:40-52",
        "invalid-setting@0:71-82", "invalid-setting@0:83-93", "invalid-setting@0:94-96", "invalid-setting@0:97-99",
        "invalid-setting@0:100-105",
      ])
    let messages = document.diagnostics().map(\.diagnostic.message)
    #expect(
      messages.prefix(3) == [
        "unknown setting `foo`: the settings are `notation`, `decimals`, `grouping`, `precision`, `angleUnit`, "
          + "`maxItems`, `hints`",
        "`decimals=20`: decimals takes a whole number from 0 to 15",
        "`notation=fancy`: notation takes auto, fixed, scientific or engineering",
      ])
    #expect(messages.last == "`plain` is not a setting: write `key=value`, like `decimals=2`")
    #expect(document.diagnostics().allSatisfy { $0.diagnostic.severity == .warning })
    #expect(document.diagnostics(inLine: 0).count == 9)
  }

  /// `hints` takes afterTokens or endOfLine (in any case), `maxItems` 1 to 1000; any other value
  /// is a warning that says what the key takes, and does not apply.
  @Test func hintsAndTheLargestMaxItems() throws {
    let document = try Document(text: "# rpn: hints=ENDOFLINE maxItems=1000\n1")
    #expect(document.documentSettings.hints == .endOfLine)
    #expect(document.documentSettings.maxItems == 1000)
    #expect(document.diagnostics().isEmpty)
    let bad = try Document(text: "# rpn: hints=afterTokens hints=end maxItems=1001 maxItems=0\n1")
    #expect(bad.documentSettings.hints == .afterTokens)
    #expect(bad.documentSettings.maxItems == nil)
    #expect(
      bad.diagnostics().map { "\(compact($0.diagnostic, line: $0.line)) \($0.diagnostic.message)" } == [
        "invalid-setting@0:25-34 `hints=end`: hints takes afterTokens or endOfLine",
        "invalid-setting@0:35-48 `maxItems=1001`: maxItems takes a whole number from 1 to 1000",
        "invalid-setting@0:49-59 `maxItems=0`: maxItems takes a whole number from 1 to 1000",
      ])
  }

  @Test func displaySettingsAreRead() throws {
    let document = try Document(text: "# rpn: notation=fixed decimals=3 grouping=true precision=10 maxItems=12\n1")
    let display = document.documentSettings.applied(to: DisplaySettings())
    #expect(display == DisplaySettings(precision: 10, maxItems: 12, notation: .fixed, decimals: 3, grouping: true))
    #expect(document.diagnostics().isEmpty)
    let none = try Document(text: "1\n# rpn: decimals=3")
    #expect(none.documentSettings == DocumentSettings())
  }

  /// Editing the line evaluates the whole tape again; the editor's settings sit under the tape's.
  @Test func editsAndEditorSettings() throws {
    let document = try Document(text: "# rpn: angleUnit=degrees\n90 sin\n180 cos")
    #expect(document.stack(afterLine: 2).top == [1, -1])
    let result = try document.replace(
      from: TextPosition(line: 0, utf8Column: 17), to: TextPosition(line: 0, utf8Column: 24), with: "radians")
    #expect(result.reevaluatedLines == 0..<3)
    #expect(document.stack(afterLine: 2).top == [Value(sin(90)), Value(cos(180))])
    document.update(settings: EvaluationSettings(angleMode: .degrees))
    #expect(document.settings.angleMode == .radians, "the tape's line wins over the editor")
    try document.replace(from: TextPosition(line: 0, utf8Column: 0), to: TextPosition(line: 1, utf8Column: 0), with: "")
    #expect(document.settings.angleMode == .degrees, "without the line, the editor's")
    #expect(document.stack(afterLine: 1).top == [1, -1])
    // An edit below the first token never reads the line again.
    let below = try document.replace(
      from: TextPosition(line: 1, utf8Column: 0), to: TextPosition(line: 1, utf8Column: 3), with: "0")
    #expect(below.reevaluatedLines == 1..<2)
  }
}

/// The display reaches every value the engine shows: labels, summaries, messages, written checks.
@Suite struct DisplayReachTests {
  static let fixed2 = DisplaySettings(notation: .fixed, decimals: 2, grouping: true)

  @Test func labelsAndTheAnnotatedTape() throws {
    let document = try Document(text: "# rpn: notation=fixed decimals=2 grouping=true\n## Total\n1234.5 3 *\n1 3 /")
    let display = document.display(over: DisplaySettings())
    #expect(display == Self.fixed2)
    #expect(document.stack(afterLine: 3).label(display: display) == "[3,703.50 0.33]")
    #expect(document.stack(afterLine: 3).levels(display: display, maxLevels: 5) == "2: 3,703.50\n1: 0.33")
    #expect(
      TapeReport.annotated(document, display: display)
        == "# rpn: notation=fixed decimals=2 grouping=true\n## Total    Σ 3,703.83 · 2 values · avg 1,851.92\n"
        + "1234.5 3 *  [3,703.50]\n1 3 /       [3,703.50 0.33]\n")
  }

  /// The layers: the editor's settings under the document's line, under the overriding ones (the
  /// command line's flags).
  @Test func flagsOverrideTheLineWhichOverridesTheEditor() throws {
    let text = "# rpn: notation=scientific decimals=4 angleUnit=degrees\n90 sin"
    let plain = try Document(text: text)
    let editor = DisplaySettings(precision: 3, maxItems: 2, notation: .engineering, decimals: 1, grouping: true)
    #expect(
      plain.display(over: editor)
        == DisplaySettings(precision: 3, maxItems: 2, notation: .scientific, decimals: 4, grouping: true))
    var flags = DocumentSettings()
    flags.decimals = 1
    flags.angleMode = .radians
    let overridden = try Document(text: text, overriding: flags)
    #expect(overridden.display(over: DisplaySettings()).decimals == 1)
    #expect(overridden.display(over: DisplaySettings()).notation == .scientific)
    #expect(overridden.stack(afterLine: 1).top == [Value(sin(90))])
    overridden.update(settings: EvaluationSettings(angleMode: .degrees))
    #expect(overridden.stack(afterLine: 1).top == [Value(sin(90))], "the flag wins over the editor and the line")
  }

  /// Values in messages follow the display, except that one it would round to zero is shown in
  /// full: "`ln` of 0" would blame the wrong value.
  @Test func messagesShowValuesInTheDisplay() throws {
    let document = try Document(text: "-2.5 sqrt 0.004 -1 ^ 2 =2.5 -0.3 sqrt")
    let messages = document.diagnostics().map { $0.diagnostic.message(display: Self.fixed2) }
    #expect(
      messages == [
        "`sqrt` of -2.50 is undefined: a square root needs a value ≥ 0",
        "expected 2.5, the top is 2.00 (2.0 to 1 decimal)",
        "`sqrt` of -0.30 is undefined: a square root needs a value ≥ 0",
      ])
    let zeroDecimals = DisplaySettings(notation: .fixed, decimals: 0)
    #expect(document.diagnostics().last?.diagnostic.message(display: zeroDecimals).contains("of -0.3 ") == true)
  }

  /// A written check is the value as the display shows it: `precision` digits in `auto`, else the
  /// notation's decimals, grouped when the display groups; each passes.
  @Test(arguments: [
    (DisplaySettings(), "=3703.5"), (DisplaySettings(notation: .fixed, grouping: true), "=3,703.50"),
    (DisplaySettings(notation: .fixed, decimals: 0), "=3704"),
    (DisplaySettings(notation: .scientific, decimals: 3), "=3.704e+03"),
    (DisplaySettings(notation: .engineering, decimals: 1), "=3.7e+03"),
  ])
  func checksAreWrittenInTheDisplay(_ display: DisplaySettings, _ written: String) throws {
    let document = try Document(text: "1234.5 3 *")
    let edit = try #require(document.checkAddition(line: 0, display: display))
    #expect(edit.text == " " + written)
    let checked = try Document(text: document.applying([edit]))
    #expect(checked.diagnostics().isEmpty, "\(written) passes")
    #expect(document.checkAdditions(display: display) == [edit])
  }

  @Test(arguments: [
    (255.0, "0xFF", "0o377", "0b1111_1111"), (-10, "-0xA", "-0o12", "-0b1010"), (0, "0x0", "0o0", "0b0"),
    (
      9_007_199_254_740_991, "0x1FFFFFFFFFFFFF", "0o377777777777777777",
      "0b1_1111_1111_1111_1111_1111_1111_1111_1111_1111_1111_1111_1111_1111"
    ),
  ])
  func integersInOtherBases(_ value: Double, _ hex: String, _ octal: String, _ binary: String) throws {
    let forms = try #require(ValueFormat.integerForms(value))
    #expect(forms.hex == hex)
    #expect(forms.octal == octal)
    #expect(forms.binary == binary)
  }

  @Test(arguments: [0.5, 9_007_199_254_740_992, -9_007_199_254_740_992, 1e300, -.infinity, .nan])
  func otherValuesHaveNoIntegerForms(_ value: Double) {
    #expect(ValueFormat.integerForms(value) == nil)
  }

  /// The `# rpn:` comment of a line, wherever it is; only those above the first token apply.
  @Test func settingsComments() throws {
    let document = try Document(text: "# note\n  #rpn: decimals=3 x\n1 2 # rpn: decimals=4\n# rpn: grouping=true")
    let first = try #require(document.settingsComment(inLine: 1))
    #expect(first.applies)
    #expect(first.comment.pairs.map(\.text) == ["decimals=3", "x"])
    #expect(first.comment.pairs.map(\.range) == [8..<18, 19..<20])
    #expect(first.comment.pairs.map(\.key) == ["decimals", "x"])
    #expect(first.comment.pairs.map(\.valueStart) == [17, nil])
    let trailing = try #require(document.settingsComment(inLine: 2))
    #expect(!trailing.applies)
    #expect(trailing.comment.pairs.map(\.range) == [11..<21])
    #expect(document.settingsComment(inLine: 3)?.applies == false)
    #expect(document.settingsComment(inLine: 0) == nil)
    #expect(document.settingsComment(inLine: 9) == nil)
    #expect(document.documentSettings.decimals == 3)
  }

  /// An edit tells whether what the line sets changed: display-only changes evaluate nothing
  /// again, but every label shown changes.
  @Test func editsSayWhenTheSettingsChanged() throws {
    let document = try Document(text: "# rpn: decimals=3\n1 3 /\n2")
    let display = try document.replace(
      from: TextPosition(line: 0, utf8Column: 16), to: TextPosition(line: 0, utf8Column: 17), with: "5")
    #expect(display.documentSettingsChanged)
    #expect(display.reevaluatedLines == 0..<1)
    #expect(document.documentSettings.decimals == 5)
    let same = try document.replace(
      from: TextPosition(line: 0, utf8Column: 0), to: TextPosition(line: 0, utf8Column: 0), with: " ")
    #expect(!same.documentSettingsChanged)
    let below = try document.replace(
      from: TextPosition(line: 2, utf8Column: 0), to: TextPosition(line: 2, utf8Column: 1), with: "3")
    #expect(!below.documentSettingsChanged)
  }
}

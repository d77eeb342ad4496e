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
        "unknown setting `foo`: the settings are `notation`, `decimals`, `grouping`, `precision`, `angleUnit`, `maxItems`",
        "`decimals=20`: decimals takes a whole number from 0 to 15",
        "`notation=fancy`: notation takes auto, fixed, scientific or engineering",
      ])
    #expect(messages.last == "`plain` is not a setting: write `key=value`, like `decimals=2`")
    #expect(document.diagnostics().allSatisfy { $0.diagnostic.severity == .warning })
    #expect(document.diagnostics(inLine: 0).count == 9)
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
    #expect(document.stack(afterLine: 2).top == [sin(90), cos(180)])
    document.update(settings: EvaluationSettings(angleUnit: .degrees))
    #expect(document.settings.angleUnit == .radians, "the tape's line wins over the editor")
    try document.replace(from: TextPosition(line: 0, utf8Column: 0), to: TextPosition(line: 1, utf8Column: 0), with: "")
    #expect(document.settings.angleUnit == .degrees, "without the line, the editor's")
    #expect(document.stack(afterLine: 1).top == [1, -1])
    // An edit below the first token never reads the line again.
    let below = try document.replace(
      from: TextPosition(line: 1, utf8Column: 0), to: TextPosition(line: 1, utf8Column: 3), with: "0")
    #expect(below.reevaluatedLines == 1..<2)
  }
}

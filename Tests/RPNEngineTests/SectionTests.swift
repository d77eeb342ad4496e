import Foundation
import Testing

@testable import RPNEngine

/// Headings (`## title`), sections, `subtotal` and each section's summary.
@Suite struct SectionTests {
  @Test(arguments: [
    ("## Groceries\n12.5\n8\nsubtotal", "[20.5]", [String]()),
    ("1 2 subtotal", "[3]", []),
    ("1 2\n## A\n3 4\nsubtotal", "[1 2 7]", []),
    ("1 2\n## A\n3 4 subtotal\n5 subtotal", "[1 2 12]", []),
    ("1 2\n## A\nsubtotal", "[1 2]", ["stack-underflow@2:0-8"]),
    ("subtotal", "[]", ["stack-underflow@0:0-8"]),
    ("## A\n## B\n1 2\nsubtotal", "[3]", []),
    ("1\n## A\n2 3 + drop drop subtotal", "[]", ["stack-underflow@2:16-24"]),
    ("1 2 ## not a heading\n3 subtotal", "[6]", []),
    ("1\n  ## indented\n2 3 SUBTOTAL", "[1 5]", []),
    ("1\n### deeper\n2 3 subtotal", "[1 5]", []),
    ("1\n# ## a comment\n2 3 subtotal", "[6]", []),
    ("1\n## A\n2 3\n## B\n4\n## A\nsubtotal", "[1 2 3 4]", ["stack-underflow@6:0-8"]),
    ("1e308\n## A\n1e308 1e308 subtotal", "[1e+308 1e+308 1e+308]", ["overflow@2:12-20"]),
    (": f subtotal ;", "[]", ["invalid-definition@0:4-12"]),
    ("2 3 + lastx\n## A\n4 5 subtotal lastx", "[5 3 9 5]", []),
  ])
  func subtotal(source: String, stack: String, diagnostics: [String]) {
    check(source, stack: stack, diagnostics: diagnostics)
  }

  @Test func messages() throws {
    let document = try Document(text: "1 2\n## A\nsubtotal\n: f subtotal ;")
    #expect(
      document.diagnostics().map(\.diagnostic.message) == [
        "`subtotal` has nothing to add: nothing was pushed in this section (since its heading)",
        "`subtotal` cannot be in a definition: it adds up the current section, which belongs to the tape",
      ])
  }

  /// Each section runs from its heading to the line before the next; its summary is the values
  /// above its base at its last line.
  @Test func sectionsAndSummaries() throws {
    let text = "1 2\n## Groceries  \n12.5 8\n3 =x\n##\n#\n## Rent ☂\nclear\n\n##   Tail\n7"
    let document = try Document(text: text)
    let sections = document.sections()
    #expect(sections.map(\.headingLine) == [1, 4, 6, 9])
    #expect(sections.map(\.lastLine) == [3, 5, 7, 10], "a blank line at a section's end is left out")
    #expect(sections.map(\.title) == ["Groceries", "", "Rent ☂", "Tail"])
    #expect(sections.map(\.titleRange) == [3..<12, 2..<2, 3..<11, 5..<9])
    #expect(sections[0].summary == SectionSummary(sum: 23.5, count: 3))
    #expect(sections[0].summary.text { ValueFormat.format($0) } == "Σ 23.5 · 3 values · avg 7.83333333333333")
    #expect(sections[1].summary.count == 0 && sections[1].summary.text { "\($0)" } == "no values")
    #expect(sections[2].summary.count == 0)
    #expect(sections[3].summary.text { ValueFormat.format($0) } == "Σ 7 · 1 value · avg 7")
    #expect(document.section(containingLine: 0) == nil)
    #expect(document.section(containingLine: 3) == sections[0])
    #expect(document.section(containingLine: 1) == sections[0])
    #expect(document.section(containingLine: 10) == sections[3])
    #expect(document.headingLines() == [1, 4, 6, 9])
  }

  /// A heading inserted or removed above changes what every `subtotal` below it adds up.
  @Test func editsMoveTheBase() throws {
    let document = try Document(text: "1 2\n3\nsubtotal")
    #expect(document.stack(afterLine: 2).top == [6])
    try document.replace(
      from: TextPosition(line: 1, utf8Column: 0), to: TextPosition(line: 1, utf8Column: 0), with: "## A\n")
    #expect(document.stack(afterLine: 3).top == [1, 2, 3])
    try document.replace(from: TextPosition(line: 1, utf8Column: 0), to: TextPosition(line: 1, utf8Column: 1), with: "")
    #expect(document.stack(afterLine: 3).top == [6], "`# A` is a plain comment")
  }

  @Test func commentRuns() throws {
    let document = try Document(text: "# a\n# b\n# c\n1\n# d\n# e\n## H\n# f\n# g\n  # h\n1 # i")
    #expect(document.commentRuns() == [0...2, 7...9])
  }

  /// 100,000 headings: each a section, read in one pass.
  @Test func aHundredThousandHeadings() throws {
    let text = (0..<100_000).map { "## S\($0)\n\($0)" }.joined(separator: "\n")
    let document = try Document(text: text)
    let started = Date()
    let sections = document.sections()
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(sections.count == 100_000)
    #expect(sections.last?.summary == SectionSummary(sum: 99_999, count: 1))
    #expect(sections.last?.title == "S99999")
  }
}

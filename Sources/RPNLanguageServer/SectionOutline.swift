// Sections as the server shows them: the outline that code lens refreshes compare, and the length of a line.

import RPNEngine

/// Each heading's line and its section's summary: what the code lenses show, kept for clients
/// that take `workspace/codeLens/refresh`, so that an edit can say whether a lens changed.
///
/// It is kept up to date edit by edit, at the cost of the sections the edit touched, not of the
/// document: the headings in the replaced lines are found again, the headings below move with
/// the lines, and only the sections that hold a line evaluated again get their summary again (a
/// summary reads the states after its heading and after its last line, and the states of lines
/// that were not evaluated again did not change).
struct SectionOutline: Equatable {
  /// The heading lines, top to bottom.
  private(set) var headings: [Int]
  /// The summary of each heading's section; nil for a section found in the edited lines until it
  /// has its own.
  private(set) var summaries: [SectionSummary?]

  /// The outline of the whole document.
  init(_ document: Document) {
    let sections = document.sections()
    headings = sections.map(\.headingLine)
    summaries = sections.map(\.summary)
  }

  /// Takes in an evaluated edit. Returns whether a code lens changed: a heading was added or
  /// removed, or moved among the lines around it, or a section's summary changed. A heading that
  /// only moved with the text around it does not count: the editor moves its lens with the text.
  mutating func update(after edit: EditResult, in document: Document) -> Bool {
    let replaced = edit.replacedLines
    let shift = edit.lineCountChange
    // The replaced lines as they were numbered before the edit: those below them moved by `shift`.
    let lower = Self.firstIndex(in: headings, atOrAfter: replaced.lowerBound)
    let upper = max(Self.firstIndex(in: headings, atOrAfter: replaced.upperBound - shift), lower)
    let found = replaced.filter { document.isHeading($0) }
    let kept = headings[lower..<upper]
    // Found again where it was, counted from the top of the replaced lines or from their bottom
    // (text typed above it in the same edit): moved with its text.
    let rearranged = !kept.elementsEqual(found) && !kept.lazy.map({ $0 + shift }).elementsEqual(found)
    if rearranged { summaries.replaceSubrange(lower..<upper, with: repeatElement(nil, count: found.count)) }
    headings.replaceSubrange(lower..<upper, with: found)
    var changed = rearranged
    if shift != 0 {
      for k in (lower + found.count)..<headings.count { headings[k] += shift }
    }
    // The sections holding a line that was replaced or evaluated again, and the one ending right
    // above them (a heading removed there made it longer).
    let evaluated = edit.reevaluatedLines
    let from = min(evaluated.lowerBound, replaced.lowerBound)
    let to = max(evaluated.upperBound, replaced.upperBound)
    var k = max(Self.firstIndex(in: headings, atOrAfter: max(from - 1, 0) + 1) - 1, 0)
    while k < headings.count, headings[k] <= to {
      if let summary = document.section(containingLine: headings[k])?.summary, summary != summaries[k] {
        summaries[k] = summary
        changed = true
      }
      k += 1
    }
    assert(
      document.lineCount > 10_000 || self == SectionOutline(document),
      "the outline kept edit by edit is the outline of the whole document")
    return changed
  }

  /// The index of the first heading at or below `line` (`headings.count` when none).
  private static func firstIndex(in headings: [Int], atOrAfter line: Int) -> Int {
    var low = 0
    var high = headings.count
    while low < high {
      let middle = (low + high) / 2
      if headings[middle] < line { low = middle + 1 } else { high = middle }
    }
    return low
  }

  static func == (a: SectionOutline, b: SectionOutline) -> Bool {
    a.headings == b.headings && a.summaries == b.summaries
  }
}

extension Document {
  /// The length of a line in UTF-8 bytes, without its terminator.
  func utf8Count(ofLine line: Int) -> Int {
    withUTF8(ofLine: line) { $0.count }
  }
}

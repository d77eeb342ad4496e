// `textDocument/codeLens`: each section's summary on its heading, and `workspace/codeLens/refresh` when one changes.

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// `textDocument/codeLens`: one lens per heading, from its first `#` to the end of its line,
  /// titled with its section's summary (`Σ 245.5 · 4 values · avg 61.375`, or `no values`), the
  /// numbers shown as the display shows values. A lens only shows: its command is empty (editors
  /// draw it as text), and there is nothing to resolve.
  func codeLenses(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let document = try openDocument(params).open.document
    let converter = converter(for: document)
    let format = summaryFormat(document)
    let lenses = document.sections().map { section in
      let line = section.headingLine
      let range = converter.range(
        line: line, utf8Range: section.headingMarks.lowerBound..<document.utf8Count(ofLine: line))
      return CodeLens(range: range, command: Command(title: section.summary.text(format), command: ""))
    }
    return JSONValue(encoding: lenses, capacity: 160 * lenses.count)
  }

  /// How a summary of a document shows its numbers: as the document's display shows values.
  func summaryFormat(_ document: Document) -> (Value) -> String {
    let display = display(of: document)
    return { ValueFormat.format($0, display: display) }
  }

  /// Whether some open document shows its summaries otherwise than it did under the `old`
  /// settings: a change of the editor's display that a document's `# rpn:` lines override, or
  /// of `maxItems` (a summary shows no stack), changes none.
  func summariesShowDifferently(than old: Settings) -> Bool {
    documents.values.contains { open in
      var before = open.document.display(over: old.display)
      before.maxItems = DisplaySettings.defaultMaxItems
      var now = display(of: open.document)
      now.maxItems = DisplaySettings.defaultMaxItems
      return before != now
    }
  }

  /// Starts following a document's sections, for a client that takes code lens refreshes (the
  /// others ask again when they want to: nothing to compare).
  func followSections(of open: OpenDocument) {
    open.outline = client.codeLensRefresh ? SectionOutline(open.document) : nil
  }

  /// Takes in an edit just evaluated; returns whether one of the document's code lenses changed
  /// (see `SectionOutline.update`), so that the client is asked to refresh them.
  func lensesChanged(in open: OpenDocument, by edit: EditResult) -> Bool {
    open.outline?.update(after: edit, in: open.document) ?? false
  }
}

// `textDocument/inlayHint`: each line's stack (with its check), each word's effect, each heading's section summary.

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// How many levels of the stack a hint's tooltip lists before it says how many more there are.
  private static let tooltipLevels = 20

  /// `textDocument/inlayHint`: one hint per line with tokens, right after its last token, whose
  /// label is the stack after the line, and whose tooltip lists that stack one level per line
  /// (the top last, at most `tooltipLevels`). On a line without a check whose stack is not
  /// empty, accepting the hint writes the line's result there as a check (` =20.5`). The hints of
  /// every line the range touches, from its start line through its end line (but not the end line
  /// when the range spans lines and ends at its first character): clients ask for the visible
  /// lines, and some stop their range short of the last line's end, or start it mid-line.
  ///
  /// With `inlayHints.position` (or the document's `# rpn: hints=`) `endOfLine`, the stack hint
  /// goes after the line's last character that is not white space instead: after a trailing
  /// comment, so that comments aligned in a column stay aligned. Its `textEdits` still write the
  /// check right after the last token, before the comment.
  ///
  /// Right after the `;` of each definition that defined a word, a hint shows the word's stack
  /// effect (`( a b -- r )`). When the `;` is the line's last token, the effect comes first and
  /// the stack second, at the same position.
  ///
  /// At the end of each heading's line, a hint shows its section's summary (`Σ 245.5 · 4 values ·
  /// avg 61.375`), unless the setting `inlayHints.sections` is false.
  ///
  /// Editors ask for the visible lines on every scroll: each hint reads only the top of its
  /// stack, never the whole stack, and a line without `:` costs nothing more for its effects.
  func inlayHints(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let open = try openDocument(params).open
    let range = try LSPRange.decode(params?["range"], field: "range")
    guard settings.inlayHintsEnabled else { return [] }
    let document = open.document
    let converter = converter(for: document)
    let display = display(of: document)
    let kept = max(display.maxItems, Self.tooltipLevels)
    let atEndOfLine = (document.documentSettings.hints ?? settings.inlayHintsPosition) == .endOfLine
    var formatted = FormattedValues()
    let endLine = range.end.line > range.start.line && range.end.character == 0 ? range.end.line - 1 : range.end.line
    let lastLine = min(endLine, document.lineCount - 1)
    var hints: [InlayHint] = []
    if range.start.line <= lastLine {
      for line in range.start.line...lastLine {
        for (end, word) in document.definedWords(inLine: line) {
          hints.append(
            InlayHint(
              position: converter.position(line: line, utf8Column: end), label: UTF8Text(word.effect.description),
              tooltip: UTF8Text("\(word.name) \(word.effect.sentence)")))
        }
        guard let offset = document.hintOffset(ofLine: line) else {
          if settings.inlayHintsSections, let hint = sectionHint(line, document, converter, display) {
            hints.append(InlayHint(position: hint.position, label: UTF8Text(hint.label)))
          }
          continue
        }
        let shown = document.stack(afterLine: line, keepingTop: kept).labelAndLevelsUTF8(
          display: display, maxLevels: Self.tooltipLevels, cache: &formatted)
        hints.append(
          InlayHint(
            position: converter.position(line: line, utf8Column: atEndOfLine ? Self.textEnd(line, document) : offset),
            label: UTF8Text(utf8: shown.label), tooltip: UTF8Text(utf8: shown.levels),
            textEdits: document.checkAddition(line: line, display: display).map { [converter.textEdit($0)] }))
      }
    }
    // A viewport's hints are a hundred objects of a few members each, asked for on every scroll:
    // room for them all before the buffer grows.
    return JSONValue(encoding: hints, capacity: 32 << 10)
  }

  /// Where a line's text ends: after its last character that is not a space or a tab.
  private static func textEnd(_ line: Int, _ document: Document) -> Int {
    document.withUTF8(ofLine: line) { bytes in
      var end = bytes.count
      while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
      return end
    }
  }

  /// On a heading's line: where its summary goes (the end of the line, after the heading's text)
  /// and the summary.
  private func sectionHint(
    _ line: Int, _ document: Document, _ converter: PositionConverter, _ display: DisplaySettings
  ) -> (position: Position, label: String)? {
    guard document.isHeading(line), let section = document.section(containingLine: line) else { return nil }
    return (
      converter.position(line: line, utf8Column: document.utf8Count(ofLine: line)),
      section.summary.text { ValueFormat.format($0, display: display) }
    )
  }
}

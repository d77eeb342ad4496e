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
  /// effect (`( a b -- r )`); after a unit's, what one of it is (`= 1.08_USD`, `new dimension`). When the `;` is the line's last token, the effect comes first and
  /// the stack second, at the same position.
  ///
  /// At the end of each heading's line, a hint shows its section's summary (`Σ 245.5 · 4 values ·
  /// avg 61.375`), unless the setting `inlayHints.sections` is false.
  ///
  /// For a client that resolves a hint's `tooltip` or `textEdits` (`resolveSupport`), a stack
  /// hint comes without them and with `data`; `inlayHint/resolve` fills them in, when the client
  /// shows the tooltip or accepts the hint. A viewport's levels and checks are most of a
  /// request's work, and a client shows one tooltip at a time.
  ///
  /// Editors ask for the visible lines on every scroll: each hint reads only the top of its
  /// stack, never the whole stack, and a line without `:` costs nothing more for its effects.
  func inlayHints(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (uri, open) = try openDocument(params)
    let range = try LSPRange.decode(params?["range"], field: "range")
    guard settings.inlayHintsEnabled else { return [] }
    let document = open.document
    let converter = converter(for: document)
    let display = display(of: document)
    let resolvesTooltip = client.inlayHintResolvesTooltip
    let resolvesEdits = client.inlayHintResolvesTextEdits
    let levels = resolvesTooltip ? 0 : Self.tooltipLevels
    let kept = max(display.maxItems, levels)
    let resolves = resolvesTooltip || resolvesEdits
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
        for (end, unit) in document.definedUnits(inLine: line) {
          hints.append(Self.unitHint(unit, at: converter.position(line: line, utf8Column: end), display: display))
        }
        guard let offset = document.hintOffset(ofLine: line) else {
          if settings.inlayHintsSections, let hint = sectionHint(line, document, converter, display) {
            hints.append(InlayHint(position: hint.position, label: UTF8Text(hint.label)))
          }
          continue
        }
        let shown = document.stack(afterLine: line, keepingTop: kept).labelAndLevelsUTF8(
          display: display, maxLevels: levels, cache: &formatted)
        hints.append(
          InlayHint(
            position: converter.position(line: line, utf8Column: atEndOfLine ? Self.textEnd(line, document) : offset),
            label: UTF8Text(utf8: shown.label), tooltip: resolvesTooltip ? nil : UTF8Text(utf8: shown.levels),
            textEdits: resolvesEdits ? nil : checkEdits(line, document, converter, display),
            data: resolves ? InlayHintData(uri: uri, line: line, version: open.version) : nil))
      }
    }
    // A viewport's hints are a hundred objects of a few members each, asked for on every scroll:
    // room for them all before the buffer grows.
    return JSONValue(encoding: hints, capacity: 32 << 10)
  }

  /// The hint after a unit's definition: what one of it is (`= 1.08_USD`), or that it is a
  /// dimension of its own.
  private static func unitHint(_ unit: UnitDefinition, at position: Position, display: DisplaySettings) -> InlayHint {
    guard let value = unit.value else {
      return InlayHint(
        position: position, label: UTF8Text("new dimension"),
        tooltip: UTF8Text("\(unit.name) is a dimension of its own: it adds to and converts to no other unit"))
    }
    return InlayHint(
      position: position, label: UTF8Text("= " + ValueFormat.definition(value, display: display)),
      tooltip: UTF8Text(ValueFormat.rate(unit.name, is: value, display: display)))
  }

  /// `inlayHint/resolve`: a stack hint that came without its tooltip or its edit (for a client
  /// that resolves them), returned as the client sent it with them added. A hint made before an
  /// edit of its document (its `data` names an older version) is returned as it came: its line
  /// may hold another stack now, and the client asks for the viewport's hints again anyway.
  func resolveInlayHint(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    guard let params, case .object(var members) = params else { throw .invalidParams("params must be an inlay hint") }
    guard let data = params["data"], data.isObject, let line = data["line"]?.intValue else {
      throw .invalidParams("data must be what textDocument/inlayHint gave the hint")
    }
    let open = try openDocument(data).open
    let document = open.document
    guard data["version"]?.intValue == open.version, line >= 0, line < document.lineCount,
      document.hintOffset(ofLine: line) != nil
    else { return params }
    let display = display(of: document)
    let converter = converter(for: document)
    if client.inlayHintResolvesTooltip, params["tooltip"] == nil {
      var cache = FormattedValues()
      let levels = document.stack(afterLine: line, keepingTop: max(display.maxItems, Self.tooltipLevels))
        .labelAndLevelsUTF8(display: display, maxLevels: Self.tooltipLevels, cache: &cache).levels
      members.append(("tooltip", JSONValue(encoding: UTF8Text(utf8: levels))))
    }
    if client.inlayHintResolvesTextEdits, params["textEdits"] == nil,
      let edits = checkEdits(line, document, converter, display)
    {
      members.append(("textEdits", JSONValue(encoding: edits)))
    }
    return .object(members)
  }

  /// The edit that accepting a line's stack hint makes: the line's result written as a check.
  private func checkEdits(
    _ line: Int, _ document: Document, _ converter: PositionConverter, _ display: DisplaySettings
  ) -> [LSPTextEdit]? {
    document.checkAddition(line: line, display: display).map { [converter.textEdit($0)] }
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

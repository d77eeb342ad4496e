// `textDocument/inlayHint`: the stack after each line of the range, right after its last token.

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// `textDocument/inlayHint`: one hint per line with tokens, right after its last token, whose
  /// label is the stack after the line. Only hints inside the range, its end included.
  func inlayHints(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let open = try openDocument(params).open
    let range = try LSPRange.decode(params?["range"], field: "range")
    guard settings.inlayHintsEnabled else { return [] }
    let document = open.document
    let converter = converter(for: document)
    // A start past its line's end is that end, so the hint there is inside the range. (An end past
    // its line's end needs no clamping: every hint of the line is before it.)
    let start = converter.clamped(range.start)
    let display = settings.display
    var hints: [JSONValue] = []
    let lastLine = min(range.end.line, document.lineCount - 1)
    if range.start.line <= lastLine {
      for line in range.start.line...lastLine {
        guard let offset = document.hintOffset(ofLine: line) else { continue }
        let position = converter.position(line: line, utf8Column: offset)
        guard position >= start, position <= range.end else { continue }
        let label = document.stack(afterLine: line, keepingTop: display.maxItems)
          .label(precision: display.precision, maxItems: display.maxItems)
        hints.append(["position": position.json, "label": .string(label), "paddingLeft": true])
      }
    }
    return .array(hints)
  }
}

// `textDocument/formatting` and `rangeFormatting`: the engine's layout, as edits of changed lines.

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// `textDocument/formatting`: one edit per line that changes (untouched lines get none).
  func formatting(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let open = try openDocument(params).open
    return formattingEdits(open.document, lines: nil)
  }

  /// `textDocument/rangeFormatting`: the lines the range touches (its end excluded, as LSP's
  /// ranges are).
  func rangeFormatting(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let open = try openDocument(params).open
    let range = try LSPRange.decode(params?["range"], field: "range")
    // A range ending at the start of a line (whole lines selected) does not touch that line.
    let end = range.end.character == 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1
    return formattingEdits(open.document, lines: range.start.line..<end)
  }

  private func formattingEdits(_ document: Document, lines: Range<Int>?) -> JSONValue {
    let converter = converter(for: document)
    let edits = Formatter.edits(document, lines: lines).map { line, text in
      let end = document.withUTF8(ofLine: line) { $0.count }
      return LSPTextEdit(range: converter.range(line: line, utf8Range: 0..<end), newText: text)
    }
    return JSONValue(encoding: edits, capacity: edits.reduce(64) { $0 + 80 + $1.newText.utf8.count })
  }
}

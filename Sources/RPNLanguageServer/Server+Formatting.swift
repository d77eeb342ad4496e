import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// `textDocument/formatting`: one edit per line that changes (untouched lines get none).
  func formatting(_ params: JSONValue?) -> Result<JSONValue, ResponseError> {
    openDocument(params).map { _, open in
      formattingEdits(open.document, lines: nil)
    }
  }

  /// `textDocument/rangeFormatting`: the lines the range touches.
  func rangeFormatting(_ params: JSONValue?) -> Result<JSONValue, ResponseError> {
    openDocument(params).flatMap { _, open in
      LSPRange.decode(params?["range"], field: "range").map { range in
        formattingEdits(open.document, lines: range.start.line..<(range.end.line + 1))
      }
    }
  }

  private func formattingEdits(_ document: Document, lines: Range<Int>?) -> JSONValue {
    let converter = converter(for: document)
    return .array(
      Formatter.edits(document, lines: lines).map { line, text in
        let end = document.withUTF8(ofLine: line) { $0.count }
        return ["range": converter.range(line: line, utf8Range: 0..<end).json, "newText": .string(text)]
      })
  }
}

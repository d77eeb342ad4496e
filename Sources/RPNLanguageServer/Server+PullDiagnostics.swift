import JSONRPC
import LSPTypes

extension Server {
  /// `textDocument/diagnostic`: the same diagnostics as the pushed ones, or `unchanged` when the
  /// client's `previousResultId` still names them.
  func pullDiagnostics(_ params: JSONValue?) -> Result<JSONValue, ResponseError> {
    let open: OpenDocument
    switch openDocument(params) {
    case .success(let found): open = found.open
    case .failure(let error): return .failure(error)
    }
    if let previous = params?["previousResultId"]?.stringValue, previous == open.resultID {
      return .success(
        ["kind": .string(DocumentDiagnosticReportKind.unchanged.rawValue), "resultId": .string(open.resultID)])
    }
    return .success([
      "kind": .string(DocumentDiagnosticReportKind.full.rawValue), "resultId": .string(open.resultID),
      "items": .array(diagnostics(of: open.document)),
    ])
  }
}

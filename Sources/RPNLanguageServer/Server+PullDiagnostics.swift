// `textDocument/diagnostic`: diagnostics pulled by clients that declare it, with result ids.

import JSONRPC
import LSPTypes

extension Server {
  /// `textDocument/diagnostic`: the same diagnostics as the pushed ones, or `unchanged` when the
  /// client's `previousResultId` still names them.
  func pullDiagnostics(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let open = try openDocument(params).open
    if let previous = params?["previousResultId"]?.stringValue, previous == open.resultID {
      return JSONValue(encoding: DocumentDiagnosticReport(unchangedSince: open.resultID))
    }
    return JSONValue(
      encoding: DocumentDiagnosticReport(resultId: open.resultID, items: diagnostics(of: open.document)),
      capacity: 1024)
  }
}

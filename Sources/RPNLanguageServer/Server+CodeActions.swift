// `textDocument/codeAction`: quick fixes for unknown words (the suggestion, or a split).

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// `textDocument/codeAction`: quick fixes for `unknown-word` diagnostics in the range —
  /// replace the word with the suggestion, or split a glued token (`4+` → `4 +`). A use before
  /// its store gets none (moving the store is the fix, and only the user knows where).
  func codeActions(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let found = try openDocument(params)
    let range = try LSPRange.decode(params?["range"], field: "range")
    let quickFix = CodeActionKind.quickFix.rawValue
    if let only = params?["context"]?["only"]?.arrayValue?.compactMap(\.stringValue),
      !only.contains(where: { $0 == quickFix || quickFix.hasPrefix($0 + ".") || $0 == "" })
    {
      return []
    }
    let document = found.open.document
    let converter = converter(for: document)
    let last = min(range.end.line, document.lineCount - 1)
    guard range.start.line <= last else { return [] }
    var actions: [JSONValue] = []
    for line in range.start.line...last {
      for diagnostic in document.diagnostics(inLine: line) {
        guard case .unknownWord(let word, let suggestion?, nil) = diagnostic.problem else { continue }
        let diagnosticRange = converter.range(line: line, utf8Range: diagnostic.range)
        guard diagnosticRange.end >= range.start, diagnosticRange.start <= range.end else { continue }
        let title: String
        switch suggestion {
        case .word(let replacement): title = "Replace `\(word)` with `\(replacement)`"
        case .split: title = "Split `\(word)` into `\(suggestion.replacement)`"
        }
        actions.append([
          "title": .string(title),
          "kind": .string(quickFix),
          "diagnostics": [diagnosticJSON(diagnostic, line: line, converter: converter)],
          "isPreferred": true,
          "edit": [
            "changes": .object([
              (found.uri, .array([["range": diagnosticRange.json, "newText": .string(suggestion.replacement)]]))
            ])
          ],
        ])
      }
    }
    return .array(actions)
  }
}

// The protocol's named values: LSP's numbered and string enumerations that the server sends or reads.

import JSONRPC

/// LSP's `DiagnosticSeverity`.
package enum DiagnosticSeverity: Int, Sendable, JSONEncodable {
  case error = 1
  case warning = 2
  case information = 3
  case hint = 4
}

/// LSP's `CompletionItemKind` values that `.rpn` uses.
package enum CompletionItemKind: Int, Sendable, JSONEncodable {
  case function = 3
  case variable = 6
  case property = 10
  case unit = 11
  case value = 12
  case constant = 21
  case `operator` = 24

  /// The kind to send a client that knows only the first protocol's kinds (1–18, a client that
  /// declares no `valueSet`): a constant is a value, an operator a function.
  package var firstProtocolKind: CompletionItemKind {
    switch self {
    case .constant: .value
    case .operator: .function
    case .function, .variable, .property, .unit, .value: self
    }
  }
}

/// LSP's `MarkupKind`.
package enum MarkupKind: String, Sendable, JSONEncodable {
  case plaintext
  case markdown
}

/// LSP's `TextDocumentSyncKind`: how the client sends a document's changes.
package enum TextDocumentSyncKind: Int, Sendable {
  case none = 0
  case full = 1
  case incremental = 2
}

/// LSP's `SymbolKind` values that `.rpn` uses.
package enum SymbolKind: Int, Sendable, JSONEncodable {
  /// A section (`## title`): it holds the symbols defined in it.
  case namespace = 3
  case function = 12
  case variable = 13
  /// A unit the document defines (`: _EUR 1.08_USD ;`).
  case constant = 14
}

/// LSP's `FoldingRangeKind` values that `.rpn` uses.
package enum FoldingRangeKind: String, Sendable, JSONEncodable {
  case comment
  case region
}

/// LSP's `DocumentHighlightKind`.
package enum DocumentHighlightKind: Int, Sendable, JSONEncodable {
  case text = 1
  case read = 2
  case write = 3
}

/// LSP's `MessageType`, of `window/logMessage` and `window/showMessage`.
package enum MessageType: Int, Sendable {
  case error = 1
  case warning = 2
  case info = 3
  case log = 4
}

/// LSP's `CodeActionKind` values that `.rpn` uses: LSP's own, and the server's source actions
/// under `source.rpn`.
package enum CodeActionKind: String, CaseIterable, Sendable, JSONEncodable {
  case quickFix = "quickfix"
  case refactorRewrite = "refactor.rewrite"
  case updateChecks = "source.rpn.updateChecks"
  case addChecks = "source.rpn.addChecks"
  case removeChecks = "source.rpn.removeChecks"

  /// Whether a request's `context.only` lets this kind through: LSP's kinds are hierarchical, so
  /// `source` and `source.rpn` both include `source.rpn.addChecks`. The empty kind includes all.
  package func isIncluded(in only: [String]) -> Bool {
    only.contains { $0.isEmpty || $0 == rawValue || rawValue.hasPrefix($0 + ".") }
  }
}

/// LSP's `DocumentDiagnosticReportKind`: a pull diagnostics answer is the full list, or says that
/// the client's list is still current.
package enum DocumentDiagnosticReportKind: String, Sendable, JSONEncodable {
  case full
  case unchanged
}

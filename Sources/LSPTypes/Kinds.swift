// The protocol's named values: LSP's numbered and string enumerations that the server sends or reads.

/// LSP's `DiagnosticSeverity`.
package enum DiagnosticSeverity: Int, Sendable {
  case error = 1
  case warning = 2
  case information = 3
  case hint = 4
}

/// LSP's `CompletionItemKind` values that `.rpn` uses.
package enum CompletionItemKind: Int, Sendable {
  case function = 3
  case variable = 6
  case constant = 21
  case `operator` = 24
}

/// LSP's `MarkupKind`.
package enum MarkupKind: String, Sendable {
  case plaintext
  case markdown
}

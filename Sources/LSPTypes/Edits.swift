// The protocol's edits and the code actions that carry them: `WorkspaceEdit`, `CodeAction`, and the documents they name.

import JSONRPC

/// LSP's `TextDocumentIdentifier`: a document named by its URI.
package struct TextDocumentIdentifier: JSONEncodable, Equatable, Sendable {
  package var uri: String

  package init(uri: String) { self.uri = uri }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("uri", uri)
    writer.endObject()
  }
}

/// A document named as a request's params name it (`{"textDocument": {"uri": …}}`): what a code
/// action's `data` holds, so that `codeAction/resolve` finds the document as any request does.
package struct TextDocumentReference: JSONEncodable, Equatable, Sendable {
  package var textDocument: TextDocumentIdentifier

  package init(uri: String) { textDocument = TextDocumentIdentifier(uri: uri) }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("textDocument", textDocument)
    writer.endObject()
  }
}

/// LSP's `WorkspaceEdit`, in its `changes` form: each document's edits under its URI.
package struct WorkspaceEdit: JSONEncodable, Sendable {
  /// The documents' edits, written in this order (a dictionary would keep none).
  package var changes: [(uri: String, edits: [LSPTextEdit])]

  /// The edits of one document.
  package init(uri: String, edits: [LSPTextEdit]) { changes = [(uri, edits)] }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("changes", Changes(changes: changes))
    writer.endObject()
  }

  /// The `changes` object: URIs are data, so its keys are written escaped.
  private struct Changes: JSONEncodable {
    var changes: [(uri: String, edits: [LSPTextEdit])]

    func encode(into writer: inout JSONWriter) {
      writer.beginObject()
      for (uri, edits) in changes { writer.member(named: uri, edits) }
      writer.endObject()
    }
  }
}

/// LSP's `CodeAction`: a title, a kind and what it does, an edit (or, for a client that resolves
/// edits later, the `data` to compute it from).
package struct CodeAction: JSONEncodable, Sendable {
  package var title: String
  package var kind: CodeActionKind
  /// The diagnostics a quick fix fixes.
  package var diagnostics: [LSPDiagnostic]?
  package var isPreferred: Bool?
  package var edit: WorkspaceEdit?
  /// What `codeAction/resolve` needs to compute the edit: the document it edits.
  package var data: TextDocumentReference?

  package init(
    title: String, kind: CodeActionKind, diagnostics: [LSPDiagnostic]? = nil, isPreferred: Bool? = nil,
    edit: WorkspaceEdit? = nil, data: TextDocumentReference? = nil
  ) {
    self.title = title
    self.kind = kind
    self.diagnostics = diagnostics
    self.isPreferred = isPreferred
    self.edit = edit
    self.data = data
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("title", title)
    writer.member("kind", kind)
    writer.member("diagnostics", diagnostics)
    writer.member("isPreferred", isPreferred)
    writer.member("edit", edit)
    writer.member("data", data)
    writer.endObject()
  }
}

// The protocol's answers about names: `Location`, `DocumentHighlight`, and the range a rename edits.

import JSONRPC

/// LSP's `Location`: a range in a document.
package struct Location: JSONEncodable, Equatable, Sendable {
  package var uri: String
  package var range: LSPRange

  package init(uri: String, range: LSPRange) {
    self.uri = uri
    self.range = range
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("uri", uri)
    writer.member("range", range)
    writer.endObject()
  }
}

/// LSP's `DocumentHighlight`: a range, and whether it reads or writes what it names.
package struct DocumentHighlight: JSONEncodable, Equatable, Sendable {
  package var range: LSPRange
  package var kind: DocumentHighlightKind?

  package init(range: LSPRange, kind: DocumentHighlightKind?) {
    self.range = range
    self.kind = kind
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("range", range)
    writer.member("kind", kind)
    writer.endObject()
  }
}

/// The answer to `textDocument/prepareRename` that names what is renamed: its range and the
/// text the client shows to edit.
package struct PrepareRenameResult: JSONEncodable, Equatable, Sendable {
  package var range: LSPRange
  package var placeholder: String

  package init(range: LSPRange, placeholder: String) {
    self.range = range
    self.placeholder = placeholder
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("range", range)
    writer.member("placeholder", placeholder)
    writer.endObject()
  }
}

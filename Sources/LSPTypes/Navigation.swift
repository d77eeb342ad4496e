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

/// A selection range and its parents, innermost first: written as LSP nests them, each range's
/// `parent` the next. No range at all is written `null` (a position that has none).
package struct SelectionRange: JSONEncodable, Sendable {
  package var levels: [LSPRange]

  package init(levels: [LSPRange]) { self.levels = levels }

  package func encode(into writer: inout JSONWriter) {
    guard !levels.isEmpty else { return writer.write(raw: "null") }
    Chain(levels: levels[...]).encode(into: &writer)
  }

  /// The range at the chain's start, and the rest as its parent.
  private struct Chain: JSONEncodable {
    var levels: ArraySlice<LSPRange>

    func encode(into writer: inout JSONWriter) {
      writer.beginObject()
      if let range = levels.first {
        writer.member("range", range)
        if levels.count > 1 { writer.member("parent", Chain(levels: levels.dropFirst())) }
      }
      writer.endObject()
    }
  }
}

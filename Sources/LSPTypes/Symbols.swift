// The protocol's symbols: `DocumentSymbol` (a tree) and `SymbolInformation` (a flat list).

import JSONRPC

/// LSP's `DocumentSymbol`: a symbol with the symbols it holds, for clients that show a tree.
package struct DocumentSymbol: JSONEncodable, Sendable {
  package var name: String
  package var kind: SymbolKind
  package var detail: String?
  /// All of it (a section's lines, a definition from `:` to `;`).
  package var range: LSPRange
  /// What names it (a title, a name), within `range`.
  package var selectionRange: LSPRange
  /// Left out when nil; a client reads an absent list as no children.
  package var children: [DocumentSymbol]?

  package init(
    name: String, kind: SymbolKind, detail: String?, range: LSPRange, selectionRange: LSPRange,
    children: [DocumentSymbol]? = nil
  ) {
    self.name = name
    self.kind = kind
    self.detail = detail
    self.range = range
    self.selectionRange = selectionRange
    self.children = children
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("name", name)
    writer.member("kind", kind)
    writer.member("detail", detail)
    writer.member("range", range)
    writer.member("selectionRange", selectionRange)
    writer.member("children", children)
    writer.endObject()
  }
}

/// LSP's `SymbolInformation`: a symbol in a flat list, with the name of what holds it.
package struct SymbolInformation: JSONEncodable, Sendable {
  package var name: String
  package var kind: SymbolKind
  package var location: Location
  package var containerName: String?

  package init(name: String, kind: SymbolKind, location: Location, containerName: String? = nil) {
    self.name = name
    self.kind = kind
    self.location = location
    self.containerName = containerName
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("name", name)
    writer.member("kind", kind)
    writer.member("location", location)
    writer.member("containerName", containerName)
    writer.endObject()
  }
}

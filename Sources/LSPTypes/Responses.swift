// The protocol's response types that the server builds: each writes itself as JSON, with LSP's member names and order.

import JSONRPC

/// LSP's `TextEdit` (the engine's `TextEdit` is an edit of a document's text): replace `range` with `newText`.
package struct LSPTextEdit: JSONEncodable, Equatable, Sendable {
  package var range: LSPRange
  package var newText: String

  package init(range: LSPRange, newText: String) {
    self.range = range
    self.newText = newText
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("range", range)
    writer.member("newText", newText)
    writer.endObject()
  }
}

/// LSP's `InlayHint`, with a plain label. The label and tooltip are text as the engine writes
/// it (`UTF8Text`): a viewport's hints are asked for on every scroll.
package struct InlayHint: JSONEncodable, Sendable {
  package var position: Position
  package var label: UTF8Text
  package var tooltip: UTF8Text?
  package var textEdits: [LSPTextEdit]?
  package var paddingLeft: Bool
  /// What `inlayHint/resolve` needs to fill in what was left out, for a client that resolves.
  package var data: InlayHintData?

  package init(
    position: Position, label: UTF8Text, tooltip: UTF8Text? = nil, textEdits: [LSPTextEdit]? = nil,
    paddingLeft: Bool = true, data: InlayHintData? = nil
  ) {
    self.position = position
    self.label = label
    self.tooltip = tooltip
    self.textEdits = textEdits
    self.paddingLeft = paddingLeft
    self.data = data
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("position", position)
    writer.member("paddingLeft", paddingLeft)
    writer.member("label", label)
    writer.member("tooltip", tooltip)
    writer.member("textEdits", textEdits)
    writer.member("data", data)
    writer.endObject()
  }
}

/// An inlay hint's `data`: its document (as `TextDocumentPositionParams` names one), its line,
/// and the document's version when it was made, so that a resolve after an edit can tell.
package struct InlayHintData: JSONEncodable, Sendable {
  package var uri: String
  package var line: Int
  package var version: Int?

  package init(uri: String, line: Int, version: Int?) {
    self.uri = uri
    self.line = line
    self.version = version
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("textDocument", TextDocumentIdentifier(uri: uri))
    writer.member("line", line)
    writer.member("version", version)
    writer.endObject()
  }
}

/// LSP's `MarkupContent`: text in the client's format.
package struct MarkupContent: JSONEncodable, Sendable {
  package var kind: MarkupKind
  package var value: String

  package init(kind: MarkupKind, value: String) {
    self.kind = kind
    self.value = value
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("kind", kind)
    writer.member("value", value)
    writer.endObject()
  }
}

/// LSP's `Hover`.
package struct Hover: JSONEncodable, Sendable {
  package var contents: MarkupContent
  package var range: LSPRange?

  package init(contents: MarkupContent, range: LSPRange?) {
    self.contents = contents
    self.range = range
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("contents", contents)
    writer.member("range", range)
    writer.endObject()
  }
}

/// LSP's `Diagnostic` (the engine's `Diagnostic` is the problem it shows), with the members
/// `.rpn` sends: its code is one of the engine's names.
package struct LSPDiagnostic: JSONEncodable, Sendable {
  package var range: LSPRange
  package var severity: DiagnosticSeverity
  package var code: String
  package var source: String
  package var message: String

  package init(range: LSPRange, severity: DiagnosticSeverity, code: String, source: String, message: String) {
    self.range = range
    self.severity = severity
    self.code = code
    self.source = source
    self.message = message
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("range", range)
    writer.member("severity", severity)
    writer.member("code", code)
    writer.member("source", source)
    writer.member("message", message)
    writer.endObject()
  }
}

/// LSP's `PublishDiagnosticsParams`: every diagnostic of a document, at its version.
package struct PublishDiagnosticsParams: JSONEncodable, Sendable {
  package var uri: String
  package var version: Int?
  package var diagnostics: [LSPDiagnostic]

  package init(uri: String, version: Int?, diagnostics: [LSPDiagnostic]) {
    self.uri = uri
    self.version = version
    self.diagnostics = diagnostics
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("uri", uri)
    writer.member("version", version)
    writer.member("diagnostics", diagnostics)
    writer.endObject()
  }
}

/// LSP's `Command`: a title, and the command a client runs when it is chosen (empty: nothing to run).
package struct Command: JSONEncodable, Sendable {
  package var title: String
  package var command: String

  package init(title: String, command: String) {
    self.title = title
    self.command = command
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("title", title)
    writer.member("command", command)
    writer.endObject()
  }
}

/// LSP's `CodeLens`: a command shown above a range.
package struct CodeLens: JSONEncodable, Sendable {
  package var range: LSPRange
  package var command: Command

  package init(range: LSPRange, command: Command) {
    self.range = range
    self.command = command
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("range", range)
    writer.member("command", command)
    writer.endObject()
  }
}

/// LSP's `FoldingRange`, of whole lines (no characters: all a client with `lineFoldingOnly` takes).
package struct FoldingRange: JSONEncodable, Equatable, Sendable {
  package var startLine: Int
  package var endLine: Int
  package var kind: FoldingRangeKind?

  package init(startLine: Int, endLine: Int, kind: FoldingRangeKind?) {
    self.startLine = startLine
    self.endLine = endLine
    self.kind = kind
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("startLine", startLine)
    writer.member("endLine", endLine)
    writer.member("kind", kind)
    writer.endObject()
  }
}

/// LSP's `DocumentDiagnosticReport`: the full list (`items`), or, `unchanged`, none (the client's
/// list under `resultId` is still current).
package struct DocumentDiagnosticReport: JSONEncodable, Sendable {
  package var kind: DocumentDiagnosticReportKind
  package var resultId: String
  package var items: [LSPDiagnostic]?

  /// The full list.
  package init(resultId: String, items: [LSPDiagnostic]) {
    kind = .full
    self.resultId = resultId
    self.items = items
  }

  /// The client's list is still current.
  package init(unchangedSince resultId: String) {
    kind = .unchanged
    self.resultId = resultId
    items = nil
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("kind", kind)
    writer.member("resultId", resultId)
    writer.member("items", items)
    writer.endObject()
  }
}

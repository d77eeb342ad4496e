// Open documents: open, change (staged), close, evaluation once per batch, and publishing diagnostics.

import JSONRPC
import LSPTypes
import RPNEngine

#if canImport(Glibc)
  /// glibc's `malloc_trim` (in `<malloc.h>`, which the Glibc module does not export).
  @_silgen_name("malloc_trim") private func mallocTrim(_ pad: Int) -> Int32
#endif

/// An open document: the engine's model and the client's version of it.
final class OpenDocument {
  let document: Document
  var version: Int?
  /// Diagnostics changed since they were last published.
  var needsPublishing = true
  /// Names the current diagnostics, for pull diagnostics' `previousResultId`.
  var resultID = ""
  /// The sections as the code lenses show them, for clients that take code lens refreshes.
  var outline: SectionOutline?

  init(document: Document, version: Int?) {
    self.document = document
    self.version = version
  }
}

extension Server {
  func converter(for document: Document) -> PositionConverter {
    PositionConverter(encoding: encoding, document: document)
  }

  /// How a document shows its values: the editor's display settings under the document's
  /// `# rpn:` lines. Every number the server shows goes through it.
  func display(of document: Document) -> DisplaySettings {
    document.display(over: settings.display)
  }

  /// The open document that request parameters name; it throws the error to answer.
  func openDocument(_ params: JSONValue?) throws(ResponseError) -> (uri: String, open: OpenDocument) {
    guard let params, params.isObject else { throw .invalidParams("params must be an object") }
    guard let uri = params["textDocument"]?["uri"]?.stringValue else {
      throw .invalidParams("textDocument.uri must be a string")
    }
    guard let open = documents[uri] else {
      throw .invalidParams("document not open: \(uri) (send textDocument/didOpen first)")
    }
    return (uri, open)
  }

  /// The open document and the position that `TextDocumentPositionParams` name.
  func documentAndPosition(_ params: JSONValue?) throws(ResponseError) -> (open: OpenDocument, position: Position) {
    let found = try openDocument(params)
    return (found.open, try Position.decode(params?["position"], field: "position"))
  }

  func didOpen(_ params: JSONValue?) {
    guard let item = params?["textDocument"], let uri = item["uri"]?.stringValue, let text = item["text"]?.stringValue
    else {
      log("textDocument/didOpen without textDocument.uri and textDocument.text: ignored")
      return
    }
    do {
      let document = try Document(text: text, settings: settings.evaluation)
      let open = OpenDocument(document: document, version: item["version"]?.intValue)
      followSections(of: open)
      documents[uri] = open
    } catch {
      showError("\(uri) is too large for rpn-lsp (limit: \(Document.maximumUTF8Count) bytes); it is not evaluated")
    }
  }

  /// Stages the changes; they are evaluated once, before the next request or at the end of the
  /// batch (`flushDocuments`).
  func didChange(_ params: JSONValue?) {
    guard let uri = params?["textDocument"]?["uri"]?.stringValue, let open = documents[uri] else {
      log("textDocument/didChange for a document that is not open: ignored")
      return
    }
    guard let changes = params?["contentChanges"]?.arrayValue else {
      log("textDocument/didChange without contentChanges: ignored")
      return
    }
    let converter = converter(for: open.document)
    for change in changes {
      guard let text = change["text"]?.stringValue else { continue }
      let edit: TextEdit
      if let rangeJSON = change["range"] {
        // A reversed range is taken as written backwards; a malformed one skips this change.
        guard let start = try? Position.decode(rangeJSON["start"], field: "range.start"),
          let end = try? Position.decode(rangeJSON["end"], field: "range.end")
        else {
          log("textDocument/didChange with a malformed range: that change is ignored")
          continue
        }
        edit = TextEdit(from: converter.textPosition(start), to: converter.textPosition(end), text: text)
      } else {
        edit = TextEdit(
          from: TextPosition(line: 0, utf8Column: 0), to: TextPosition(line: Int.max, utf8Column: 0), text: text)
      }
      do {
        try open.document.stage(edit)
      } catch {
        // The editor's text now differs from ours, so every later position would be wrong:
        // stop following this document rather than answer for text the editor does not have.
        documents.removeValue(forKey: uri)
        if pushesDiagnostics {
          notification(
            Method.publishDiagnostics,
            JSONValue(encoding: PublishDiagnosticsParams(uri: uri, version: nil, diagnostics: [])))
        }
        showError(
          "\(uri) grew past rpn-lsp's limit of \(Document.maximumUTF8Count) bytes; it is no longer evaluated "
            + "(reopen it once it is smaller)")
        return
      }
    }
    if let version = params?["textDocument"]?["version"]?.intValue { open.version = version }
    open.needsPublishing = true
  }

  func didClose(_ params: JSONValue?) {
    guard let uri = params?["textDocument"]?["uri"]?.stringValue, documents.removeValue(forKey: uri) != nil else {
      return
    }
    if pushesDiagnostics {
      notification(
        Method.publishDiagnostics,
        JSONValue(encoding: PublishDiagnosticsParams(uri: uri, version: nil, diagnostics: [])))
    }
    #if canImport(Glibc)
      // With nothing open, give the freed arenas back to the system: a server that ran for
      // days on large tapes should shrink when they are closed, not keep its peak.
      if documents.isEmpty { _ = mallocTrim(0) }
    #endif
  }

  /// Evaluates staged changes, publishes the diagnostics that changed, and asks the client to
  /// refresh its code lenses when a section's summary changed, and both its code lenses and its
  /// inlay hints when an edit changed what a document's `# rpn:` lines set (every value shown
  /// may have changed).
  func flushDocuments() {
    var refreshLenses = false
    var refreshHints = false
    for (uri, open) in documents {
      if open.document.hasStagedEdits {
        let edit = open.document.evaluateStaged()
        if lensesChanged(in: open, by: edit) { refreshLenses = true }
        if edit.documentSettingsChanged {
          refreshHints = true
          refreshLenses = true
        }
      }
      guard open.needsPublishing else { continue }
      open.needsPublishing = false
      open.resultID = nextResultID()
      if !pushesDiagnostics { continue }
      let params = PublishDiagnosticsParams(
        uri: uri, version: open.version, diagnostics: diagnostics(of: open.document))
      notification(Method.publishDiagnostics, JSONValue(encoding: params, capacity: 1024))
    }
    if refreshHints && client.inlayHintRefresh { request(Method.inlayHintRefresh, nil) }
    if refreshLenses && client.codeLensRefresh { request(Method.codeLensRefresh, nil) }
  }

  /// Every diagnostic of a document, as LSP diagnostics.
  func diagnostics(of document: Document) -> [LSPDiagnostic] {
    let converter = converter(for: document)
    let display = display(of: document)
    return document.diagnostics().map { line, diagnostic in
      lspDiagnostic(diagnostic, line: line, converter: converter, display: display)
    }
  }

  /// One diagnostic as LSP's `Diagnostic`, the values in its message shown in `display`.
  func lspDiagnostic(
    _ diagnostic: Diagnostic, line: Int, converter: PositionConverter, display: DisplaySettings
  ) -> LSPDiagnostic {
    let severity: DiagnosticSeverity =
      switch diagnostic.severity {
      case .error: .error
      case .warning: .warning
      case .information: .information
      }
    return LSPDiagnostic(
      range: converter.range(line: line, utf8Range: diagnostic.range), severity: severity,
      code: diagnostic.code.rawValue, source: "rpn", message: diagnostic.message(display: display))
  }

  /// Diagnostics are pushed unless the client pulls them (`textDocument/diagnostic`).
  var pushesDiagnostics: Bool { !client.pullDiagnostics }

  func showError(_ message: String) {
    log(message)
    notification(Method.showMessage, ["type": JSONValue(MessageType.error.rawValue), "message": .string(message)])
  }
}

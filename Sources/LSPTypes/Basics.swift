import JSONRPC

/// A position as LSP sends it: a line and a `character` counted in the negotiated encoding's
/// code units. It stays in those units until the server converts it, in one place.
package struct Position: Equatable, Sendable {
  package var line: Int
  /// Code units of the negotiated encoding (UTF-8 bytes or UTF-16 units), not characters.
  package var character: Int

  package init(line: Int, character: Int) {
    self.line = line
    self.character = character
  }

  package var json: JSONValue { ["line": JSONValue(line), "character": JSONValue(character)] }

  /// Decodes `{"line": n, "character": n}`; `field` names it in the error ("position", "range.end").
  package static func decode(_ json: JSONValue?, field: String) -> Result<Position, ResponseError> {
    guard let json, json.isObject else { return .failure(.invalidParams("\(field) must be an object")) }
    guard let line = json["line"]?.intValue, line >= 0 else {
      return .failure(.invalidParams("\(field).line must be a non-negative integer"))
    }
    guard let character = json["character"]?.intValue, character >= 0 else {
      return .failure(.invalidParams("\(field).character must be a non-negative integer"))
    }
    return .success(Position(line: line, character: character))
  }
}

extension Position: Comparable {
  package static func < (a: Position, b: Position) -> Bool { (a.line, a.character) < (b.line, b.character) }
}

/// A range between two positions; `end` is exclusive for text, inclusive for range parameters.
package struct LSPRange: Equatable, Sendable {
  package var start: Position
  package var end: Position

  package init(start: Position, end: Position) {
    self.start = start
    self.end = end
  }

  package var json: JSONValue { ["start": start.json, "end": end.json] }

  /// Decodes a range; a reversed one is an error.
  package static func decode(_ json: JSONValue?, field: String) -> Result<LSPRange, ResponseError> {
    guard let json, json.isObject else { return .failure(.invalidParams("\(field) must be an object")) }
    let start: Position
    let end: Position
    switch Position.decode(json["start"], field: "\(field).start") {
    case .success(let position): start = position
    case .failure(let error): return .failure(error)
    }
    switch Position.decode(json["end"], field: "\(field).end") {
    case .success(let position): end = position
    case .failure(let error): return .failure(error)
    }
    guard start <= end else { return .failure(.invalidParams("\(field) is reversed: its end comes before its start")) }
    return .success(LSPRange(start: start, end: end))
  }
}

/// The unit of `Position.character`, negotiated at `initialize`.
package enum PositionEncodingKind: String, Sendable {
  case utf8 = "utf-8"
  case utf16 = "utf-16"
}

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

/// The method names this server knows.
package enum Method {
  package static let initialize = "initialize"
  package static let initialized = "initialized"
  package static let shutdown = "shutdown"
  package static let exit = "exit"
  package static let cancelRequest = "$/cancelRequest"
  package static let didOpen = "textDocument/didOpen"
  package static let didChange = "textDocument/didChange"
  package static let didClose = "textDocument/didClose"
  package static let didChangeConfiguration = "workspace/didChangeConfiguration"
  package static let publishDiagnostics = "textDocument/publishDiagnostics"
  package static let diagnostic = "textDocument/diagnostic"
  package static let diagnosticRefresh = "workspace/diagnostic/refresh"
  package static let inlayHint = "textDocument/inlayHint"
  package static let inlayHintRefresh = "workspace/inlayHint/refresh"
  package static let hover = "textDocument/hover"
  package static let completion = "textDocument/completion"
  package static let definition = "textDocument/definition"
  package static let references = "textDocument/references"
  package static let documentHighlight = "textDocument/documentHighlight"
  package static let prepareRename = "textDocument/prepareRename"
  package static let rename = "textDocument/rename"
  package static let documentSymbol = "textDocument/documentSymbol"
  package static let semanticTokensFull = "textDocument/semanticTokens/full"
  package static let semanticTokensRange = "textDocument/semanticTokens/range"
  package static let codeAction = "textDocument/codeAction"
  package static let formatting = "textDocument/formatting"
  package static let rangeFormatting = "textDocument/rangeFormatting"
  package static let logMessage = "window/logMessage"
}

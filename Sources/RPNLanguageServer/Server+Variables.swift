// Variables: definition, references, highlights, rename and document symbols.

import JSONRPC
import LSPTypes
import RPNEngine

/// Variables as symbols: definition, references, highlights, rename and document symbols, all
/// from the engine's document model (no second parser).
extension Server {
  /// The variable under the cursor of a position request, or nil off a variable.
  private func variableAtCursor(_ params: JSONValue?) throws(ResponseError) -> (
    uri: String, open: OpenDocument, variable: (name: String, occurrence: VariableOccurrence)?
  ) {
    let (uri, open) = try openDocument(params)
    let position = try Position.decode(params?["position"], field: "position")
    let cursor = converter(for: open.document).textPosition(position)
    let variable = open.document.variable(atLine: cursor.line, utf8Offset: cursor.utf8Column)
    return (uri, open, variable)
  }

  private func location(_ uri: String, _ document: Document, line: Int, range: Range<Int>) -> JSONValue {
    ["uri": .string(uri), "range": converter(for: document).range(line: line, utf8Range: range).json]
  }

  /// `textDocument/definition`: on a use, the `=name` whose value is in effect there; on a
  /// store, itself; null elsewhere (or for a name not stored above).
  func definition(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (uri, open, variable) = try variableAtCursor(params)
    guard let (name, occurrence) = variable else { return .null }
    if occurrence.isStore { return location(uri, open.document, line: occurrence.line, range: occurrence.range) }
    guard
      let store = open.document.storeLocation(
        ofVariable: name, visibleAtLine: occurrence.line, utf8Offset: occurrence.range.lowerBound)
    else { return .null }
    return location(uri, open.document, line: store.line, range: store.range)
  }

  /// `textDocument/references`: every store and use of the name (stores only when
  /// `context.includeDeclaration`), each covering its whole token.
  func references(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let includeDeclaration = params?["context"]?["includeDeclaration"]?.boolValue ?? true
    let (uri, open, variable) = try variableAtCursor(params)
    guard let (name, _) = variable else { return .null }
    let occurrences = open.document.occurrences(of: name).filter { includeDeclaration || !$0.isStore }
    return .array(occurrences.map { location(uri, open.document, line: $0.line, range: $0.range) })
  }

  /// `textDocument/documentHighlight`: stores as Write, uses as Read.
  func documentHighlight(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (_, open, variable) = try variableAtCursor(params)
    guard let (name, _) = variable else { return .null }
    let converter = converter(for: open.document)
    return .array(
      open.document.occurrences(of: name).map { occurrence in
        [
          "range": converter.range(line: occurrence.line, utf8Range: occurrence.range).json,
          "kind": JSONValue((occurrence.isStore ? DocumentHighlightKind.write : .read).rawValue),
        ]
      })
  }

  /// `textDocument/prepareRename`: the name's range (without the `=` of a store), or null.
  func prepareRename(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (_, open, variable) = try variableAtCursor(params)
    guard let (name, occurrence) = variable else { return .null }
    let range = converter(for: open.document).range(line: occurrence.line, utf8Range: occurrence.nameRange)
    return ["range": range.json, "placeholder": .string(name)]
  }

  /// `textDocument/rename`: a `WorkspaceEdit` over every store and use. Refused, with the reason,
  /// off a variable, for an invalid name, an operator or constant, or a name another variable has.
  func rename(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    guard let newName = params?["newName"]?.stringValue else {
      throw .invalidParams("newName must be a string")
    }
    let found = try variableAtCursor(params)
    guard let (name, _) = found.variable else {
      throw .requestFailed("there is no variable at this position to rename")
    }
    if let problem = Lexer.nameProblem(newName) {
      var message = problem.explanation(for: newName)
      if case .reserved = problem { message += "; a variable cannot have its name" }
      throw .requestFailed(message)
    }
    if newName.utf8.elementsEqual(name.utf8) { return ["changes": .object([(found.uri, .array([]))])] }
    if !found.open.document.occurrences(of: newName).isEmpty {
      throw .requestFailed(
        "`\(newName)` is already a variable in this document; renaming `\(name)` to it would merge the two")
    }
    let converter = converter(for: found.open.document)
    let edits: [JSONValue] = found.open.document.occurrences(of: name).map { occurrence in
      [
        "range": converter.range(line: occurrence.line, utf8Range: occurrence.nameRange).json,
        "newText": .string(newName),
      ]
    }
    return ["changes": .object([(found.uri, .array(edits))])]
  }

  /// `textDocument/documentSymbol`: each store that succeeded, as a Variable symbol named without
  /// its `=`, with the stored value as detail. Clients without hierarchical symbols get the
  /// flat `SymbolInformation` form, with the value after the name.
  func documentSymbols(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (uri, open) = try openDocument(params)
    let converter = converter(for: open.document)
    let display = settings.display
    let hierarchical = client.hierarchicalSymbols
    return .array(
      open.document.storedVariables().map { store in
        let value = ValueFormat.format(store.value, precision: display.precision)
        let range = converter.range(line: store.line, utf8Range: store.range).json
        guard hierarchical else {
          return [
            "name": .string("\(store.name) = \(value)"), "kind": JSONValue(SymbolKind.variable.rawValue),
            "location": ["uri": .string(uri), "range": range],
          ]
        }
        return [
          "name": .string(store.name),
          "kind": JSONValue(SymbolKind.variable.rawValue),
          "detail": .string(value),
          "range": range,
          "selectionRange": converter.range(line: store.line, utf8Range: store.nameRange).json,
        ]
      })
  }
}

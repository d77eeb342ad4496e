// Variables, defined words and units a tape defines as symbols: definition, references, highlights and rename.

import JSONRPC
import LSPTypes
import RPNEngine

/// Variables and defined words as symbols: definition, references, highlights and rename (their
/// document symbols are in `Server+Symbols.swift`), all from the engine's document model (no
/// second parser). The two share one namespace: a name is bound by a store `=name` or by a
/// definition `: name … ;`, and means what the latest binding above it bound, so every feature
/// here treats both alike.
extension Server {
  /// The name under the cursor of a position request (a store, a definition's name or a use), or
  /// nil off any name; else the currency or unit of the tape's own written there (`unit`).
  private func nameAtCursor(_ params: JSONValue?) throws(ResponseError) -> (
    uri: String, open: OpenDocument, name: (name: String, occurrence: VariableOccurrence)?,
    unit: (name: String, occurrence: UnitOccurrence)?
  ) {
    let (uri, open) = try openDocument(params)
    let position = try Position.decode(params?["position"], field: "position")
    let cursor = converter(for: open.document).textPosition(position)
    if let name = open.document.nameOccurrence(atLine: cursor.line, utf8Offset: cursor.utf8Column) {
      return (uri, open, name, nil)
    }
    return (uri, open, nil, open.document.definableUnit(atLine: cursor.line, utf8Offset: cursor.utf8Column))
  }

  private func location(_ uri: String, _ converter: PositionConverter, line: Int, range: Range<Int>) -> Location {
    Location(uri: uri, range: converter.range(line: line, utf8Range: range))
  }

  /// `textDocument/definition`: on a use, the binding in effect there (the `=name` whose value
  /// it pushes, or the name of the definition of the word it runs; for a currency or a unit of
  /// the tape's own, the `_name` of its definition in force); on a store or a definition's name,
  /// itself; null elsewhere (or for a name bound nowhere above).
  func definition(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (uri, open, found, unit) = try nameAtCursor(params)
    let converter = converter(for: open.document)
    // The token under the cursor, whether it binds (a store, a definition's name), and else the
    // binding in effect there: a variable's or word's, or a unit's definition in force.
    let here: (line: Int, range: Range<Int>, binds: Bool)
    let site: BindingSite?
    if let (name, occurrence) = unit {
      here = (occurrence.line, occurrence.range, occurrence.isDefinition)
      site =
        here.binds
        ? nil : open.document.unitDefinitionSite(of: name, atLine: here.line, utf8Offset: here.range.lowerBound)
    } else if let (name, occurrence) = found {
      here = (occurrence.line, occurrence.range, occurrence.isStore)
      site =
        here.binds ? nil : open.document.bindingInEffect(of: name, atLine: here.line, utf8Offset: here.range.lowerBound)
    } else {
      return .null
    }
    if here.binds { return JSONValue(encoding: location(uri, converter, line: here.line, range: here.range)) }
    guard let site else { return .null }
    return JSONValue(encoding: location(uri, converter, line: site.line, range: site.range))
  }

  /// `textDocument/references`: every store, definition and use of the name (stores and
  /// definitions only when `context.includeDeclaration`), each covering its whole token.
  func references(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let includeDeclaration = params?["context"]?["includeDeclaration"]?.boolValue ?? true
    let (uri, open, found, unit) = try nameAtCursor(params)
    guard let occurrences = Self.occurrences(found, unit, in: open.document) else { return .null }
    let converter = converter(for: open.document)
    let locations = occurrences.filter { includeDeclaration || !$0.binds }.map {
      location(uri, converter, line: $0.line, range: $0.range)
    }
    return JSONValue(encoding: locations, capacity: 128 * locations.count)
  }

  /// `textDocument/documentHighlight`: stores and definitions' names as Write, uses as Read.
  func documentHighlight(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (_, open, found, unit) = try nameAtCursor(params)
    guard let occurrences = Self.occurrences(found, unit, in: open.document) else { return .null }
    let converter = converter(for: open.document)
    let highlights = occurrences.map { occurrence in
      DocumentHighlight(
        range: converter.range(line: occurrence.line, utf8Range: occurrence.range),
        kind: occurrence.binds ? .write : .read)
    }
    return JSONValue(encoding: highlights, capacity: 96 * highlights.count)
  }

  /// Every place the name or unit under the cursor is written (its whole token), and whether it
  /// binds it there (a store, a definition's name); nil when the cursor is on neither.
  private static func occurrences(
    _ name: (name: String, occurrence: VariableOccurrence)?, _ unit: (name: String, occurrence: UnitOccurrence)?,
    in document: Document
  ) -> [(line: Int, range: Range<Int>, binds: Bool)]? {
    if let (unit, _) = unit { return document.unitOccurrences(of: unit).map { ($0.line, $0.range, $0.isDefinition) } }
    guard let (name, _) = name else { return nil }
    return document.nameOccurrences(of: name).map { ($0.line, $0.range, $0.isStore) }
  }

  /// `textDocument/prepareRename`: the name's range (without the `=` of a store), or null.
  func prepareRename(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (_, open, found, unit) = try nameAtCursor(params)
    if let (name, occurrence) = unit {
      // A currency is the table's: only a unit of the tape's own is renamed.
      guard Self.unitRenameProblem(of: name) == nil else { return .null }
      let range = converter(for: open.document).range(line: occurrence.line, utf8Range: occurrence.nameRange)
      return JSONValue(encoding: PrepareRenameResult(range: range, placeholder: name))
    }
    guard let (name, occurrence) = found else { return .null }
    let range = converter(for: open.document).range(line: occurrence.line, utf8Range: occurrence.nameRange)
    return JSONValue(encoding: PrepareRenameResult(range: range, placeholder: name))
  }

  /// `textDocument/rename`: a `WorkspaceEdit` over every store, definition and use, bodies
  /// included. Refused, with the reason, off a name, for an invalid name, an operator or
  /// constant, or a name the document already has (a variable's or a word's).
  func rename(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    guard let newName = params?["newName"]?.stringValue else {
      throw .invalidParams("newName must be a string")
    }
    let found = try nameAtCursor(params)
    if let (name, _) = found.unit {
      return try renameUnit(name, to: newName, uri: found.uri, open: found.open)
    }
    guard let (name, _) = found.name else {
      throw .requestFailed("there is no variable or word at this position to rename")
    }
    if let problem = Document.nameProblem(newName) {
      var message = problem.explanation(for: newName)
      if case .reserved = problem { message += "; a variable or word cannot have its name" }
      throw .requestFailed(message)
    }
    if newName.utf8.elementsEqual(name.utf8) { return JSONValue(encoding: WorkspaceEdit(uri: found.uri, edits: [])) }
    let taken = found.open.document.nameOccurrences(of: newName)
    if !taken.isEmpty {
      // What binds it: a definition makes it a word's name; a store, or only uses, a variable's.
      let word = taken.contains(where: \.isDefinition)
      let variable = !word || taken.contains { $0.isStore && !$0.isDefinition }
      let what = word && variable ? "a variable and a word" : word ? "a word" : "a variable"
      throw .requestFailed(
        "`\(newName)` is already \(what) in this document; renaming `\(name)` to it would merge the two")
    }
    let converter = converter(for: found.open.document)
    let edits = found.open.document.nameOccurrences(of: name).map { occurrence in
      LSPTextEdit(range: converter.range(line: occurrence.line, utf8Range: occurrence.nameRange), newText: newName)
    }
    return JSONValue(encoding: WorkspaceEdit(uri: found.uri, edits: edits), capacity: 128 + 96 * edits.count)
  }
}

extension Server {
  /// Why a unit cannot be renamed (a currency, which the table names), or nil for a unit of the
  /// tape's own.
  private static func unitRenameProblem(of name: String) -> String? {
    guard case .unit = UnitTable.lookUp(name) else { return nil }
    return
      "`\(name)` is a currency of the table (ISO 4217), which a tape cannot rename; only a unit the tape defines itself can be renamed"
  }

  /// `textDocument/rename` on a unit of the tape's own (`pace` in `: _pace 0.75_m ;`, `3_pace`,
  /// `>pace`, `12_pace/h`): a `WorkspaceEdit` over its definitions and every unit that writes it.
  /// The new name may be given with its `_`. Refused, with the reason, for a currency, a name
  /// that is not one unit name, a name the table has (`km`) or one the tape already uses.
  private func renameUnit(_ name: String, to requested: String, uri: String, open: OpenDocument)
    throws(ResponseError) -> JSONValue
  {
    if let problem = Self.unitRenameProblem(of: name) { throw .requestFailed(problem) }
    let newName = requested.hasPrefix("_") ? String(requested.dropFirst()) : requested
    var text = newName
    let single = text.withUTF8 { bytes in
      guard case .success(let factors) = UnitExpression.parse(bytes, 0..<bytes.count), factors.count == 1 else {
        return false
      }
      return factors[0].power == 1 && factors[0].name == 0..<bytes.count
    }
    guard single else {
      throw .requestFailed(
        "`\(requested)` is not one unit's name: write one name of letters, with no power, `*`, `/` or space")
    }
    switch UnitTable.lookUp(newName) {
    case .unknown: break
    case .unit(let atom, let prefix):
      let what = UnitTable.atoms[atom].isCurrency ? "a currency" : "a unit"
      let title = prefix < 0 ? " (\(UnitTable.atoms[atom].title))" : ""
      throw .requestFailed(
        "`\(newName)` is \(what) of the table\(title); a unit of the tape's own needs a name the table does not have")
    case .prefixNotTaken:
      throw .requestFailed(
        "`\(newName)` reads as a prefix and a unit of the table; pick a name the table does not have")
    }
    if newName == name { return JSONValue(encoding: WorkspaceEdit(uri: uri, edits: [])) }
    if !open.document.unitOccurrences(of: newName).isEmpty {
      throw .requestFailed(
        "`\(newName)` is already a unit in this document; renaming `\(name)` to it would merge the two")
    }
    let converter = converter(for: open.document)
    let edits = open.document.unitOccurrences(of: name).map { occurrence in
      LSPTextEdit(range: converter.range(line: occurrence.line, utf8Range: occurrence.nameRange), newText: newName)
    }
    return JSONValue(encoding: WorkspaceEdit(uri: uri, edits: edits), capacity: 128 + 96 * edits.count)
  }
}

// Document and workspace symbols: sections holding the stores and words defined in them, across open documents.

import JSONRPC
import LSPTypes
import RPNEngine

/// A store or a definition as a symbol, before it is written for a client: what it is called,
/// what it holds, and where it is (UTF-8 offsets in its line).
private struct Definition {
  var name: String
  var kind: SymbolKind
  /// The stored value or the word's effect.
  var detail: String
  /// What joins the name and the detail in the flat form (`x = 3`, `hyp ( a b -- r )`).
  var separator: String
  var line: Int
  /// The `=name` token, or the definition from `:` to `;`.
  var range: Range<Int>
  /// The name alone.
  var selection: Range<Int>
}

extension Server {
  /// `textDocument/documentSymbol`: each section as a Namespace symbol named by its title (an
  /// untitled one by its `#`s), with its summary as detail, its range from the heading's start to
  /// the end of its last line and its selection range the title; it holds, in document order,
  /// the stores that succeeded in it (Variable, named without the `=`, detail the value stored),
  /// the definitions that defined a word (Function, detail the effect, range `:` to `;`,
  /// selection range the name) and those that defined a unit (Constant, named `_EUR`, detail
  /// what one of it is). What is defined before the first heading stays at the top.
  ///
  /// Clients without hierarchical symbols get the flat `SymbolInformation` list, in document
  /// order: a section, then what it holds, each with the section's name as `containerName`; the
  /// value or effect follows a store's or word's name.
  func documentSymbols(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (uri, open) = try openDocument(params)
    let document = open.document
    let converter = converter(for: document)
    let hierarchical = client.hierarchicalSymbols
    let format = summaryFormat(document)
    let definitions = self.definitions(in: document)
    let sections = document.sections()
    // The two forms, built apart: a tree of `DocumentSymbol`s, or `SymbolInformation` in order.
    var tree: [DocumentSymbol] = []
    var flat: [SymbolInformation] = []
    if hierarchical {
      tree.reserveCapacity(sections.count + 1)
    } else {
      flat.reserveCapacity(definitions.count + sections.count)
    }
    func symbol(_ definition: Definition) -> DocumentSymbol {
      DocumentSymbol(
        name: definition.name, kind: definition.kind, detail: definition.detail,
        range: converter.range(line: definition.line, utf8Range: definition.range),
        selectionRange: converter.range(line: definition.line, utf8Range: definition.selection))
    }
    func information(_ definition: Definition, container: String?) -> SymbolInformation {
      SymbolInformation(
        name: definition.name + definition.separator + definition.detail, kind: definition.kind,
        location: Location(uri: uri, range: converter.range(line: definition.line, utf8Range: definition.range)),
        containerName: container)
    }
    var d = 0
    let firstHeading = sections.first?.headingLine ?? document.lineCount
    while d < definitions.count, definitions[d].line < firstHeading {
      if hierarchical {
        tree.append(symbol(definitions[d]))
      } else {
        flat.append(information(definitions[d], container: nil))
      }
      d += 1
    }
    for section in sections {
      let name = section.name
      let range = sectionRange(section, converter)
      if hierarchical {
        var children: [DocumentSymbol] = []
        while d < definitions.count, definitions[d].line <= section.lastLine {
          children.append(symbol(definitions[d]))
          d += 1
        }
        tree.append(
          DocumentSymbol(
            name: name, kind: .namespace, detail: section.summary.text(format), range: range,
            selectionRange: converter.range(line: section.headingLine, utf8Range: section.nameRange),
            children: children.isEmpty ? nil : children))
      } else {
        flat.append(SymbolInformation(name: name, kind: .namespace, location: Location(uri: uri, range: range)))
        while d < definitions.count, definitions[d].line <= section.lastLine {
          flat.append(information(definitions[d], container: name))
          d += 1
        }
      }
    }
    let capacity = 192 * (definitions.count + sections.count)
    return hierarchical ? JSONValue(encoding: tree, capacity: capacity) : JSONValue(encoding: flat, capacity: capacity)
  }

  /// `workspace/symbol`: the stores, words, units defined and headings of every open document
  /// whose names hold the query's characters in order, ignoring case (`gro` finds `Groceries`; an
  /// empty query finds everything), as `SymbolInformation`: kind Variable, Function, Constant or
  /// Namespace, the location of the `=name`, the definition, or the heading (its first `#` to its line's end), and as
  /// `containerName` the name of the section that holds it. By document URI, then position.
  func workspaceSymbols(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    guard let params, params.isObject else { throw .invalidParams("params must be an object") }
    guard let query = params["query"]?.stringValue else { throw .invalidParams("query must be a string") }
    let pattern = Array(query.lowercased().unicodeScalars)
    var symbols: [SymbolInformation] = []
    for uri in documents.keys.sorted() {
      guard let document = documents[uri]?.document else { continue }
      let converter = converter(for: document)
      func add(_ name: String, _ kind: SymbolKind, _ range: LSPRange, container: String?) {
        guard Self.matches(pattern, name) else { return }
        symbols.append(
          SymbolInformation(
            name: name, kind: kind, location: Location(uri: uri, range: range), containerName: container))
      }
      let definitions = self.definitions(in: document)
      var d = 0
      var container: String?
      for section in document.sections() {
        while d < definitions.count, definitions[d].line < section.headingLine {
          let definition = definitions[d]
          add(
            definition.name, definition.kind, converter.range(line: definition.line, utf8Range: definition.range),
            container: container)
          d += 1
        }
        let name = section.name
        let line = section.headingLine
        let heading = section.headingMarks.lowerBound..<document.utf8Count(ofLine: line)
        add(name, .namespace, converter.range(line: line, utf8Range: heading), container: nil)
        container = name
      }
      for definition in definitions[d...] {
        add(
          definition.name, definition.kind, converter.range(line: definition.line, utf8Range: definition.range),
          container: container)
      }
    }
    return JSONValue(encoding: symbols, capacity: 192 * symbols.count)
  }

  /// Whether `name` holds the pattern's scalars in order, ignoring case.
  private static func matches(_ pattern: [Unicode.Scalar], _ name: String) -> Bool {
    if pattern.isEmpty { return true }
    var next = 0
    for scalar in name.lowercased().unicodeScalars where scalar == pattern[next] {
      next += 1
      if next == pattern.count { return true }
    }
    return false
  }

  /// A section's range: from its heading's start to the end of its last line.
  private func sectionRange(_ section: Section, _ converter: PositionConverter) -> LSPRange {
    let lastLine = section.lastLine
    return LSPRange(
      start: Position(line: section.headingLine, character: 0),
      end: converter.position(line: lastLine, utf8Column: converter.document.utf8Count(ofLine: lastLine)))
  }

  /// The stores that succeeded, the definitions that defined a word and those that defined a
  /// unit (Constant, named `_EUR`, detail what one of it is: `1.08_USD`, or `new dimension`), in
  /// document order.
  private func definitions(in document: Document) -> [Definition] {
    let display = display(of: document)
    let stores = document.storedVariables()
    let words = document.definedWords()
    var definitions: [Definition] = []
    definitions.reserveCapacity(stores.count + words.count)
    // Both lists are in document order: merge them.
    var (s, w) = (0, 0)
    while s < stores.count || w < words.count {
      if w == words.count
        || (s < stores.count
          && (stores[s].line, stores[s].range.lowerBound) < (words[w].line, words[w].definitionRange.lowerBound))
      {
        let store = stores[s]
        definitions.append(
          Definition(
            name: store.name, kind: .variable, detail: ValueFormat.format(store.value, display: display),
            separator: " = ", line: store.line, range: store.range, selection: store.nameRange))
        s += 1
      } else {
        let word = words[w]
        definitions.append(
          Definition(
            name: word.name, kind: .function, detail: word.effect.description, separator: " ", line: word.line,
            range: word.definitionRange, selection: word.nameRange))
        w += 1
      }
    }
    // Units' definitions, in among them by where they are.
    let units = document.definedUnits()
    guard !units.isEmpty else { return definitions }
    for unit in units {
      let detail = unit.value.map { ValueFormat.definition($0, display: display) }
      definitions.append(
        Definition(
          name: "_" + unit.name, kind: .constant, detail: detail ?? "new dimension",
          separator: detail == nil ? " " : " = ", line: unit.line, range: unit.definitionRange,
          selection: unit.nameRange))
    }
    return definitions.sorted { ($0.line, $0.range.lowerBound) < ($1.line, $1.range.lowerBound) }
  }
}

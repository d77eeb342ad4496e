// Variables: where a name is stored and used, the store in effect at a position, and "stored later".

/// One place a variable's name appears: a store (`=name`) or a use (`name`).
package struct VariableOccurrence: Equatable, Sendable {
  package var line: Int
  /// The whole token: `=name` for a store.
  package var range: Range<Int>
  /// The name alone (for a store, the token without its `=`).
  package var nameRange: Range<Int>
  package var isStore: Bool
}

/// A store that succeeded, with the value it stored.
package struct StoredVariable: Equatable, Sendable {
  package var name: String
  package var line: Int
  package var range: Range<Int>
  package var nameRange: Range<Int>
  package var value: Double
}

extension Document {
  /// The variable token at a UTF-8 offset (containing it, else ending there), with its name.
  package func variable(atLine line: Int, utf8Offset offset: Int) -> (name: String, occurrence: VariableOccurrence)? {
    guard line >= 0, line < lineCount else { return nil }
    return withUTF8(ofLine: line) { bytes in
      let tokens = Lexer.tokens(of: bytes).tokens
      guard let token = tokens.first(where: { $0.isAtCursor(offset) }) else { return nil }
      let isStore = token.kind == .store
      guard isStore || token.kind == .name else { return nil }
      let nameRange = token.nameRange
      let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameRange]), as: UTF8.self)
      return (name, VariableOccurrence(line: line, range: token.range, nameRange: nameRange, isStore: isStore))
    }
  }

  /// Every store and use of `name` in the document, top to bottom. Names compare byte by byte.
  package func occurrences(of name: String) -> [VariableOccurrence] {
    let target = Array(name.utf8)
    guard !target.isEmpty else { return [] }
    var result: [VariableOccurrence] = []
    for line in 0..<lineCount {
      withUTF8(ofLine: line) { bytes in
        // Most lines do not mention the name at all: look for its first byte before lexing.
        guard bytes.contains(target[0]) else { return }
        for token in Lexer.tokens(of: bytes).tokens {
          switch token.kind {
          case .name where bytes[token.range].elementsEqual(target):
            result.append(VariableOccurrence(line: line, range: token.range, nameRange: token.range, isStore: false))
          case .store where bytes[token.nameRange].elementsEqual(target):
            result.append(VariableOccurrence(line: line, range: token.range, nameRange: token.nameRange, isStore: true))
          default:
            break
          }
        }
      }
    }
    return result
  }

  /// Every store that succeeded, top to bottom, with the value it stored.
  package func storedVariables() -> [StoredVariable] {
    var result: [StoredVariable] = []
    for line in 0..<lineCount where storesSomething(line) {
      let traces = trace(line: line, keepingTop: 1)
      withUTF8(ofLine: line) { bytes in
        for trace in traces where trace.token.kind == .store && trace.diagnostic == nil {
          guard let value = trace.after.top.last else { continue }
          let nameRange = trace.token.nameRange
          let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameRange]), as: UTF8.self)
          result.append(
            StoredVariable(name: name, line: line, range: trace.token.range, nameRange: nameRange, value: value))
        }
      }
    }
    return result
  }
}

extension Document {
  /// Whether a line stored a variable successfully (its list of stores grew).
  package func storesSomething(_ line: Int) -> Bool {
    guard lines.indices.contains(line) else { return false }
    return lines[line].env != (line == 0 ? -1 : lines[line - 1].env)
  }

  /// The store that gave `name` the value visible at `offset` of `line` (before the token
  /// there): its line and the range of its `=name` token. Nil when the name is not visible.
  package func storeLocation(ofVariable name: String, visibleAtLine line: Int, utf8Offset offset: Int)
    -> (line: Int, range: Range<Int>)?
  {
    guard lines.indices.contains(line) else { return nil }
    if let range = lastSuccessfulStore(of: name, inLine: line, before: offset) { return (line, range) }
    guard let id = names.id(name) else { return nil }
    var index = line - 1
    while index >= 0 {
      let previous = index == 0 ? -1 : lines[index - 1].env
      if stores(id, from: previous, to: lines[index].env),
        let range = lastSuccessfulStore(of: name, inLine: index, before: Int.max)
      {
        return (index, range)
      }
      index -= 1
    }
    return nil
  }

  private func lastSuccessfulStore(of name: String, inLine line: Int, before offset: Int) -> Range<Int>? {
    let storeText = Array(("=" + name).utf8)
    var found: Range<Int>?
    withUTF8(ofLine: line) { bytes in
      for trace in trace(line: line, keepingTop: 0)
      where trace.token.kind == .store && trace.diagnostic == nil && trace.token.range.upperBound <= offset
        && bytes[trace.token.range].elementsEqual(storeText)
      {
        found = trace.token.range
      }
    }
    return found
  }

  /// Fills in where an unknown word is stored further down, if it is: that depends on the lines
  /// below, which the evaluation of this line cannot see, so it is looked up when read.
  func resolveStoredLater(_ diagnostic: Diagnostic, line: Int) -> Diagnostic {
    guard case .unknownWord(let word, let suggestion, _) = diagnostic.problem, let name = names.id(word) else {
      return diagnostic
    }
    var diagnostic = diagnostic
    if let storeLine = firstStore(of: name, word: word, after: diagnostic.range.upperBound, inLine: line) {
      diagnostic.problem = .unknownWord(word: word, suggestion: suggestion, storedLaterOnLine: storeLine)
    }
    return diagnostic
  }

  /// The first line at or below `line` (past `offset` on `line` itself) with a store of `name`
  /// that succeeded.
  private func firstStore(of name: Int32, word: String, after offset: Int, inLine line: Int) -> Int? {
    let sameLine = withUTF8(ofLine: line) { bytes in
      Lexer.tokens(of: bytes).tokens.contains { token in
        token.range.lowerBound >= offset && token.kind == .store
          && bytes[token.nameRange].elementsEqual(word.utf8)
      }
    }
    if sameLine && stores(name, from: line == 0 ? -1 : lines[line - 1].env, to: lines[line].env) { return line }
    var index = line + 1
    while index < lines.count {
      if stores(name, from: lines[index - 1].env, to: lines[index].env) { return index }
      index += 1
    }
    return nil
  }

  /// Whether the stores between two list heads (a line's own stores) include `name`.
  private func stores(_ name: Int32, from previous: Int32, to head: Int32) -> Bool {
    var index = head
    while index != previous, index >= 0 {
      if bindings[Int(index)].name == name { return true }
      index = bindings[Int(index)].next
    }
    return false
  }
}

/// What a cursor sees at a position: how deep the stack is there, and the variables visible,
/// by name.
package struct Scope: Sendable {
  package var depth: Int
  package var variables: [(name: String, value: Double)]
}

extension Document {
  /// The stack depth and the variables visible at a UTF-8 offset of a line, before any token
  /// that starts there: the variables stored above the line, then the stores of the line that
  /// end at or before the offset and succeeded. Variables are sorted by name.
  package func scope(atLine line: Int, utf8Offset offset: Int) -> Scope {
    guard lines.indices.contains(line) else { return Scope(depth: 0, variables: []) }
    let traces = trace(line: line, keepingTop: 1, near: offset)
    let before = traces.last { $0.token.range.upperBound <= offset }
    let depth = before?.after.depth ?? stack(beforeLine: line, keepingTop: 0).depth
    var variables = line == 0 ? [] : variables(afterLine: line - 1)
    withUTF8(ofLine: line) { bytes in
      for trace in traces where trace.token.range.upperBound <= offset && trace.token.kind == .store {
        guard trace.diagnostic == nil, let value = trace.after.top.last else { continue }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[trace.token.nameRange]), as: UTF8.self)
        variables.removeAll { $0.name.utf8.elementsEqual(name.utf8) }
        variables.append((name, value))
      }
    }
    variables.sort { $0.name < $1.name }
    return Scope(depth: depth, variables: variables)
  }
}

// Variables: where a name is stored and used, the store in effect at a position, and what a cursor sees.

/// One place a name appears: a binding (a store `=name`, or the name a definition `: name … ;`
/// defines) or a use (`name`, of a variable or a word).
package struct VariableOccurrence: Equatable, Sendable {
  package var line: Int
  /// The whole token: `=name` for a store.
  package var range: Range<Int>
  /// The name alone (for a store, the token without its `=`).
  package var nameRange: Range<Int>
  /// Whether this binds the name: a store or a definition.
  package var isStore: Bool
  /// Whether this is the name of a definition.
  package var isDefinition = false
}

/// A store that succeeded, with the value it stored.
package struct StoredVariable: Equatable, Sendable {
  package var name: String
  package var line: Int
  package var range: Range<Int>
  package var nameRange: Range<Int>
  package var value: Value
}

extension Document {
  /// The variable token at a UTF-8 offset (containing it, else ending there), with its name.
  package func variable(atLine line: Int, utf8Offset offset: Int) -> (name: String, occurrence: VariableOccurrence)? {
    guard line >= 0, line < lineCount else { return nil }
    return withLexedLine(line) { lexed in
      guard let k = lexed.tokens.firstIndex(where: { $0.isAtCursor(offset) }) else { return nil }
      let token = lexed.tokens[k]
      let isDefinition = token.kind == .name && lexed.definitions.contains { $0.name == k }
      let isStore = token.kind == .store || isDefinition
      guard isStore || token.kind == .name else { return nil }
      let nameRange = token.nameRange
      let name = lexed.text(nameRange)
      return (
        name,
        VariableOccurrence(
          line: line, range: token.range, nameRange: nameRange, isStore: isStore, isDefinition: isDefinition)
      )
    }
  }

  /// Every store, definition and use of `name` in the document, top to bottom. Names compare
  /// byte by byte.
  package func occurrences(of name: String) -> [VariableOccurrence] {
    let target = Array(name.utf8)
    guard !target.isEmpty else { return [] }
    var result: [VariableOccurrence] = []
    for line in 0..<lineCount {
      withUTF8(ofLine: line) { bytes in
        // Most lines do not mention the name at all: look for its first byte before lexing.
        guard bytes.contains(target[0]) else { return }
        let lexed = LexedLine(bytes)
        let definitionNames = lexed.definitionNames
        for (k, token) in lexed.tokens.enumerated() {
          switch token.kind {
          case .name where lexed.spells(token.range, target):
            let isDefinition = definitionNames.contains(k)
            result.append(
              VariableOccurrence(
                line: line, range: token.range, nameRange: token.range, isStore: isDefinition,
                isDefinition: isDefinition))
          case .store where lexed.spells(token.nameRange, target):
            result.append(VariableOccurrence(line: line, range: token.range, nameRange: token.nameRange, isStore: true))
          default:
            break
          }
        }
      }
    }
    return result
  }

  /// Every store that succeeded, top to bottom, with the value it stored. Read from the lines'
  /// own bindings, without evaluating anything: a line's successful stores and definitions bound
  /// its newest bindings, in the order they are written.
  package func storedVariables() -> [StoredVariable] {
    var result: [StoredVariable] = []
    for line in 0..<lineCount where lines[line].lastTokenEnd >= 0 && storesSomething(line) {
      let failed = Set((lines[line].diagnostics >= 0 ? diagnosticLists[Int(lines[line].diagnostics)] : []).map(\.range))
      withLexedLine(line) { lexed in
        let tokens = lexed.tokens
        let inBodies = lexed.definitionTokens
        var definedNames = Set<Int>()
        for span in lexed.definitions where definitionSucceeded(span, in: lexed, line: line) {
          if let name = span.name { definedNames.insert(name) }
        }
        // The tokens that bound something, in order: stores that ran and did not fail, and the
        // names of definitions that succeeded.
        let binders = tokens.indices.filter { k in
          if definedNames.contains(k) { return true }
          return tokens[k].kind == .store && !inBodies.contains(k) && !failed.contains(tokens[k].range)
        }
        var own: [Binding] = []
        var index = lines[line].env
        let previous = line == 0 ? -1 : lines[line - 1].env
        while own.count < binders.count, index >= 0, index != previous {
          own.append(bindings[Int(index)])
          index = bindings[Int(index)].next
        }
        guard own.count == binders.count else { return }
        for (k, binding) in zip(binders, own.reversed()) where tokens[k].kind == .store {
          guard case .variable(let value) = binding.bound.bound else { continue }
          let nameRange = tokens[k].nameRange
          let name = lexed.text(nameRange)
          result.append(
            StoredVariable(name: name, line: line, range: tokens[k].range, nameRange: nameRange, value: value))
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

  /// The store or definition that gave `name` its meaning at `offset` of `line` (before the
  /// token there): its line and the range of its `=name` token or defined name. Nil when the
  /// name is not visible.
  package func storeLocation(ofVariable name: String, visibleAtLine line: Int, utf8Offset offset: Int)
    -> (line: Int, range: Range<Int>)?
  {
    bindingSite(of: name, visibleAtLine: line, utf8Offset: offset).map { ($0.line, $0.range) }
  }

  func lastSuccessfulStore(of name: String, inLine line: Int, before offset: Int) -> Range<Int>? {
    let storeText = Array(("=" + name).utf8)
    var found: Range<Int>?
    withUTF8(ofLine: line) { bytes in
      let unevaluated = unevaluatedTokenStarts(bytes)
      for trace in trace(line: line, keepingTop: 0, resolvingDiagnostics: false)
      where trace.token.kind == .store && trace.diagnostic == nil && trace.token.range.upperBound <= offset
        && bytes[trace.token.range].elementsEqual(storeText) && !unevaluated.contains(trace.token.range.lowerBound)
      {
        found = trace.token.range
      }
    }
    return found
  }

  /// Where the tokens of definitions start in a line, `:` to `;`: a store there never runs (a
  /// body cannot hold one, and an unterminated definition runs nothing), though it has no
  /// diagnostic of its own in an unterminated definition.
  func unevaluatedTokenStarts(_ bytes: UnsafeBufferPointer<UInt8>) -> Set<Int> {
    guard bytes.contains(0x3A) else { return [] }
    let lexed = LexedLine(bytes)
    return Set(lexed.definitionTokens.map { lexed.tokens[$0].range.lowerBound })
  }
}

/// What a cursor sees at a position: how deep the stack is there, and the variables and words
/// visible, by name.
package struct Scope: Sendable {
  package var depth: Int
  package var variables: [(name: String, value: Value)]
  package var words: [(name: String, effect: WordEffect)] = []
  /// The stack's depth right after the heading of the section there (0 before any heading): what
  /// `subtotal` adds up from.
  package var sectionBase = 0
  /// The top of the stack there, if any: what a unit typed there applies to.
  package var top: Value?
}

extension Document {
  /// The stack depth and the names visible at a UTF-8 offset of a line, before any token that
  /// starts there: what is bound above the line, then the line's stores and definitions that
  /// come before the offset and succeeded. Sorted by name.
  package func scope(atLine line: Int, utf8Offset offset: Int) -> Scope {
    guard lines.indices.contains(line) else { return Scope(depth: 0, variables: []) }
    var observer = StopBefore(offset)
    var machine = run(line: line, observer: &observer)
    var visible: [String: Bound] = [:]
    for (name, bound) in line == 0 ? [] : visibleBindings(from: lines[line - 1].env) { visible[name] = bound }
    // Names no text spells (a section's base) have negative IDs.
    for (id, bound) in machine.variables where id >= 0 && !names.names[Int(id)].hasPrefix("_") {
      visible[names.names[Int(id)]] = bound.bound
    }
    var scope = Scope(
      depth: machine.count, variables: [], sectionBase: machine.sectionBase(),
      top: machine.count > 0 ? machine.peek(0) : nil)
    for (name, bound) in visible.sorted(by: { $0.key < $1.key }) {
      switch bound {
      case .word(let word):
        if words.words.indices.contains(Int(word)) { scope.words.append((name, words.words[Int(word)].effect)) }
      case .variable(let value): scope.variables.append((name, value))
      case .sectionBase: break
      }
    }
    return scope
  }
}

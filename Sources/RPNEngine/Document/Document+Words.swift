// Defined words and bindings: where a name is bound (store or definition), each word's effect and body.

/// A defined word, as hover, completion and symbols show it.
package struct WordInfo: Equatable, Sendable {
  package var name: String
  package var effect: WordEffect
  /// The body as written, its tokens separated by one space.
  package var body: String
  /// How many steps a use runs, nested words expanded.
  package var cost: Int
  /// Where it is defined: the line, the range from `:` to `;`, and the name's range.
  package var line: Int
  package var definitionRange: Range<Int>
  package var nameRange: Range<Int>
}

/// Where a name got the meaning it has at some point: a store `=name` or a definition.
package struct BindingSite: Equatable, Sendable {
  package var line: Int
  /// The store's whole token (`=name`), or the defined name.
  package var range: Range<Int>
  package var isDefinition: Bool
}

extension Document {
  /// What `name` is bound to right before a UTF-8 offset of a line: a variable's value, a
  /// word's boxed ID, or nil.
  /// An offset inside a definition (after its `:`, before the end of its `;`) asks what the name
  /// meant above the definition: the body is resolved there.
  func boundValue(of name: String, atLine line: Int, utf8Offset offset: Int) -> Bound? {
    guard lines.indices.contains(line), let id = names.id(name) else { return nil }
    var offset = offset
    if lines[line].hasDefinition {
      withLexedLine(line) { lexed in
        for span in lexed.definitions {
          let start = lexed.tokens[span.colon].range.lowerBound
          let end = span.end.map { lexed.tokens[$0].range.upperBound } ?? Int.max
          if start < offset && offset < end { offset = start }
        }
      }
    }
    var observer = StopBefore(offset)
    var machine = run(line: line, observer: &observer)
    return machine.bound(of: id)
  }

  /// The word `name` names right before a UTF-8 offset of a line, or nil (a variable, or unbound).
  package func word(named name: String, atLine line: Int, utf8Offset offset: Int) -> WordInfo? {
    guard case .word(let id) = boundValue(of: name, atLine: line, utf8Offset: offset),
      let site = bindingSite(of: name, visibleAtLine: line, utf8Offset: offset), site.isDefinition
    else { return nil }
    return info(ofWord: id, name: name, definedAt: site)
  }

  /// Whether `name` names a variable right before a UTF-8 offset of a line.
  package func isVariable(_ name: String, atLine line: Int, utf8Offset offset: Int) -> Bool {
    guard case .variable = boundValue(of: name, atLine: line, utf8Offset: offset) else { return false }
    return true
  }

  /// The definition whose `:`…`;` holds a UTF-8 offset of a line (the `;` included), if any.
  package func definition(atLine line: Int, utf8Offset offset: Int) -> (span: DefinitionSpan, tokens: [Token])? {
    guard lines.indices.contains(line) else { return nil }
    return withLexedLine(line) { lexed in lexed.definition(containing: offset).map { ($0, lexed.tokens) } }
  }

  /// The word a definition on a line defines, when the definition succeeded.
  /// (`span` is one of the line's `definitions`, as `definition(atLine:utf8Offset:)` gives it.)
  package func definedWord(atLine line: Int, span: DefinitionSpan) -> WordInfo? {
    guard lines.indices.contains(line) else { return nil }
    let found = withLexedLine(line) { lexed -> (name: String, range: Range<Int>, end: Int)? in
      guard let nameIndex = span.name, let end = span.end, end < lexed.tokens.count,
        definitionSucceeded(span, in: lexed, line: line)
      else { return nil }
      let range = lexed.tokens[nameIndex].range
      return (lexed.text(range), range, lexed.tokens[end].range.upperBound)
    }
    guard let found, case .word(let id) = boundValue(of: found.name, atLine: line, utf8Offset: found.end)
    else { return nil }
    let site = BindingSite(line: line, range: found.range, isDefinition: true)
    return info(ofWord: id, name: found.name, definedAt: site)
  }

  /// The words a line's definitions defined (those that succeeded), in order, with where each
  /// definition's `;` ends: where its effect's inlay hint goes. Cheap on a line without `:`.
  package func definedWords(inLine line: Int) -> [(endOffset: Int, word: WordInfo)] {
    guard lines.indices.contains(line), lines[line].hasDefinition else { return [] }
    // One evaluation of the line says which definitions bound which word.
    var observer = NoObserver()
    let defined = run(line: line, observer: &observer).definedOnLine
    return withLexedLine(line) { lexed in
      lexed.definitions.compactMap { span in
        guard let end = span.end, let nameIndex = span.name,
          let bound = defined.first(where: { Int($0.end) == lexed.tokens[end].range.upperBound }),
          words.words.indices.contains(Int(bound.word))
        else { return nil }
        let name = lexed.text(lexed.tokens[nameIndex].range)
        let word = info(words.words[Int(bound.word)], name: name, line: line, span: span, in: lexed)
        return (lexed.tokens[end].range.upperBound, word)
      }
    }
  }

  /// Every definition that succeeded, top to bottom.
  package func definedWords() -> [WordInfo] {
    var result: [WordInfo] = []
    for line in lines.indices where lines[line].hasDefinition {
      result.append(contentsOf: definedWords(inLine: line).map(\.word))
    }
    return result
  }

  /// The store or definition that gave `name` its meaning right before a UTF-8 offset of a line.
  package func bindingSite(of name: String, visibleAtLine line: Int, utf8Offset offset: Int) -> BindingSite? {
    guard lines.indices.contains(line) else { return nil }
    if let site = lastBinding(of: name, inLine: line, before: offset) { return site }
    guard let id = names.id(name) else { return nil }
    var index = line - 1
    while index >= 0 {
      let previous = index == 0 ? -1 : lines[index - 1].env
      if binds(id, from: previous, to: lines[index].env),
        let site = lastBinding(of: name, inLine: index, before: Int.max)
      {
        return site
      }
      index -= 1
    }
    return nil
  }

  /// The last store or definition of `name` on a line that succeeded and ends at or before `offset`.
  private func lastBinding(of name: String, inLine line: Int, before offset: Int) -> BindingSite? {
    var found: BindingSite?
    if let range = lastSuccessfulStore(of: name, inLine: line, before: offset) {
      found = BindingSite(line: line, range: range, isDefinition: false)
    }
    withUTF8(ofLine: line) { bytes in
      guard bytes.contains(0x3A) else { return }
      let lexed = LexedLine(bytes)
      for span in lexed.definitions {
        guard let nameIndex = span.name, let end = span.end, lexed.tokens[end].range.upperBound <= offset,
          lexed.spells(lexed.tokens[nameIndex].range, name.utf8)
            || Self.definedUnitName(lexed.bytes, lexed.tokens[nameIndex]).map(Machine.definitionName) == name,
          definitionSucceeded(span, in: lexed, line: line)
        else { continue }
        let range = lexed.tokens[nameIndex].range
        if found.map({ $0.range.lowerBound < range.lowerBound }) ?? true {
          found = BindingSite(line: line, range: range, isDefinition: true)
        }
      }
    }
    return found
  }

  /// Whether a definition bound its word: the one rule, for the document's own lines.
  func definitionSucceeded(_ span: DefinitionSpan, in lexed: LexedLine, line: Int) -> Bool {
    let diagnostics = lines[line].diagnostics >= 0 ? diagnosticLists[Int(lines[line].diagnostics)] : []
    return Self.definitionSucceeded(span, in: lexed, diagnostics: diagnostics)
  }

  /// Whether a definition bound its word: it has a name and a `;`, and none of its tokens, `:` to
  /// `;`, has a diagnostic (a definition with any error defines nothing).
  static func definitionSucceeded(_ span: DefinitionSpan, in lexed: LexedLine, diagnostics: [Diagnostic]) -> Bool {
    guard span.end != nil, span.name != nil else { return false }
    let range = lexed.range(of: span)
    return !diagnostics.contains { range.contains($0.range.lowerBound) }
  }

  private func info(ofWord id: Int32, name: String, definedAt site: BindingSite) -> WordInfo? {
    guard words.words.indices.contains(Int(id)) else { return nil }
    return withLexedLine(site.line) { lexed -> WordInfo? in
      guard let span = lexed.definitions.first(where: { $0.name.map { lexed.tokens[$0].range } == site.range })
      else { return nil }
      return info(words.words[Int(id)], name: name, line: site.line, span: span, in: lexed)
    }
  }

  private func info(_ word: Word, name: String, line: Int, span: DefinitionSpan, in lexed: LexedLine) -> WordInfo {
    let body = span.body(tokenCount: lexed.tokens.count).map { lexed.text(lexed.tokens[$0].range) }
    return WordInfo(
      name: name, effect: word.effect, body: body.joined(separator: " "), cost: word.cost, line: line,
      definitionRange: lexed.range(of: span), nameRange: lexed.tokens[span.name ?? span.colon].range)
  }

  /// Whether the bindings between two list heads (a line's own stores and definitions) bind `name`.
  func binds(_ name: Int32, from previous: Int32, to head: Int32) -> Bool {
    var index = head
    while index != previous, index >= 0 {
      if bindings[Int(index)].name == name { return true }
      index = bindings[Int(index)].next
    }
    return false
  }

  /// The words visible after a line, with their effects, sorted by name.
  package func words(afterLine line: Int) -> [(name: String, effect: WordEffect)] {
    guard lines.indices.contains(line) else { return [] }
    return visibleBindings(from: lines[line].env).compactMap { name, bound in
      guard case .word(let id) = bound else { return nil }
      return (name, words.words[Int(id)].effect)
    }
  }

  /// Every name visible from a list head with what it is bound to, sorted by name (the names
  /// text spells: not a section's base, nor a unit's definition, `_EUR`).
  func visibleBindings(from head: Int32) -> [(name: String, bound: Bound)] {
    var seen = Set<Int32>()
    var result: [(name: String, bound: Bound)] = []
    var index = head
    // Stop once every name there is has been seen: a name bound on every line costs one step.
    let allNames = names.names.count
    while index >= 0, seen.count < allNames {
      let binding = bindings[Int(index)]
      if binding.name >= 0, seen.insert(binding.name).inserted, let bound = binding.bound.bound,
        !names.names[Int(binding.name)].hasPrefix("_")
      {
        result.append((names.names[Int(binding.name)], bound))
      }
      index = binding.next
    }
    return result.sorted { $0.name < $1.name }
  }
}

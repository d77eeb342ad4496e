// Defined words and bindings: where a name is bound (store or definition), each word's effect and body.

/// Where a definition's tokens are in its line, as indices into the line's tokens.
package struct DefinitionSpan: Equatable, Sendable {
  /// The `:`.
  package var colon: Int
  /// The token right after `:`, unless that is `;` or the line ends.
  package var name: Int?
  /// The `;`, or nil when the line has none.
  package var end: Int?

  /// The body's tokens: between the name and `;` (to the line's end when unterminated).
  package func body(tokenCount: Int) -> Range<Int> {
    let start = (name ?? colon) + 1
    return start..<max(start, end ?? tokenCount)
  }

  /// Every token index of the definition, `:` to `;`.
  package func tokens(tokenCount: Int) -> Range<Int> { colon..<((end ?? (tokenCount - 1)) + 1) }
}

extension Lexer {
  /// The definitions of a line: each `:` and the tokens up to the next `;` (a `:` before it is
  /// part of the body, as evaluation reads it).
  package static func definitions(in tokens: [Token]) -> [DefinitionSpan] {
    var spans: [DefinitionSpan] = []
    var k = 0
    while k < tokens.count {
      guard tokens[k].kind == .colon else {
        k += 1
        continue
      }
      var span = DefinitionSpan(colon: k, name: nil, end: nil)
      if k + 1 < tokens.count, tokens[k + 1].kind != .semicolon { span.name = k + 1 }
      var j = k + 1
      while j < tokens.count, tokens[j].kind != .semicolon { j += 1 }
      span.end = j < tokens.count ? j : nil
      spans.append(span)
      k = j + 1
    }
    return spans
  }

  /// The indices of the tokens that definitions name (the token right after each `:` that starts
  /// a definition, not one inside a body).
  package static func definitionNames(in tokens: [Token]) -> Set<Int> {
    Set(definitions(in: tokens).compactMap(\.name))
  }

  /// The token indices of definitions, `:` to `;`: tokens that are never evaluated where they
  /// stand (a store in a body, or in the name's place, stores nothing).
  package static func definitionBodies(in tokens: [Token]) -> Set<Int> {
    var inside = Set<Int>()
    for span in definitions(in: tokens) {
      inside.formUnion(span.tokens(tokenCount: tokens.count))
    }
    return inside
  }
}

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
      let tokens = withUTF8(ofLine: line) { Lexer.tokens(of: $0).tokens }
      for span in Lexer.definitions(in: tokens) {
        let start = tokens[span.colon].range.lowerBound
        let end = span.end.map { tokens[$0].range.upperBound } ?? Int.max
        if start < offset && offset < end { offset = start }
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
    let tokens = withUTF8(ofLine: line) { Lexer.tokens(of: $0).tokens }
    for span in Lexer.definitions(in: tokens) {
      let range = span.tokens(tokenCount: tokens.count)
      if tokens[range.lowerBound].range.lowerBound <= offset && offset <= tokens[range.upperBound - 1].range.upperBound
      {
        return (span, tokens)
      }
    }
    return nil
  }

  /// The word a definition on a line defines, when the definition succeeded.
  package func definedWord(atLine line: Int, span: DefinitionSpan, tokens: [Token]) -> WordInfo? {
    guard let nameIndex = span.name, let end = span.end, definitionSucceeded(span, tokens: tokens, line: line) else {
      return nil
    }
    let name = withUTF8(ofLine: line) {
      String(decoding: UnsafeBufferPointer(rebasing: $0[tokens[nameIndex].range]), as: UTF8.self)
    }
    guard case .word(let id) = boundValue(of: name, atLine: line, utf8Offset: tokens[end].range.upperBound)
    else { return nil }
    let site = BindingSite(line: line, range: tokens[nameIndex].range, isDefinition: true)
    return info(ofWord: id, name: name, definedAt: site)
  }

  /// The words a line's definitions defined (those that succeeded), in order, with where each
  /// definition's `;` ends: where its effect's inlay hint goes. Cheap on a line without `:`.
  package func definedWords(inLine line: Int) -> [(endOffset: Int, word: WordInfo)] {
    guard lines.indices.contains(line), lines[line].hasDefinition else { return [] }
    // One evaluation of the line says which definitions bound which word.
    var observer = NoObserver()
    let defined = run(line: line, observer: &observer).definedOnLine
    return withUTF8(ofLine: line) { bytes in
      let tokens = Lexer.tokens(of: bytes).tokens
      return Lexer.definitions(in: tokens).compactMap { span in
        guard let end = span.end, let nameIndex = span.name,
          let bound = defined.first(where: { Int($0.end) == tokens[end].range.upperBound }),
          words.words.indices.contains(Int(bound.word))
        else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[tokens[nameIndex].range]), as: UTF8.self)
        let word = info(words.words[Int(bound.word)], name: name, line: line, span: span, tokens: tokens, bytes: bytes)
        return (tokens[end].range.upperBound, word)
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
      let tokens = Lexer.tokens(of: bytes).tokens
      for span in Lexer.definitions(in: tokens) {
        guard let nameIndex = span.name, let end = span.end, tokens[end].range.upperBound <= offset,
          bytes[tokens[nameIndex].range].elementsEqual(name.utf8), definitionSucceeded(span, tokens: tokens, line: line)
        else { continue }
        let range = tokens[nameIndex].range
        if found.map({ $0.range.lowerBound < range.lowerBound }) ?? true {
          found = BindingSite(line: line, range: range, isDefinition: true)
        }
      }
    }
    return found
  }

  /// Whether a definition bound its word: none of its tokens has a diagnostic.
  func definitionSucceeded(_ span: DefinitionSpan, tokens: [Token], line: Int) -> Bool {
    guard span.end != nil, span.name != nil, lines[line].diagnostics >= 0 else {
      return span.end != nil && span.name != nil
    }
    let indices = span.tokens(tokenCount: tokens.count)
    let range = tokens[indices.lowerBound].range.lowerBound..<tokens[indices.upperBound - 1].range.upperBound
    return !diagnosticLists[Int(lines[line].diagnostics)].contains { range.contains($0.range.lowerBound) }
  }

  private func info(ofWord id: Int32, name: String, definedAt site: BindingSite) -> WordInfo? {
    guard words.words.indices.contains(Int(id)) else { return nil }
    return withUTF8(ofLine: site.line) { bytes -> WordInfo? in
      let tokens = Lexer.tokens(of: bytes).tokens
      guard let span = Lexer.definitions(in: tokens).first(where: { $0.name.map { tokens[$0].range } == site.range })
      else { return nil }
      return info(words.words[Int(id)], name: name, line: site.line, span: span, tokens: tokens, bytes: bytes)
    }
  }

  private func info(
    _ word: Word, name: String, line: Int, span: DefinitionSpan, tokens: [Token], bytes: UnsafeBufferPointer<UInt8>
  ) -> WordInfo {
    let body = span.body(tokenCount: tokens.count).map {
      String(decoding: UnsafeBufferPointer(rebasing: bytes[tokens[$0].range]), as: UTF8.self)
    }
    let end = tokens[span.end ?? (tokens.count - 1)].range.upperBound
    let nameRange = tokens[span.name ?? span.colon].range
    return WordInfo(
      name: name, effect: word.effect, body: body.joined(separator: " "), cost: word.cost, line: line,
      definitionRange: tokens[span.colon].range.lowerBound..<end, nameRange: nameRange)
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
  /// text spells: not a section's base).
  func visibleBindings(from head: Int32) -> [(name: String, bound: Bound)] {
    var seen = Set<Int32>()
    var result: [(name: String, bound: Bound)] = []
    var index = head
    // Stop once every name there is has been seen: a name bound on every line costs one step.
    let allNames = names.names.count
    while index >= 0, seen.count < allNames {
      let binding = bindings[Int(index)]
      if binding.name >= 0, seen.insert(binding.name).inserted, let bound = binding.bound.bound {
        result.append((names.names[Int(binding.name)], bound))
      }
      index = binding.next
    }
    return result.sorted { $0.name < $1.name }
  }
}

// Messages that need other lines, filled in when read: bound later, broken above, where a step failed.

extension Document {
  /// Fills in what a diagnostic's message needs from other lines, when read: where an unknown
  /// word is bound further down or was defined in error above, and on which line a failing
  /// word's step is defined.
  func resolve(_ diagnostic: Diagnostic, line: Int) -> Diagnostic {
    var diagnostic = diagnostic
    switch diagnostic.problem {
    case .unknownWord(let word, _, _):
      if let broken = brokenDefinition(of: word, above: line, before: diagnostic.range.lowerBound) {
        diagnostic.problem = .brokenDefinition(word: word, line: broken)
        return diagnostic
      }
      return resolveStoredLater(diagnostic, line: line)
    case .wordFailed(let word, let path, _, let inner):
      var site = bindingSite(of: word, visibleAtLine: line, utf8Offset: diagnostic.range.lowerBound)
      for name in path.dropFirst() {
        guard let outer = site, let colon = definition(atLine: outer.line, utf8Offset: outer.range.lowerBound) else {
          site = nil
          break
        }
        let start = colon.tokens[colon.span.colon].range.lowerBound
        site = bindingSite(of: name, visibleAtLine: outer.line, utf8Offset: start)
      }
      diagnostic.problem = .wordFailed(word: word, path: path, line: site?.line, inner: inner)
      return diagnostic
    default:
      return diagnostic
    }
  }

  /// The nearest definition of `name` above a point (on the line before `offset`, or on a line
  /// above) that failed. Only asked when `name` is unbound there, so no binding lies between.
  private func brokenDefinition(of name: String, above line: Int, before offset: Int) -> Int? {
    if brokenDefinitionLines == nil { brokenDefinitionLines = findBrokenDefinitionLines() }
    guard let candidates = brokenDefinitionLines, !candidates.isEmpty else { return nil }
    // The last candidate at or above `line`.
    var low = 0
    var high = candidates.count
    while low < high {
      let mid = (low + high) / 2
      if candidates[mid] <= line { low = mid + 1 } else { high = mid }
    }
    for index in candidates[..<low].reversed() {
      let limit = index == line ? offset : Int.max
      let found = withLexedLine(index) { lexed in
        lexed.definitions.contains { span in
          guard let nameIndex = span.name, lexed.tokens[span.colon].range.upperBound <= limit else { return false }
          return lexed.spells(lexed.tokens[nameIndex].range, name.utf8)
            && !definitionSucceeded(span, in: lexed, line: index)
        }
      }
      if found { return index }
    }
    return nil
  }

  /// The lines holding a definition that failed, top to bottom.
  private func findBrokenDefinitionLines() -> [Int] {
    lines.indices.filter { line in
      guard lines[line].diagnostics >= 0 else { return false }
      return withUTF8(ofLine: line) { bytes in
        guard bytes.contains(0x3A) else { return false }
        let lexed = LexedLine(bytes)
        return lexed.definitions.contains { !definitionSucceeded($0, in: lexed, line: line) }
      }
    }
  }

  /// Fills in where an unknown word is stored or defined further down, if it is: that depends on
  /// the lines below, which the evaluation of this line cannot see, so it is looked up when read.
  func resolveStoredLater(_ diagnostic: Diagnostic, line: Int) -> Diagnostic {
    guard case .unknownWord(let word, let suggestions, _) = diagnostic.problem, let name = names.id(word) else {
      return diagnostic
    }
    var diagnostic = diagnostic
    if let later = firstBinding(of: name, word: word, after: diagnostic.range.upperBound, inLine: line) {
      diagnostic.problem =
        later.isWord
        ? .definedLater(word: word, line: later.line)
        : .unknownWord(word: word, suggestions: suggestions, storedLaterOnLine: later.line)
    }
    return diagnostic
  }

  /// The first line at or below `line` (past `offset` on `line` itself) with a store or definition
  /// of `name` that succeeded, and whether it bound a word.
  private func firstBinding(of name: Int32, word: String, after offset: Int, inLine line: Int) -> (
    line: Int, isWord: Bool
  )? {
    let sameLine = withLexedLine(line) { lexed in
      let definitionNames = lexed.definitionNames
      return lexed.tokens.indices.contains { k in
        let token = lexed.tokens[k]
        guard token.range.lowerBound >= offset else { return false }
        if token.kind == .store { return lexed.spells(token.nameRange, word.utf8) }
        return definitionNames.contains(k) && lexed.spells(token.range, word.utf8)
      }
    }
    if sameLine, let isWord = binding(of: name, from: line == 0 ? -1 : lines[line - 1].env, to: lines[line].env) {
      return (line, isWord)
    }
    var index = line + 1
    while index < lines.count {
      if let isWord = binding(of: name, from: lines[index - 1].env, to: lines[index].env) { return (index, isWord) }
      index += 1
    }
    return nil
  }

  /// Whether the bindings between two list heads (a line's own) bind `name`: nil when not,
  /// else whether its last binding there is a word.
  private func binding(of name: Int32, from previous: Int32, to head: Int32) -> Bool? {
    var index = head
    while index != previous, index >= 0 {
      if bindings[Int(index)].name == name { return bindings[Int(index)].bound.word != nil }
      index = bindings[Int(index)].next
    }
    return nil
  }
}

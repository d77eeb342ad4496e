// What a name means at a point: the binding in effect and the word it names, as evaluation tells it.

extension Document {
  /// The store or definition that gave `name` its meaning right before a UTF-8 offset of a line:
  /// `bindingSite`, past the stores that never ran.
  ///
  /// A definition without `;` is not evaluated past its `:`, so a store in its body has no
  /// diagnostic, and `bindingSite` takes it for a store that succeeded. It bound nothing: the
  /// binding in effect is the one in effect before it.
  package func bindingInEffect(of name: String, atLine line: Int, utf8Offset offset: Int) -> BindingSite? {
    var site = bindingSite(of: name, visibleAtLine: line, utf8Offset: offset)
    while let found = site, !found.isDefinition,
      definition(atLine: found.line, utf8Offset: found.range.lowerBound) != nil
    {
      site = bindingSite(of: name, visibleAtLine: found.line, utf8Offset: found.range.lowerBound)
    }
    return site
  }

  /// The word `name` names right before a UTF-8 offset of a line, or nil (a variable, or
  /// unbound): `word(named:…)`, and, where a store that never ran hides the
  /// definition from it (see `bindingInEffect`), that definition's word.
  ///
  /// The offset must not be inside a definition's body: `word(named:…)`, asked there, sees the word
  /// that the definition is defining already bound. A body's names are asked at its `:`.
  package func word(meantBy name: String, atLine line: Int, utf8Offset offset: Int) -> WordInfo? {
    if let word = word(named: name, atLine: line, utf8Offset: offset) { return word }
    guard !isVariable(name, atLine: line, utf8Offset: offset),
      let site = bindingInEffect(of: name, atLine: line, utf8Offset: offset), site.isDefinition,
      let (span, _) = definition(atLine: site.line, utf8Offset: site.range.lowerBound)
    else { return nil }
    return definedWord(atLine: site.line, span: span)
  }
}

extension Document {
  /// The name token at a UTF-8 offset (a store, a definition's name or a use):
  /// `variable(atLine:utf8Offset:)`, with definitions' names told as evaluation tells them.
  package func nameOccurrence(atLine line: Int, utf8Offset offset: Int) -> (
    name: String, occurrence: VariableOccurrence
  )? {
    variable(atLine: line, utf8Offset: offset).map { ($0.name, told($0.occurrence)) }
  }

  /// Every store, definition and use of `name`: `occurrences(of:)`, with
  /// definitions' names told as evaluation tells them.
  package func nameOccurrences(of name: String) -> [VariableOccurrence] {
    occurrences(of: name).map(told)
  }

  /// An occurrence that `occurrences` calls a definition's name because a `:` comes before it, told
  /// again: evaluation takes the token right after a definition's `:` for its name, whatever it
  /// is, so in `: : a ;` the name is the second `:` (invalid) and `a` is a use in the body.
  private func told(_ occurrence: VariableOccurrence) -> VariableOccurrence {
    guard occurrence.isDefinition else { return occurrence }
    if let (span, tokens) = definition(atLine: occurrence.line, utf8Offset: occurrence.range.lowerBound),
      let name = span.name, tokens[name].range == occurrence.range
    {
      return occurrence
    }
    var use = occurrence
    use.isStore = false
    use.isDefinition = false
    return use
  }
}

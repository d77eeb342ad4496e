// Names: the bindings a line looks up and makes, section bases, and unknown words' suggestions.

extension Machine {
  /// Marks a name with no binding in the cache: a NaN no variable or word can hold.
  static let unbound = Double.nan

  /// The value bound to a name (a variable's value, or a word's boxed ID): from the cache, else
  /// the newest binding of it in the list. Misses are cached too. Restarting costs nothing this
  /// way, however many bindings lie above.
  @inline(__always)
  mutating func value(of name: Int32) -> Double? {
    if let cached = variables[name] { return cached.bitPattern == Self.unbound.bitPattern ? nil : cached }
    var index = name > highestBound ? -1 : envHead
    while index >= 0 {
      let binding = bindings[Int(index)]
      if binding.name == name {
        variables[name] = binding.value
        return binding.value
      }
      index = binding.next
    }
    variables[name] = Self.unbound
    return nil
  }

  /// The names of every visible variable and word, indexed for suggestions: made once after a
  /// restart, then kept up to date by each store, so that unknown words between stores do not
  /// walk the list of bindings again.
  mutating func visibleNames() -> NameIndex {
    if let cached = visibleNamesCache { return cached }
    let index = NameIndex(collectVisibleNames())
    visibleNamesCache = index
    return index
  }

  private mutating func collectVisibleNames() -> [VisibleName] {
    var visible = Set<Int32>()
    var index = envHead
    while index >= 0 {
      visible.insert(bindings[Int(index)].name)
      index = bindings[Int(index)].next
    }
    for (name, value) in variables {
      if value.bitPattern == Self.unbound.bitPattern { visible.remove(name) } else { visible.insert(name) }
    }
    return visible.compactMap { id in
      guard id >= 0, names.names[Int(id)] != Self.sectionBaseName, let value = value(of: id) else { return nil }
      return VisibleName(names.names[Int(id)], isWord: Binding.word(in: value) != nil)
    }
  }

  mutating func store(_ newValue: Double, in name: Int32) {
    if recording {
      let mapHash = envHead < 0 ? 0 : bindings[Int(envHead)].mapHash
      let old = value(of: name).map { bindingHash(name: name, value: $0) } ?? 0
      let hash = mapHash &- old &+ bindingHash(name: name, value: newValue)
      bindings.append(Binding(value: newValue, mapHash: hash, name: name, next: envHead))
      highestBound = max(highestBound, name)
      envHead = Int32(bindings.count - 1)
    }
    variables[name] = newValue
    if visibleNamesCache != nil {
      if name >= 0, names.names[Int(name)] != Self.sectionBaseName {
        visibleNamesCache?.insert(names.names[Int(name)], isWord: Binding.word(in: newValue) != nil)
      }
      // Suggestions are remembered for the names visible: these changed.
      if !suggestions.isEmpty { suggestions.removeAll(keepingCapacity: true) }
    }
  }

  // MARK: Sections

  /// The name under which a heading binds its section's base: not a valid name, so no store or
  /// use can meet it, and the base is part of the state that convergence compares.
  static let sectionBaseName = "#section"

  /// Starts a section at a heading: its base is the stack's depth here.
  mutating func startSection() {
    let name =
      recording ? names.intern(Self.sectionBaseName) : (names.id(Self.sectionBaseName) ?? -1)
    store(Double(count), in: name)
  }

  /// The stack depth right after the current section's heading; 0 before any heading. A
  /// document without headings has no such name, and nothing to look up: looking up a name bound
  /// nowhere walks every binding above (in a tape that stores on every block, a completion in
  /// the middle of a million lines walked 50,000).
  mutating func sectionBase() -> Int {
    guard let id = names.id(Self.sectionBaseName) else { return 0 }
    return value(of: id).map { Int($0) } ?? 0
  }

  /// An unknown word's problem, with its suggestions. They are remembered until the names
  /// visible change (a tape repeating one unknown word computes them once), for at most 1,024
  /// words, apart for each depth up to `Suggestions.deepestReading` (another calculator's
  /// operator is a reading only where the stack holds its operands).
  mutating func unknownWord(_ word: String) -> Problem {
    if visibleNamesCache == nil { suggestions.removeAll(keepingCapacity: true) }
    let depth = min(count, Suggestions.deepestReading)
    let key = depth == Suggestions.deepestReading ? word : word + "\u{0}\(depth)"
    let found: [Suggestion]
    if let known = suggestions[key] {
      found = known
    } else {
      found = Suggestions.suggest(for: word, visibleNames: visibleNames(), depth: depth)
      if suggestions.count >= 1_024 { suggestions.removeAll(keepingCapacity: true) }
      suggestions[key] = found
    }
    return .unknownWord(word: word, suggestions: found, storedLaterOnLine: nil)
  }
}

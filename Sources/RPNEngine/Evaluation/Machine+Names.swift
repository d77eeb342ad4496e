// Names: the bindings a line looks up and makes, section bases, and unknown words' suggestions.

extension Machine {
  /// What a name is bound to (a variable's value, a word): from the cache, else the newest
  /// binding of it in the list. Misses are cached too. Restarting costs nothing this way,
  /// however many bindings lie above.
  @inline(__always)
  mutating func bound(of name: Int32) -> Bound? {
    packedBound(of: name).bound
  }

  @inline(__always)
  private mutating func packedBound(of name: Int32) -> PackedBound {
    if let cached = variables[name] { return cached }
    var index = name > highestBound ? -1 : envHead
    while index >= 0 {
      let binding = bindings[Int(index)]
      if binding.name == name {
        variables[name] = binding.bound
        return binding.bound
      }
      index = binding.next
    }
    variables[name] = .unbound
    return .unbound
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
    for (name, bound) in variables {
      if bound == .unbound { visible.remove(name) } else { visible.insert(name) }
    }
    // Names no text spells (a section's base) have negative IDs.
    return visible.compactMap { id in
      guard id >= 0, !names.names[Int(id)].hasPrefix("_"), let bound = bound(of: id) else { return nil }
      return VisibleName(names.names[Int(id)], isWord: bound.isWord)
    }
  }

  mutating func store(_ bound: Bound, in name: Int32) {
    let packed = PackedBound(bound)
    if recording {
      let mapHash = envHead < 0 ? 0 : bindings[Int(envHead)].mapHash
      let old = packedBound(of: name)
      let hash =
        mapHash &- (old == .unbound ? 0 : bindingHash(name: name, bound: old))
        &+ bindingHash(name: name, bound: packed)
      bindings.append(Binding(bound: packed, mapHash: hash, name: name, next: envHead))
      highestBound = max(highestBound, name)
      envHead = Int32(bindings.count - 1)
    }
    variables[name] = packed
    if visibleNamesCache != nil {
      if name >= 0, !names.names[Int(name)].hasPrefix("_") {
        visibleNamesCache?.insert(names.names[Int(name)], isWord: bound.isWord)
      }
      // Suggestions are remembered for the names visible: these changed.
      if !suggestions.isEmpty { suggestions.removeAll(keepingCapacity: true) }
    }
  }

  // MARK: Sections

  /// Starts a section at a heading: its base is the stack's depth here, bound under a name no
  /// text spells, so that the base is part of the state that convergence compares.
  mutating func startSection() {
    if recording { names.noteSectionBase() }
    store(.sectionBase(count), in: NameTable.sectionBase)
  }

  /// The stack depth right after the current section's heading; 0 before any heading. A
  /// document without headings has no such binding, and nothing to look up: looking up a name
  /// bound nowhere walks every binding above (in a tape that stores on every block, a completion
  /// in the middle of a million lines walked 50,000).
  mutating func sectionBase() -> Int {
    guard names.hasSectionBase, case .sectionBase(let depth) = bound(of: NameTable.sectionBase) else { return 0 }
    return depth
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

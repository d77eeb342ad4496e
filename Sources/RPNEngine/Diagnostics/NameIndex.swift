// The index of visible names that suggestions look close spellings up in.

/// The names visible where an unknown word stands, indexed so that a suggestion costs the same
/// under five names or fifty thousand: by name (is it visible, a word or a value), and by every
/// spelling of each with up to two characters deleted. Two spellings within two edits (optimal
/// string alignment) share such a spelling: a replaced or a swapped character is deleted from
/// both, an added one from the longer. Names are added as stores bind them.
package struct NameIndex {
  private var names: [String] = []
  private var words: [Bool] = []
  private var byName: [String: Int32] = [:]
  /// A deleted spelling's hash → the first of its entries; `entries` chains the rest.
  private var heads = HashedHeads()
  private var entries: [(name: Int32, next: Int32)] = []

  package init() {}

  package init(_ visible: [VisibleName]) {
    for name in visible { insert(name.name, isWord: name.isWord) }
  }

  package var count: Int { names.count }

  /// Whether `name` is visible as a word (true) or a value (false); nil when not visible.
  package func isWord(_ name: String) -> Bool? { byName[name].map { words[Int($0)] } }

  /// Adds a visible name, or notes that it now names a word or a value.
  package mutating func insert(_ name: String, isWord: Bool) {
    if let id = byName[name] {
      words[Int(id)] = isWord
      return
    }
    let id = Int32(names.count)
    names.append(name)
    words.append(isWord)
    byName[name] = id
    let scalars = Array(name.unicodeScalars)
    // No word longer than this is given close words, and none is within two edits of a longer name.
    guard scalars.count <= Suggestions.maximumWordLength + 2 else { return }
    Self.forEachDeletion(of: scalars, upTo: 2) { hash in
      entries.append((id, heads[hash]))
      heads[hash] = Int32(entries.count - 1)
    }
  }

  /// The visible names that may be within `limit` (at most 2) edits of `word`: each shares a
  /// spelling with it, up to `limit` characters deleted from the word and 2 from the name.
  package func candidates(near word: [Unicode.Scalar], limit: Int) -> [String] {
    var found: [Int32] = []
    Self.forEachDeletion(of: word, upTo: limit) { hash in
      var entry = heads[hash]
      while entry >= 0 {
        found.append(entries[Int(entry)].name)
        entry = entries[Int(entry)].next
      }
    }
    guard found.count > 1 else { return found.map { names[Int($0)] } }
    found.sort()
    var unique: [String] = []
    for (k, id) in found.enumerated() where k == 0 || found[k - 1] != id { unique.append(names[Int(id)]) }
    return unique
  }

  /// Calls `body` with the hash of `scalars` with each choice of up to `most` (0, 1 or 2)
  /// positions deleted, in constant time each: polynomial hashes of the prefixes put the kept
  /// pieces together.
  private static func forEachDeletion(of scalars: [Unicode.Scalar], upTo most: Int, _ body: (UInt64) -> Void) {
    let n = scalars.count
    let base: UInt64 = 0x100_0000_01B3
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * (n + 1)) { buffer in
      let prefix = UnsafeMutableBufferPointer(rebasing: buffer[0...n])
      let power = UnsafeMutableBufferPointer(rebasing: buffer[(n + 1)...])
      prefix[0] = 0
      power[0] = 1
      for k in 0..<n {
        prefix[k + 1] = prefix[k] &* base &+ UInt64(scalars[k].value) &+ 1
        power[k + 1] = power[k] &* base
      }
      forEachDeletion(n: n, prefix: UnsafeBufferPointer(prefix), power: UnsafeBufferPointer(power), upTo: most, body)
    }
  }

  private static func forEachDeletion(
    n: Int, prefix: UnsafeBufferPointer<UInt64>, power: UnsafeBufferPointer<UInt64>, upTo most: Int,
    _ body: (UInt64) -> Void
  ) {
    // The hash of scalars[a..<b].
    func piece(_ a: Int, _ b: Int) -> UInt64 { prefix[b] &- prefix[a] &* power[b - a] }
    func finish(_ hash: UInt64, length: Int) -> UInt64 { mix(hash ^ mix(UInt64(length))) }
    body(finish(prefix[n], length: n))
    guard most >= 1 else { return }
    for i in 0..<n {
      body(finish(prefix[i] &* power[n - i - 1] &+ piece(i + 1, n), length: n - 1))
    }
    guard most >= 2 else { return }
    for i in 0..<n {
      for j in (i + 1)..<n {
        let middle = prefix[i] &* power[j - i - 1] &+ piece(i + 1, j)
        body(finish(middle &* power[n - j - 1] &+ piece(j + 1, n), length: n - 2))
      }
    }
  }
}

/// The heads of `NameIndex`'s chains by hash: open addressing over the hashes themselves, which
/// are mixed already (a `Dictionary` would hash them again, most of a suggestion's cost).
private struct HashedHeads {
  private var keys: [UInt64] = []
  /// -1 marks an empty slot.
  private var values: [Int32] = []
  private var count = 0

  /// The head for `hash`, or -1.
  subscript(hash: UInt64) -> Int32 {
    get {
      guard !keys.isEmpty else { return -1 }
      let mask = keys.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while values[slot] >= 0 {
        if keys[slot] == hash { return values[slot] }
        slot = (slot + 1) & mask
      }
      return -1
    }
    set {
      if (count + 1) * 2 > keys.count { grow() }
      let mask = keys.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while values[slot] >= 0 && keys[slot] != hash { slot = (slot + 1) & mask }
      if values[slot] < 0 { count += 1 }
      keys[slot] = hash
      values[slot] = newValue
    }
  }

  private mutating func grow() {
    let old = (keys, values)
    let capacity = max(64, keys.count * 2)
    keys = [UInt64](repeating: 0, count: capacity)
    values = [Int32](repeating: -1, count: capacity)
    count = 0
    for (key, value) in zip(old.0, old.1) where value >= 0 { self[key] = value }
  }
}

// Garbage collection of the arenas: stack nodes, bindings, words and replaced text no line refers to.

extension Document {
  /// Drops stack nodes, stores and text that no line refers to any more, once they are at least
  /// half of what is held (plus a little slack, so small documents do not collect on every
  /// keystroke). Indices keep their order, so `next` still points below. Each collection costs
  /// what is live, and happens only after as much garbage: amortized O(1) per edit.
  func collectGarbageIfNeeded() {
    if nodes.count > max(2 * nodesAfterCollection, 1 << 12) {
      Self.collect(&nodes, reachedFrom: &lines, head: \.stack)
      nodesAfterCollection = nodes.count
    }
    if bindings.count > max(2 * bindingsAfterCollection, 1 << 10) {
      Self.collect(&bindings, reachedFrom: &lines, head: \.env)
      bindingsAfterCollection = bindings.count
    }
    if words.count > max(2 * wordsAfterCollection, 1 << 8) {
      // Every binding still held keeps its word (and the words that word calls).
      var live = [Bool](repeating: false, count: words.count)
      for binding in bindings { if let word = binding.bound.word { live[Int(word)] = true } }
      let remap = words.compact(live: live)
      for index in bindings.indices {
        if let word = bindings[index].bound.word {
          bindings[index].bound = PackedBound(.word(remap[Int(word)]))
        }
      }
      wordsAfterCollection = words.count
    }
  }

  /// Keeps the elements of `arena` that some line's list reaches (from the line's `head`, down
  /// `next`), in their order, and points the lines and the kept elements at their new indices.
  /// Stack nodes and stores are collected alike. Always inlined, so that each caller's `head`
  /// is a plain field access in the loops over every line, not a key path looked up per line.
  @inline(__always)
  private static func collect<Element: ArenaLinked>(
    _ arena: inout ContiguousArray<Element>, reachedFrom lines: inout ContiguousArray<LineRecord>,
    head: WritableKeyPath<LineRecord, Int32>
  ) {
    var live = [Bool](repeating: false, count: arena.count)
    for record in lines {
      var index = record[keyPath: head]
      while index >= 0, !live[Int(index)] {
        live[Int(index)] = true
        index = arena[Int(index)].next
      }
    }
    var remap = [Int32](repeating: -1, count: arena.count)
    var kept = 0
    for index in arena.indices where live[index] {
      var element = arena[index]
      // Everything below a live element is live and comes before it, so it is remapped already.
      element.next = element.next < 0 ? -1 : remap[Int(element.next)]
      arena[kept] = element
      remap[index] = Int32(kept)
      kept += 1
    }
    arena.removeLast(arena.count - kept)
    for index in lines.indices where lines[index][keyPath: head] >= 0 {
      lines[index][keyPath: head] = remap[Int(lines[index][keyPath: head])]
    }
  }

  func compactStorage() {
    var compacted: [UInt8] = []
    compacted.reserveCapacity(liveTextBytes + liveTextBytes / 2)
    for index in lines.indices {
      let start = UInt32(compacted.count)
      withUTF8(ofLine: index) { compacted.append(contentsOf: $0) }
      lines[index].start = start
    }
    storage = compacted
  }
}

/// An element of an arena of persistent lists: it points at the element below it (or -1).
protocol ArenaLinked {
  var next: Int32 { get set }
}

extension StackNode: ArenaLinked {}
extension Binding: ArenaLinked {}

// Garbage collection of the arenas: stack nodes, bindings, words and replaced text no line refers to.

extension Document {
  /// Drops stack nodes, stores and text that no line refers to any more, once they are at least
  /// half of what is held (plus a little slack, so small documents do not collect on every
  /// keystroke). Indices keep their order, so `next` still points below. Each collection costs
  /// what is live, and happens only after as much garbage: amortized O(1) per edit.
  func collectGarbageIfNeeded() {
    if nodes.count > max(2 * nodesAfterCollection, 1 << 12) {
      var live = [Bool](repeating: false, count: nodes.count)
      for record in lines {
        var index = record.stack
        while index >= 0, !live[Int(index)] {
          live[Int(index)] = true
          index = nodes[Int(index)].next
        }
      }
      let remap = Self.compact(&nodes, live: live) { node, remap in
        node.next = node.next < 0 ? -1 : remap[Int(node.next)]
      }
      for index in lines.indices where lines[index].stack >= 0 { lines[index].stack = remap[Int(lines[index].stack)] }
      nodesAfterCollection = nodes.count
    }
    if bindings.count > max(2 * bindingsAfterCollection, 1 << 10) {
      var live = [Bool](repeating: false, count: bindings.count)
      for record in lines {
        var index = record.env
        while index >= 0, !live[Int(index)] {
          live[Int(index)] = true
          index = bindings[Int(index)].next
        }
      }
      let remap = Self.compact(&bindings, live: live) { binding, remap in
        binding.next = binding.next < 0 ? -1 : remap[Int(binding.next)]
      }
      for index in lines.indices where lines[index].env >= 0 { lines[index].env = remap[Int(lines[index].env)] }
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

  private static func compact<Element>(
    _ elements: inout ContiguousArray<Element>, live: [Bool], relink: (inout Element, [Int32]) -> Void
  ) -> [Int32] {
    var remap = [Int32](repeating: -1, count: elements.count)
    var kept = 0
    for index in elements.indices where live[index] {
      var element = elements[index]
      relink(&element, remap)
      elements[kept] = element
      remap[index] = Int32(kept)
      kept += 1
    }
    elements.removeLast(elements.count - kept)
    return remap
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

// Evaluation: running lines from an edit down until the state settles, and comparing states.

extension Document {
  /// Evaluates lines from `first`: always up to `mandatoryEnd`, then on until a line's new state
  /// equals its old one. Returns the end of the evaluated range.
  ///
  /// `settlingAt` is the state the line before `mandatoryEnd` had before an edit replaced the
  /// lines in between: reaching it again there means nothing below changes.
  @discardableResult
  func evaluate(from first: Int, through mandatoryEnd: Int, settlingAt settling: LineState? = nil) -> Int {
    brokenDefinitionLines = nil
    var machine = Machine(nodes: nodes, bindings: bindings, names: names, words: words, settings: settings)
    nodes = []
    bindings = []
    names = NameTable()
    words = WordTable()
    var records = lines
    lines = []
    var lists = diagnosticLists
    diagnosticLists = []
    defer {
      nodes = machine.nodes
      bindings = machine.bindings
      names = machine.names
      words = machine.words
      wordStepsRun += machine.wordSteps
      lines = records
      diagnosticLists = lists
    }
    let start = first == 0 ? nil : LineState(records[first - 1])
    machine.restart(stack: start?.stack ?? -1, env: start?.env ?? -1, lastX: start?.lastX ?? .nan)
    var noObserver = NoObserver()
    var index = first
    if first == mandatoryEnd, let settling, Self.statesEqual(machine, settling) {
      return first  // Whole lines were deleted, and the state after them was the state before.
    }
    storage.withUnsafeBufferPointer { text in
      records.withUnsafeMutableBufferPointer { records in
        while index < records.count {
          let old = records[index]
          let bytes = UnsafeBufferPointer(rebasing: text[Int(old.start)..<Int(old.start) + Int(old.length)])
          let lastTokenEnd = machine.evaluateLine(bytes, observer: &noObserver)
          records[index].stack = machine.base
          records[index].env = machine.envHead
          records[index].lastX = machine.lastX
          records[index].reach = machine.reach
          records[index].lastTokenEnd = lastTokenEnd
          records[index].hasCheck = machine.lineHasCheck
          records[index].hasDefinition = machine.lineHasDefinition
          records[index].isHeading = machine.lineIsHeading
          if !machine.diagnostics.isEmpty {
            if old.diagnostics >= 0 {
              lists[Int(old.diagnostics)] = machine.diagnostics
            } else if let slot = freeDiagnosticSlots.popLast() {
              lists[Int(slot)] = machine.diagnostics
              records[index].diagnostics = slot
            } else {
              records[index].diagnostics = Int32(lists.count)
              lists.append(machine.diagnostics)
            }
            machine.diagnostics = []
          } else if old.diagnostics >= 0 {
            lists[Int(old.diagnostics)] = []
            freeDiagnosticSlots.append(old.diagnostics)
            records[index].diagnostics = -1
          }
          index += 1
          let settled = index > mandatoryEnd ? LineState(old) : index == mandatoryEnd ? settling : nil
          if let settled, settled.stack != LineRecord.notEvaluated, Self.statesEqual(machine, settled) { break }
        }
      }
    }
    return index
  }

  func freeDiagnosticSlot(_ slot: Int32) {
    diagnosticLists[Int(slot)] = []
    freeDiagnosticSlots.append(slot)
  }

  /// Whether the machine's state is the old state after a line: the same stack values, the
  /// same names visible with the same values (a word compares by its ID, which its content
  /// decides), and the same `lastx`.
  private static func statesEqual(_ machine: Machine, _ state: LineState) -> Bool {
    machine.lastX.bitPattern == state.lastX.bitPattern && stacksEqual(machine.base, state.stack, machine.nodes)
      && environmentsEqual(machine.envHead, state.env, machine.bindings)
  }

  private static func stacksEqual(_ a: Int32, _ b: Int32, _ nodes: ContiguousArray<StackNode>) -> Bool {
    var a = a
    var b = b
    while a != b {
      guard a >= 0, b >= 0 else { return false }
      let x = nodes[Int(a)]
      let y = nodes[Int(b)]
      guard x.depth == y.depth, x.hash == y.hash, x.value.bitPattern == y.value.bitPattern else { return false }
      a = x.next
      b = y.next
    }
    return true
  }

  /// Whether two lists of stores make the same variables visible. Lists share their older
  /// stores, and every store points to an older (lower) index, so walking the newer head first
  /// meets the shared tail after only the stores that differ: the cost is that prefix, not the
  /// document's stores.
  private static func environmentsEqual(_ a: Int32, _ b: Int32, _ bindings: ContiguousArray<Binding>) -> Bool {
    if a == b { return true }
    guard a >= 0, b >= 0, bindings[Int(a)].mapHash == bindings[Int(b)].mapHash else { return false }
    var newestA: [Int32: UInt64] = [:]
    var newestB: [Int32: UInt64] = [:]
    var x = a
    var y = b
    while x != y {
      if x > y {
        let binding = bindings[Int(x)]
        if newestA[binding.name] == nil { newestA[binding.name] = binding.value.bitPattern }
        x = binding.next
      } else {
        let binding = bindings[Int(y)]
        if newestB[binding.name] == nil { newestB[binding.name] = binding.value.bitPattern }
        y = binding.next
      }
    }
    func inTail(_ name: Int32) -> UInt64? {
      var index = x
      while index >= 0 {
        if bindings[Int(index)].name == name { return bindings[Int(index)].value.bitPattern }
        index = bindings[Int(index)].next
      }
      return nil
    }
    for (name, value) in newestA where (newestB[name] ?? inTail(name)) != value { return false }
    for (name, value) in newestB where newestA[name] == nil && inTail(name) != value { return false }
    return true
  }

  func picture(of stack: Int32, keepingTop count: Int) -> StackPicture {
    guard stack >= 0 else { return .empty }
    let depth = Int(nodes[Int(stack)].depth)
    var top = [Double](repeating: 0, count: min(max(count, 0), depth))
    var index = stack
    for k in stride(from: top.count - 1, through: 0, by: -1) {
      top[k] = nodes[Int(index)].value
      index = nodes[Int(index)].next
    }
    return StackPicture(depth: depth, top: top)
  }
}

// Evaluation: running lines from an edit down until the state settles, and comparing states.

extension Document {
  /// Evaluates lines from `first`: always up to `mandatoryEnd`, then on until the state after a
  /// line is the one that line had before (returns the end of the range evaluated).
  ///
  /// The state is the same when the stack is the very same node (not only equal values), and
  /// the visible names and `lastx` hold the same values. A line that pushes as many values as
  /// before onto the same node keeps its nodes and overwrites their values
  /// (`Machine.commit(over:pushed:patched:)`); the positions whose values changed are `patched`.
  /// Once the state is the same, the lines below share those nodes and show the new values, so
  /// only those whose `floor` reaches a patched position are evaluated again, and the rest are
  /// skipped: an edit of a value deep under a tall stack costs the lines that read it, not the
  /// lines below it. Evaluation stops when the state is the same and nothing is patched.
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
    var evaluated = 0
    var lists = diagnosticLists
    diagnosticLists = []
    var radixLines = radixLiteralLines
    defer {
      nodes = machine.nodes
      bindings = machine.bindings
      names = machine.names
      words = machine.words
      wordStepsRun += machine.wordSteps
      linesEvaluated += evaluated
      lines = records
      diagnosticLists = lists
      radixLiteralLines = radixLines
    }
    let start = first == 0 ? nil : LineState(records[first - 1])
    machine.restart(
      stack: start?.stack ?? -1, env: start?.env ?? -1, lastX: start?.lastX ?? .none,
      reserve: start?.reserve ?? Int32(Machine.reserveCap),
      valueReserve: start?.valueReserve ?? Int32(Machine.valueReserveCap))
    var noObserver = NoObserver()
    var index = first
    if first == mandatoryEnd, let settling, Self.statesEqual(&machine, settling) {
      return first  // Whole lines were deleted, and the state after them was the state before.
    }
    var patched: [Int32] = []
    storage.withUnsafeBufferPointer { text in
      records.withUnsafeMutableBufferPointer { records in
        while index < records.count {
          let old = records[index]
          let depthBefore = machine.baseDepth
          let bytes = UnsafeBufferPointer(rebasing: text[Int(old.start)..<Int(old.start) + Int(old.length)])
          let lastTokenEnd = machine.evaluateLine(bytes, observer: &noObserver)
          machine.carryReserves()
          // The positions the line popped hold its own values now, not the patched ones.
          let kept = Int32(machine.baseDepth)
          while let top = patched.last, top >= kept { patched.removeLast() }
          let pushed = machine.localCount < Int(LineRecord.tooManyPushed) ? UInt16(machine.localCount) : .max
          machine.commit(over: old.stack, pushed: old.pushed, patched: &patched)
          records[index].stack = machine.base
          records[index].env = machine.envHead
          records[index].lastX = machine.lastX
          records[index].floor = Int32(depthBefore) - machine.reach
          records[index].pushed = pushed
          records[index].lastTokenEnd = lastTokenEnd
          records[index].setFacts(
            check: machine.lineHasCheck, definition: machine.lineHasDefinition, heading: machine.lineIsHeading,
            topIsWritten: machine.topIsWritten, radixLiteral: machine.lineHasRadixLiteral)
          if machine.lineHasRadixLiteral || old.hasRadixLiteral {
            radixLines += records[index].radixLiteralCount &- old.radixLiteralCount
          }
          records[index].reserve = Int32(machine.reserve)
          records[index].valueReserve = Int32(machine.valueReserve)
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
          evaluated += 1
          let settled = index > mandatoryEnd ? LineState(old) : index == mandatoryEnd ? settling : nil
          guard let settled, settled.stack != LineRecord.notEvaluated, Self.statesEqual(&machine, settled) else {
            continue
          }
          guard let highest = patched.last else { break }
          // The lines below were evaluated on this very state, with the old values at the patched
          // positions: those that reach none of them computed what they would compute now.
          let next = index
          while index < records.count, records[index].floor > highest { index += 1 }
          if index > next, index < records.count {
            let above = records[index - 1]
            machine.restart(
              stack: above.stack, env: above.env, lastX: above.lastX, reserve: above.reserve,
              valueReserve: above.valueReserve)
          }
        }
      }
    }
    return index
  }

  func freeDiagnosticSlot(_ slot: Int32) {
    diagnosticLists[Int(slot)] = []
    freeDiagnosticSlots.append(slot)
  }

  /// Whether the machine's state is the old state after a line: the same stack node, the
  /// same names visible with the same values (a word compares by its ID, which its content
  /// decides), and the same `lastx`.
  /// (`inout` only so that the machine, which holds the arenas, is not copied.)
  private static func statesEqual(_ machine: inout Machine, _ state: LineState) -> Bool {
    guard machine.base == state.stack, machine.lastX == state.lastX,
      machine.reserve == Int(state.reserve), machine.valueReserve == Int(state.valueReserve)
    else { return false }
    return machine.envHead == state.env || environmentsEqual(machine.envHead, state.env, machine.bindings)
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
        if newestA[binding.name] == nil { newestA[binding.name] = binding.bound.bits }
        x = binding.next
      } else {
        let binding = bindings[Int(y)]
        if newestB[binding.name] == nil { newestB[binding.name] = binding.bound.bits }
        y = binding.next
      }
    }
    func inTail(_ name: Int32) -> UInt64? {
      var index = x
      while index >= 0 {
        if bindings[Int(index)].name == name { return bindings[Int(index)].bound.bits }
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
    var top = [Value](repeating: .zero, count: min(max(count, 0), depth))
    var index = stack
    for k in stride(from: top.count - 1, through: 0, by: -1) {
      top[k] = nodes[Int(index)].value
      index = nodes[Int(index)].next
    }
    return StackPicture(depth: depth, top: top)
  }
}

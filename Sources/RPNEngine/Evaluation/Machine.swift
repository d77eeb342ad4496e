// The evaluator of lines: its state, the stack of the line being evaluated, and each token's step.

/// Evaluates lines. It owns the arenas while it runs (the document moves them in and out), so
/// the hot loop touches local storage only: class-property access there costs exclusivity checks.
///
/// The line being evaluated works on `local`, a plain buffer on top of the persistent stack
/// `base`: values it pushes and pops never reach the arena; only what is left at the end of the
/// line becomes nodes. `consumed` counts the nodes of the line's starting stack it popped,
/// `reach` how deep below that stack it popped or read.
struct Machine {
  var nodes: ContiguousArray<StackNode>
  var bindings: ContiguousArray<Binding>
  var names: NameTable
  var words: WordTable
  var settings: EvaluationSettings
  /// False while tracing one line for hover: nothing may be added to the arenas then.
  var recording = true
  /// Held here so that the hot loop does not go through a lazy global's once-check per word.
  let builtins = BuiltinIndex.shared
  let steps = Builtin.steps
  /// The unit text the tape read last, carried from line to line (`TokenScanner.unitMemo`).
  var unitMemo = UnitMemo()
  /// The last product or quotient of two units that needed no scale (`computeInOneUnit`); at
  /// first that of two plain numbers, which is one.
  var productMemo: (a: UnitID, b: UnitID, dividing: Bool, unit: UnitID) = (.none, .none, false, .none)

  var base: Int32 = -1
  var envHead: Int32 = -1
  /// Names looked up or bound since the last restart, with what they are bound to;
  /// `PackedBound.unbound` marks a name not visible.
  var variables: [Int32: PackedBound] = [:]
  /// Units under the rates in force (`rated(_:)`), since the last restart or unit definition.
  var rates: [UnitID: RatedUnit] = [:]
  /// The last rate worked out (`rate(from:to:)`), valid while `rates` is.
  var rateMemo: (from: UnitID, to: UnitID, rate: Exact?)?
  /// The last rate as one hardware operation, when it is one (`DoubleRatio`), valid while
  /// `rateMemo` is: read on each conversion without copying the exact rate.
  var rateMemoFast = DoubleRatio()
  /// Tokens read with the tape's own units (`tapeUnitKind`), by text, valid while `rates` is.
  var tapeUnitKinds: [String: TokenKind?] = [:]
  /// The top operand of the most recent operator that consumed values, for `lastx`; `Value.none`
  /// when none.
  var lastX = Value.none
  /// The values the current line pushed, bottom to top, in `local[0..<localCount]`. Popping
  /// lowers the count only, so the buffer is never resized inside the loop.
  var local: ContiguousArray<Value> = ContiguousArray(repeating: .zero, count: 64)
  var localCount = 0
  var consumed: Int32 = 0
  var reach: Int32 = 0
  var diagnostics: [Diagnostic] = []
  /// The diagnostic of the token `evaluateOther` evaluated last, when it failed.
  var tokenDiagnostic: Diagnostic?
  /// Whether the current line holds a check token (evaluated or not).
  var lineHasCheck = false
  /// Whether the current line holds a definition (that succeeded or not).
  var lineHasDefinition = false
  /// Whether the top is the last number the line pushed, unchanged since (stores and checks
  /// leave it so).
  var topIsWritten = false
  /// Whether the current line is a heading (`## title`, comment only).
  var lineIsHeading = false
  /// Whether the current line writes an integer in a radix (`0x1F`, `=0b101`), in a definition
  /// or not.
  var lineHasRadixLiteral = false
  /// The words the current line's definitions bound, with where each `;` ends.
  var definedOnLine: [(end: Int32, word: Int32)] = []
  /// While a word runs: the local slots below this one that it popped were saved in `undo`
  /// (slot, value), so that a failing use can put them back. 0 outside a use.
  var saveFloor = 0
  var undo: [(slot: Int, value: Value)] = []
  /// `visibleNames()` since the last restart, kept up to date by the stores since.
  var visibleNamesCache: NameIndex?
  /// Suggestions for unknown words, valid while `visibleNamesCache` is.
  var suggestions: [String: [Suggestion]] = [:]
  /// Steps run inside words since the machine was made (what the cost limit bounds).
  var wordSteps = 0
  /// The highest name any binding in the arena binds: a name above it is bound nowhere, and
  /// looking it up need not walk the list (a tape of stores of new names walked it at each).
  var highestBound: Int32 = -1
  /// The words running, innermost last, with the next step of each.
  var frames: ContiguousArray<(word: Int32, pc: Int32)> = []
  /// The work the current line may still do (`lineBudget` at its start): each step of a word's
  /// use, each value `pick`, `roll`, `sum`, `avg`, `sdev`, `subtotal` read (`stepsPerRead`), and
  /// each value a failing use's `clear` saved. What passes it is `too-complex` and changes nothing. A line's budget depends on its
  /// text and the stack it starts with only, so an incremental evaluation still equals a full one.
  var workLeft = 0
  /// The current line's budget: `workPerByte` per byte of its text (its line break counted), plus
  /// the `reserve` the lines above left it.
  var lineBudget = 0
  /// Work the lines above left unused, carried down to the next line (at most `reserveCap`): a
  /// costly use on a short line draws on it, so that a word of thousands of steps works where it
  /// is written, while a document of n bytes still runs at most `workPerByte` × n + `reserveCap`
  /// steps. Part of the state after a line; it stays at the cap on lines that spend less than
  /// their own budget, so edits still settle.
  var reserve = Machine.reserveCap
  /// Values the lines above could have left and did not, carried down likewise (at most
  /// `valueReserveCap`): a word that leaves a hundred values works on a short line, and a document
  /// of n bytes still keeps at most `valuesPerByte` × n + `valueReserveCap` values of its lines.
  var valueReserve = Machine.valueReserveCap
  /// Values of the stack the line starts with that it may still read for free: one read of it
  /// (a `sum` under a long tape), but no steps of words.
  var readAllowance = 0
  /// The most values the current line's buffer may hold through words and `roll`: what the line
  /// leaves becomes nodes that stay while the line's state does, so memory follows the text.
  var valueCap = 0

  init(
    nodes: ContiguousArray<StackNode>, bindings: ContiguousArray<Binding>, names: NameTable, words: WordTable,
    settings: EvaluationSettings
  ) {
    self.nodes = nodes
    self.bindings = bindings
    for binding in bindings { highestBound = max(highestBound, binding.name) }
    self.names = names
    self.words = words
    self.settings = settings
  }

  /// Starts from a stack, a list of bindings and a `lastx` (the state after some line).
  mutating func restart(stack: Int32, env: Int32, lastX: Value, reserve: Int32, valueReserve: Int32) {
    base = stack
    envHead = env
    self.lastX = lastX
    self.reserve = Int(reserve)
    self.valueReserve = Int(valueReserve)
    variables.removeAll(keepingCapacity: true)
    forgetRates()
    visibleNamesCache = nil
  }

  // MARK: The stack of the line being evaluated

  @inline(__always)
  var baseDepth: Int { base < 0 ? 0 : Int(nodes[Int(base)].depth) }

  @inline(__always)
  var count: Int { localCount + baseDepth }

  /// The value `k` places below the top (0 is the top).
  @inline(__always)
  mutating func peek(_ k: Int) -> Value {
    let n = localCount
    if k < n { return local[n - 1 - k] }
    var index = base
    var steps = k - n
    while steps > 0 {
      index = nodes[Int(index)].next
      steps -= 1
    }
    reach = max(reach, consumed + Int32(k - n) + 1)
    return nodes[Int(index)].value
  }

  @inline(__always)
  mutating func drop(_ n: Int) {
    let fromLocal = min(n, localCount)
    let remaining = localCount - fromLocal
    if remaining < saveFloor { save(downTo: remaining) }
    localCount = remaining
    var rest = n - fromLocal
    while rest > 0 {
      base = nodes[Int(base)].next
      consumed += 1
      rest -= 1
    }
    reach = max(reach, consumed)
  }

  /// Inside a word's use, keeps the values of the local slots about to be popped below every
  /// slot popped so far, so that a failure can restore them (`saveFloor`).
  mutating func save(downTo slot: Int) {
    workLeft -= saveFloor - slot
    for k in slot..<saveFloor { undo.append((k, local[k])) }
    saveFloor = slot
  }

  @inline(__always)
  mutating func push(_ value: Value) {
    if localCount < local.count { local[localCount] = value } else { local.append(value) }
    localCount += 1
  }

  /// The top `m` values (at most the stack's depth), bottom to top, in one walk; a read that
  /// counts toward the line's reach.
  mutating func topValues(_ m: Int) -> [Value] {
    reach = max(reach, consumed + Int32(max(0, m - localCount)))
    return readTop(m)
  }

  /// The whole stack, bottom to top.
  mutating func allValues() -> [Value] { topValues(count) }

  /// Up to `size` top values, for a label. Not a read of the line: the reach stays.
  func picture(_ size: Int) -> StackPicture {
    StackPicture(depth: count, top: readTop(min(size, count)))
  }

  /// The top `m` values, bottom to top: the line's own values first, then the persistent stack.
  private func readTop(_ m: Int) -> [Value] {
    var values = [Value](repeating: .zero, count: m)
    var filled = 0
    var k = localCount - 1
    while filled < m, k >= 0 {
      values[m - 1 - filled] = local[k]
      filled += 1
      k -= 1
    }
    var index = base
    while filled < m, index >= 0 {
      values[m - 1 - filled] = nodes[Int(index)].value
      index = nodes[Int(index)].next
      filled += 1
    }
    return values
  }

  /// Makes what the line left in `local` part of the persistent stack, as new nodes.
  @inline(__always)
  mutating func commit() {
    var depth = Int32(baseDepth)
    for k in 0..<localCount {
      depth += 1
      nodes.append(StackNode(value: local[k], next: base, depth: depth))
      base = Int32(nodes.count - 1)
    }
    localCount = 0
  }

  /// Makes what the line left in `local` part of the persistent stack, reusing the nodes the
  /// line pushed when it was last evaluated (`old`, its stack then, whose top `pushed` nodes are
  /// its own) when it pushes as many values onto the very node it pushed them onto then. Their
  /// values are overwritten where they differ, and those positions (counted from the bottom) are
  /// appended to `patched`, in increasing order: the lines below share these nodes, so their
  /// stacks show the new values at once, and only those of them that read or pop one of these
  /// positions need to be evaluated again. Returns whether the nodes were reused.
  @inline(__always) @discardableResult
  mutating func commit(over old: Int32, pushed: UInt16, patched: inout [Int32]) -> Bool {
    let count = localCount
    guard old != LineRecord.notEvaluated, pushed != LineRecord.tooManyPushed, Int(pushed) == count else {
      commit()
      return false
    }
    var below = old
    var steps = count
    while steps > 0, below >= 0 {
      below = nodes[Int(below)].next
      steps -= 1
    }
    guard steps == 0, below == base else {
      commit()
      return false
    }
    if count > 0 {
      let bottom = baseDepth
      let first = patched.count
      var index = old
      for k in stride(from: count - 1, through: 0, by: -1) {
        let value = local[k]
        if nodes[Int(index)].value != value {
          nodes[Int(index)].value = value
          patched.append(Int32(bottom + k))
        }
        index = nodes[Int(index)].next
      }
      var low = first
      var high = patched.count - 1
      while low < high {
        patched.swapAt(low, high)
        low += 1
        high -= 1
      }
    }
    base = old
    localCount = 0
    return true
  }

  // MARK: Lines

  /// Evaluates one line, leaving what it pushed in `local` for the caller to commit. Returns the
  /// end of its last token, or -1.
  @inline(__always)
  mutating func evaluateLine<O: EvaluationObserver>(
    _ bytes: UnsafeBufferPointer<UInt8>, observer: inout O
  ) -> Int32 {
    consumed = 0
    reach = 0
    lineHasCheck = false
    lineHasDefinition = false
    lineIsHeading = false
    topIsWritten = false
    lineBudget = (bytes.count + 1) * Self.workPerByte + reserve
    workLeft = lineBudget
    readAllowance = baseDepth
    valueCap = (bytes.count + 1) * Self.valuesPerByte + valueReserve
    if !definedOnLine.isEmpty { definedOnLine.removeAll(keepingCapacity: true) }
    var lastTokenEnd: Int32 = -1
    var scanner = TokenScanner(bytes, builtins: builtins, unitMemo: unitMemo)
    var ordinal = 0
    // What the tokens are, two bits each, the last lowest (`LineShape`), to tell an infix habit
    // (`3 + 4`) once the line is done. Shifted on every token, with no branch.
    var shape: UInt64 = 0
    var sawBareEquals = false
    while let token = scanner.next() {
      if case .colon = token.kind {
        lastTokenEnd = define(token, scanner: &scanner, in: bytes, observer: &observer, ordinal: &ordinal)
        if O.isActive && observer.isDone { break }
        continue
      }
      let size = O.isActive ? observer.pictureSize(for: ordinal) : 0
      if O.isActive {
        observer.willEvaluate(token, ordinal: ordinal, stack: picture(size))
        if observer.isDone { break }
      }
      var failed = false
      if case .number(let value) = token.kind {
        push(value)
        topIsWritten = true
        shape = shape &<< 2 | LineShape.number
      } else if case .builtin(let id) = token.kind, applyInline(steps[Int(id)]) {
        topIsWritten = false
        shape = shape &<< 2 | LineShape.builtin
      } else {
        failed = evaluateOther(token, in: bytes, shape: &shape, sawBareEquals: &sawBareEquals)
      }
      if O.isActive {
        let diagnostic = failed ? tokenDiagnostic : nil
        observer.didEvaluate(token, ordinal: ordinal, stack: picture(size), diagnostic: diagnostic)
      }
      lastTokenEnd = Int32(token.range.upperBound)
      ordinal += 1
    }
    if ordinal == 3, shape & 0x3F == LineShape.numberBuiltinNumber, !lineHasDefinition { markInfix(in: bytes) }
    if sawBareEquals { markSpacedChecks(in: bytes) }
    lineHasRadixLiteral = scanner.sawRadixLiteral
    unitMemo = scanner.unitMemo
    if lastTokenEnd < 0, let comment = scanner.commentStart, comment + 1 < bytes.count, bytes[comment + 1] == 0x23 {
      lineIsHeading = true
      startSection()
    }
    return lastTokenEnd
  }

  /// Evaluates a token that is neither a number nor a builtin done in place, and records what
  /// the line's end needs to know of it. Returns whether it failed, its diagnostic then in
  /// `tokenDiagnostic` (not returned: the hot path would build and destroy an optional
  /// diagnostic for every token). Kept out of line: `evaluateLine`'s loop stays small enough for
  /// the lexer's `next()` to be inlined into it.
  @inline(never)
  mutating func evaluateOther(
    _ token: Token, in bytes: UnsafeBufferPointer<UInt8>, shape: inout UInt64, sawBareEquals: inout Bool
  ) -> Bool {
    // A quantity is pushed as a number is (`12.5_km`).
    if case .quantity(let value) = token.kind {
      shape = shape &<< 2 | LineShape.other
      push(value)
      topIsWritten = true
      return false
    }
    if case .builtin(let id) = token.kind {
      shape = shape &<< 2 | LineShape.builtin
      // A running total's `+`: one operand on the line, the other on the stack it started with.
      // Or `+ - * /` in one unit, in the line's buffer (`12_km 8_km +`).
      if case .arithmetic(let arithmetic) = steps[Int(id)].operation,
        arithmeticOnBase(arithmetic) || arithmeticInOneUnit(arithmetic)
      {
        topIsWritten = false
        return false
      }
    } else {
      shape = shape &<< 2 | LineShape.other
    }
    guard let problem = evaluate(token, in: bytes) else {
      switch token.kind {
      case .store, .check: break  // The stack is as it was.
      default: topIsWritten = false
      }
      return false
    }
    if case .invalidStore(.missing) = token.kind { sawBareEquals = true }
    let diagnostic = Diagnostic(range: token.range, problem: problem)
    record(diagnostic)
    tokenDiagnostic = diagnostic
    return true
  }

  /// A unit word's result in place of the top (`lastx` the top before it), or its failure.
  mutating func replaceTop(_ result: Result<Value, UnitFailure>, word: () -> String) -> Problem? {
    let top = peek(0)
    switch result {
    case .failure(let failure): return .unitMismatch(word: word(), operands: [top], failure: failure)
    case .success(let value) where !value.isFinite: return .overflow(word: word(), operands: [top])
    case .success(let value):
      drop(1)
      push(value)
      lastX = top
      return nil
    }
  }

  /// Adds a diagnostic to the line's, or, when a use fails as one of the last two did (and no
  /// definition on the line may have changed what the word means), counts it on that one.
  private mutating func record(_ diagnostic: Diagnostic) {
    if diagnostic.problem.foldsRepeats && !lineHasDefinition,
      let same = diagnostics.indices.suffix(2).last(where: { diagnostics[$0].problem == diagnostic.problem })
    {
      diagnostics[same].repeats += 1
    } else {
      diagnostics.append(diagnostic)
    }
  }

  /// Evaluates one token that is not a number; on failure returns the problem and leaves the
  /// stack and the variables as they were (the failure rule).
  mutating func evaluate(_ token: Token, in line: UnsafeBufferPointer<UInt8>) -> Problem? {
    let text = { String(decoding: UnsafeBufferPointer(rebasing: line[token.range]), as: UTF8.self) }
    switch token.kind {
    case .number(let value):
      push(value)
      return nil
    case .check(let expected):
      lineHasCheck = true
      guard count >= 1 else { return .stackUnderflow(word: text(), needs: 1, has: 0) }
      let top = peek(0)
      let check = CheckLiteral(value: expected, token: UnsafeBufferPointer(rebasing: line[token.range]))
      // A check with a unit compares the top converted to it (by the rates in force, for a
      // currency); another dimension, or a unit on one side only, fails.
      let compared = top.unit == expected.unit ? top : checked(top, in: expected.unit)
      if let compared, check.passes(compared) { return nil }
      return .checkFailed(
        written: String(text().dropFirst()), top: compared ?? top, decimals: check.decimals, unitFits: compared != nil)
    case .quantity(let value):
      push(value)
      return nil
    case .attach(let unit):
      guard count >= 1 else { return .stackUnderflow(word: text(), needs: 1, has: 0) }
      return replaceTop(Self.attach(unit, to: peek(0)), word: text)
    case .convert(let unit):
      guard count >= 1 else { return .stackUnderflow(word: text(), needs: 1, has: 0) }
      return replaceTop(convertRated(peek(0), to: unit), word: text)
    case .invalidUnit(let problem):
      if case .unknown = problem, let kind = tapeUnitKind(UnsafeBufferPointer(rebasing: line[token.range])) {
        return evaluate(Token(range: token.range, kind: kind), in: line)
      }
      return Problem(problem, token: UnsafeBufferPointer(rebasing: line[token.range]))
    case .invalidNumber(let problem):
      return .invalidNumber(literal: text(), problem: problem)
    case .invalidStore(let reason):
      return .invalidName(token: text(), reason: reason)
    case .unknown:
      return unknownWord(text())
    case .builtin(let id):
      return apply(steps[Int(id)], word: text)
    case .name:
      if let id = names.id(UnsafeBufferPointer(rebasing: line[token.range])), let bound = bound(of: id) {
        switch bound {
        case .variable(let value):
          push(value)
          return nil
        case .word(let word): return use(word, word: text)
        case .sectionBase: break  // Not a name any text spells.
        }
      }
      return unknownWord(text())
    case .colon:
      return .unterminatedDefinition(name: nil)
    case .semicolon:
      return .invalidDefinition(token: text(), reason: .endWithoutStart)
    case .store:
      guard count >= 1 else { return .stackUnderflow(word: text(), needs: 1, has: 0) }
      let value = peek(0)
      let name = UnsafeBufferPointer(rebasing: line[token.nameRange])
      store(.variable(value), in: recording ? names.intern(name) : (names.id(name) ?? -1))
      return nil
    }
  }

}

/// Watches the evaluation of each token (for hover). The hot path uses `NoObserver`, whose
/// callbacks specialization removes. Tokens are numbered in line order (`ordinal`).
protocol EvaluationObserver {
  static var isActive: Bool { get }
  /// Once true, the rest of the line is not evaluated (the observer has what it needs).
  var isDone: Bool { get }
  /// How many top values the pictures of this token should hold (0: depth only, cheap).
  func pictureSize(for ordinal: Int) -> Int
  mutating func willEvaluate(_ token: Token, ordinal: Int, stack: StackPicture)
  mutating func didEvaluate(_ token: Token, ordinal: Int, stack: StackPicture, diagnostic: Diagnostic?)
}

struct NoObserver: EvaluationObserver {
  static var isActive: Bool { false }
  var isDone: Bool { false }
  func pictureSize(for ordinal: Int) -> Int { 0 }
  func willEvaluate(_ token: Token, ordinal: Int, stack: StackPicture) {}
  func didEvaluate(_ token: Token, ordinal: Int, stack: StackPicture, diagnostic: Diagnostic?) {}
}

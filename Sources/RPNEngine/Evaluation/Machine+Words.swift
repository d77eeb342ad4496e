// Defining words (`: name body… ;`): compiling a body, inferring its effect, and running a use.

extension Machine {
  /// Evaluates a definition starting at its `:`: reads its tokens up to `;`, compiles the body,
  /// and binds the word when nothing in it is wrong. The stack does not change; each token is
  /// reported to the observer with the same picture. Returns the end of the definition's last token.
  mutating func define<O: EvaluationObserver>(
    _ colon: Token, scanner: inout TokenScanner, in line: UnsafeBufferPointer<UInt8>, observer: inout O,
    ordinal: inout Int
  ) -> Int32 {
    lineHasDefinition = true
    var tokens = [colon]
    var closed = false
    while let token = scanner.next() {
      tokens.append(token)
      // A check in a definition never runs, but it is one that "remove every check" removes.
      if case .check = token.kind { lineHasCheck = true }
      if case .semicolon = token.kind {
        closed = true
        break
      }
    }
    // The observer hears of the `:` before the word is bound: stopping there sees the names as
    // they were above the definition.
    var size = O.isActive ? observer.pictureSize(for: ordinal) : 0
    if O.isActive {
      observer.willEvaluate(colon, ordinal: ordinal, stack: picture(size))
      if observer.isDone { return Int32(colon.range.upperBound) }
    }
    let problems = compile(tokens, closed: closed, in: line)
    for (k, token) in tokens.enumerated() {
      if O.isActive && k > 0 {
        size = observer.pictureSize(for: ordinal)
        observer.willEvaluate(token, ordinal: ordinal, stack: picture(size))
        if observer.isDone { break }
      }
      var diagnostic: Diagnostic?
      if let problem = problems[k] {
        diagnostic = Diagnostic(range: token.range, problem: problem)
        diagnostics.append(diagnostic!)
      }
      if O.isActive { observer.didEvaluate(token, ordinal: ordinal, stack: picture(size), diagnostic: diagnostic) }
      ordinal += 1
    }
    return Int32(tokens[tokens.count - 1].range.upperBound)
  }

  /// Checks and compiles a definition's tokens (`:` first), binding the word when all is well;
  /// returns the problem at each token.
  private mutating func compile(_ tokens: [Token], closed: Bool, in line: UnsafeBufferPointer<UInt8>) -> [Problem?] {
    var problems = [Problem?](repeating: nil, count: tokens.count)
    func text(_ token: Token) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: line[token.range]), as: UTF8.self)
    }
    let nameToken = tokens.count > 1 && tokens[1].kind != .semicolon ? tokens[1] : nil
    guard closed else {
      problems[0] = .unterminatedDefinition(name: nameToken.flatMap { $0.kind == .name ? text($0) : nil })
      return problems
    }
    guard let nameToken else {
      problems[0] = .invalidWordName(token: ":", reason: .missing)
      return problems
    }
    if case .attach(let unit) = nameToken.kind {
      return compileUnit(tokens, unit, in: line, problems: problems)
    }
    // `: _pace 0.75_m ;`: a unit of the tape's own, named here.
    if case .invalidUnit(.unknown) = nameToken.kind,
      case .attach(let unit)? = Lexer.classifyWithTapeUnits(UnsafeBufferPointer(rebasing: line[nameToken.range]))
    {
      return compileUnit(tokens, unit, in: line, problems: problems)
    }
    switch nameToken.kind {
    case .name: break
    // `_` and a name no definition can make a unit of: said as a unit's definition.
    case .invalidUnit(.malformed(.prefixNotTaken, _)) where line[nameToken.range.lowerBound] == 0x5F:
      problems[1] = .invalidDefinition(token: text(nameToken), reason: .unit(.prefixed))
    case .invalidUnit(.unknown) where line[nameToken.range.lowerBound] == 0x5F:
      // The tape's units read none: the session keeps as many as it can.
      problems[1] = .invalidDefinition(token: text(nameToken), reason: .unit(.noRoom))
    case .builtin(let id): problems[1] = .invalidWordName(token: text(nameToken), reason: .reserved(id))
    default: problems[1] = .invalidWordName(token: text(nameToken), reason: .malformed)
    }
    let nameBytes = UnsafeBufferPointer(rebasing: line[nameToken.range])
    let (ops, inference, cost) = compileBody(tokens, nameBytes: nameBytes, in: line, problems: &problems)
    guard problems.allSatisfy({ $0 == nil }) else { return problems }
    guard cost <= WordTable.limit else {
      problems[1] = .tooComplex(word: text(nameToken), expansion: cost, limit: WordTable.limit)
      return problems
    }
    let name = recording ? names.intern(nameBytes) : (names.id(nameBytes) ?? -1)
    let effect = inference.effect
    let id =
      recording
      ? words.intern(name: name, ops: ops, effect: effect, cost: cost)
      : (words.find(name: name, ops: ops) ?? words.intern(name: name, ops: ops, effect: effect, cost: cost))
    store(.word(id), in: name)
    definedOnLine.append((Int32(tokens[tokens.count - 1].range.upperBound), id))
    return problems
  }

  /// Checks and runs a unit's definition (`: _EUR 1.08_USD ;`, `: _EUR ;`), binding the unit to
  /// the quantity its body leaves (under `_EUR`, a name no variable has) when all is well;
  /// returns the problem at each token, a refusal at the unit's token.
  private mutating func compileUnit(
    _ tokens: [Token], _ unit: UnitID, in line: UnsafeBufferPointer<UInt8>, problems: [Problem?]
  ) -> [Problem?] {
    var problems = problems
    let nameToken = tokens[1]
    let written = String(decoding: UnsafeBufferPointer(rebasing: line[nameToken.range]), as: UTF8.self)
    func refuse(_ error: UnitDefinitionError) -> [Problem?] {
      problems[1] = .invalidDefinition(token: written, reason: .unit(error))
      return problems
    }
    let factors = unit.info.factors
    guard factors.count == 1, factors[0].power == 1, factors[0].prefix < 0, factors[0].unit.isDefinable else {
      return refuse(.builtIn)
    }
    let atom = Int(factors[0].atom)
    let own = Units.atom(atom).name
    let (ops, inference, cost) = compileBody(
      tokens, nameBytes: UnsafeBufferPointer(rebasing: line[nameToken.range]), in: line, problems: &problems)
    // The unit itself in its body (`: _pace 1_pace ;`) is not defined yet: a cycle, said at its name.
    for k in problems.indices {
      if case .unknownUnit(_, own, _)? = problems[k] {
        problems[k] = nil
        problems[1] = .invalidDefinition(token: written, reason: .unit(.cycle(through: [])))
      }
    }
    guard problems.allSatisfy({ $0 == nil }) else { return problems }
    guard cost <= WordTable.limit else {
      problems[1] = .tooComplex(word: written, expansion: cost, limit: WordTable.limit)
      return problems
    }
    let nameText = Self.definitionName(of: own)
    guard let name = recording ? names.intern(nameText) : names.id(nameText) else { return problems }
    var value = Value.count(1).relabeled(unit)  // An empty body: a dimension of its own, no rate.
    if !ops.isEmpty {
      let effect = inference.effect
      guard let needs = effect.inputs, let leaves = effect.outputs else { return refuse(.readsStack) }
      guard needs == 0, leaves == 1 else { return refuse(.values(leaves: leaves, needs: needs)) }
      // Found, not added, while a line is traced (the full evaluation added it).
      let id = words.find(name: name, ops: ops) ?? words.intern(name: name, ops: ops, effect: effect, cost: cost)
      let savedLastX = lastX
      if let problem = use(id, word: { written }) {
        let inner = if case .wordFailed(_, _, _, let inner) = problem { inner } else { problem }
        return refuse(.failed(inner.message))
      }
      value = peek(0)
      drop(1)
      lastX = savedLastX
      guard value.unit != .none else { return refuse(.plainNumber(value)) }
      guard value.number > 0, value.isFinite else { return refuse(.notPositive(value)) }
      if let path = chain(from: value.unit, to: atom) { return refuse(.cycle(through: path)) }
    }
    store(.variable(value), in: name)
    forgetRates()
    return problems
  }

  /// The currencies a unit leads to, down the definitions in force, up to `atom` when one of
  /// them leads back to it: the path's codes (empty when the unit names `atom` itself); nil
  /// when none does.
  private mutating func chain(from unit: UnitID, to atom: Int) -> [String]? {
    var path: [Int: Int] = [:]  // a currency reached → the one whose definition reached it (-1: the body)
    var queue: [Int] = []
    for factor in unit.unformatted.info.factors where factor.unit.isDefinable {
      if Int(factor.atom) == atom { return [] }
      if path[Int(factor.atom)] == nil {
        path[Int(factor.atom)] = -1
        queue.append(Int(factor.atom))
      }
    }
    var next = 0
    while next < queue.count {
      let current = queue[next]
      next += 1
      guard let definition = definition(ofAtom: current) else { continue }
      for factor in definition.unit.unformatted.info.factors where factor.unit.isDefinable {
        let reached = Int(factor.atom)
        if reached == current { continue }  // defined as a dimension of its own
        if reached == atom {
          var codes: [String] = []
          var k = current
          while k >= 0 {
            codes.append(Units.atom(k).name)
            k = path[k] ?? -1
          }
          return codes.reversed()
        }
        if path[reached] == nil {
          path[reached] = current
          queue.append(reached)
        }
      }
    }
    return nil
  }

  /// Compiles a definition's body (the tokens between the name and `;`): its steps, its
  /// inferred effect and its cost; the problem at each token goes in `problems`.
  private mutating func compileBody(
    _ tokens: [Token], nameBytes: UnsafeBufferPointer<UInt8>, in line: UnsafeBufferPointer<UInt8>,
    problems: inout [Problem?]
  ) -> (ops: [WordOp], inference: EffectInference, cost: Int) {
    func text(_ token: Token) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: line[token.range]), as: UTF8.self)
    }
    var ops: [WordOp] = []
    var inference = EffectInference()
    var cost = 0
    for k in 2..<(tokens.count - 1) {
      var token = tokens[k]
      // A unit the tape defines above (`3_pace`) is one here too.
      if case .invalidUnit(.unknown) = token.kind,
        let kind = tapeUnitKind(UnsafeBufferPointer(rebasing: line[token.range]))
      {
        token.kind = kind
      }
      switch token.kind {
      case .number(let value), .quantity(let value):
        ops.append(WordOp(kind: .push, value: value))
        inference.take(0, giving: 1)
        cost += 1
      case .attach(let unit), .convert(let unit):
        let kind: WordOp.Kind = if case .attach = token.kind { .attach } else { .convert }
        ops.append(WordOp(kind: kind, target: words.spelling(text(token)), value: Value.count(0).relabeled(unit)))
        inference.take(1, giving: 1)
        cost += 1
      case .invalidUnit(let problem):
        problems[k] = Problem(problem, token: UnsafeBufferPointer(rebasing: line[token.range]))
      case .builtin(let id) where Builtin.table[Int(id)].operation == .subtotal:
        problems[k] = .invalidDefinition(token: text(token), reason: .subtotal)
      case .builtin(let id):
        let builtin = Builtin.table[Int(id)]
        ops.append(WordOp(kind: .builtin, builtin: id, target: words.spelling(text(token))))
        if builtin.readsWholeStack {
          inference.dependsOnStack = true
        } else {
          inference.take(builtin.inputs, giving: builtin.outputs)
        }
        cost += 1
      case .name:
        let bytes = UnsafeBufferPointer(rebasing: line[token.range])
        guard let id = names.id(bytes), let bound = bound(of: id) else {
          problems[k] = bytes.elementsEqual(nameBytes) ? .selfReference(word: text(token)) : unknownWord(text(token))
          continue
        }
        switch bound {
        case .word(let callee):
          let word = words.words[Int(callee)]
          ops.append(WordOp(kind: .call, target: callee))
          if word.inputs < 0 {
            inference.dependsOnStack = true
          } else {
            inference.take(Int(word.inputs), giving: Int(word.outputs))
          }
          cost += word.cost + 1  // the call itself is a step, as it is when the use runs
        case .variable(let value):
          ops.append(WordOp(kind: .push, value: value))
          inference.take(0, giving: 1)
          cost += 1
        case .sectionBase:
          problems[k] = unknownWord(text(token))  // Not a name any text spells.
        }
      case .invalidNumber(let problem): problems[k] = .invalidNumber(literal: text(token), problem: problem)
      case .check: problems[k] = .invalidDefinition(token: text(token), reason: .check)
      case .store, .invalidStore: problems[k] = .invalidDefinition(token: text(token), reason: .store)
      case .colon: problems[k] = .invalidDefinition(token: text(token), reason: .nestedStart)
      case .semicolon, .unknown: problems[k] = unknownWord(text(token))
      }
      cost = min(cost, WordTable.limit + 1)
    }
    return (ops, inference, cost)
  }

  /// The deepest stack a word's use may leave or build: a use is a few bytes of text but may push
  /// thousands of values, so the text no longer bounds the stack; this does (16,777,216 values).
  static let maximumDepthThroughWords = 1 << 24

  /// Runs a use of word `id` as one step: a fixed effect's inputs are checked first; a step that
  /// fails inside fails the use, which then leaves the stack and `lastx` as they were. After a
  /// use that consumed values, `lastx` is the top it was given.
  ///
  /// The common steps (numbers, arithmetic, `dup`, `drop`, `swap`, `over`, `rot` on values the
  /// use pushed) run inline on the line's buffer; the rest, and any step whose result is not finite,
  /// go through `apply`, which also words the failure.
  mutating func use(_ id: Int32, word text: () -> String) -> Problem? {
    let table = words.words
    let code = words.code
    let word = table[Int(id)]
    let startCount = count
    if word.inputs >= 0 {
      if startCount < Int(word.inputs) {
        return .stackUnderflow(word: text(), needs: Int(word.inputs), has: startCount)
      }
      if startCount - Int(word.inputs) + Int(word.outputs) > Self.maximumDepthThroughWords {
        return .stackTooDeep(word: text(), limit: Self.maximumDepthThroughWords)
      }
    }
    // A use runs at most its cost in steps (no loops): taken whole before it starts, and kept
    // when it fails, so that failing uses repeated cannot pass the budget either.
    guard spend(word.cost) else { return overBudget(text()) }
    let topBefore = startCount == 0 ? Value.none : localCount > 0 ? local[localCount - 1] : nodes[Int(base)].value
    let savedBase = base
    let savedConsumed = consumed
    let savedLocal = localCount
    let savedLastX = lastX
    // The line's buffer may hold this many values while the use runs: short of the maximum depth,
    // and a while past what the line may leave (checked when the use is done).
    let localCap = min(Self.maximumDepthThroughWords - baseDepth, valueCap + Self.transientValues)
    saveFloor = localCount
    defer {
      saveFloor = 0
      undo.removeAll(keepingCapacity: true)
      frames.removeAll(keepingCapacity: true)
    }
    var problem: Problem?
    var pc = word.codeStart
    var end = word.codeEnd
    var running = id
    run: while true {
      if pc == end {
        guard let caller = frames.popLast() else { break }
        running = caller.word
        pc = caller.pc
        end = table[Int(running)].codeEnd
        continue
      }
      let op = code[Int(pc)]
      pc += 1
      wordSteps &+= 1
      switch op.kind {
      case .push:
        push(op.value)
      case .call:
        frames.append((running, pc))
        running = op.target
        pc = table[Int(running)].codeStart
        end = table[Int(running)].codeEnd
        continue
      case .attach, .convert:
        let spellings = words.spellings
        let failure: Problem?
        if count < 1 {
          failure = .stackUnderflow(word: spellings[Int(op.target)], needs: 1, has: 0)
        } else {
          let top = peek(0)
          let result = op.kind == .attach ? Self.attach(op.value.unit, to: top) : convertRated(top, to: op.value.unit)
          failure = replaceTop(result, word: { spellings[Int(op.target)] })
        }
        if let failure {
          frames.append((running, pc))
          problem = failure
          break run
        }
      case .builtin:
        let step = steps[Int(op.builtin)]
        // Done in place on the line's own values when it can be (`stepInPlace`: the same
        // definitions `apply` reads). A shuffle that passed the buffer's cap fails the use
        // below; anything else, or a result that is not finite, goes through `apply`.
        if stepInPlace(step) {
          if localCount <= localCap { continue run }
          break
        }
        let spellings = words.spellings
        if let failure = apply(step, word: { spellings[Int(op.target)] }) {
          frames.append((running, pc))
          problem = failure
          break run
        }
      }
      if localCount > localCap || workLeft < 0 {
        frames.append((running, pc))
        problem =
          workLeft < 0
          ? overBudget(text())
          : count > Self.maximumDepthThroughWords
            ? .stackTooDeep(word: text(), limit: Self.maximumDepthThroughWords)
            : .overBudget(word: text(), limit: valueCap, values: true)
        break
      }
    }
    // What the use leaves becomes nodes at the line's end: the line's cap bounds it.
    if problem == nil, localCount > valueCap {
      problem = .overBudget(word: text(), limit: valueCap, values: true)
    }
    guard let problem else {
      lastX = saveFloor < savedLocal || consumed > savedConsumed ? topBefore : savedLastX
      return nil
    }
    let path = frames.map { names.names[Int(table[Int($0.word)].name)] }
    base = savedBase
    consumed = savedConsumed
    for (slot, value) in undo { local[slot] = value }
    localCount = savedLocal
    lastX = savedLastX
    switch problem {
    case .stackTooDeep: return problem
    // Past the line's budget inside: the use as a whole is too complex here.
    case .overBudget(_, let limit, let values): return .overBudget(word: text(), limit: limit, values: values)
    default: break
    }
    return .wordFailed(word: text(), path: path, line: nil, inner: problem)
  }
}

/// Infers a body's stack effect step by step: how many values it needs below what it pushed,
/// and how many it leaves.
private struct EffectInference {
  var needs = 0
  var depth = 0
  var dependsOnStack = false

  mutating func take(_ inputs: Int, giving outputs: Int) {
    if depth < inputs {
      needs += inputs - depth
      depth = inputs
    }
    depth += outputs - inputs
  }

  var effect: WordEffect { dependsOnStack ? .stackDependent : WordEffect(inputs: needs, outputs: depth) }
}

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
      if token.kind == .semicolon {
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
    switch nameToken.kind {
    case .name: break
    case .builtin(let id): problems[1] = .invalidWordName(token: text(nameToken), reason: .reserved(id))
    default: problems[1] = .invalidWordName(token: text(nameToken), reason: .malformed)
    }
    let nameBytes = UnsafeBufferPointer(rebasing: line[nameToken.range])
    var ops: [WordOp] = []
    var inference = EffectInference()
    var cost = 0
    for k in 2..<(tokens.count - 1) {
      let token = tokens[k]
      switch token.kind {
      case .number(let value):
        ops.append(WordOp(kind: .push, value: value))
        inference.take(0, giving: 1)
        cost += 1
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
        guard let id = names.id(bytes), let value = value(of: id) else {
          problems[k] = bytes.elementsEqual(nameBytes) ? .selfReference(word: text(token)) : unknownWord(text(token))
          continue
        }
        if let callee = Binding.word(in: value) {
          let word = words.words[Int(callee)]
          ops.append(WordOp(kind: .call, target: callee))
          if word.inputs < 0 {
            inference.dependsOnStack = true
          } else {
            inference.take(Int(word.inputs), giving: Int(word.outputs))
          }
          cost += word.cost
        } else {
          ops.append(WordOp(kind: .push, value: value))
          inference.take(0, giving: 1)
          cost += 1
        }
      case .invalidNumber: problems[k] = .invalidNumber(literal: text(token))
      case .check: problems[k] = .invalidDefinition(token: text(token), reason: .check)
      case .store, .invalidStore: problems[k] = .invalidDefinition(token: text(token), reason: .store)
      case .colon: problems[k] = .invalidDefinition(token: text(token), reason: .nestedStart)
      case .semicolon, .unknown: problems[k] = unknownWord(text(token))
      }
      cost = min(cost, WordTable.limit + 1)
    }
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
    store(Binding.value(ofWord: id), in: name)
    return problems
  }

  /// Runs a use of word `id` as one step: a fixed effect's inputs are checked first; a step that
  /// fails inside fails the use, which then leaves the stack and `lastx` as they were. After a
  /// use that consumed values, `lastx` is the top it was given.
  mutating func use(_ id: Int32, word text: () -> String) -> Problem? {
    let word = words.words[Int(id)]
    let startCount = count
    if word.inputs >= 0 && startCount < Int(word.inputs) {
      return .stackUnderflow(word: text(), needs: Int(word.inputs), has: startCount)
    }
    let topBefore = startCount == 0 ? Double.nan : localCount > 0 ? local[localCount - 1] : nodes[Int(base)].value
    let savedBase = base
    let savedConsumed = consumed
    let savedLocal = localCount
    let savedLastX = lastX
    saveFloor = localCount
    defer {
      saveFloor = 0
      undo.removeAll(keepingCapacity: true)
      frames.removeAll(keepingCapacity: true)
    }
    let spellings = words.spellings
    frames.append((id, word.codeStart))
    while !frames.isEmpty {
      let last = frames.count - 1
      let (running, pc) = frames[last]
      if pc == words.words[Int(running)].codeEnd {
        frames.removeLast()
        continue
      }
      frames[last].pc = pc + 1
      let op = words.code[Int(pc)]
      switch op.kind {
      case .push: push(op.value)
      case .call: frames.append((op.target, words.words[Int(op.target)].codeStart))
      case .builtin:
        guard let problem = apply(steps[Int(op.builtin)], word: { spellings[Int(op.target)] }) else { continue }
        let path = frames.map { names.names[Int(words.words[Int($0.word)].name)] }
        base = savedBase
        consumed = savedConsumed
        for (slot, value) in undo { local[slot] = value }
        localCount = savedLocal
        lastX = savedLastX
        return .wordFailed(word: text(), path: path, line: nil, inner: problem)
      }
    }
    lastX = saveFloor < savedLocal || consumed > savedConsumed ? topBefore : savedLastX
    return nil
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

/// A `.rpn` document and the result of evaluating it: per line, the stack and variables after it,
/// where its inlay hint goes, its diagnostics, and how deep it reached into the stack it started
/// with.
///
/// Memory grows with the document, not with lines × stack depth: the stack after each line is
/// one index into a shared arena of persistent stack nodes (`stackNodeCount` counts them), and
/// each line's record is 32 bytes. Edits re-evaluate from the first changed line and stop as
/// soon as the state after a line (stack and visible variables) equals what that line had
/// before the edit.
package final class Document {
  /// The largest document, in UTF-8 bytes, that the model holds: 256 MiB, the largest message
  /// the server reads. The stack is bounded by it too (at most one value per two bytes of text).
  package static let maximumUTF8Count = 256 << 20

  package private(set) var settings: EvaluationSettings
  /// This document's size limit in UTF-8 bytes (`maximumUTF8Count` unless a test sets less).
  package let limit: Int

  /// The text of every line version ever inserted, appended only; compacted when mostly garbage.
  private var storage: [UInt8] = []
  private var lines: ContiguousArray<LineRecord> = []
  private var nodes: ContiguousArray<StackNode> = []
  private var bindings: ContiguousArray<Binding> = []
  private var names = NameTable()
  private var diagnosticLists: [[Diagnostic]] = []
  private var freeDiagnosticSlots: [Int32] = []
  private var liveTextBytes = 0
  private var pending: PendingEdit?
  private var nodesAfterCollection = 0
  private var bindingsAfterCollection = 0

  /// Evaluates `text`. Throws only when it is larger than `maximumUTF8Count`.
  package init(
    text: String, settings: EvaluationSettings = EvaluationSettings(), limit: Int = Document.maximumUTF8Count
  ) throws(DocumentError) {
    self.settings = settings
    self.limit = min(limit, Self.maximumUTF8Count)
    var text = text
    let count = text.utf8.count
    guard count <= self.limit else { throw .tooLarge(utf8Count: count, limit: self.limit) }
    storage = text.withUTF8 { Array($0) }
    liveTextBytes = count
    // Built in a local (class properties cost exclusivity checks per append) and moved in, so
    // that no second reference makes evaluation copy the buffer.
    lines = storage.withUnsafeBufferPointer { bytes in
      var records = ContiguousArray<LineRecord>()
      records.reserveCapacity(LineSplitter.countLines(bytes))
      LineSplitter.split(bytes, base: 0) { records.append(LineRecord(start: $0, length: $1, terminator: $2)) }
      return records
    }
    nodes.reserveCapacity(lines.count + 16)
    evaluate(from: 0, through: lines.count)
    nodesAfterCollection = nodes.count
    bindingsAfterCollection = bindings.count
  }

  // MARK: Reading

  /// The number of lines; at least 1 (an empty document has one empty line, as LSP counts).
  package var lineCount: Int { lines.count }

  /// The text of a line, without its terminator.
  package func text(ofLine line: Int) -> String {
    guard lines.indices.contains(line) else { return "" }
    return withUTF8(ofLine: line) { String(decoding: $0, as: UTF8.self) }
  }

  /// How a line ends.
  package func terminator(ofLine line: Int) -> LineTerminator {
    lines.indices.contains(line) ? lines[line].terminator : .none
  }

  /// The whole text, as written.
  package var text: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(liveTextBytes)
    for index in lines.indices {
      withUTF8(ofLine: index) { bytes.append(contentsOf: $0) }
      bytes.append(contentsOf: lines[index].terminator.utf8)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Calls `body` with the UTF-8 bytes of a line (no terminator). `line` must be valid.
  package func withUTF8<R>(ofLine line: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let record = lines[line]
    return storage.withUnsafeBufferPointer { bytes in
      body(UnsafeBufferPointer(rebasing: bytes[Int(record.start)..<Int(record.start) + Int(record.length)]))
    }
  }

  /// The UTF-8 offset right after the line's last token, where its inlay hint goes; nil for a
  /// line without tokens.
  package func hintOffset(ofLine line: Int) -> Int? {
    guard lines.indices.contains(line), lines[line].lastTokenEnd >= 0 else { return nil }
    return Int(lines[line].lastTokenEnd)
  }

  /// The stack after a line: its depth and up to `count` top values.
  package func stack(afterLine line: Int, keepingTop count: Int = DisplaySettings.defaultMaxItems) -> StackPicture {
    guard lines.indices.contains(line) else { return .empty }
    return picture(of: lines[line].stack, keepingTop: count)
  }

  /// The stack before a line (after the one above it).
  package func stack(beforeLine line: Int, keepingTop count: Int = DisplaySettings.defaultMaxItems) -> StackPicture {
    line <= 0 ? .empty : stack(afterLine: min(line, lines.count) - 1, keepingTop: count)
  }

  /// How many values of the stack it started with the line popped or read: the values its
  /// result can depend on. `clear`, `sum` and `avg` reach the whole stack.
  package func reach(ofLine line: Int) -> Int {
    lines.indices.contains(line) ? Int(lines[line].reach) : 0
  }

  /// The variables visible after a line, with their values, sorted by name.
  package func variables(afterLine line: Int) -> [(name: String, value: Double)] {
    guard lines.indices.contains(line) else { return [] }
    var seen = Set<Int32>()
    var result: [(name: String, value: Double)] = []
    var index = lines[line].env
    // Stop once every name there is has been seen: a name stored on every line costs one step.
    let allNames = names.names.count
    while index >= 0, seen.count < allNames {
      let binding = bindings[Int(index)]
      if seen.insert(binding.name).inserted { result.append((names.names[Int(binding.name)], binding.value)) }
      index = binding.next
    }
    return result.sorted { $0.name < $1.name }
  }

  /// The diagnostics of one line, in token order.
  package func diagnostics(inLine line: Int) -> [Diagnostic] {
    guard lines.indices.contains(line), lines[line].diagnostics >= 0 else { return [] }
    return diagnosticLists[Int(lines[line].diagnostics)].map { resolveStoredLater($0, line: line) }
  }

  /// Every diagnostic of the document, top to bottom.
  package func diagnostics() -> [(line: Int, diagnostic: Diagnostic)] {
    var result: [(line: Int, diagnostic: Diagnostic)] = []
    for line in lines.indices where lines[line].diagnostics >= 0 {
      for diagnostic in diagnostics(inLine: line) { result.append((line, diagnostic)) }
    }
    return result
  }

  /// Each token of a line with the stack before and after it (up to `count` top values) and its
  /// diagnostic, for hover. Evaluates the line again from the state above it; changes nothing.
  ///
  /// With `near`, only what a cursor at that offset needs is kept, and evaluation stops past it:
  /// the tokens containing or touching the offset, the last token before it, and (with
  /// `includingStores`) the stores before it. A first pass finds those tokens without drawing
  /// any stack; the second draws only theirs, so a line of a million tokens with a label of a
  /// million values costs two passes, not a million pictures.
  package func trace(
    line: Int, keepingTop count: Int = DisplaySettings.defaultMaxItems, near offset: Int? = nil,
    includingStores: Bool = true
  ) -> [TokenTrace] {
    guard lines.indices.contains(line) else { return [] }
    var kept: Set<Int>?
    if let offset {
      var scan = TokenScan(near: offset)
      run(line: line, observer: &scan)
      var ordinals = Set(scan.tokens.indices.filter { scan.tokens[$0].range.upperBound >= offset })
      if includingStores {
        ordinals.formUnion(scan.tokens.indices.filter { scan.tokens[$0].kind == .store })
      }
      if let last = scan.tokens.indices.last(where: {
        scan.tokens[$0].range.upperBound < offset && scan.tokens[$0].kind != .store
      }) {
        ordinals.insert(last)
      }
      kept = ordinals
    }
    var observer = TraceObserver(pictureSize: max(count, 1), kept: kept)
    run(line: line, observer: &observer)
    return observer.traces.map { trace in
      var trace = trace
      trace.diagnostic = trace.diagnostic.map { resolveStoredLater($0, line: line) }
      return trace
    }
  }

  /// Evaluates one line again from the state above it, for an observer; records nothing.
  private func run<O: EvaluationObserver>(line: Int, observer: inout O) {
    var machine = Machine(nodes: nodes, bindings: bindings, names: names, settings: settings)
    machine.recording = false
    machine.restart(stack: line == 0 ? -1 : lines[line - 1].stack, env: line == 0 ? -1 : lines[line - 1].env)
    withUTF8(ofLine: line) { _ = machine.evaluateLine($0, observer: &observer) }
  }

  /// Whether a line stored a variable successfully (its list of stores grew).
  package func storesSomething(_ line: Int) -> Bool {
    guard lines.indices.contains(line) else { return false }
    return lines[line].env != (line == 0 ? -1 : lines[line - 1].env)
  }

  /// The store that gave `name` the value visible at `offset` of `line` (before the token
  /// there): its line and the range of its `=name` token. Nil when the name is not visible.
  package func storeLocation(ofVariable name: String, visibleAtLine line: Int, utf8Offset offset: Int)
    -> (line: Int, range: Range<Int>)?
  {
    guard lines.indices.contains(line) else { return nil }
    if let range = lastSuccessfulStore(of: name, inLine: line, before: offset) { return (line, range) }
    guard let id = names.id(name) else { return nil }
    var index = line - 1
    while index >= 0 {
      let previous = index == 0 ? -1 : lines[index - 1].env
      if stores(id, from: previous, to: lines[index].env),
        let range = lastSuccessfulStore(of: name, inLine: index, before: Int.max)
      {
        return (index, range)
      }
      index -= 1
    }
    return nil
  }

  private func lastSuccessfulStore(of name: String, inLine line: Int, before offset: Int) -> Range<Int>? {
    let storeText = Array(("=" + name).utf8)
    var found: Range<Int>?
    withUTF8(ofLine: line) { bytes in
      for trace in trace(line: line, keepingTop: 0)
      where trace.token.kind == .store && trace.diagnostic == nil && trace.token.range.upperBound <= offset
        && bytes[trace.token.range].elementsEqual(storeText)
      {
        found = trace.token.range
      }
    }
    return found
  }

  /// How many persistent stack nodes the document holds (for tests of sharing).
  package var stackNodeCount: Int { nodes.count }

  /// Bytes of evaluation state held beyond the text: line records, stack nodes, stores and
  /// diagnostics, counting reserved capacity.
  package var stateByteCount: Int {
    lines.capacity * MemoryLayout<LineRecord>.stride + nodes.capacity * MemoryLayout<StackNode>.stride
      + bindings.capacity * MemoryLayout<Binding>.stride
      + diagnosticLists.capacity * MemoryLayout<[Diagnostic]>.stride
  }

  // MARK: Editing

  /// Replaces the text from `start` to `end` with `newText`. Positions are clamped as LSP does:
  /// a line past the end means the end of the document, a column past a line's end means its end
  /// (and a column inside a multi-byte character means that character's start).
  @discardableResult
  package func replace(from start: TextPosition, to end: TextPosition, with newText: String) throws(DocumentError)
    -> EditResult
  {
    try apply([TextEdit(from: start, to: end, text: newText)])
  }

  /// Applies edits in order, each in the positions left by the one before (as LSP's
  /// `didChange` does), then evaluates once. If one is refused (too large), those before it stay
  /// applied and evaluated, and the error is thrown.
  @discardableResult
  package func apply(_ edits: [TextEdit]) throws(DocumentError) -> EditResult {
    do {
      for edit in edits { try stage(edit) }
    } catch {
      _ = evaluateStaged()
      throw error
    }
    return evaluateStaged()
  }

  /// Changes the text without evaluating: the text and line queries see the edit at once, the
  /// results (stacks, diagnostics) only after `evaluateStaged()`. For callers that must read the
  /// text between edits, such as an LSP server converting each change's positions.
  package func stage(_ edit: TextEdit) throws(DocumentError) {
    try splice(from: edit.from, to: edit.to, with: edit.text)
  }

  /// Whether edits were staged and not evaluated yet.
  package var hasStagedEdits: Bool { pending != nil }

  /// Evaluates what the staged edits touched, once.
  @discardableResult
  package func evaluateStaged() -> EditResult { evaluatePending() }

  private func splice(from start: TextPosition, to end: TextPosition, with newText: String) throws(DocumentError) {
    var start = clamp(start)
    var end = clamp(end)
    if end < start { swap(&start, &end) }
    let firstLine = start.line
    var replacement: [UInt8] = []
    replacement.reserveCapacity(start.utf8Column + newText.utf8.count + 16)
    withUTF8(ofLine: start.line) { replacement.append(contentsOf: $0[..<start.utf8Column]) }
    replacement.append(contentsOf: newText.utf8)
    // An edit that ends at the start of a line, with text that ends in a line break (or nothing),
    // leaves that line as it is: only the lines above it are replaced. (Unless a "\r" would meet
    // the "\n" of an empty line there and merge into one break.)
    let endLineIsLoneLF = lines[end.line].length == 0 && lines[end.line].terminator == .lf
    let endsWithBreak = replacement.last == 0x0A || (replacement.last == 0x0D && !endLineIsLoneLF)
    let deletesWholeLines =
      replacement.isEmpty && !(start.line > 0 && lines[start.line - 1].terminator == .cr && endLineIsLoneLF)
    if end.utf8Column == 0, end.line > start.line, endsWithBreak || deletesWholeLines {
      return try spliceWhole(lines: start.line..<end.line, with: replacement)
    }
    withUTF8(ofLine: end.line) { replacement.append(contentsOf: $0[end.utf8Column...]) }
    replacement.append(contentsOf: lines[end.line].terminator.utf8)
    try spliceWhole(lines: firstLine..<(end.line + 1), with: replacement)
  }

  /// Replaces whole lines, terminators included, with `newText` (which carries its own line
  /// breaks). Replacing `2..<3` with `"1 2 +\n"` swaps line 2 for one new line.
  @discardableResult
  package func replaceLines(_ range: Range<Int>, with newText: String) throws(DocumentError) -> EditResult {
    let lower = min(max(range.lowerBound, 0), lines.count)
    let upper = min(max(range.upperBound, lower), lines.count)
    let end =
      upper == lines.count
      ? TextPosition(line: lines.count - 1, utf8Column: Int(lines[lines.count - 1].length))
      : TextPosition(line: upper, utf8Column: 0)
    return try replace(from: TextPosition(line: lower, utf8Column: 0), to: end, with: newText)
  }

  /// Changes the settings; re-evaluates everything when the result depends on them.
  package func update(settings newSettings: EvaluationSettings) {
    guard newSettings != settings else { return }
    settings = newSettings
    evaluate(from: 0, through: lines.count)
    collectGarbageIfNeeded()
  }

  private func clamp(_ position: TextPosition) -> TextPosition {
    if position.line < 0 { return TextPosition(line: 0, utf8Column: 0) }
    if position.line >= lines.count {
      return TextPosition(line: lines.count - 1, utf8Column: Int(lines[lines.count - 1].length))
    }
    var column = min(max(position.utf8Column, 0), Int(lines[position.line].length))
    withUTF8(ofLine: position.line) { bytes in
      while column > 0, column < bytes.count, bytes[column] & 0xC0 == 0x80 { column -= 1 }
    }
    return TextPosition(line: position.line, utf8Column: column)
  }

  /// Replaces `range` (whole lines with their terminators) by the lines of `replacement`, which
  /// ends with the terminator of the range's last line (none for the document's last line).
  private func spliceWhole(lines range: Range<Int>, with replacement: [UInt8]) throws(DocumentError) {
    var range = range
    var replacement = replacement
    // A "\r" ending the line above and a "\n" starting the replacement are one line break.
    if range.lowerBound > 0, lines[range.lowerBound - 1].terminator == .cr, replacement.first == 0x0A {
      range = (range.lowerBound - 1)..<range.upperBound
      var joined: [UInt8] = []
      withUTF8(ofLine: range.lowerBound) { joined.append(contentsOf: $0) }
      joined.append(0x0D)
      replacement = joined + replacement
    }
    var removedBytes = 0
    for index in range { removedBytes += Int(lines[index].length) }
    let newLive = liveTextBytes - removedBytes + replacement.count
    guard newLive <= limit else { throw .tooLarge(utf8Count: newLive, limit: limit) }
    if storage.count + replacement.count > Int(UInt32.max) || storage.count > 2 * liveTextBytes + (64 << 10) {
      compactStorage()
    }
    let base = UInt32(storage.count)
    storage.append(contentsOf: replacement)
    var newRecords: [LineRecord] = []
    replacement.withUnsafeBufferPointer { bytes in
      LineSplitter.split(bytes, base: base) { newRecords.append(LineRecord(start: $0, length: $1, terminator: $2)) }
    }
    // The replacement ends with the range's last terminator; past it there is no new line.
    if lines[range.upperBound - 1].terminator != .none, let last = newRecords.last, last.length == 0,
      last.terminator == .none
    {
      newRecords.removeLast()
    }
    for index in range where lines[index].diagnostics >= 0 { freeDiagnosticSlot(lines[index].diagnostics) }
    // What the state was after the replaced lines: once the new lines reach it again, nothing
    // below can change.
    let oldEnd = lines[range.upperBound - 1]
    lines.replaceSubrange(range, with: newRecords)
    liveTextBytes = newLive
    let first = range.lowerBound
    let count = newRecords.count
    let change = count - range.count
    if let before = pending {
      // Several edits: evaluate once over the union of what they touched (in today's lines).
      let lower = min(first, before.dirty.lowerBound)
      let upper = before.dirty.upperBound > first ? max(first + count, before.dirty.upperBound + change) : first + count
      pending = PendingEdit(
        dirty: lower..<upper, settling: nil, lineCountChange: before.lineCountChange + change)
    } else {
      pending = PendingEdit(dirty: first..<first + count, settling: (oldEnd.stack, oldEnd.env), lineCountChange: change)
    }
  }

  /// Evaluates what the spliced edits touched, then collects garbage.
  private func evaluatePending() -> EditResult {
    guard let edit = pending else { return EditResult(replacedLines: 0..<0, reevaluatedLines: 0..<0, lineCountChange: 0) }
    pending = nil
    let end = evaluate(from: edit.dirty.lowerBound, through: edit.dirty.upperBound, settlingAt: edit.settling)
    collectGarbageIfNeeded()
    return EditResult(
      replacedLines: edit.dirty, reevaluatedLines: edit.dirty.lowerBound..<end, lineCountChange: edit.lineCountChange)
  }

  // MARK: Evaluation

  /// Evaluates lines from `first`: always up to `mandatoryEnd`, then on until a line's new state
  /// equals its old one. Returns the end of the evaluated range.
  ///
  /// `settlingAt` is the state the line before `mandatoryEnd` had before an edit replaced the
  /// lines in between: reaching it again there means nothing below changes.
  @discardableResult
  private func evaluate(from first: Int, through mandatoryEnd: Int, settlingAt settling: (stack: Int32, env: Int32)? = nil)
    -> Int
  {
    var machine = Machine(nodes: nodes, bindings: bindings, names: names, settings: settings)
    nodes = []
    bindings = []
    names = NameTable()
    var records = lines
    lines = []
    var lists = diagnosticLists
    diagnosticLists = []
    defer {
      nodes = machine.nodes
      bindings = machine.bindings
      names = machine.names
      lines = records
      diagnosticLists = lists
    }
    machine.restart(stack: first == 0 ? -1 : records[first - 1].stack, env: first == 0 ? -1 : records[first - 1].env)
    var noObserver = NoObserver()
    var index = first
    if first == mandatoryEnd, let settling, Self.stacksEqual(machine.base, settling.stack, machine.nodes),
      Self.environmentsEqual(machine.envHead, settling.env, machine.bindings)
    {
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
          records[index].reach = machine.reach
          records[index].lastTokenEnd = lastTokenEnd
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
          let settled = index > mandatoryEnd ? (old.stack, old.env) : index == mandatoryEnd ? settling : nil
          if let settled, settled.0 != LineRecord.notEvaluated,
            Self.stacksEqual(machine.base, settled.0, machine.nodes),
            Self.environmentsEqual(machine.envHead, settled.1, machine.bindings)
          {
            break
          }
        }
      }
    }
    return index
  }

  private func freeDiagnosticSlot(_ slot: Int32) {
    diagnosticLists[Int(slot)] = []
    freeDiagnosticSlots.append(slot)
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

  private func picture(of stack: Int32, keepingTop count: Int) -> StackPicture {
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

  // MARK: "Stored later, on line N"

  /// Fills in where an unknown word is stored further down, if it is: that depends on the lines
  /// below, which the evaluation of this line cannot see, so it is looked up when read.
  private func resolveStoredLater(_ diagnostic: Diagnostic, line: Int) -> Diagnostic {
    guard case .unknownWord(let word, let suggestion, _) = diagnostic.problem, let name = names.id(word) else {
      return diagnostic
    }
    var diagnostic = diagnostic
    if let storeLine = firstStore(of: name, word: word, after: diagnostic.range.upperBound, inLine: line) {
      diagnostic.problem = .unknownWord(word: word, suggestion: suggestion, storedLaterOnLine: storeLine)
    }
    return diagnostic
  }

  /// The first line at or below `line` (past `offset` on `line` itself) with a store of `name`
  /// that succeeded.
  private func firstStore(of name: Int32, word: String, after offset: Int, inLine line: Int) -> Int? {
    let sameLine = withUTF8(ofLine: line) { bytes in
      Lexer.tokens(of: bytes).tokens.contains { token in
        token.range.lowerBound >= offset && token.kind == .store
          && String(decoding: UnsafeBufferPointer(rebasing: bytes[(token.range.lowerBound + 1)..<token.range.upperBound]), as: UTF8.self)
            .utf8.elementsEqual(word.utf8)
      }
    }
    if sameLine && stores(name, from: line == 0 ? -1 : lines[line - 1].env, to: lines[line].env) { return line }
    var index = line + 1
    while index < lines.count {
      if stores(name, from: lines[index - 1].env, to: lines[index].env) { return index }
      index += 1
    }
    return nil
  }

  /// Whether the stores between two list heads (a line's own stores) include `name`.
  private func stores(_ name: Int32, from previous: Int32, to head: Int32) -> Bool {
    var index = head
    while index != previous, index >= 0 {
      if bindings[Int(index)].name == name { return true }
      index = bindings[Int(index)].next
    }
    return false
  }

  // MARK: Garbage

  /// Drops stack nodes, stores and text that no line refers to any more, once they are at least
  /// half of what is held (plus a little slack, so small documents do not collect on every
  /// keystroke). Indices keep their order, so `next` still points below. Each collection costs
  /// what is live, and happens only after as much garbage: amortized O(1) per edit.
  private func collectGarbageIfNeeded() {
    if nodes.count > max(2 * nodesAfterCollection, 1 << 12) {
      var live = [Bool](repeating: false, count: nodes.count)
      for record in lines {
        var index = record.stack
        while index >= 0, !live[Int(index)] {
          live[Int(index)] = true
          index = nodes[Int(index)].next
        }
      }
      let remap = Self.compact(&nodes, live: live) { node, remap in node.next = node.next < 0 ? -1 : remap[Int(node.next)] }
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

  private func compactStorage() {
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

/// A position in a document: a line and a UTF-8 offset within it, both 0-based.
package struct TextPosition: Equatable, Comparable, Sendable {
  package var line: Int
  package var utf8Column: Int

  package init(line: Int, utf8Column: Int) {
    self.line = line
    self.utf8Column = utf8Column
  }

  package static func < (a: TextPosition, b: TextPosition) -> Bool {
    (a.line, a.utf8Column) < (b.line, b.utf8Column)
  }
}

/// One change of a document's text: replace `from..<to` with `text`.
package struct TextEdit: Equatable, Sendable {
  package var from: TextPosition
  package var to: TextPosition
  package var text: String

  package init(from: TextPosition, to: TextPosition, text: String) {
    self.from = from
    self.to = to
    self.text = text
  }
}

/// Lines spliced but not yet evaluated: `dirty` must be evaluated; `settling` is the old state
/// after the replaced lines when there was a single splice.
private struct PendingEdit {
  var dirty: Range<Int>
  var settling: (stack: Int32, env: Int32)?
  var lineCountChange: Int
}

/// What an edit changed, in the lines of the edited document.
package struct EditResult: Equatable, Sendable {
  /// The lines whose text is new (for several edits at once: a range covering all of them).
  package var replacedLines: Range<Int>
  /// The lines evaluated again: the replaced ones, then those below until the state settled.
  /// Lines outside it kept their results.
  package var reevaluatedLines: Range<Int>
  /// How many lines the document gained (negative: lost).
  package var lineCountChange: Int
}

package enum DocumentError: Error, Equatable, Sendable {
  case tooLarge(utf8Count: Int, limit: Int)
}

/// A token of one line with the stack before and after it.
package struct TokenTrace: Equatable, Sendable {
  package var token: Token
  package var before: StackPicture
  package var after: StackPicture
  package var diagnostic: Diagnostic?
}

/// Records each kept token with its pictures; stops after the last kept one.
private struct TraceObserver: EvaluationObserver {
  static var isActive: Bool { true }
  let size: Int
  /// The ordinals to keep; nil keeps every token.
  let kept: Set<Int>?
  private let lastKept: Int
  var traces: [TokenTrace] = []
  private(set) var isDone = false
  private var before = StackPicture.empty

  init(pictureSize: Int, kept: Set<Int>?) {
    self.size = pictureSize
    self.kept = kept
    self.lastKept = kept?.max() ?? Int.max
    isDone = kept?.isEmpty == true
  }

  func pictureSize(for ordinal: Int) -> Int { kept?.contains(ordinal) == false ? 0 : size }

  mutating func willEvaluate(_ token: Token, ordinal: Int, stack: StackPicture) {
    if ordinal > lastKept { isDone = true }
    before = stack
  }

  mutating func didEvaluate(_ token: Token, ordinal: Int, stack: StackPicture, diagnostic: Diagnostic?) {
    guard kept?.contains(ordinal) != false else { return }
    traces.append(TokenTrace(token: token, before: before, after: stack, diagnostic: diagnostic))
  }
}

/// The first pass of a trace near a cursor: the tokens up to it, without pictures.
private struct TokenScan: EvaluationObserver {
  static var isActive: Bool { true }
  let near: Int
  var tokens: [Token] = []
  private(set) var isDone = false

  init(near: Int) { self.near = near }

  func pictureSize(for ordinal: Int) -> Int { 0 }

  mutating func willEvaluate(_ token: Token, ordinal: Int, stack: StackPicture) {
    if token.range.lowerBound > near { isDone = true }
  }

  mutating func didEvaluate(_ token: Token, ordinal: Int, stack: StackPicture, diagnostic: Diagnostic?) {
    tokens.append(token)
  }
}

/// One line's place in the text and the results of evaluating it: 32 bytes.
struct LineRecord {
  static let notEvaluated: Int32 = -2

  var start: UInt32
  var length: UInt32
  /// The stack after the line: a node index, -1 when empty.
  var stack: Int32 = LineRecord.notEvaluated
  /// The stores visible after the line: a binding index, -1 when none.
  var env: Int32 = -1
  var reach: Int32 = 0
  /// A slot of `Document.diagnosticLists`, or -1.
  var diagnostics: Int32 = -1
  var lastTokenEnd: Int32 = -1
  var terminator: LineTerminator

  init(start: UInt32, length: UInt32, terminator: LineTerminator) {
    self.start = start
    self.length = length
    self.terminator = terminator
  }
}

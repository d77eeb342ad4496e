// The document model: its lines, their evaluation state, and the queries that read them.

/// A `.rpn` document and the result of evaluating it: per line, the stack and variables after it,
/// where its inlay hint goes, its diagnostics, and how deep it reached into the stack it started
/// with.
///
/// Memory grows with the document, not with lines × stack depth: the stack after each line is
/// one index into a shared arena of persistent stack nodes (`stackNodeCount` counts them), and
/// each line's record is 48 bytes. Edits re-evaluate from the first changed line and stop as
/// soon as the state after a line (stack and visible variables) equals what that line had
/// before the edit; a line that pushes as many values as before onto the same stack overwrites
/// its old nodes' values in place, so that the lines below see them without being evaluated
/// again, unless they read or pop them (see `Document.evaluate(from:through:settlingAt:)`).
package final class Document {
  /// The largest document, in UTF-8 bytes, that the model holds: 256 MiB, the largest message
  /// the server reads. The stack is bounded by it too (at most one value per two bytes of text).
  package static let maximumUTF8Count = 256 << 20

  package internal(set) var settings: EvaluationSettings
  /// This document's size limit in UTF-8 bytes (`maximumUTF8Count` unless a test sets less).
  package let limit: Int

  /// The text of every line version ever inserted, appended only; compacted when mostly garbage.
  var storage: [UInt8] = []
  var lines: ContiguousArray<LineRecord> = []
  var nodes: ContiguousArray<StackNode> = []
  var bindings: ContiguousArray<Binding> = []
  var names = NameTable()
  var words = WordTable()
  var diagnosticLists: [[Diagnostic]] = []
  var freeDiagnosticSlots: [Int32] = []
  var liveTextBytes = 0
  /// How many lines write an integer in a radix (`LineRecord.hasRadixLiteral`).
  var radixLiteralLines = 0
  var pending: PendingEdit?
  var nodesAfterCollection = 0
  var bindingsAfterCollection = 0
  var wordsAfterCollection = 0
  /// Steps run inside words by every evaluation so far (for tests of the cost bound).
  package internal(set) var wordStepsRun = 0
  /// Lines evaluated by every evaluation so far, not counting those an edit skipped (for tests
  /// and benchmarks of what an edit costs).
  package internal(set) var linesEvaluated = 0
  /// The lines with a definition that failed, found when first needed after an evaluation.
  var brokenDefinitionLines: [Int]?
  /// The editor's evaluation settings; `settings` adds the document's own over them.
  package internal(set) var editorSettings: EvaluationSettings
  /// What the document's `# rpn:` lines set.
  package internal(set) var documentSettings = DocumentSettings()
  /// Settings that override the document's own (the command line's flags).
  package let overridingSettings: DocumentSettings
  /// `invalid-setting` warnings of the `# rpn:` lines.
  var settingsDiagnostics: [(line: Int, diagnostic: Diagnostic)] = []
  /// The first line with a token: `# rpn:` lines count above it, and only an edit at or above it
  /// can change them.
  var settingsRegionEnd = 0

  /// Evaluates `text`. Throws only when it is larger than `maximumUTF8Count`.
  /// `overriding` (the command line's flags) wins over the document's `# rpn:` lines, which win
  /// over `settings` (the editor's).
  package convenience init(
    text: String, settings: EvaluationSettings = EvaluationSettings(),
    overriding: DocumentSettings = DocumentSettings(), limit: Int = Document.maximumUTF8Count
  ) throws(DocumentError) {
    var text = text
    let count = text.utf8.count
    // Refused before the copy: a client may send far more than a document may hold.
    guard count <= min(limit, Self.maximumUTF8Count) else {
      throw .tooLarge(utf8Count: count, limit: min(limit, Self.maximumUTF8Count))
    }
    let bytes = text.withUTF8 { utf8 in
      [UInt8](unsafeUninitializedCapacity: utf8.count) { buffer, initialized in
        adviseHugePages(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: utf8.count)
        initialized = buffer.initialize(fromContentsOf: utf8)
      }
    }
    try self.init(validUTF8: bytes, settings: settings, overriding: overriding, limit: limit)
  }

  /// Evaluates text given as UTF-8 bytes, taking the array without copying it when the bytes are
  /// valid UTF-8; invalid bytes are read as U+FFFD, as `String(decoding:as:)` reads them. Throws
  /// only when the text is larger than `maximumUTF8Count`.
  package convenience init(
    utf8 bytes: [UInt8], settings: EvaluationSettings = EvaluationSettings(),
    overriding: DocumentSettings = DocumentSettings(), limit: Int = Document.maximumUTF8Count
  ) throws(DocumentError) {
    let valid = Self.isASCII(bytes) ? bytes : Array(String(decoding: bytes, as: UTF8.self).utf8)
    try self.init(validUTF8: valid, settings: settings, overriding: overriding, limit: limit)
  }

  /// Evaluates bytes that are valid UTF-8, as they are.
  private init(
    validUTF8 bytes: [UInt8], settings: EvaluationSettings, overriding: DocumentSettings, limit: Int
  ) throws(DocumentError) {
    self.settings = overriding.applied(to: settings)
    self.editorSettings = settings
    self.overridingSettings = overriding
    self.limit = min(limit, Self.maximumUTF8Count)
    guard bytes.count <= self.limit else { throw .tooLarge(utf8Count: bytes.count, limit: self.limit) }
    storage = bytes
    finishInit(count: bytes.count)
  }

  /// Whether every byte is ASCII (and so the bytes valid UTF-8): eight bytes at a time.
  private static func isASCII(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw in
      var i = 0
      var any: UInt64 = 0
      while i + 8 <= raw.count {
        any |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        i += 8
      }
      while i < raw.count {
        any |= UInt64(raw[i])
        i += 1
      }
      return any & 0x8080_8080_8080_8080 == 0
    }
  }

  /// Splits the text in `storage` into lines and evaluates it: the rest of both initializers.
  private func finishInit(count: Int) {
    liveTextBytes = count
    // Built in a local (class properties cost exclusivity checks per append) and moved in, so
    // that no second reference makes evaluation copy the buffer.
    lines = storage.withUnsafeBufferPointer { bytes in
      var records = ContiguousArray<LineRecord>()
      records.reserveCapacity(LineSplitter.countLines(bytes))
      let capacity = records.capacity * MemoryLayout<LineRecord>.stride
      records.withUnsafeMutableBufferPointer {
        adviseHugePages(UnsafeMutableRawPointer($0.baseAddress), byteCount: capacity)
      }
      LineSplitter.split(bytes, base: 0) { records.append(LineRecord(start: $0, length: $1, terminator: $2)) }
      return records
    }
    nodes.reserveCapacity(lines.count + 16)
    let nodeBytes = nodes.capacity * MemoryLayout<StackNode>.stride
    nodes.withUnsafeMutableBufferPointer {
      adviseHugePages(UnsafeMutableRawPointer($0.baseAddress), byteCount: nodeBytes)
    }
    refreshDocumentSettings()
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
    guard lines.indices.contains(line) else { return 0 }
    let above = line == 0 ? -1 : lines[line - 1].stack
    return (above < 0 ? 0 : Int(nodes[Int(above)].depth)) - Int(lines[line].floor)
  }

  /// The variables visible after a line (not the words), with their values, sorted by name.
  package func variables(afterLine line: Int) -> [(name: String, value: Value)] {
    guard lines.indices.contains(line) else { return [] }
    return visibleBindings(from: lines[line].env).compactMap { name, bound in
      guard case .variable(let value) = bound else { return nil }
      return (name, value)
    }
  }

  /// The diagnostics of one line, in token order.
  package func diagnostics(inLine line: Int) -> [Diagnostic] {
    guard lines.indices.contains(line) else { return [] }
    if line < settingsRegionEnd && !settingsDiagnostics.isEmpty {
      return settingsDiagnostics.filter { $0.line == line }.map(\.diagnostic)
    }
    guard lines[line].diagnostics >= 0 else { return [] }
    return diagnosticLists[Int(lines[line].diagnostics)].map { resolve($0, line: line) }
  }

  /// Whether a line has diagnostics, without reading them (and resolving their messages).
  package func hasDiagnostics(line: Int) -> Bool {
    guard lines.indices.contains(line) else { return false }
    if line < settingsRegionEnd && settingsDiagnostics.contains(where: { $0.line == line }) { return true }
    return lines[line].diagnostics >= 0
  }

  /// Every diagnostic of the document, top to bottom.
  package func diagnostics() -> [(line: Int, diagnostic: Diagnostic)] {
    var result: [(line: Int, diagnostic: Diagnostic)] = []
    forEachDiagnostic { line, diagnostic in result.append((line, diagnostic)) }
    return result
  }

  /// Visits every diagnostic of the document, top to bottom, each line's read only when it is
  /// reached: what reports them (`check`) holds one line's at a time, not the document's.
  package func forEachDiagnostic(_ body: (_ line: Int, _ diagnostic: Diagnostic) -> Void) {
    for (line, diagnostic) in settingsDiagnostics { body(line, diagnostic) }
    for line in lines.indices where lines[line].diagnostics >= 0 {
      for diagnostic in diagnostics(inLine: line) { body(line, diagnostic) }
    }
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
}

package enum DocumentError: Error, Equatable, Sendable {
  case tooLarge(utf8Count: Int, limit: Int)
}

/// One line's place in the text and the results of evaluating it: 48 bytes.
struct LineRecord {
  static let notEvaluated: Int32 = -2
  /// `pushed` of a line that pushed more values than it can count: its nodes are never reused.
  static let tooManyPushed = UInt16.max

  var start: UInt32
  var length: UInt32
  /// The stack after the line: a node index, -1 when empty.
  var stack: Int32 = LineRecord.notEvaluated
  /// The stores and definitions visible after the line: a binding index, -1 when none.
  var env: Int32 = -1
  /// `lastx` after the line: `Value.none` when no operator has consumed a value yet. (Placed
  /// here, on an 8-byte boundary, so that the record stays 48 bytes.)
  var lastX = Value.none
  /// The lowest position (counted from the bottom, 0 first) of the stack it started with that the
  /// line popped or read: it depends on the values from there up, and on none below.
  var floor: Int32 = 0
  /// A slot of `Document.diagnosticLists`, or -1.
  var diagnostics: Int32 = -1
  var lastTokenEnd: Int32 = -1
  /// How many values the line pushed (the top `pushed` nodes of its stack are its own), or
  /// `tooManyPushed`.
  var pushed: UInt16 = 0
  var terminator: LineTerminator
  private var flags: UInt8 = 0
  /// The work carried to the next line (`Machine.reserve`).
  var reserve = Int32(Machine.reserveCap)
  /// The room for values carried to the next line (`Machine.valueReserve`).
  var valueReserve = Int32(Machine.valueReserveCap)

  /// Whether the line holds a check token: asked of every line by the actions on every check.
  var hasCheck: Bool { flags & 1 != 0 }
  /// Whether the line holds a `:`: asked of every visible line by the inlay hints.
  var hasDefinition: Bool { flags & 2 != 0 }
  /// Whether the line is a heading (`## title`, nothing else): sections start there.
  var isHeading: Bool { flags & 4 != 0 }

  /// Whether the line writes an integer in a radix (`0x1F`, `=0b101`): counted per document
  /// (`Document.radixLiteralLines`), so that a hover asks the count, not every line.
  var hasRadixLiteral: Bool { flags & 16 != 0 }
  /// 1 when the line writes an integer in a radix, else 0: what it adds to the document's count.
  var radixLiteralCount: Int { Int(flags >> 4 & 1) }

  /// Sets every fact that evaluating the line tells, in one store (evaluation writes them for
  /// every line it evaluates; a store per fact cost instructions on the hot path).
  @inline(__always)
  mutating func setFacts(check: Bool, definition: Bool, heading: Bool, topIsWritten: Bool, radixLiteral: Bool) {
    var facts: UInt8 = check ? 1 : 0
    if definition { facts |= 2 }
    if heading { facts |= 4 }
    if topIsWritten { facts |= 8 }
    if radixLiteral { facts |= 16 }
    flags = facts
  }

  /// Whether the top after the line is the last number written on it, unchanged since: a check
  /// there would only repeat it (`8 =coffee`).
  var topIsWritten: Bool { flags & 8 != 0 }

  init(start: UInt32, length: UInt32, terminator: LineTerminator) {
    self.start = start
    self.length = length
    self.terminator = terminator
  }
}

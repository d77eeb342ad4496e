// Tracing one line again for hover and completion: each token with the stack before and after it.

extension Document {
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
    includingStores: Bool = true, resolvingDiagnostics: Bool = true
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
    guard resolvingDiagnostics else { return observer.traces }
    // The line's own diagnostics are told after the whole line (an infix habit): a token's is
    // the recorded one when there is one.
    let recorded = hasDiagnostics(line: line) ? diagnostics(inLine: line) : []
    return observer.traces.map { trace in
      var trace = trace
      let range = trace.token.range
      trace.diagnostic = recorded.first { $0.range == range } ?? trace.diagnostic.map { resolve($0, line: line) }
      return trace
    }
  }

  /// Evaluates one line again from the state above it, for an observer; records nothing.
  /// Returns the machine as the observer left it.
  @discardableResult
  func run<O: EvaluationObserver>(line: Int, observer: inout O) -> Machine {
    var machine = Machine(nodes: nodes, bindings: bindings, names: names, words: words, settings: settings)
    machine.recording = false
    let start = line == 0 ? nil : LineState(lines[line - 1])
    machine.restart(
      stack: start?.stack ?? -1, env: start?.env ?? -1, lastX: start?.lastX ?? .none,
      reserve: start?.reserve ?? Int32(Machine.reserveCap),
      valueReserve: start?.valueReserve ?? Int32(Machine.valueReserveCap))
    withUTF8(ofLine: line) { _ = machine.evaluateLine($0, observer: &observer) }
    return machine
  }
}

/// Stops a line's evaluation before the first token that starts at or after an offset.
struct StopBefore: EvaluationObserver {
  static var isActive: Bool { true }
  let offset: Int
  private(set) var isDone = false

  init(_ offset: Int) { self.offset = offset }

  func pictureSize(for ordinal: Int) -> Int { 0 }

  mutating func willEvaluate(_ token: Token, ordinal: Int, stack: StackPicture) {
    if token.range.lowerBound >= offset { isDone = true }
  }

  func didEvaluate(_ token: Token, ordinal: Int, stack: StackPicture, diagnostic: Diagnostic?) {}
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

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The unit of angles for trigonometry (setting `angleUnit`).
package enum AngleUnit: String, Sendable, CaseIterable {
  case radians
  case degrees
}

/// What changes the result of evaluation (as opposed to its display).
package struct EvaluationSettings: Equatable, Sendable {
  package var angleUnit: AngleUnit

  package init(angleUnit: AngleUnit = .radians) {
    self.angleUnit = angleUnit
  }
}

/// One value of a persistent stack. Nodes live in one flat arena and point down to the node
/// below, so the stack after every line is one index, and lines share everything below what
/// they changed. `hash` covers the node and everything below it, so two stacks that differ
/// are told apart in O(1) (equal hashes are then checked value by value).
struct StackNode {
  var value: Double
  var hash: UInt64
  var next: Int32
  var depth: Int32
}

/// One store, in a persistent list of stores like the stack's. `mapHash` hashes the whole map of
/// visible variables after this store, so that two lists with the same visible values compare
/// equal by hash even when they got there through different stores.
struct Binding {
  var value: Double
  var mapHash: UInt64
  var name: Int32
  var next: Int32
}

/// Variable names, interned so that the persistent structures hold small integers. Names are
/// compared byte by byte, which is scalar by scalar without normalization (SPEC §1.1): `Å`
/// (U+00C5) and `Å` (U+212B) are two names, though Swift's `String ==` would call them equal.
/// Lookups take the token's bytes directly: no `String` is made on the hot path.
struct NameTable {
  private(set) var names: [String] = []
  /// Every name's UTF-8 bytes, back to back; `spans[id]` locates one.
  private var bytes: [UInt8] = []
  private var spans: [(start: Int, count: Int)] = []
  /// Open addressing: each slot holds an ID + 1, or 0 when empty. Twice the names, at least.
  private var slots: [Int32] = Array(repeating: 0, count: 16)

  func id(_ name: String) -> Int32? {
    var name = name
    return name.withUTF8 { id($0) }
  }

  @inline(__always)
  func id(_ name: UnsafeBufferPointer<UInt8>) -> Int32? {
    let mask = slots.count - 1
    var slot = Self.hash(name) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return nil }
      if matches(Int(entry - 1), name) { return entry - 1 }
      slot = (slot + 1) & mask
    }
  }

  mutating func intern(_ name: String) -> Int32 {
    var name = name
    return name.withUTF8 { intern($0) }
  }

  mutating func intern(_ name: UnsafeBufferPointer<UInt8>) -> Int32 {
    if let id = id(name) { return id }
    let id = Int32(names.count)
    names.append(String(decoding: name, as: UTF8.self))
    spans.append((bytes.count, name.count))
    bytes.append(contentsOf: name)
    if names.count * 2 > slots.count {
      slots = Array(repeating: 0, count: slots.count * 2)
      for existing in 0..<names.count { insert(Int32(existing)) }
    } else {
      insert(id)
    }
    return id
  }

  private mutating func insert(_ id: Int32) {
    let span = spans[Int(id)]
    let mask = slots.count - 1
    var slot = bytes.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[span.start..<span.start + span.count])) } & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = id + 1
  }

  @inline(__always)
  private func matches(_ id: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let span = spans[id]
    guard span.count == name.count else { return false }
    if name.isEmpty { return true }
    return bytes.withUnsafeBufferPointer { stored in
      memcmp(stored.baseAddress! + span.start, name.baseAddress!, name.count) == 0
    }
  }

  /// FNV-1a: names are short, and this needs no per-process seed.
  @inline(__always)
  private static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in name { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return Int(truncatingIfNeeded: hash ^ (hash >> 29))
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

@inline(__always)
func mix(_ x: UInt64) -> UInt64 {
  var z = x &+ 0x9E37_79B9_7F4A_7C15
  z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
  z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
  return z ^ (z >> 31)
}

@inline(__always)
func stackHash(below: UInt64, value: Double) -> UInt64 {
  below &* 0xFF51_AFD7_ED55_8CCD &+ mix(value.bitPattern)
}

@inline(__always)
func bindingHash(name: Int32, value: Double) -> UInt64 {
  mix(value.bitPattern ^ mix(UInt64(UInt32(bitPattern: name))))
}

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
  var settings: EvaluationSettings
  /// False while tracing one line for hover: nothing may be added to the arenas then.
  var recording = true
  /// Held here so that the hot loop does not go through a lazy global's once-check per word.
  let builtins = BuiltinIndex.shared
  let operations = Builtin.operations

  var base: Int32 = -1
  var envHead: Int32 = -1
  /// Variables looked up or stored since the last restart; NaN marks a name not visible.
  var variables: [Int32: Double] = [:]
  /// The values the current line pushed, bottom to top, in `local[0..<localCount]`. Popping
  /// lowers the count only, so the buffer is never resized inside the loop.
  var local: ContiguousArray<Double> = ContiguousArray(repeating: 0, count: 64)
  var localCount = 0
  var consumed: Int32 = 0
  var reach: Int32 = 0
  var diagnostics: [Diagnostic] = []

  init(
    nodes: ContiguousArray<StackNode>, bindings: ContiguousArray<Binding>, names: NameTable,
    settings: EvaluationSettings
  ) {
    self.nodes = nodes
    self.bindings = bindings
    self.names = names
    self.settings = settings
  }

  /// Starts from a stack and a list of stores (the state after some line).
  mutating func restart(stack: Int32, env: Int32) {
    base = stack
    envHead = env
    variables.removeAll(keepingCapacity: true)
  }

  /// The value visible for a name: from the cache, else the newest store of it in the list.
  /// Misses are cached as NaN, which no variable can hold. Restarting costs nothing this way,
  /// however many stores lie above.
  @inline(__always)
  mutating func value(of name: Int32) -> Double? {
    if let cached = variables[name] { return cached.isNaN ? nil : cached }
    var index = envHead
    while index >= 0 {
      let binding = bindings[Int(index)]
      if binding.name == name {
        variables[name] = binding.value
        return binding.value
      }
      index = binding.next
    }
    variables[name] = .nan
    return nil
  }

  /// The names of every visible variable (for suggestions; walks the whole list).
  func visibleNames() -> [String] {
    var visible = Set<Int32>()
    var index = envHead
    while index >= 0 {
      visible.insert(bindings[Int(index)].name)
      index = bindings[Int(index)].next
    }
    for (name, value) in variables { if value.isNaN { visible.remove(name) } else { visible.insert(name) } }
    return visible.map { names.names[Int($0)] }
  }

  // MARK: The stack of the line being evaluated

  @inline(__always)
  var baseDepth: Int { base < 0 ? 0 : Int(nodes[Int(base)].depth) }

  @inline(__always)
  var count: Int { localCount + baseDepth }

  /// The value `k` places below the top (0 is the top).
  @inline(__always)
  mutating func peek(_ k: Int) -> Double {
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
    localCount -= fromLocal
    var rest = n - fromLocal
    while rest > 0 {
      base = nodes[Int(base)].next
      consumed += 1
      rest -= 1
    }
    reach = max(reach, consumed)
  }

  @inline(__always)
  mutating func push(_ value: Double) {
    if localCount < local.count { local[localCount] = value } else { local.append(value) }
    localCount += 1
  }

  /// The whole stack, bottom to top.
  mutating func allValues() -> [Double] {
    var values = [Double](repeating: 0, count: count)
    var i = values.count - localCount
    for k in 0..<localCount {
      values[i] = local[k]
      i += 1
    }
    var index = base
    i = values.count - localCount - 1
    while index >= 0 {
      values[i] = nodes[Int(index)].value
      index = nodes[Int(index)].next
      i -= 1
    }
    reach = max(reach, consumed + Int32(baseDepth))
    return values
  }

  /// Up to `size` top values, for a label.
  func picture(_ size: Int) -> StackPicture {
    let depth = count
    let wanted = min(size, depth)
    var top = [Double](repeating: 0, count: wanted)
    var filled = 0
    var k = localCount - 1
    while filled < wanted, k >= 0 {
      top[wanted - 1 - filled] = local[k]
      filled += 1
      k -= 1
    }
    var index = base
    while filled < wanted, index >= 0 {
      top[wanted - 1 - filled] = nodes[Int(index)].value
      index = nodes[Int(index)].next
      filled += 1
    }
    return StackPicture(depth: depth, top: top)
  }

  /// Makes what the line left in `local` part of the persistent stack.
  @inline(__always)
  mutating func commit() {
    for k in 0..<localCount {
      let value = local[k]
      let below = base
      let (hash, depth) = below < 0 ? (UInt64(0), Int32(0)) : (nodes[Int(below)].hash, nodes[Int(below)].depth)
      nodes.append(StackNode(value: value, hash: stackHash(below: hash, value: value), next: below, depth: depth + 1))
      base = Int32(nodes.count - 1)
    }
    localCount = 0
  }

  // MARK: Lines

  /// Evaluates one line and commits its stack. Returns the end of its last token, or -1.
  @inline(__always)
  mutating func evaluateLine<O: EvaluationObserver>(
    _ bytes: UnsafeBufferPointer<UInt8>, observer: inout O
  ) -> Int32 {
    consumed = 0
    reach = 0
    var lastTokenEnd: Int32 = -1
    var scanner = TokenScanner(bytes, builtins: builtins)
    var ordinal = 0
    while let token = scanner.next() {
      let size = O.isActive ? observer.pictureSize(for: ordinal) : 0
      if O.isActive {
        observer.willEvaluate(token, ordinal: ordinal, stack: picture(size))
        if observer.isDone { break }
      }
      var diagnostic: Diagnostic?
      if case .number(let value) = token.kind {
        push(value)
      } else if let problem = evaluate(token, in: bytes) {
        diagnostic = Diagnostic(range: token.range, problem: problem)
        diagnostics.append(diagnostic!)
      }
      if O.isActive { observer.didEvaluate(token, ordinal: ordinal, stack: picture(size), diagnostic: diagnostic) }
      lastTokenEnd = Int32(token.range.upperBound)
      ordinal += 1
    }
    if recording { commit() }
    return lastTokenEnd
  }

  /// Evaluates one token that is not a number; on failure returns the problem and leaves the
  /// stack and the variables as they were (SPEC §1.4).
  mutating func evaluate(_ token: Token, in line: UnsafeBufferPointer<UInt8>) -> Problem? {
    let text = { String(decoding: UnsafeBufferPointer(rebasing: line[token.range]), as: UTF8.self) }
    switch token.kind {
    case .number(let value):
      push(value)
      return nil
    case .invalidNumber:
      return .invalidNumber(literal: text())
    case .invalidStore(let reason):
      return .invalidName(token: text(), reason: reason)
    case .unknown:
      return unknownWord(text())
    case .builtin(let id):
      return apply(operations[Int(id)], word: text)
    case .name:
      if let id = names.id(UnsafeBufferPointer(rebasing: line[token.range])), let value = value(of: id) {
        push(value)
        return nil
      }
      return unknownWord(text())
    case .store:
      guard count >= 1 else { return .stackUnderflow(word: text(), needs: 1, has: 0) }
      let value = peek(0)
      let name = UnsafeBufferPointer(rebasing: line[(token.range.lowerBound + 1)..<token.range.upperBound])
      store(value, in: recording ? names.intern(name) : (names.id(name) ?? -1))
      return nil
    }
  }

  private mutating func store(_ newValue: Double, in name: Int32) {
    if recording {
      let mapHash = envHead < 0 ? 0 : bindings[Int(envHead)].mapHash
      let old = value(of: name).map { bindingHash(name: name, value: $0) } ?? 0
      let hash = mapHash &- old &+ bindingHash(name: name, value: newValue)
      bindings.append(Binding(value: newValue, mapHash: hash, name: name, next: envHead))
      envHead = Int32(bindings.count - 1)
    }
    variables[name] = newValue
  }

  private func unknownWord(_ word: String) -> Problem {
    .unknownWord(word: word, suggestion: Suggestions.suggest(for: word, visibleVariables: visibleNames()), storedLaterOnLine: nil)
  }

  // MARK: Operations

  /// Runs a builtin. `word` spells the token as written, for messages.
  private mutating func apply(_ operation: Operation, word: () -> String) -> Problem? {
    let needs: Int
    switch operation {
    case .pi, .e, .clear, .depth: needs = 0
    case .add, .subtract, .multiply, .divide, .power, .percent, .modulo, .minimum, .maximum, .swap, .over: needs = 2
    case .rot: needs = 3
    default: needs = 1
    }
    guard count >= needs else { return .stackUnderflow(word: word(), needs: needs, has: count) }

    switch operation {
    case .pi: push(Double.pi)
    case .e: push(M_E)
    case .clear:
      consumed += Int32(baseDepth)
      reach = max(reach, consumed)
      base = -1
      localCount = 0
    case .depth: push(Double(count))
    case .dup: push(peek(0))
    case .drop: drop(1)
    case .over: push(peek(1))
    case .swap:
      let b = peek(0)
      let a = peek(1)
      drop(2)
      push(b)
      push(a)
    case .rot:
      let c = peek(0)
      let b = peek(1)
      let a = peek(2)
      drop(3)
      push(b)
      push(c)
      push(a)
    case .sum, .average:
      let values = allValues()
      var total = 0.0
      for value in values { total += value }
      let result = operation == .sum ? total : total / Double(values.count)
      if !result.isFinite { return failure(result, word: word, operands: []) }
      drop(values.count)
      push(result)
    case .add, .subtract, .multiply, .divide, .power, .percent, .modulo, .minimum, .maximum:
      let b = peek(0)
      let a = peek(1)
      let result: Double
      switch operation {
      case .add: result = a + b
      case .subtract: result = a - b
      case .multiply: result = a * b
      case .divide:
        if b == 0 { return .divisionByZero(word: word(), operands: [a, b]) }
        result = a / b
      case .power:
        if a == 0 && b < 0 { return .divisionByZero(word: word(), operands: [a, b]) }
        result = pow(a, b)
      case .percent: result = (a * b) / 100
      case .modulo:
        if b == 0 { return .divisionByZero(word: word(), operands: [a, b]) }
        result = a - b * (a / b).rounded(.down)
      case .minimum: result = Swift.min(a, b)
      default: result = Swift.max(a, b)
      }
      if !result.isFinite { return failure(result, word: word, operands: [a, b]) }
      drop(operation == .percent ? 1 : 2)
      push(result)
    default:
      let a = peek(0)
      let result: Double
      switch unary(operation, a) {
      case .success(let value): result = value
      case .failure(let failure):
        switch failure {
        case .divisionByZero: return .divisionByZero(word: word(), operands: [a])
        case .domain(let requirement): return .domainError(word: word(), operands: [a], requirement: requirement)
        }
      }
      if !result.isFinite { return failure(result, word: word, operands: [a]) }
      drop(1)
      push(result)
    }
    return nil
  }

  /// The problem with a result that is not finite: NaN is a domain error, infinity an overflow.
  private func failure(_ result: Double, word: () -> String, operands: [Double]) -> Problem {
    result.isNaN
      ? .domainError(word: word(), operands: operands, requirement: nil)
      : .overflow(word: word(), operands: operands)
  }

  private enum UnaryFailure: Error {
    case divisionByZero
    case domain(String)
  }

  private func unary(_ operation: Operation, _ a: Double) -> Result<Double, UnaryFailure> {
    let degrees = settings.angleUnit == .degrees
    switch operation {
    case .negate: return .success(-a)
    case .absolute: return .success(Swift.abs(a))
    case .inverse: return a == 0 ? .failure(.divisionByZero) : .success(1 / a)
    case .square: return .success(a * a)
    case .squareRoot: return a < 0 ? .failure(.domain("a square root needs a value ≥ 0")) : .success(a.squareRoot())
    case .exp: return .success(Glibc_exp(a))
    case .ln, .log10, .log2:
      guard a > 0 else { return .failure(.domain("a logarithm needs a value > 0")) }
      return .success(operation == .ln ? Glibc_log(a) : operation == .log10 ? log10(a) : Glibc_log2(a))
    case .sin, .cos, .tan:
      if degrees { return Self.trigDegrees(operation, a) }
      return .success(operation == .sin ? sin(a) : operation == .cos ? cos(a) : tan(a))
    case .asin, .acos:
      guard a >= -1 && a <= 1 else { return .failure(.domain("it needs a value from -1 to 1")) }
      let radians = operation == .asin ? asin(a) : acos(a)
      return .success(degrees ? radians * 180 / Double.pi : radians)
    case .atan:
      let radians = atan(a)
      return .success(degrees ? radians * 180 / Double.pi : radians)
    case .floor: return .success(a.rounded(.down))
    case .ceil: return .success(a.rounded(.up))
    case .round: return .success(a.rounded(.toNearestOrAwayFromZero))
    case .trunc: return .success(a.rounded(.towardZero))
    default: return .success(a)
    }
  }

  /// Trigonometry in degrees: reduce modulo 360, exact at multiples of 90°, and the tangent of an
  /// odd multiple of 90° is a domain error (SPEC §1.4).
  private static func trigDegrees(_ operation: Operation, _ a: Double) -> Result<Double, UnaryFailure> {
    let reduced = fmod(a, 360)
    if reduced.truncatingRemainder(dividingBy: 90) == 0 {
      let quadrant = ((Int(reduced / 90) % 4) + 4) % 4
      switch operation {
      case .sin: return .success([0.0, 1, 0, -1][quadrant])
      case .cos: return .success([1.0, 0, -1, 0][quadrant])
      default:
        if quadrant % 2 == 1 { return .failure(.domain("the tangent of an odd multiple of 90° is infinite")) }
        return .success(0)
      }
    }
    let radians = reduced * Double.pi / 180
    switch operation {
    case .sin: return .success(sin(radians))
    case .cos: return .success(cos(radians))
    default: return .success(tan(radians))
    }
  }
}

// The C library's exp, log and log2, named apart from `Operation`'s cases of the same names.
@inline(__always) private func Glibc_exp(_ x: Double) -> Double { exp(x) }
@inline(__always) private func Glibc_log(_ x: Double) -> Double { log(x) }
@inline(__always) private func Glibc_log2(_ x: Double) -> Double { log2(x) }

// What each builtin computes, its failures (division by zero, domain, overflow) and trigonometry.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Machine {
  /// The commonest builtins on values the line pushed itself, done in place: arithmetic with a
  /// finite result, and `clear`. Returns false, having changed nothing, for anything else (which
  /// `apply` does, and words the failure of). Outside a word's use only: no slot needs saving.
  @inline(__always)
  mutating func applyInline(_ step: Builtin.Step) -> Bool {
    switch step.operation {
    case .clear:
      guard base < 0 else { return false }
      localCount = 0
      return true
    default:
      return localCount >= 2 && arithmeticInPlace(step.operation)
    }
  }

  /// `+ - * /` on the top two values, both in the line's buffer (the caller checks): the result
  /// replaces them and `lastx` is the top. False, having changed nothing, for any other
  /// operation or a result that is not finite (division by zero, overflow: `apply` names them).
  @inline(__always)
  mutating func arithmeticInPlace(_ operation: Operation) -> Bool {
    let n = localCount
    let a = local[n - 2]
    let b = local[n - 1]
    let result: Double
    switch operation {
    case .add: result = a + b
    case .subtract: result = a - b
    case .multiply: result = a * b
    case .divide: result = a / b
    default: return false
    }
    guard result.isFinite else { return false }
    local[n - 2] = result
    localCount = n - 1
    lastX = b
    return true
  }

  /// Runs a builtin, with the arity the builtins table gives it. `word` spells the token as
  /// written, for messages.
  mutating func apply(_ step: Builtin.Step, word: () -> String) -> Problem? {
    let operation = step.operation
    guard count >= step.inputs else { return .stackUnderflow(word: word(), needs: step.inputs, has: count) }

    switch operation {
    case .pi: push(Double.pi)
    case .e: push(M_E)
    case .clear:
      consumed += Int32(baseDepth)
      reach = max(reach, consumed)
      base = -1
      if saveFloor > 0 { save(downTo: 0) }
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
    case .pick, .roll:
      // n is the top; x₁ is right below it, xₙ n places below it.
      let n = peek(0)
      guard n >= 1, n == n.rounded(.towardZero), n < Double(Int32.max) else {
        return .domainError(word: word(), operands: [n], requirement: "n must be a whole number from 1 up")
      }
      let places = Int(n)
      guard count > places else { return .stackUnderflow(word: word(), needs: places + 1, has: count) }
      if operation == .pick {
        let value = peek(places)
        drop(1)
        push(value)
      } else {
        let values = topValues(places + 1)  // xₙ … x₁ n, bottom to top
        drop(places + 1)
        for value in values[1..<places] { push(value) }
        push(values[0])
      }
    case .lastX:
      guard !lastX.isNaN else { return .noLastX(word: word()) }
      push(lastX)
    case .subtotal:
      let pushed = count - sectionBase()
      guard pushed >= 1 else { return .nothingInSection(word: word()) }
      let values = topValues(pushed)
      var total = 0.0
      for value in values { total += value }
      if !total.isFinite { return failure(total, word: word, operands: []) }
      drop(pushed)
      push(total)
      lastX = values[pushed - 1]
    case .sum, .average:
      let values = allValues()
      var total = 0.0
      for value in values { total += value }
      let result = operation == .sum ? total : total / Double(values.count)
      if !result.isFinite { return failure(result, word: word, operands: []) }
      drop(values.count)
      push(result)
      lastX = values[values.count - 1]
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
      lastX = b
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
      lastX = a
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
    case .exp: return .success(cExp(a))
    case .ln, .log10, .log2:
      guard a > 0 else { return .failure(.domain("a logarithm needs a value > 0")) }
      return .success(operation == .ln ? cLog(a) : operation == .log10 ? log10(a) : cLog2(a))
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
  /// odd multiple of 90° is a domain error.
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
@inline(__always) private func cExp(_ x: Double) -> Double { exp(x) }
@inline(__always) private func cLog(_ x: Double) -> Double { log(x) }
@inline(__always) private func cLog2(_ x: Double) -> Double { log2(x) }

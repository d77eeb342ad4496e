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
      guard n >= 1, n == n.rounded(.towardZero), n.isFinite else {
        return .domainError(word: word(), operands: [n], requirement: "n must be a whole number from 1 up")
      }
      // Any whole n is a fair question of the stack, however large (`1e300 pick`): a stack
      // never holds that many, so the answer is an underflow. n + 1 is said as the largest Int
      // past it.
      guard n < Double(count) else {
        let needs = n < 0x1p62 ? Int(n) + 1 : Int.max
        return .stackUnderflow(word: word(), needs: needs, has: count)
      }
      let places = Int(n)
      // pick walks the nodes below the line's own values; roll moves every value it passes, and
      // what it moves off the persistent stack becomes the line's own (nodes again at its end).
      let reads = operation == .pick ? max(0, places - localCount + 1) : places + 1
      guard spend(reading: reads) else { return overBudget(word()) }
      if operation == .roll, places > localCount, places > valueCap {
        return .overBudget(word: word(), limit: valueCap, values: true)
      }
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
      guard spend(reading: pushed) else { return overBudget(word()) }
      let values = topValues(pushed)
      var total = 0.0
      for value in values { total += value }
      if !total.isFinite { return failure(total, word: word, operands: []) }
      drop(pushed)
      push(total)
      lastX = values[pushed - 1]
    case .sum, .average, .standardDeviation:
      guard spend(reading: count) else { return overBudget(word()) }
      let values = allValues()
      var total = 0.0
      for value in values { total += value }
      let result =
        switch operation {
        case .sum: total
        case .average: total / Double(values.count)
        default: Self.sampleStandardDeviation(values, total: total)
        }
      if !result.isFinite { return failure(result, word: word, operands: []) }
      drop(values.count)
      push(result)
      lastX = values[values.count - 1]
    case .add, .subtract, .multiply, .divide, .power, .percent, .percentChange, .percentOfTotal, .modulo, .minimum,
      .maximum, .atan2:
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
      case .percentChange, .percentOfTotal:
        // A percent of a: of nothing, there is none. The operands are not named, as they would
        // read as `^`'s "0 to a negative power".
        if a == 0 { return .divisionByZero(word: word(), operands: []) }
        result = operation == .percentChange ? ((b - a) * 100) / a : (b * 100) / a
      case .atan2:
        // y is below x, as in C's atan2(y, x); in degrees the angle is in degrees too.
        let radians = atan2(a, b)
        result = settings.angleUnit == .degrees ? radians * 180 / Double.pi : radians
      case .modulo:
        if b == 0 { return .divisionByZero(word: word(), operands: [a, b]) }
        result = a - b * (a / b).rounded(.down)
      case .minimum: result = Swift.min(a, b)
      default: result = Swift.max(a, b)
      }
      if !result.isFinite { return failure(result, word: word, operands: [a, b]) }
      // The percents keep a (HP style): only b is replaced.
      drop(operation == .percent || operation == .percentChange || operation == .percentOfTotal ? 1 : 2)
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
    case .sinh: return .success(sinh(a))
    case .cosh: return .success(cosh(a))
    case .tanh: return .success(tanh(a))
    case .asinh: return .success(asinh(a))
    case .acosh:
      guard a >= 1 else { return .failure(.domain("it needs a value ≥ 1")) }
      return .success(acosh(a))
    case .atanh:
      // ±1 itself gives ±infinity, an overflow.
      guard a >= -1 && a <= 1 else { return .failure(.domain("it needs a value from -1 to 1")) }
      return .success(atanh(a))
    case .factorial:
      guard a >= 0, a == a.rounded(.towardZero) else {
        return .failure(.domain("n must be a whole number ≥ 0"))
      }
      // 171! is beyond the largest double: an overflow, as infinity is.
      return .success(a <= 170 ? Self.factorials[Int(a)] : .infinity)
    case .floor: return .success(a.rounded(.down))
    case .ceil: return .success(a.rounded(.up))
    case .round: return .success(a.rounded(.toNearestOrAwayFromZero))
    case .trunc: return .success(a.rounded(.towardZero))
    default: return .success(a)
    }
  }

  /// The sample standard deviation of `values` (at least two), whose sum is `total`: the square
  /// root of the squared deviations from the mean, added up and divided by n − 1. The deviations
  /// are scaled by the largest before they are squared, so that values near the largest double
  /// do not overflow where the result would not; a mean whose sum overflows is taken from each
  /// value's share instead.
  private static func sampleStandardDeviation(_ values: [Double], total: Double) -> Double {
    let n = Double(values.count)
    var mean = total / n
    if !mean.isFinite {
      mean = 0
      for value in values { mean += value / n }
    }
    var largest = 0.0
    for value in values { largest = Swift.max(largest, Swift.abs(value - mean)) }
    // All equal: 0. Spread past the largest double: infinity, an overflow.
    guard largest > 0, largest.isFinite else { return largest }
    var squares = 0.0
    for value in values {
      let scaled = (value - mean) / largest
      squares += scaled * scaled
    }
    return largest * (squares / (n - 1)).squareRoot()
  }

  /// n! for n from 0 to 170, each the double nearest the exact product: computed once in whole
  /// numbers of any size and rounded once (a running product in doubles rounds at every step and
  /// drifts into the 15th digit by 170!).
  static let factorials: [Double] = {
    var limbs: [UInt32] = [1]  // the exact n!, 32 bits a limb, least significant first
    var result = [1.0]
    for k in UInt64(1)...170 {
      var carry: UInt64 = 0
      for i in limbs.indices {
        let product = UInt64(limbs[i]) * k + carry
        limbs[i] = UInt32(truncatingIfNeeded: product)
        carry = product >> 32
      }
      if carry > 0 { limbs.append(UInt32(carry)) }
      result.append(nearestDouble(limbs))
    }
    return result
  }()

  /// The double nearest a whole number given as 32-bit limbs (least significant first, the last
  /// nonzero), ties to even: its top 64 bits, with any lower bit that is set folded into the
  /// lowest of them (so that a tie in the top bits that is none in the whole rounds up), converted
  /// once and scaled by the bits left below.
  private static func nearestDouble(_ limbs: [UInt32]) -> Double {
    guard let last = limbs.last else { return 0 }
    let length = 32 * limbs.count - last.leadingZeroBitCount  // in bits
    func bit(_ i: Int) -> UInt64 { UInt64(limbs[i / 32] >> UInt32(i % 32) & 1) }
    guard length > 64 else {
      var value: UInt64 = 0
      for i in stride(from: length - 1, through: 0, by: -1) { value = value << 1 | bit(i) }
      return Double(value)
    }
    var top: UInt64 = 0
    for i in stride(from: length - 1, through: length - 64, by: -1) { top = top << 1 | bit(i) }
    var sticky: UInt64 = 0
    for i in 0..<(length - 64) { sticky |= bit(i) }
    return Double(top | sticky) * pow(2, Double(length - 64))
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

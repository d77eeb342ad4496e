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
    // Not a switch: only two operations have a fast path, and any other takes `apply`'s.
    if case .arithmetic(let arithmetic) = step.operation {
      return localCount >= 2 && arithmeticInPlace(arithmetic, savingBelow: false)
    }
    guard step.operation == .clear, base < 0 else { return false }
    localCount = 0
    return true
  }

  /// `+ - * /` on the top two values, both in the line's buffer (the caller checks that there
  /// are two): the result replaces them and `lastx` is the top. False, having changed nothing,
  /// for a result that is not finite or none in these units (`apply` words why). Inside a word's
  /// use (`savingBelow`), the operands' slots below `saveFloor` are saved first, as `apply`'s
  /// `drop` would; outside one the flag is a constant and its test compiles away.
  @inline(__always)
  mutating func arithmeticInPlace(_ arithmetic: Operation.Arithmetic, savingBelow: Bool) -> Bool {
    let n = localCount
    let a = local[n - 2]
    let b = local[n - 1]
    guard let result = Self.computePlain(arithmetic, a, b) else { return false }
    if savingBelow && n - 2 < saveFloor { save(downTo: n - 2) }
    local[n - 2] = result
    localCount = n - 1
    lastX = b
    return true
  }

  /// `+ - * /` on the line's one value and the top of the stack it started with (a running
  /// total's `+`), outside a word's use: the stack's top is popped, as `apply` would pop it, and
  /// the result replaces the line's value. False, having changed nothing, for a result that is
  /// not finite, or when the operands are not there. Asked by `evaluateOther`, not by
  /// `applyInline`: one more branch there made `evaluateLine`'s loop too large for the lexer's
  /// `next()` to be inlined into it (+2.8% instructions on the running tape).
  @inline(__always)
  mutating func arithmeticOnBase(_ arithmetic: Operation.Arithmetic) -> Bool {
    guard localCount == 1, base >= 0, saveFloor == 0 else { return false }
    let node = nodes[Int(base)]
    let b = local[0]
    guard let result = Self.computePlain(arithmetic, node.value, b) ?? computeInOneUnit(arithmetic, node.value, b)
    else { return false }
    base = node.next
    consumed += 1
    reach = max(reach, consumed)
    local[0] = result
    lastX = b
    return true
  }

  /// `+ - * /` on the top two values, both in the line's buffer, when `computeInOneUnit` takes
  /// them, outside a word's use: as `arithmeticInPlace` does it for plain numbers. Asked by
  /// `evaluateOther`, for the reason `arithmeticOnBase` is.
  @inline(__always)
  mutating func arithmeticInOneUnit(_ arithmetic: Operation.Arithmetic) -> Bool {
    let n = localCount
    guard n >= 2, saveFloor == 0 else { return false }
    let b = local[n - 1]
    guard let result = computeInOneUnit(arithmetic, local[n - 2], b) else { return false }
    local[n - 2] = result
    localCount = n - 1
    lastX = b
    return true
  }

  /// A shuffle whose inputs all lie in the line's buffer, done there: the buffer's slots are
  /// rewritten as `rearranged` says, those below `saveFloor` that change saved first. False,
  /// having changed nothing, when they do not (`apply` does it then). Leaves `lastx` alone, as
  /// every shuffle does.
  @inline(__always)
  mutating func shuffleInPlace(_ shuffle: Operation.Shuffle, _ step: Builtin.Step) -> Bool {
    let first = localCount - step.inputs
    // Three slots from `first` are read and written whatever the shuffle takes: those past its
    // inputs are scratch above the line's values.
    guard first >= 0, first + 3 <= local.count else { return false }
    // The inputs it keeps are written back unchanged: only those past them need saving.
    if first + step.kept < saveFloor { save(downTo: first + step.kept) }
    let (x, y, z) = Self.rearranged(shuffle, local[first], local[first + 1], local[first + 2])
    local[first] = x
    local[first + 1] = y
    local[first + 2] = z
    localCount = first + step.outputs
    return true
  }

  /// A builtin inside a word's use, on the line's buffer, done there when its operands all lie
  /// there and its result is finite: arithmetic, shuffles and the other computations on two
  /// values or one. False, having changed nothing, otherwise: `apply` runs it then, and words
  /// the failure. The one dispatch of the in-place paths: a unit's rule, in `compute`, reaches
  /// them all.
  @inline(__always)
  mutating func stepInPlace(_ step: Builtin.Step) -> Bool {
    switch step.operation {
    case .arithmetic(let arithmetic): localCount >= 2 && arithmeticInPlace(arithmetic, savingBelow: true)
    case .shuffle(let shuffle): shuffleInPlace(shuffle, step)
    case .binary, .unary: computeInPlace(step)
    case .statistic, .clear, .depth, .pick, .roll, .lastX, .subtotal, .pi, .e: false
    }
  }

  /// A computation on two values or one, all in the line's buffer, done there when its result
  /// is finite: the result replaces the operands `apply` would drop (slots below `saveFloor`
  /// saved first, as its `drop` would) and `lastx` is the top. False, having changed nothing,
  /// otherwise: `apply` computes it again and words the failure.
  @inline(__always)
  mutating func computeInPlace(_ step: Builtin.Step) -> Bool {
    let n = localCount
    guard n >= step.inputs else { return false }
    let degrees = settings.angleMode == .degrees
    let result: Result<Value, OperationFailure>
    switch step.operation {
    case .binary(let binary): result = Self.compute(binary, local[n - 2], local[n - 1], degrees: degrees)
    case .unary(let unary): result = Self.compute(unary, local[n - 1], degrees: degrees)
    case .arithmetic, .shuffle, .statistic, .clear, .depth, .pick, .roll, .lastX, .subtotal, .pi, .e: return false
    }
    guard case .success(let value) = result, value.isFinite else { return false }
    let top = local[n - 1]
    let slot = n - step.replaced
    if slot < saveFloor { save(downTo: slot) }
    local[slot] = value
    localCount = slot + 1
    lastX = top
    return true
  }

  /// Runs a builtin, with the arity the builtins table gives it. `word` spells the token as
  /// written, for messages.
  mutating func apply(_ step: Builtin.Step, word: () -> String) -> Problem? {
    let operation = step.operation
    guard count >= step.inputs else { return .stackUnderflow(word: word(), needs: step.inputs, has: count) }

    switch operation {
    case .pi: push(.pi)
    case .e: push(.e)
    case .clear:
      consumed += Int32(baseDepth)
      reach = max(reach, consumed)
      base = -1
      if saveFloor > 0 { save(downTo: 0) }
      localCount = 0
    case .depth: push(.count(count))
    case .shuffle(let shuffle):
      // The inputs may lie in the persistent stack: read them, drop only those the shuffle does
      // not leave where they were (`dup` and `over` keep theirs: `step.kept`), push the rest.
      let inputs = step.inputs
      let a = peek(inputs - 1)
      let b = inputs > 1 ? peek(inputs - 2) : a
      let c = inputs > 2 ? peek(0) : a
      let (x, y, z) = Self.rearranged(shuffle, a, b, c)
      let kept = step.kept
      drop(inputs - kept)
      if kept == 0 && step.outputs > 0 { push(x) }
      if kept <= 1 && step.outputs > 1 { push(y) }
      if step.outputs > 2 { push(z) }
    case .pick, .roll:
      // n is the top; x₁ is right below it, xₙ n places below it.
      // A count, not a quantity: a plain number.
      let top = peek(0)
      let n = top.number
      guard top.unit == .none else {
        return .unitMismatch(word: word(), operands: [top], failure: .needsPlain)
      }
      guard n >= 1, n == n.rounded(.towardZero), n.isFinite else {
        return .domainError(word: word(), operands: [top], requirement: "n must be a whole number from 1 up")
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
      guard !lastX.isNone else { return .noLastX(word: word()) }
      push(lastX)
    case .subtotal:
      let pushed = count - sectionBase()
      guard pushed >= 1 else { return .nothingInSection(word: word()) }
      guard spend(reading: pushed) else { return overBudget(word()) }
      let values = topValues(pushed)
      var result = Self.compute(.sum, values)
      if case .failure(let failure) = result, let rated = statisticWithRates(failure, .sum, values) { result = rated }
      return settle(result, replacing: pushed, top: values[pushed - 1], operands: [], word: word)
    case .statistic(let statistic):
      guard spend(reading: count) else { return overBudget(word()) }
      let values = allValues()
      var result = Self.compute(statistic, values)
      if case .failure(let failure) = result, let rated = statisticWithRates(failure, statistic, values) {
        result = rated
      }
      return settle(result, replacing: values.count, top: values[values.count - 1], operands: [], word: word)
    case .arithmetic(let arithmetic):
      let b = peek(0)
      let a = peek(1)
      if arithmetic == .divide && b.isZero { return .divisionByZero(word: word(), operands: [a, b], by: .division) }
      var result = Self.compute(arithmetic, a, b)
      if case .failure(let failure) = result,
        let rated = retriedWithRates(failure, a, b, { Self.compute(arithmetic, $0, $1) })
      {
        result = rated
      }
      return settle(result, replacing: step.replaced, top: b, operands: [a, b], word: word)
    case .binary(let binary):
      let b = peek(0)
      let a = peek(1)
      let degrees = settings.angleMode == .degrees
      var result = Self.compute(binary, a, b, degrees: degrees)
      if case .failure(let failure) = result,
        let rated = retriedWithRates(failure, a, b, { Self.compute(binary, $0, $1, degrees: degrees) })
      {
        result = rated
      }
      return settle(result, replacing: step.replaced, top: b, operands: [a, b], word: word)
    case .unary(let unary):
      let a = peek(0)
      let result = Self.compute(unary, a, degrees: settings.angleMode == .degrees)
      return settle(result, replacing: step.replaced, top: a, operands: [a], word: word)
    }
    return nil
  }

  /// Puts a computation's result in place of the top `count` values, `top` the topmost operand
  /// (which `lastx` becomes), when it has one and it is finite. Otherwise changes nothing and
  /// returns the problem, worded from `operands`: a failure as `problem` words it, a result that
  /// is not finite as `failure` does. The one ending of every computation on `apply`'s path.
  /// (`operands` is made only then: an array per computation cost 10% of a tape of words.)
  @inline(__always)
  private mutating func settle(
    _ result: Result<Value, OperationFailure>, replacing count: Int, top: Value,
    operands: @autoclosure () -> [Value], word: () -> String
  ) -> Problem? {
    switch result {
    case .failure(let failure): return problem(failure, operands: operands(), word: word)
    case .success(let value) where !value.isFinite: return self.failure(value, word: word, operands: operands())
    case .success(let value):
      drop(count)
      push(value)
      lastX = top
      return nil
    }
  }

  /// What a computation that has no result tells the user.
  private func problem(_ failure: OperationFailure, operands: [Value], word: () -> String) -> Problem {
    switch failure {
    case .divisionByZero(let division):
      .divisionByZero(word: word(), operands: division == .percentOfZero ? [] : operands, by: division)
    case .domain(let requirement): .domainError(word: word(), operands: operands, requirement: requirement)
    case .units(let failure): .unitMismatch(word: word(), operands: operands, failure: failure)
    }
  }

  /// The problem with a result that is not finite: NaN is a domain error, infinity an overflow.
  private func failure(_ result: Value, word: () -> String, operands: [Value]) -> Problem {
    result.isNone
      ? .domainError(word: word(), operands: operands, requirement: nil)
      : .overflow(word: word(), operands: operands)
  }

  /// Why a computation has no result, before one that is not finite says it.
  enum OperationFailure: Error {
    /// A division by zero, and which.
    case divisionByZero(ZeroDivision)
    case domain(String)
    /// Operands whose units the operation cannot combine (`Machine+Units`).
    case units(UnitFailure)
  }

  // MARK: What each operation computes, written once

  /// `+ - * /`, for the fast paths and `apply` alike. Two plain numbers (the commonest pair)
  /// take one test of their units and the numbers' arithmetic; any other pair goes out of line
  /// to the units' rules.
  @inline(__always)
  static func compute(_ arithmetic: Operation.Arithmetic, _ a: Value, _ b: Value) -> Result<Value, OperationFailure> {
    guard a.unit.index | b.unit.index == 0 else { return computeInUnits(arithmetic, a, b) }
    return .success(Value(plain(arithmetic, a.number, b.number), unit: .none))
  }

  /// The fast paths' `compute`: two plain numbers' finite result, or nil for anything else (a
  /// unit, or a result that is not finite), which `apply` then computes and words. No `Result`
  /// to build and take apart on the hottest path.
  @inline(__always)
  static func computePlain(_ arithmetic: Operation.Arithmetic, _ a: Value, _ b: Value) -> Value? {
    guard a.unit.index | b.unit.index == 0 else { return nil }
    let result = plain(arithmetic, a.number, b.number)
    return result.isFinite ? Value(result, unit: .none) : nil
  }

  /// `+ - * /` on operands with units, when the answer needs no conversion: one unit (not a
  /// temperature's scale) added to or subtracted from itself, or a product or quotient whose unit
  /// is the last one worked out (`productMemo`) or needs no scale (`km*km`, `km/h*h`). Nil,
  /// having changed nothing but the memo, for anything else and for a result that is not finite:
  /// `apply` computes those through `arithmeticInUnits`, which gives these the same values. A tape
  /// in one unit so computes in place, as a plain tape does, and never goes to the registry.
  @inline(never)
  mutating func computeInOneUnit(_ arithmetic: Operation.Arithmetic, _ a: Value, _ b: Value) -> Value? {
    let result: Double
    let unit: UnitID
    switch arithmetic {
    case .add, .subtract:
      guard a.unit == b.unit, !a.unit.isScale else { return nil }
      result = arithmetic == .add ? a.number + b.number : a.number - b.number
      unit = a.unit
    case .multiply, .divide:
      let dividing = arithmetic == .divide
      if productMemo.a == a.unit, productMemo.b == b.unit, productMemo.dividing == dividing {
        unit = productMemo.unit
      } else {
        guard case .success(let (product, scale)) = Units.product(a.unit, b.unit, dividing: dividing), scale == nil
        else { return nil }
        productMemo = (a.unit, b.unit, dividing, product)
        unit = product
      }
      result = dividing ? a.number / b.number : a.number * b.number
    }
    return result.isFinite ? Value(result, unit: unit) : nil
  }

  @inline(__always)
  private static func plain(_ arithmetic: Operation.Arithmetic, _ x: Double, _ y: Double) -> Double {
    switch arithmetic {
    case .add: x + y
    case .subtract: x - y
    case .multiply: x * y
    case .divide: x / y
    }
  }

  /// `+ - * /` on operands of which one at least carries a unit: the units' rules
  /// (`Machine+Units`), kept off the plain numbers' path.
  @inline(never)
  private static func computeInUnits(_ arithmetic: Operation.Arithmetic, _ a: Value, _ b: Value)
    -> Result<Value, OperationFailure>
  {
    arithmeticInUnits(arithmetic, a, b).mapError { .units($0) }
  }

  /// What a shuffle leaves in place of its inputs `a b c` (bottom to top; as many as the table
  /// says it takes), bottom to top: as many as the table says it leaves. Generic so that the
  /// same definition also tells which inputs stay where they were (`rearranged(_, 0, 1, 2)`).
  @inline(__always)
  static func rearranged<T>(_ shuffle: Operation.Shuffle, _ a: T, _ b: T, _ c: T) -> (T, T, T) {
    switch shuffle {
    case .dup: (a, a, c)
    case .drop: (a, b, c)
    case .swap: (b, a, c)
    case .over: (a, b, a)
    case .rot: (b, c, a)
    }
  }

  /// How many of a shuffle's first inputs it leaves where they were (`dup` 1, `over` 2, none
  /// for the others), from its one definition: what `apply` need not drop and push again.
  static func kept(_ shuffle: Operation.Shuffle, inputs: Int, outputs: Int) -> Int {
    let (x, y, _) = rearranged(shuffle, 0, 1, 2)
    let leading = x != 0 ? 0 : y != 1 ? 1 : 2
    return min(leading, inputs, outputs)
  }

  /// `sum`, `avg` and `sdev` of `values` (at least one; two for `sdev`), bottom to top; also
  /// `subtotal`'s sum. All in one unit, which the result keeps.
  static func compute(_ statistic: Operation.Statistic, _ values: [Value]) -> Result<Value, OperationFailure> {
    guard let total = total(values) else { return statisticInUnits(statistic, values) }
    switch statistic {
    case .sum: return .success(total)
    case .average: return .success(total.with(total.number / Double(values.count)))
    case .standardDeviation: return .success(total.with(sampleStandardDeviation(values.map(\.number))))
    }
  }

  /// A statistic of values not all plain or in one linear unit: converted to the lowest
  /// quantity's unit first (`totalInUnits`).
  @inline(never)
  private static func statisticInUnits(_ statistic: Operation.Statistic, _ values: [Value]) -> Result<
    Value, OperationFailure
  > {
    switch totalInUnits(statistic, values) {
    case .failure(let failure): return .failure(.units(failure))
    case .success(let numbers):
      let unit = values.first(where: { $0.unit != .none })?.unit ?? .none
      var total = 0.0
      for number in numbers { total += number }
      switch statistic {
      case .sum: return .success(Value(total, unit: unit))
      case .average: return .success(Value(total / Double(numbers.count), unit: unit))
      case .standardDeviation:
        return .success(Value(sampleStandardDeviation(numbers), unit: Units.difference(of: unit)))
      }
    }
  }

  /// The sum of `values`, added bottom to top as a calculator adds them; nil when they are not
  /// all in one unit.
  private static func total(_ values: [Value]) -> Value? {
    let unit = values.first?.unit ?? .none
    var total = Value(0, unit: unit)
    for value in values {
      guard value.unit == unit else { return nil }
      total += value
    }
    // Temperatures on a scale neither add up nor average linearly: the units' rules take them.
    if unit.isScale { return nil }
    return total
  }

  /// A computation on the top two values, a below b. The functions of the C library work on the
  /// numbers; a unit's rules, when values carry one, will be decided here, before them.
  static func compute(_ binary: Operation.Binary, _ a: Value, _ b: Value, degrees: Bool)
    -> Result<Value, OperationFailure>
  {
    guard a.unit.index | b.unit.index == 0 else {
      switch binaryInUnits(binary, a, b) {
      case .failure(let failure): return .failure(.units(failure))
      case .success(let (x, y, unit)):
        return compute(binary, x, y, degrees: degrees).map { Value($0, unit: unit) }
      }
    }
    return compute(binary, a.number, b.number, degrees: degrees).map { Value($0, unit: .none) }
  }

  private static func compute(_ binary: Operation.Binary, _ a: Double, _ b: Double, degrees: Bool)
    -> Result<Double, OperationFailure>
  {
    switch binary {
    case .power:
      if a == 0 && b < 0 { return .failure(.divisionByZero(.power)) }
      return .success(pow(a, b))
    case .percent: return .success((a * b) / 100)
    case .percentChange, .percentOfTotal:
      // A percent of a: of nothing, there is none. The operands are not named, as they would
      // read as `^`'s "0 to a negative power".
      if a == 0 { return .failure(.divisionByZero(.percentOfZero)) }
      return .success(binary == .percentChange ? ((b - a) * 100) / a : (b * 100) / a)
    case .atan2:
      // y is below x, as in C's atan2(y, x); in degrees the angle is in degrees too.
      let radians = atan2(a, b)
      return .success(degrees ? radians * 180 / Double.pi : radians)
    case .modulo:
      if b == 0 { return .failure(.divisionByZero(.modulo)) }
      return .success(a - b * (a / b).rounded(.down))
    case .minimum: return .success(Swift.min(a, b))
    case .maximum: return .success(Swift.max(a, b))
    }
  }

  /// A computation on the top value, on its number as for `binary`.
  static func compute(_ unary: Operation.Unary, _ a: Value, degrees: Bool) -> Result<Value, OperationFailure> {
    guard a.unit == .none else {
      switch unaryInUnits(unary, a) {
      case .failure(let failure): return .failure(.units(failure))
      case .success(let (number, unit, inDegrees)):
        return compute(unary, number, degrees: inDegrees ?? degrees).map { Value($0, unit: unit) }
      }
    }
    return compute(unary, a.number, degrees: degrees).map { Value($0, unit: .none) }
  }

  private static func compute(_ unary: Operation.Unary, _ a: Double, degrees: Bool) -> Result<Double, OperationFailure>
  {
    switch unary {
    case .negate: return .success(-a)
    case .absolute: return .success(Swift.abs(a))
    case .inverse: return a == 0 ? .failure(.divisionByZero(.inverse)) : .success(1 / a)
    case .square: return .success(a * a)
    case .squareRoot: return a < 0 ? .failure(.domain("a square root needs a value ≥ 0")) : .success(a.squareRoot())
    case .exp: return .success(cExp(a))
    case .ln, .log10, .log2:
      guard a > 0 else { return .failure(.domain("a logarithm needs a value > 0")) }
      return .success(unary == .ln ? cLog(a) : unary == .log10 ? log10(a) : cLog2(a))
    case .sin:
      guard degrees else { return .success(sin(a)) }
      let (quadrant, radians) = Self.degrees(a)
      return .success(quadrant.map { [0.0, 1, 0, -1][$0] } ?? sin(radians))
    case .cos:
      guard degrees else { return .success(cos(a)) }
      let (quadrant, radians) = Self.degrees(a)
      return .success(quadrant.map { [1.0, 0, -1, 0][$0] } ?? cos(radians))
    case .tan:
      guard degrees else { return .success(tan(a)) }
      let (quadrant, radians) = Self.degrees(a)
      guard let quadrant else { return .success(tan(radians)) }
      if quadrant % 2 == 1 { return .failure(.domain("the tangent of an odd multiple of 90° is infinite")) }
      return .success(0)
    case .asin, .acos:
      guard a >= -1 && a <= 1 else { return .failure(.domain("it needs a value from -1 to 1")) }
      let radians = unary == .asin ? asin(a) : acos(a)
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
    case .unitValue, .baseUnits: return .success(a)
    }
  }

  /// The sample standard deviation of `values` (at least two): the square root of the squared
  /// deviations from the mean, added up and divided by n − 1. Each of those steps rounds in
  /// doubles, and the result came out an ulp off for a third of stacks of mixed magnitudes
  /// (`23996.7189 614 sdev`): they are carried in double-double arithmetic, so that the result
  /// rounds once, correctly but for a result within about 10⁻³⁰ (relative) of halfway between two
  /// doubles, or below the smallest normal double, where scaling back rounds again.
  ///
  /// Values past 2^400, whose squared deviations (n of them added) could overflow, and values
  /// all below 2^−400, whose squares would lose digits to underflow (`1e-200 2e-200 sdev` would be
  /// 0), are scaled by a power of two to near 1, which is exact, and the root scaled back: a
  /// result past the largest double is infinity, an overflow.
  private static func sampleStandardDeviation(_ values: [Double]) -> Double {
    var largest = 0.0
    for value in values { largest = Swift.max(largest, Swift.abs(value)) }
    guard largest > 0 else { return 0 }
    let shift = Swift.abs(largest.exponent) > 400 ? -largest.exponent : 0
    @inline(__always) func scaled(_ value: Double) -> Double {
      shift == 0 ? value : Double(sign: .plus, exponent: shift, significand: value)
    }
    let n = Double(values.count)
    var sum = DoubleDouble.zero
    for value in values { sum.add(scaled(value)) }
    let mean = sum.divided(by: n)
    var squares = DoubleDouble.zero
    for value in values {
      var deviation = DoubleDouble.sum(scaled(value), -mean.high)
      deviation.add(-mean.low)
      squares.add(deviation.squared())
    }
    let root = squares.divided(by: n - 1).squareRoot()
    return shift == 0 ? root : Double(sign: .plus, exponent: -shift, significand: root)
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

  /// An angle in degrees for trigonometry: reduced modulo 360, with its quadrant when it is a
  /// multiple of 90° (where sine, cosine and tangent are exact, and the tangent of an odd
  /// multiple is a domain error), and in radians.
  private static func degrees(_ a: Double) -> (quadrant: Int?, radians: Double) {
    let reduced = fmod(a, 360)
    if reduced.truncatingRemainder(dividingBy: 90) == 0 {
      return (((Int(reduced / 90) % 4) + 4) % 4, 0)
    }
    return (nil, reduced * Double.pi / 180)
  }
}

// The C library's exp, log and log2, named apart from `Operation.Unary`'s cases of the same names.
@inline(__always) private func cExp(_ x: Double) -> Double { exp(x) }
@inline(__always) private func cLog(_ x: Double) -> Double { log(x) }
@inline(__always) private func cLog2(_ x: Double) -> Double { log2(x) }

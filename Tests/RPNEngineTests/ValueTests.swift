import TestSupport
import Testing

@testable import RPNEngine

/// `Value`, what the stack, variables, checks and the display hold: a plain value computes and
/// keeps its bits exactly as the double it wraps, through every place that holds one; values
/// are the same when their bits and units are; a unit is carried, never dropped.
@Suite struct ValueTests {
  /// Doubles of every kind: random bits (NaNs, infinities, subnormals among them) and the edges.
  private static func doubles(count: Int, seed: UInt64) -> [Double] {
    var random = SplitMix64(seed: seed)
    let edges: [Double] = [0, -0.0, 1, -1, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude]
    return edges
      + (0..<count).map { k in
        k % 2 == 0 ? Double(bitPattern: random.next()) : Double(Int64(bitPattern: random.next()) % 1_000_000) / 100
      }
  }

  /// `+ - * /` and the fast path's `Machine.compute` give the double's result, bit for bit.
  @Test func arithmeticIsTheNumbers() {
    let numbers = Self.doubles(count: 400, seed: 23)
    for (a, b) in zip(numbers, numbers.reversed()) {
      let x = Value(a)
      let y = Value(b)
      let expected: [(Operation.Arithmetic, Double)] = [
        (.add, a + b), (.subtract, a - b), (.multiply, a * b), (.divide, a / b),
      ]
      for (operation, result) in expected {
        let computed = try? Machine.compute(operation, x, y).get()
        #expect(computed?.number.bitPattern == result.bitPattern, "\(a) \(operation) \(b)")
        #expect(computed?.unit == UnitID.none)
        // The fast paths' version: the same value when it is finite, else nothing (apply words it).
        #expect(Machine.computePlain(operation, x, y) == (result.isFinite ? computed : nil), "\(a) \(operation) \(b)")
      }
      #expect((x + y).number.bitPattern == (a + b).bitPattern)
      #expect((-x).number.bitPattern == (-a).bitPattern)
      #expect((x == y) == (a.bitPattern == b.bitPattern), "\(a) \(b)")
      #expect(x.isFinite == a.isFinite && x.isNone == a.isNaN && x.isZero == (a == 0))
    }
  }

  /// `-0` is zero as a number but not the value `0`: it is shown `-0`, and the stack's in-place
  /// patching and the formatted-value caches tell them apart. A bound variable keeps its bits
  /// and its unit.
  @Test func bitsAndUnitsSurvive() {
    for (k, number) in Self.doubles(count: 200, seed: 5).enumerated() where number.isFinite {
      let value = Value(number, unit: UnitID(index: UInt32(k % 3)))
      #expect(PackedBound(.variable(value)).bound == .variable(value))
      #expect(PackedBound(.variable(value)).bits == number.bitPattern)
      #expect(PackedBound(.variable(value)).unit == value.unit)
    }
    #expect(Value(-0.0) != Value.zero && Value(-0.0).isZero)
    #expect(Value.none == Value.none, "none is itself, as `lastx` compares it")
    #expect(Value(1, unit: UnitID(index: 1)) != Value(1, unit: .none))
    #expect(Set([Value(1, unit: UnitID(index: 1)), Value(1, unit: .none), Value(1)]).count == 2)
  }

  /// Values in units keep them through what computes in one unit; what does not fit fails (the
  /// unit rules answer) instead of dropping one.
  @Test func unitsAreCarriedOrRefused() throws {
    let metres = try #require(Units.unit(named: "m"))
    let a = Value(2, unit: metres)
    let b = Value(3, unit: metres)
    #expect(try Machine.compute(.add, a, b).get() == Value(5, unit: metres))
    #expect(try Machine.compute(.subtract, a, b).get() == Value(-1, unit: metres))
    #expect(try Machine.compute(.sum, [a, b]).get() == Value(5, unit: metres))
    #expect(try Machine.compute(.average, [a, b]).get() == Value(2.5, unit: metres))
    #expect(try Machine.compute(.multiply, a, b).get() == Value(6, unit: try #require(Units.unit(named: "m^2"))))
    #expect(SectionSummary(sum: Value(5, unit: metres), count: 2).mean == Value(2.5, unit: metres))
    for result in [
      Machine.compute(.add, a, Value(3)), Machine.compute(.sum, [a, Value(3)]),
      Machine.compute(.power, Value(2), a, degrees: false), Machine.compute(.squareRoot, a, degrees: false),
    ] {
      guard case .failure(.units) = result else {
        Issue.record("\(result) should fail on units")
        continue
      }
    }
    #expect(Machine.computePlain(.add, a, b) == nil, "a unit takes apply's path, where its rule answers")
    var memo: [Value: String] = [:]
    _ = StackPicture(depth: 2, top: [Value(2), a]).labelAndLevels(display: DisplaySettings(), maxLevels: 2, memo: &memo)
    #expect(memo.count == 2, "a value in a unit is formatted apart from the plain number")
  }

  /// What carrying a unit costs, in bytes: the unit's 4 round a value up to 16 (12 used), and
  /// each thing that holds one by 8. Before units: a value 8, a stack node 16, a line record 48,
  /// a bound 8 (a binding 24), a word's step 16.
  @Test func sizes() {
    #expect(MemoryLayout<Value>.size == 12 && MemoryLayout<Value>.stride == 16)
    #expect(MemoryLayout<StackNode>.stride == 24)
    #expect(MemoryLayout<LineRecord>.stride == 56)
    #expect(MemoryLayout<PackedBound>.size == 12 && MemoryLayout<Binding>.stride == 32)
    #expect(MemoryLayout<WordOp>.stride == 24)
    #expect(MemoryLayout<Token>.stride == 32, "a token's literal value still fits the token as it was")
  }

  /// `lastx` has no value before an operator consumes one: `none`, which no finite value is.
  @Test func noneIsNoValue() {
    #expect(Value.none.isNone && !Value.none.isFinite)
    #expect(!Value.zero.isNone && !Value(.greatestFiniteMagnitude).isNone)
    #expect(!Value(.infinity).isNone)
  }

  /// `sum` and `avg` add in stack order from 0, as a running double does: the same bits.
  @Test func statisticsAddInOrder() throws {
    let numbers = Self.doubles(count: 300, seed: 11).filter(\.isFinite).map { $0 / 1e10 }
    var total = 0.0
    for number in numbers { total += number }
    let values = numbers.map { Value($0) }
    #expect(try Machine.compute(.sum, values).get().number.bitPattern == total.bitPattern)
    #expect(try Machine.compute(.average, values).get().number.bitPattern == (total / Double(numbers.count)).bitPattern)
  }

  /// A literal in code is a plain number, and a value prints as its number does.
  @Test func literalsAndDescription() {
    let one: Value = 1
    let half: Value = 0.5
    #expect(one.number == 1 && half.number == 0.5)
    #expect("\(Value(12.5))" == "12.5" && "\(Value(-0.0))" == "-0.0")
  }
}

import TestSupport
import Testing

@testable import RPNEngine

/// `Value`, what the stack, variables, checks and the display hold: a plain value computes,
/// compares and keeps its bits exactly as the double it wraps, through every place that holds
/// one.
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
        #expect(Machine.compute(operation, x, y).bitPattern == result.bitPattern, "\(a) \(operation) \(b)")
      }
      #expect((x + y).bitPattern == (a + b).bitPattern)
      #expect((-x).bitPattern == (-a).bitPattern)
      #expect((x < y) == (a < b) && (x == y) == (a == b), "\(a) \(b)")
      #expect(x.isFinite == a.isFinite && x.isNaN == a.isNaN)
    }
  }

  /// `-0` equals `0` as a number but keeps its own bits, which the stack's in-place patching and
  /// the formatted-value caches compare; a bound variable keeps them too.
  @Test func bitsSurvive() {
    for number in Self.doubles(count: 200, seed: 5) where number.isFinite {
      let value = Value(number)
      #expect(Value(bitPattern: value.bitPattern).number.bitPattern == number.bitPattern)
      #expect(PackedBound(.variable(value)).bound == .variable(value))
      #expect(PackedBound(.variable(value)).bits == number.bitPattern)
    }
    #expect(Value(-0.0) == Value.zero)
    #expect(Value(-0.0).bitPattern != Value.zero.bitPattern)
  }

  /// `lastx` has no value before an operator consumes one: `none`, which no finite value is.
  @Test func noneIsNoValue() {
    #expect(Value.none.isNone && !Value.none.isFinite)
    #expect(!Value.zero.isNone && !Value(.greatestFiniteMagnitude).isNone)
    #expect(!Value(.infinity).isNone)
  }

  /// `sum` and `avg` add in stack order from 0, as a running double does: the same bits.
  @Test func statisticsAddInOrder() {
    let numbers = Self.doubles(count: 300, seed: 11).filter(\.isFinite).map { $0 / 1e10 }
    var total = 0.0
    for number in numbers { total += number }
    let values = numbers.map(Value.init(_:))
    #expect(Machine.compute(.sum, values).bitPattern == total.bitPattern)
    #expect(Machine.compute(.average, values).bitPattern == (total / Double(numbers.count)).bitPattern)
  }

  /// A literal in code is a plain number, and a value prints as its number does.
  @Test func literalsAndDescription() {
    let one: Value = 1
    let half: Value = 0.5
    #expect(one.number == 1 && half.number == 0.5)
    #expect("\(Value(12.5))" == "12.5" && "\(Value(-0.0))" == "-0.0")
  }
}

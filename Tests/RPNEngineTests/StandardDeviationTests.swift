import TestSupport
import Testing

@testable import RPNEngine

/// `sdev` is correctly rounded: the double nearest the exact sample standard deviation of the
/// doubles on the stack, which these tests compute in whole numbers of any size.
@Suite struct StandardDeviationTests {
  /// 2,000 seeded stacks of 2 to 20 values of mixed magnitudes: whole numbers, prices with four
  /// decimals, doubles of any digits from 2^−30 to 2^30 of either sign, and values a millionth
  /// apart around a common centre; one stack in four is scaled, all its values by one power of
  /// two, to near the largest or the smallest normal doubles, where `sdev` scales them back.
  @Test func isCorrectlyRoundedOnSeededStacks() {
    var wrong: [String] = []
    for seed in UInt64(0)..<2000 {
      let values = Self.stack(seed: seed)
      let result = (try? Machine.compute(.standardDeviation, values.map { Value($0) }).get())?.number ?? .nan
      let reference = Self.correctlyRoundedStandardDeviation(values)
      if result.bitPattern != reference.bitPattern {
        wrong.append("seed \(seed): \(values) sdev gives \(result), not \(reference)")
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count) of 2000 stacks, first: \(wrong.prefix(3).joined(separator: "; "))")
  }

  /// The reference on the case reported, against the digits worked out by hand: the exact value
  /// is 16534.07909676884911…, whose nearest double is 16534.079096768848.
  @Test func referenceOfTheReportedCase() {
    #expect(Self.correctlyRoundedStandardDeviation([23996.7189, 614]) == 16534.079096768848)
    #expect(Self.correctlyRoundedStandardDeviation([5, 5, 5]) == 0)
    #expect(Self.correctlyRoundedStandardDeviation([-3, 3]) == 18.0.squareRoot())
  }

  /// The values of the stack a seed makes.
  private static func stack(seed: UInt64) -> [Double] {
    var random = SplitMix64(seed: seed)
    let count = 2 + random.next(below: 19)
    let sign = random.next(below: 2) == 0 ? 1 : -1
    let shift = random.next(below: 4) == 0 ? sign * (600 + random.next(below: 360)) : 0
    let centre = Double(random.next(below: 10_000_000)) / 100
    return (0..<count).map { _ in
      let value: Double
      switch random.next(below: 4) {
      case 0: value = Double(random.next(below: 2001) - 1000)
      case 1: value = Double(random.next(below: 100_000_000)) / 10_000
      case 2:
        let significand = 1 + Double(random.next() >> 12) / 0x1p52
        value = Double(
          sign: random.next(below: 2) == 0 ? .plus : .minus, exponent: random.next(below: 61) - 30,
          significand: significand)
      default: value = centre + Double(random.next(below: 1000)) / 1_000_000_000
      }
      return Double(sign: .plus, exponent: shift, significand: value)
    }
  }

  /// The double nearest `sqrt(Σ (x − mean)² / (n − 1))` of `values`, computed exactly: scaled by
  /// 2^E to whole numbers X, with S = Σ X, the variance is Σ (n X − S)² / (n² (n − 1)) / 4^E.
  /// The double is found by comparing the squares of the midpoints between neighbouring doubles
  /// with that fraction, in whole numbers.
  static func correctlyRoundedStandardDeviation(_ values: [Double]) -> Double {
    let n = values.count
    let scale = values.filter { $0 != 0 }.map { -ExactInteger.powerOfTwo(of: $0) }.max() ?? 0
    let whole = values.map { ExactInteger($0, timesTwoToThe: scale) }
    let sum = whole.reduce(ExactInteger.zero, +)
    let squares = whole.reduce(ExactInteger.zero) { total, x in
      let deviation = ExactInteger(n) * x - sum
      return total + deviation * deviation
    }
    guard !squares.isZero else { return 0 }
    let denominator = ExactInteger(n * n * (n - 1))
    // Whether the square of the midpoint between the doubles a and b is below (−1), at (0) or
    // above (1) the variance: (a + b)² / 4 against squares / denominator / 4^scale.
    func midpoint(_ a: Double, _ b: Double) -> Int {
      let power = min(ExactInteger.powerOfTwo(of: a), ExactInteger.powerOfTwo(of: b))
      let twice = ExactInteger(a, timesTwoToThe: -power) + ExactInteger(b, timesTwoToThe: -power)
      let left = twice * twice * denominator
      let exponent = 2 * power + 2 * scale - 2
      return exponent >= 0
        ? ExactInteger.compare(left.shifted(left: exponent), squares)
        : ExactInteger.compare(left, squares.shifted(left: -exponent))
    }
    // A start within an ulp or two, from the top 64 bits of the squares.
    let (top, exponent) = squares.leadingBits
    let even = exponent & 1 == 0
    let root = ((even ? 1 : 2) * Double(top) / Double(n * n * (n - 1))).squareRoot()
    var result = Double(sign: .plus, exponent: (even ? exponent : exponent - 1) / 2 - scale, significand: root)
    for _ in 0..<64 {
      if midpoint(result, result.nextUp) < 0 {
        result = result.nextUp
      } else if result > 0, midpoint(result.nextDown, result) > 0 {
        result = result.nextDown
      } else {
        return result
      }
    }
    Issue.record("no double is nearest the standard deviation of \(values) after 64 steps")
    return .nan
  }
}

// A double-double: a number carried as the unevaluated sum of two doubles, about 106 bits.

/// A number held as `high + low`, `low` within half an ulp of `high`: twice a double's digits, for
/// a computation that must round only once at its end (`sdev`). Built from the error-free
/// transformations (Knuth's two-sum, and a fused multiply-add for a product's error), as in the
/// QD library of Hida, Li and Bailey.
struct DoubleDouble {
  var high: Double
  var low: Double

  static let zero = DoubleDouble(high: 0, low: 0)

  /// `a + b` exactly, for doubles in any order of magnitude (Knuth's two-sum).
  static func sum(_ a: Double, _ b: Double) -> DoubleDouble {
    let s = a + b
    let bPart = s - a
    return DoubleDouble(high: s, low: (a - (s - bPart)) + (b - bPart))
  }

  /// `a + b` exactly, when `|a| ≥ |b|` or `a` is 0 (Dekker's fast two-sum).
  private static func quickSum(_ a: Double, _ b: Double) -> DoubleDouble {
    let s = a + b
    return DoubleDouble(high: s, low: b - (s - a))
  }

  /// Adds a double.
  mutating func add(_ x: Double) {
    var sum = Self.sum(high, x)
    sum.low += low
    self = Self.quickSum(sum.high, sum.low)
  }

  /// Adds a double-double.
  mutating func add(_ other: DoubleDouble) {
    var sum = Self.sum(high, other.high)
    sum.low += low + other.low
    self = Self.quickSum(sum.high, sum.low)
  }

  /// The square; the fused multiply-add gives the rounding error of `high * high` exactly.
  func squared() -> DoubleDouble {
    let product = high * high
    let error = (-product).addingProduct(high, high) + 2 * high * low
    return Self.quickSum(product, error)
  }

  /// The quotient by a double, `divisor` not 0.
  func divided(by divisor: Double) -> DoubleDouble {
    let first = high / divisor
    // `high − first × divisor` is a double, so the fused multiply-add gives it exactly.
    let remainder = high.addingProduct(-first, divisor) + low
    return Self.quickSum(first, remainder / divisor)
  }

  /// The square root rounded to a double: the double root of `high`, corrected by one Newton
  /// step taken in the remainder, so that the root of the whole is what rounds (0 for a value
  /// that is not above 0).
  func squareRoot() -> Double {
    guard high > 0 else { return 0 }
    let root = high.squareRoot()
    // `high − root²` is a double, which the fused multiply-add gives exactly.
    let remainder = high.addingProduct(-root, root) + low
    return root + remainder / (2 * root)
  }
}

// Whole numbers of any size, for references that compute a double's result exactly.

/// A whole number of any size, as a sign and a magnitude in 64-bit limbs (least significant first,
/// no zero limb on top; zero has none): only what an exact reference needs, written plainly so
/// that it is easy to trust rather than fast.
struct ExactInteger: Equatable {
  private(set) var negative = false
  private(set) var limbs: [UInt64] = []

  static let zero = ExactInteger()

  init() {}

  init(_ value: Int) {
    negative = value < 0
    limbs = value == 0 ? [] : [UInt64(value.magnitude)]
  }

  /// `value × 2^exponent`, for an exponent that makes it a whole number: a finite double is its
  /// significand (a whole number) times a power of two.
  init(_ value: Double, timesTwoToThe exponent: Int) {
    guard value != 0 else { return }
    let significand =
      value.significandBitPattern | (value.isNormal ? 1 << UInt64(Double.significandBitCount) : 0)
    let shift = Self.powerOfTwo(of: value) + exponent
    precondition(shift >= 0, "\(value) × 2^\(exponent) is not a whole number")
    self = ExactInteger(magnitude: [significand], negative: value < 0).shifted(left: shift)
  }

  private init(magnitude: [UInt64], negative: Bool = false) {
    var limbs = magnitude
    while limbs.last == 0 { limbs.removeLast() }
    self.limbs = limbs
    self.negative = negative && !limbs.isEmpty
  }

  /// The exponent of a finite double's last significand bit: the value is its whole significand
  /// times 2 to this.
  static func powerOfTwo(of value: Double) -> Int {
    (value.isNormal ? Int(value.exponent) : Double.leastNormalMagnitude.exponent) - Double.significandBitCount
  }

  var isZero: Bool { limbs.isEmpty }

  /// How many bits the magnitude needs.
  var bitWidth: Int { limbs.last.map { limbs.count * 64 - $0.leadingZeroBitCount } ?? 0 }

  /// The magnitude times 2^`bits` (the sign kept).
  func shifted(left bits: Int) -> ExactInteger {
    guard !isZero, bits > 0 else { return self }
    let (whole, part) = bits.quotientAndRemainder(dividingBy: 64)
    var result = [UInt64](repeating: 0, count: whole)
    var carry: UInt64 = 0
    for limb in limbs {
      result.append(part == 0 ? limb : limb << UInt64(part) | carry)
      carry = part == 0 ? 0 : limb >> UInt64(64 - part)
    }
    result.append(carry)
    return ExactInteger(magnitude: result, negative: negative)
  }

  /// The top 64 bits of the magnitude and the power of two they stand at: `top × 2^exponent` is
  /// the magnitude with its lower bits cut off.
  var leadingBits: (top: UInt64, exponent: Int) {
    guard let last = limbs.last else { return (0, 0) }
    let zeros = last.leadingZeroBitCount
    let below = limbs.count >= 2 ? limbs[limbs.count - 2] : 0
    let top = zeros == 0 ? last : last << UInt64(zeros) | below >> UInt64(64 - zeros)
    return (top, bitWidth - 64)
  }

  static func + (a: ExactInteger, b: ExactInteger) -> ExactInteger {
    if a.negative == b.negative { return ExactInteger(magnitude: add(a.limbs, b.limbs), negative: a.negative) }
    // Opposite signs: the larger magnitude less the smaller, with its sign.
    return compare(a.limbs, b.limbs) >= 0
      ? ExactInteger(magnitude: subtract(a.limbs, b.limbs), negative: a.negative)
      : ExactInteger(magnitude: subtract(b.limbs, a.limbs), negative: b.negative)
  }

  static prefix func - (a: ExactInteger) -> ExactInteger { ExactInteger(magnitude: a.limbs, negative: !a.negative) }

  static func - (a: ExactInteger, b: ExactInteger) -> ExactInteger { a + -b }

  static func * (a: ExactInteger, b: ExactInteger) -> ExactInteger {
    guard !a.isZero, !b.isZero else { return .zero }
    var result = [UInt64](repeating: 0, count: a.limbs.count + b.limbs.count)
    for (i, x) in a.limbs.enumerated() {
      var carry: UInt64 = 0
      for (j, y) in b.limbs.enumerated() {
        let (high, low) = x.multipliedFullWidth(by: y)
        let (sum, o1) = result[i + j].addingReportingOverflow(low)
        let (total, o2) = sum.addingReportingOverflow(carry)
        result[i + j] = total
        // x × y + a limb + a carry is below 2^128: the new carry fits.
        carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
      }
      result[i + b.limbs.count] = carry
    }
    return ExactInteger(magnitude: result, negative: a.negative != b.negative)
  }

  /// −1, 0 or 1 as `a` is below, equal to or above `b`.
  static func compare(_ a: ExactInteger, _ b: ExactInteger) -> Int {
    if a.negative != b.negative { return a.negative ? -1 : 1 }
    let magnitudes = compare(a.limbs, b.limbs)
    return a.negative ? -magnitudes : magnitudes
  }

  private static func compare(_ a: [UInt64], _ b: [UInt64]) -> Int {
    if a.count != b.count { return a.count < b.count ? -1 : 1 }
    for (x, y) in zip(a.reversed(), b.reversed()) where x != y { return x < y ? -1 : 1 }
    return 0
  }

  private static func add(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
    var result: [UInt64] = []
    var carry = false
    for i in 0..<max(a.count, b.count) {
      let (sum, o1) = (i < a.count ? a[i] : 0).addingReportingOverflow(i < b.count ? b[i] : 0)
      let (total, o2) = sum.addingReportingOverflow(carry ? 1 : 0)
      result.append(total)
      carry = o1 || o2
    }
    if carry { result.append(1) }
    return result
  }

  /// `a − b`, for `a` at least `b`.
  private static func subtract(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
    var result: [UInt64] = []
    var borrow = false
    for i in 0..<a.count {
      let (difference, o1) = a[i].subtractingReportingOverflow(i < b.count ? b[i] : 0)
      let (total, o2) = difference.subtractingReportingOverflow(borrow ? 1 : 0)
      result.append(total)
      borrow = o1 || o2
    }
    return result
  }
}

import TestSupport
import Testing

@testable import RPNEngine

/// `Exact` and `BigUInt`, what unit conversions compute with: decimals read exactly, fractions
/// kept reduced, and one rounding at the end, to the nearest double (ties to even), checked at the
/// ties, in the subnormals, at overflow, and against the hardware's own correctly rounded `+ − × ÷`.
@Suite struct ExactTests {
  /// A decimal that must read.
  private static func decimal(_ text: String) -> Exact {
    guard let value = Exact(decimal: text) else {
      Issue.record("\(text) does not read")
      return .zero
    }
    return value
  }

  /// 2^`n` exactly, for any `n`.
  private static func two(_ n: Int) -> Exact { Exact(2).power(n) }

  /// 2^64 − 1, the largest word.
  private static let wordMax = two(64) - .one

  // MARK: Conversions

  private static let foot = decimal("0.3048")
  private static let inch = decimal("0.0254")
  private static let mile = decimal("1609.344")
  private static let gallon = decimal("0.003785411784")
  private static let fahrenheitRatio = Exact(5, over: 9)
  /// °F to °C: (x + 459.67) × 5/9 − 273.15, as a ratio and an offset.
  private static let fahrenheitOffset = decimal("459.67") * fahrenheitRatio - decimal("273.15")

  private static let conversions: [(String, Double, Exact, Exact, Double)] = [
    ("3 ft → in", 3, foot / inch, Exact.zero, 36),
    ("68 °F → °C", 68, fahrenheitRatio, fahrenheitOffset, 20),
    ("212 °F → °C", 212, fahrenheitRatio, fahrenheitOffset, 100),
    ("-40 °F → °C", -40, fahrenheitRatio, fahrenheitOffset, -40),
    ("98.6 °F → °C", 98.6, fahrenheitRatio, fahrenheitOffset, 37),
    ("0 °C → K", 0, Exact.one, decimal("273.15"), 273.15),
    ("26.2 mi → km", 26.2, mile / Exact(1000), Exact.zero, 42.164_812_8),
    ("1 mi² → km²", 1, (mile / Exact(1000)).power(2), Exact.zero, 2.589_988_110_336),
    ("1 gal → in³", 1, gallon / inch.power(3), Exact.zero, 231),
    ("1 gal → tsp", 1, gallon / (gallon / Exact(768)), Exact.zero, 768),
    ("760 torr → Pa", 760, Exact(101_325, over: 760), Exact.zero, 101_325),
    ("1 hp → W", 1, decimal("745.69987158227022"), Exact.zero, 745.699_871_582_270_22),
    ("180° → rad", 180, Exact.pi / Exact(180), Exact.zero, Double.pi),
    ("1 rad → °", 1, Exact(180) / Exact.pi, Exact.zero, 180 / Double.pi),
    ("1e308 mi → m", 1e308, mile, Exact.zero, Double.infinity),
    ("-1e308 mi → m", -1e308, mile, Exact.zero, -Double.infinity),
    (
      "least subnormal m → mm", Double.leastNonzeroMagnitude, Exact(1000), Exact.zero,
      1000 * Double.leastNonzeroMagnitude
    ),
    ("least subnormal mm → m", Double.leastNonzeroMagnitude, Exact(1, over: 1000), Exact.zero, 0),
  ]

  /// The examples a unit conversion must get exactly, where the doubles' own arithmetic does not
  /// (`3 * 0.3048 / 0.0254` is 36.00000000000001, `(68 + 459.67) * 5 / 9 - 273.15` is
  /// 20.000000000000057).
  @Test(arguments: conversions)
  func conversionsAreExact(name: String, x: Double, ratio: Exact, offset: Exact, expected: Double) {
    let result = Exact.convert(x, times: ratio, plus: offset)
    #expect(result == expected, "\(name): \(result)")
    #expect(Exact.convertExactly(x, times: ratio, plus: offset) == expected, "\(name)")
  }

  /// The factors made from their definitions are the ones the tables write: the offset of °F is
  /// −32 × 5/9, a square foot is 0.09290304 m², a gallon 231 cubic inches, and powers up to ±99
  /// undo each other exactly.
  @Test func factorsComposeExactly() {
    #expect(Self.fahrenheitOffset == Exact(-160, over: 9))
    #expect(Self.foot / Self.inch == Exact(12))
    #expect(Self.foot.power(2) == Self.decimal("0.09290304"))
    #expect(Self.inch.power(3) * Exact(231) == Self.gallon)
    #expect(Self.mile.description == "201168/125")
    let radian = Exact.pi / Exact(180)
    #expect(radian.power(3) * (Exact(180) / Exact.pi).power(3) == .one)
    #expect(Self.gallon.power(99) * Self.gallon.power(-99) == .one)
    #expect((Self.foot / Self.inch).power(99) == Exact(12).power(99))
    #expect((Self.foot / Self.inch).power(-99) == Exact(12).power(99).reciprocal)
    // 12^20 = 2^40 × 3^20, and 3^20 is a double: the hardware's quotient is correctly rounded.
    #expect(Exact.convert(1, times: (Self.foot / Self.inch).power(-20)) == 0x1p-40 / 3_486_784_401)
    // (180/π)^99 is some 10^174: a thousand-bit fraction, rounded once.
    let degreesToThe99th = Exact.convert(1, times: radian.power(-99))
    #expect(degreesToThe99th == (Exact(180).power(99) / Exact.pi.power(99)).rounded())
    let byDoubles = (0..<99).reduce(1.0) { power, _ in power * (180 / Double.pi) }
    #expect(abs(degreesToThe99th / byDoubles - 1) < 1e-13)
  }

  /// `convert`'s fast paths (a ratio of ±1, of a power of two, of a double or its reciprocal,
  /// parts in words), and a `DoubleRatio` worked out once, give the same
  /// double as exact fractions, bit for bit, for values of every size and the table's kinds of
  /// factors: powers of two, small and huge fractions, negative ones, and offsets.
  @Test func fastPathsAreExact() {
    var factors: [(Exact, Exact)] = [
      (.one, .zero), (Exact(-1), .zero), (Exact(16), .zero), (Exact(1, over: 1024), .zero), (Exact(-8), .zero),
      (Exact(1000), .zero), (Exact(1, over: 1000), .zero), (Self.foot, .zero), (Self.mile / Exact(1000), .zero),
      (Exact(-5, over: 9), .zero), (Exact.pi / Exact(180), .zero), (Self.gallon.power(-7), .zero),
      (Exact(Int(UInt32.max)) * Exact(Int(UInt32.max)), .zero), (Exact(1, over: Int.max), .zero),
      (Self.fahrenheitRatio, Self.fahrenheitOffset), (Exact(9, over: 5), Exact(32)), (.one, Self.decimal("273.15")),
      (.one, Self.decimal("-273.15")), (Exact(-1), Exact(1, over: 3)), (Exact(1000), Self.two(-1074)),
      (Self.gallon, Exact.pi), (Exact(1, over: 3), Self.two(60)), (Exact(1 << 62, over: 3), Exact(7, over: Int.max)),
    ]
    // Rates: doubles and their reciprocals (`: _EUR 1.08_USD ;` converts by 1.08 and by 1/1.08),
    // of every size the doubles have, normal or not.
    for rate in [
      1.08, 0.0062, 1.19, 149.37, 0.1, 3, -1.08, 0x1p-1000 * 1.5, 0x1p1000 * 1.25, 0x1p-1070, 1e300, 0x1p-1030 * 1.75,
    ] {
      let exact = Exact(rate)!
      factors += [(exact, .zero), (Exact.one / exact, .zero)]
    }
    var random = SplitMix64(seed: 41)
    var values: [Double] = [
      0, -0.0, 1, -1, 3, 68, -40, 98.6, 26.2, 1e-300, .leastNonzeroMagnitude, -.leastNormalMagnitude,
      .greatestFiniteMagnitude, -1e308, 0x1p-60, 0x1p60, 0x1p100, 0x1p-100,
    ]
    for k in 0..<600 {
      values.append(Self.randomDouble(&random, kind: k % Self.kinds))
    }
    for (ratio, offset) in factors {
      for x in values {
        let fast = Exact.convert(x, times: ratio, plus: offset)
        let exact = Exact.convertExactly(x, times: ratio, plus: offset)
        #expect(fast.bitPattern == exact.bitPattern, "\(x) × \(ratio) + \(offset): \(fast) vs \(exact)")
        if offset.isZero {
          if let ready = DoubleRatio(ratio).convert(x) {
            #expect(ready.bitPattern == exact.bitPattern, "\(x) × \(ratio) as one operation: \(ready) vs \(exact)")
          }
        }
      }
    }
  }

  // MARK: Reading and writing

  /// Decimals are read exactly, reduced.
  @Test(arguments: [
    ("0.45359237", "45359237/100000000"), ("745.69987158227022", "37284993579113511/50000000000000"),
    ("1.602176634e-19", "801088317/5000000000000000000000000000"), ("4046.8564224", "316160658/78125"),
    ("-459.67", "-45967/100"), ("1e5", "100000"), ("1E+3", "1000"), ("0.5e1", "5"), ("25e-2", "1/4"), ("0", "0"),
    ("-0.000", "0"), ("007", "7"), ("123456789012345678901234567890", "123456789012345678901234567890"),
    ("0.1234567890123456789012345678901", "1234567890123456789012345678901/10000000000000000000000000000000"),
  ])
  func decimalsRead(text: String, fraction: String) {
    #expect(Exact(decimal: text)?.description == fraction, "\(text)")
  }

  /// Anything that is not `-digits.digits e±digits` is refused, and so is an exponent beyond ±10000.
  @Test(arguments: [
    "", "-", ".5", "5.", "-.5", "1e", "1e+", "1e-", "1.2.3", "1e5.0", "--1", "+1", "1_000", " 1", "1 ", "0x10",
    "1e10001", "1e-10001", "١", "1ee5", "e5", "NaN", "inf", "1.e5", "1,5", "½", "1e5e5",
  ])
  func malformedDecimalsAreRefused(text: String) {
    #expect(Exact(decimal: text) == nil, "\(text)")
  }

  private static let written: [(Exact, String, String?)] = [
    (Exact(1_609_344, over: 1000), "201168/125", "1609.344"), (Exact(3048, over: 10_000), "381/1250", "0.3048"),
    (Exact(-45_967, over: 100), "-45967/100", "-459.67"), (Exact(5), "5", "5"), (Exact(-5), "-5", "-5"),
    (Exact(1, over: 3), "1/3", nil), (Exact(-160, over: 9), "-160/9", nil),
    (Exact(1, over: 1024), "1/1024", "0.0009765625"),
    (Exact(0), "0", "0"), (Exact(1, over: 20), "1/20", "0.05"), (Exact(7, over: 6), "7/6", nil),
  ]

  /// A fraction is written `p/q` or `p`, and as a decimal when its denominator has only 2s and 5s.
  @Test(arguments: written)
  func fractionsAreWritten(value: Exact, fraction: String, decimal: String?) {
    #expect(value.description == fraction)
    #expect(value.decimalDescription == decimal)
  }

  /// Written decimals read back as themselves.
  @Test func decimalsRoundTrip() {
    var random = SplitMix64(seed: 5)
    for _ in 0..<300 {
      let value =
        Exact(Int(Int64(bitPattern: random.next()) >> 10), over: 1 << random.next(below: 40))
        * Exact(5).power(-random.next(below: 30))
      let written = value.decimalDescription
      #expect(written != nil && written.flatMap { Exact(decimal: $0) } == value, "\(value)")
    }
  }

  // MARK: Fractions

  /// Every fraction is kept reduced, with a positive denominator and a positive zero: `==` and
  /// hashing are the value's.
  @Test func fractionsAreReduced() {
    #expect(Exact(6, over: 4) == Exact(3, over: 2))
    #expect(Exact(-6, over: -4) == Exact(3, over: 2))
    #expect(Exact(6, over: -4).description == "-3/2")
    #expect(Exact(0, over: -5) == .zero && !Exact(0, over: -5).isNegative)
    #expect(Exact(0, over: -5).denominator == .one)
    #expect(Set([Exact(2, over: 4), Exact(1, over: 2), Self.decimal("0.5"), Exact(0.5)!]).count == 1)
    #expect(Exact(1, over: 3) + Exact(1, over: 6) == Exact(1, over: 2))
    #expect(Exact(1, over: 3) - Exact(1, over: 3) == .zero)
    #expect(!(Exact(1, over: 3) - Exact(1, over: 3)).isNegative)
    #expect(Exact(2, over: 3) * Exact(3, over: 2) == .one)
    #expect(Exact(-2, over: 3) * Exact(9, over: -4) == Exact(3, over: 2))
    #expect(Exact(Int.min, over: 1).description == "-9223372036854775808")
    #expect(Exact(Int.min, over: Int.min) == .one)
    #expect(-Exact.zero == .zero && !(-Exact.zero).isNegative)
    let product = Self.decimal("1.602176634e-19") * Self.decimal("6.02214076e23")
    #expect(product == Self.decimal("96485.3321233100184"))
  }

  private static let powerCases: [(Exact, Int, Exact)] = [
    (Exact(2, over: 3), -2, Exact(9, over: 4)), (Exact(-2, over: 3), -3, Exact(-27, over: 8)),
    (Exact(-2, over: 3), 2, Exact(4, over: 9)), (Exact(7, over: 5), 0, Exact.one), (Exact.zero, 3, Exact.zero),
    (Exact(10), -3, Exact(1, over: 1000)), (Exact(-1), 99, Exact(-1)), (Exact(-1), -98, Exact.one),
  ]

  /// Powers of fractions, negative exponents included.
  @Test(arguments: powerCases)
  func powers(base: Exact, exponent: Int, expected: Exact) {
    #expect(base.power(exponent) == expected)
  }

  /// Division by zero is nil; by anything else, the product with the reciprocal.
  @Test func division() {
    #expect(Exact(3).dividing(by: .zero) == nil)
    #expect(Exact.zero.dividing(by: Exact(3)) == .zero)
    #expect(Exact(3).dividing(by: Exact(-6)) == Exact(-1, over: 2))
    #expect(Exact(-3, over: 7).reciprocal == Exact(-7, over: 3))
  }

  /// Order is the values' order, across signs and sizes.
  @Test func order() {
    let sorted = [
      -Exact(Double.greatestFiniteMagnitude)!, Exact(-1, over: 2), Exact(-1, over: 3), .zero, Self.two(-1074),
      Self.decimal("0.1"), Exact(0.1)!, Exact(1, over: 3), .one, Exact(7, over: 2), Self.two(2000),
    ]
    for (i, a) in sorted.enumerated() {
      for (j, b) in sorted.enumerated() {
        #expect((a < b) == (i < j), "\(a) < \(b)")
        #expect((a == b) == (i == j))
      }
    }
  }

  // MARK: Rounding once

  /// The exact value of a double rounds back to it; infinities and NaN have none.
  @Test func doublesAreExact() {
    #expect(Exact(Double.nan) == nil && Exact(Double.infinity) == nil && Exact(-Double.infinity) == nil)
    #expect(Exact(-0.0) == .zero)
    #expect(Exact(0.1)! != Self.decimal("0.1"))
    #expect(Exact(0.1)! == Exact(3_602_879_701_896_397) / Self.two(55))
    #expect(Exact.pi == Exact(884_279_719_003_555) / Self.two(48))
    var random = SplitMix64(seed: 7)
    for k in 0..<2000 {
      let d = Self.randomDouble(&random, kind: k % Self.kinds)
      let back = Exact(d)!.rounded()
      #expect(back.bitPattern == d.bitPattern || (d == 0 && back == 0), "\(d)")
    }
  }

  private static let ties: [(Exact, Double)] = [
    (two(53) + .one, 0x1p53), (two(53) + Exact(3), 0x1p53 + 4), (two(53) + Exact(5), 0x1p53 + 4),
    ((two(54) + Exact(3)) / Exact(2), 0x1p53 + 2), ((two(54) + .one) / Exact(2), 0x1p53),
    (.one + two(-53), 1), (.one + two(-53) + two(-200), 1.0.nextUp), (.one + Exact(3) * two(-53), 1 + 0x1p-51),
    (.one - two(-54), 1), (.one - two(-54) - two(-300), 1.0.nextDown), (-(.one + two(-53)), -1),
    (wordMax, 0x1p64), (wordMax * wordMax, 0x1p128), (wordMax * two(-1100), 0x1p-1036),
    (Exact(1, over: 3), 1.0 / 3), (Exact(-2, over: 3), -2.0 / 3), (Exact(1, over: 10), 0.1),
    (Exact(Int.max, over: 3), Double(Int.max) / 3),
  ]

  /// Ties go to the even neighbour; anything past the tie (a sticky bit far below) goes up.
  @Test(arguments: ties)
  func tiesGoToEven(value: Exact, expected: Double) {
    #expect(value.rounded() == expected, "\(value)")
  }

  private static let subnormals: [(Exact, Double)] = [
    (Exact.one / two(1074), Double.leastNonzeroMagnitude), (two(-1075), 0), (-two(-1075), -0.0),
    (two(-1075) + two(-1500), .leastNonzeroMagnitude), (Exact(3) * two(-1075), 2 * .leastNonzeroMagnitude),
    (Exact(5) * two(-1075), 2 * .leastNonzeroMagnitude), (Exact(7) * two(-1075), 4 * .leastNonzeroMagnitude),
    (two(-1076), 0), (two(-5000), 0), (-two(-5000), -0.0),
    (two(-1022) - two(-1076), .leastNormalMagnitude), (two(-1022) - two(-1075), .leastNormalMagnitude),
    (two(-1022) - two(-1074), .leastNormalMagnitude.nextDown),
    (two(-1022) - Exact(3) * two(-1075), .leastNormalMagnitude.nextDown.nextDown),
    (two(-1022) / Exact(3), .leastNormalMagnitude / 3), (two(-1040) / Exact(7), 0x1p-1040 / 7),
    (Exact(-1, over: 3) * two(-1060), -0x1p-1060 / 3),
  ]

  /// Subnormals round once, at their own precision: 2^−1074 is the least, half of it a tie that
  /// goes to 0, and just below the least normal rounds up to it.
  @Test(arguments: subnormals)
  func subnormalsRoundOnce(value: Exact, expected: Double) {
    let rounded = value.rounded()
    #expect(rounded == expected && rounded.sign == expected.sign, "\(value): \(rounded)")
  }

  private static let overflows: [(Exact, Double)] = [
    (two(1024), Double.infinity), (-two(1024), -.infinity), (two(5000), .infinity),
    (Exact(.greatestFiniteMagnitude)!, .greatestFiniteMagnitude),
    (Exact(.greatestFiniteMagnitude)! + two(970), .infinity),
    (Exact(.greatestFiniteMagnitude)! + two(970) - two(-10), .greatestFiniteMagnitude),
    (-Exact(.greatestFiniteMagnitude)! - two(969), -.greatestFiniteMagnitude), (Exact(10).power(400), .infinity),
    (Exact(10).power(-400), 0), (Exact(-10).power(-401), -0.0), (Exact(10).power(308), 1e308),
    (Exact(10).power(-320), Double("1e-320")!), (two(1023) * Exact(3, over: 2), 0x1.8p1023),
  ]

  /// Past the largest double's rounding range a value is ±infinity; at the tie above the largest
  /// double it is too (the largest double's last bit is odd).
  @Test(arguments: overflows)
  func overflowIsInfinity(value: Exact, expected: Double) {
    let rounded = value.rounded()
    #expect(rounded == expected && rounded.sign == expected.sign, "\(value.description.prefix(80)): \(rounded)")
  }

  /// The hardware's `+ − × ÷` are correctly rounded: exact fractions of random doubles, rounded
  /// once, give the same bits (normal, subnormal, overflowing and underflowing results), but for
  /// the sign of an exact zero, which a fraction does not have.
  @Test func roundingMatchesTheHardware() {
    var random = SplitMix64(seed: 2024)
    var compared = 0
    for k in 0..<10_000 {
      let a = Self.randomDouble(&random, kind: k % Self.kinds)
      let b = Self.randomDouble(&random, kind: (k / Self.kinds) % Self.kinds)
      let x = Exact(a)!
      let y = Exact(b)!
      var cases: [(String, Exact, Double)] = [("+", x + y, a + b), ("-", x - y, a - b), ("*", x * y, a * b)]
      if let quotient = x.dividing(by: y) { cases.append(("/", quotient, a / b)) }
      for (operation, exact, expected) in cases {
        let rounded = exact.rounded()
        #expect(
          rounded.bitPattern == expected.bitPattern || (exact.isZero && rounded == 0 && expected == 0),
          "\(a) \(operation) \(b): \(rounded) vs \(expected)")
        compared += 1
      }
    }
    #expect(compared > 39_000)
  }

  /// How many kinds of random doubles `randomDouble` makes.
  private static let kinds = 7

  /// A random finite double of a kind: any bits; a moderate value; a small whole number; around
  /// 2^±537 (whose products and quotients are subnormal or overflow); near the subnormals; near
  /// the largest.
  private static func randomDouble(_ random: inout SplitMix64, kind: Int) -> Double {
    let sign: FloatingPointSign = random.next() & 1 == 0 ? .plus : .minus
    let significand = 1 + Double(random.next() >> 12) * 0x1p-52
    switch kind {
    case 0:
      while true {
        let d = Double(bitPattern: random.next())
        if d.isFinite { return d }
      }
    case 1: return Double(sign: sign, exponent: random.next(below: 61) - 30, significand: significand)
    case 2: return Double(Int(random.next(below: 2001)) - 1000)
    case 3: return Double(sign: sign, exponent: random.next(below: 51) - 562, significand: significand)
    case 4: return Double(sign: sign, exponent: random.next(below: 51) + 512, significand: significand)
    case 5: return Double(sign: sign, exponent: random.next(below: 80) - 1074, significand: significand)
    default: return Double(sign: sign, exponent: 1023 - random.next(below: 5), significand: significand)
    }
  }
}

/// `BigUInt`, the whole numbers under `Exact`: long division against a bit-by-bit one, the gcd,
/// shifts and decimal digits.
@Suite struct BigUIntTests {
  /// Random numbers of 0 to 6 limbs, the limbs drawn to hit the long division's rare corrections:
  /// all ones, a top bit alone, 0, 1 and random bits.
  private static func randomNumber(_ random: inout SplitMix64) -> BigUInt {
    let count = random.next(below: 7)
    let limbs = (0..<count).map { _ -> UInt64 in
      switch random.next(below: 6) {
      case 0: return .max
      case 1: return 1 << 63
      case 2: return 0
      case 3: return 1
      case 4: return .max - 1
      default: return random.next()
      }
    }
    return BigUInt(limbs: limbs)
  }

  /// Division one bit at a time: what Knuth's algorithm must agree with.
  private static func slowDivision(_ a: BigUInt, _ b: BigUInt) -> (BigUInt, BigUInt) {
    var quotient = BigUInt.zero
    var remainder = BigUInt.zero
    for bit in stride(from: a.bitWidth - 1, through: 0, by: -1) {
      remainder = remainder << 1 + ((a >> bit).limbs.first.map { BigUInt($0 & 1) } ?? .zero)
      quotient = quotient << 1
      if remainder >= b {
        remainder = remainder - b
        quotient = quotient + .one
      }
    }
    return (quotient, remainder)
  }

  @Test func longDivisionIsDivision() {
    var random = SplitMix64(seed: 99)
    for _ in 0..<3000 {
      let a = Self.randomNumber(&random)
      let b = Self.randomNumber(&random)
      guard !b.isZero else { continue }
      let (quotient, remainder) = a.quotientAndRemainder(dividingBy: b)
      #expect(remainder < b)
      #expect(quotient * b + remainder == a, "\(a) / \(b)")
      let (slowQuotient, slowRemainder) = Self.slowDivision(a, b)
      #expect(quotient == slowQuotient && remainder == slowRemainder, "\(a) / \(b)")
    }
  }

  @Test func gcdDividesBothAndLeavesCoprimes() {
    var random = SplitMix64(seed: 3)
    for _ in 0..<1000 {
      let common = Self.randomNumber(&random) + .one
      let a = Self.randomNumber(&random) * common
      let b = Self.randomNumber(&random) * common
      let g = BigUInt.gcd(a, b)
      guard !a.isZero || !b.isZero else {
        #expect(g.isZero)
        continue
      }
      #expect(a.quotientAndRemainder(dividingBy: g).remainder.isZero)
      #expect(b.quotientAndRemainder(dividingBy: g).remainder.isZero)
      #expect(g.quotientAndRemainder(dividingBy: common).remainder.isZero)
      if !a.isZero && !b.isZero {
        let reduced = BigUInt.gcd(
          a.quotientAndRemainder(dividingBy: g).quotient, b.quotientAndRemainder(dividingBy: g).quotient)
        #expect(reduced == .one, "gcd(\(a), \(b)) = \(g)")
      }
    }
    #expect(BigUInt.gcd(BigUInt(12), BigUInt(18)) == BigUInt(6))
    #expect(BigUInt.gcd(BigUInt(10).power(40), BigUInt(2).power(100)) == BigUInt(2).power(40))
  }

  @Test func shiftsWidthsAndDigits() {
    #expect(BigUInt(10).power(30).description == "1" + String(repeating: "0", count: 30))
    #expect(BigUInt(2).power(64).description == "18446744073709551616")
    #expect(BigUInt(2).power(200).description.count == 61)
    #expect((BigUInt.one << 200) == BigUInt(2).power(200))
    #expect((BigUInt.one << 200) >> 137 == BigUInt.one << 63)
    #expect((BigUInt(5) << 70).bitWidth == 73 && (BigUInt(5) << 70).trailingZeroBitCount == 70)
    #expect(BigUInt(3) >> 2 == .zero && ((BigUInt.one << 64) >> 65).isZero)
    #expect(BigUInt(UInt64.max) + .one == BigUInt.one << 64)
    #expect((BigUInt.one << 128) - .one == BigUInt(limbs: [.max, .max]))
    #expect(BigUInt.zero.description == "0" && BigUInt.zero.bitWidth == 0)
    #expect(BigUInt(7).power(0) == .one && BigUInt.zero.power(0) == .one)
  }
}

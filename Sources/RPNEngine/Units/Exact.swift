// Exact arithmetic for unit conversions: whole numbers of any size, rationals, and rounding once.

/// A whole number of any size, not negative: 64-bit limbs, least significant first, with no zero
/// limb on top (zero has none), so that equal numbers have equal limbs and `==` and hashing are
/// the value's. Only what exact unit factors need, sized for a few thousand bits (a factor raised
/// to the 99th power): schoolbook multiplication and Knuth's long division.
package struct BigUInt: Hashable, Sendable {
  /// The limbs, least significant first; the last is never 0.
  package private(set) var limbs: [UInt64]

  package static let zero = BigUInt(normalized: [])
  package static let one = BigUInt(1)

  package init(_ value: UInt64) {
    limbs = value == 0 ? [] : [value]
  }

  /// From limbs that may have zero limbs on top.
  init(limbs: [UInt64]) {
    var limbs = limbs
    while limbs.last == 0 { limbs.removeLast() }
    self.limbs = limbs
  }

  /// From limbs with no zero limb on top.
  private init(normalized limbs: [UInt64]) {
    self.limbs = limbs
  }

  package var isZero: Bool { limbs.isEmpty }
  /// Whether this is 1: a unit's factor often is, and 1 times x needs no arithmetic.
  var isOne: Bool { limbs.count == 1 && limbs[0] == 1 }

  /// How many bits the number needs: 0 for zero.
  package var bitWidth: Int { limbs.last.map { limbs.count * 64 - $0.leadingZeroBitCount } ?? 0 }

  /// How many times 2 divides the number: 0 for zero.
  package var trailingZeroBitCount: Int { Self.trailingZeroBitCount(of: limbs) }

  /// The number as a `UInt64`, when it fits.
  package var uint64: UInt64? {
    limbs.count <= 1 ? limbs.first ?? 0 : nil
  }

  package static func + (a: BigUInt, b: BigUInt) -> BigUInt {
    let (long, short) = a.limbs.count >= b.limbs.count ? (a.limbs, b.limbs) : (b.limbs, a.limbs)
    var result = long
    var carry = false
    for i in 0..<long.count {
      if i >= short.count && !carry { break }
      let (sum, o1) = result[i].addingReportingOverflow(i < short.count ? short[i] : 0)
      let (total, o2) = sum.addingReportingOverflow(carry ? 1 : 0)
      result[i] = total
      carry = o1 || o2
    }
    if carry { result.append(1) }
    return BigUInt(normalized: result)
  }

  /// `a − b`, for `a` at least `b`.
  package static func - (a: BigUInt, b: BigUInt) -> BigUInt {
    precondition(a >= b, "BigUInt subtraction below zero")
    var result = a.limbs
    subtract(&result, b.limbs)
    return BigUInt(limbs: result)
  }

  package static func * (a: BigUInt, b: BigUInt) -> BigUInt {
    guard !a.isZero, !b.isZero else { return .zero }
    if a.isOne { return b }
    if b.isOne { return a }
    var result = [UInt64](repeating: 0, count: a.limbs.count + b.limbs.count)
    for (i, x) in a.limbs.enumerated() where x != 0 {
      var carry: UInt64 = 0
      for (j, y) in b.limbs.enumerated() {
        let (high, low) = x.multipliedFullWidth(by: y)
        let (sum, o1) = low.addingReportingOverflow(result[i + j])
        let (total, o2) = sum.addingReportingOverflow(carry)
        result[i + j] = total
        // x × y + a limb + a carry is below 2^128: the new carry fits in a limb.
        carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
      }
      result[i + b.limbs.count] = carry
    }
    return BigUInt(limbs: result)
  }

  /// The number times 2^`bits`; a negative count shifts right.
  package static func << (a: BigUInt, bits: Int) -> BigUInt {
    if bits < 0 { return a >> -bits }
    guard bits > 0, !a.isZero else { return a }
    let (whole, part) = bits.quotientAndRemainder(dividingBy: 64)
    var result = [UInt64](repeating: 0, count: whole)
    result.reserveCapacity(whole + a.limbs.count + 1)
    if part == 0 {
      result.append(contentsOf: a.limbs)
    } else {
      var carry: UInt64 = 0
      for limb in a.limbs {
        result.append(limb << UInt64(part) | carry)
        carry = limb >> UInt64(64 - part)
      }
      result.append(carry)
    }
    return BigUInt(limbs: result)
  }

  /// The number divided by 2^`bits`, rounded down; a negative count shifts left.
  package static func >> (a: BigUInt, bits: Int) -> BigUInt {
    if bits < 0 { return a << -bits }
    var result = a.limbs
    shiftRight(&result, by: bits)
    return BigUInt(normalized: result)
  }

  /// The quotient and the remainder of a division by a number that is not 0 (Knuth's algorithm
  /// D, The Art of Computer Programming, 4.3.1).
  package func quotientAndRemainder(dividingBy divisor: BigUInt) -> (quotient: BigUInt, remainder: BigUInt) {
    precondition(!divisor.isZero, "BigUInt division by zero")
    if self < divisor { return (.zero, self) }
    if divisor.limbs.count == 1 {
      let (quotient, remainder) = Self.divide(limbs, by: divisor.limbs[0])
      return (BigUInt(limbs: quotient), BigUInt(remainder))
    }
    // Shift both so that the divisor's top limb has its top bit set: then each estimated quotient
    // limb is at most two above the true one.
    let shift = divisor.limbs[divisor.limbs.count - 1].leadingZeroBitCount
    let v = (divisor << shift).limbs
    var u = (self << shift).limbs
    if u.count == limbs.count { u.append(0) }
    let n = v.count
    let m = u.count - n - 1
    let vTop = v[n - 1]
    let vNext = v[n - 2]
    var quotient = [UInt64](repeating: 0, count: m + 1)
    for j in stride(from: m, through: 0, by: -1) {
      // Estimate the quotient limb from the top two limbs of the remainder and the divisor's top.
      var qHat: UInt64
      var rHat: UInt64
      var rHatOverflow = false
      if u[j + n] >= vTop {
        // The top limbs are equal (the remainder is below the divisor times 2^64): the estimate
        // is 2^64 − 1, and its remainder `u[j+n−1] + vTop` may not fit a limb.
        qHat = .max
        (rHat, rHatOverflow) = u[j + n - 1].addingReportingOverflow(vTop)
      } else {
        (qHat, rHat) = vTop.dividingFullWidth((u[j + n], u[j + n - 1]))
      }
      // Correct it with the next limbs: qHat × vNext > rHat × 2^64 + u[j+n−2] means too big.
      while !rHatOverflow {
        let (high, low) = qHat.multipliedFullWidth(by: vNext)
        guard high > rHat || (high == rHat && low > u[j + n - 2]) else { break }
        qHat -= 1
        (rHat, rHatOverflow) = rHat.addingReportingOverflow(vTop)
      }
      // Subtract qHat × v from the remainder's limbs j...j+n.
      var carry: UInt64 = 0
      var borrow = false
      for i in 0..<n {
        let (high, low) = qHat.multipliedFullWidth(by: v[i])
        let (product, o1) = low.addingReportingOverflow(carry)
        carry = high &+ (o1 ? 1 : 0)
        let (difference, b1) = u[i + j].subtractingReportingOverflow(product)
        let (total, b2) = difference.subtractingReportingOverflow(borrow ? 1 : 0)
        u[i + j] = total
        borrow = b1 || b2
      }
      let (top, b1) = u[j + n].subtractingReportingOverflow(carry)
      let (total, b2) = top.subtractingReportingOverflow(borrow ? 1 : 0)
      u[j + n] = total
      if b1 || b2 {
        // qHat was one too big (rare): add the divisor back.
        qHat -= 1
        var addCarry = false
        for i in 0..<n {
          let (sum, o1) = u[i + j].addingReportingOverflow(v[i])
          let (sumTotal, o2) = sum.addingReportingOverflow(addCarry ? 1 : 0)
          u[i + j] = sumTotal
          addCarry = o1 || o2
        }
        u[j + n] &+= addCarry ? 1 : 0
      }
      quotient[j] = qHat
    }
    u.removeLast(u.count - n)
    Self.shiftRight(&u, by: shift)
    return (BigUInt(limbs: quotient), BigUInt(limbs: u))
  }

  /// The greatest common divisor (the other number when one is 0): a Euclid step to bring the
  /// two to one size, then binary steps (subtract, drop the factors of 2) done in place.
  package static func gcd(_ a: BigUInt, _ b: BigUInt) -> BigUInt {
    if a.isZero { return b }
    if b.isZero { return a }
    if let x = a.uint64, let y = b.uint64 { return BigUInt(gcd(x, y)) }
    var (larger, smaller) = a < b ? (b, a) : (a, b)
    if larger.limbs.count > smaller.limbs.count {
      larger = larger.quotientAndRemainder(dividingBy: smaller).remainder
      if larger.isZero { return smaller }
    }
    let twos = min(larger.trailingZeroBitCount, smaller.trailingZeroBitCount)
    var u = larger.limbs
    var v = smaller.limbs
    shiftRight(&u, by: larger.trailingZeroBitCount)
    shiftRight(&v, by: smaller.trailingZeroBitCount)
    // Both odd from here; the odd part of the gcd is theirs.
    while !(u.count == 1 && v.count == 1) {
      let order = compare(u, v)
      if order == 0 { break }
      if order < 0 { swap(&u, &v) }
      subtract(&u, v)
      shiftRight(&u, by: trailingZeroBitCount(of: u))
    }
    let odd = u.count == 1 && v.count == 1 ? BigUInt(gcd(u[0], v[0])) : BigUInt(normalized: u)
    return odd << twos
  }

  /// The number to the power `exponent` (not negative), by squaring.
  package func power(_ exponent: Int) -> BigUInt {
    precondition(exponent >= 0, "BigUInt power with a negative exponent")
    if isOne || exponent == 0 { return .one }
    if exponent == 1 { return self }
    var result = BigUInt.one
    var base = self
    var remaining = exponent
    while remaining > 0 {
      if remaining & 1 == 1 { result = result * base }
      remaining >>= 1
      if remaining > 0 { base = base * base }
    }
    return result
  }

  /// The greatest common divisor of two words (binary: Stein's algorithm).
  static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
    if a == 0 { return b }
    if b == 0 { return a }
    let twos = (a | b).trailingZeroBitCount
    var u = a >> UInt64(a.trailingZeroBitCount)
    var v = b >> UInt64(b.trailingZeroBitCount)
    while u != v {
      if u < v { swap(&u, &v) }
      u -= v
      u >>= UInt64(u.trailingZeroBitCount)
    }
    return u << UInt64(twos)
  }

  /// Limbs divided by a word that is not 0: the quotient's limbs (maybe a zero on top) and the
  /// remainder.
  private static func divide(_ limbs: [UInt64], by divisor: UInt64) -> ([UInt64], UInt64) {
    var quotient = limbs
    var remainder: UInt64 = 0
    for i in stride(from: limbs.count - 1, through: 0, by: -1) {
      (quotient[i], remainder) = divisor.dividingFullWidth((remainder, limbs[i]))
    }
    return (quotient, remainder)
  }

  /// How many times 2 divides the limbs' number: 0 for zero.
  private static func trailingZeroBitCount(of limbs: [UInt64]) -> Int {
    guard let index = limbs.firstIndex(where: { $0 != 0 }) else { return 0 }
    return index * 64 + limbs[index].trailingZeroBitCount
  }

  /// −1, 0 or 1 as normalized limbs `a` are below, equal to or above `b`.
  private static func compare(_ a: [UInt64], _ b: [UInt64]) -> Int {
    if a.count != b.count { return a.count < b.count ? -1 : 1 }
    for i in stride(from: a.count - 1, through: 0, by: -1) where a[i] != b[i] {
      return a[i] < b[i] ? -1 : 1
    }
    return 0
  }

  /// `a −= b` in place, for `a` at least `b`; zero limbs on top are dropped.
  private static func subtract(_ a: inout [UInt64], _ b: [UInt64]) {
    var borrow = false
    for i in 0..<a.count {
      if i >= b.count && !borrow { break }
      let (difference, b1) = a[i].subtractingReportingOverflow(i < b.count ? b[i] : 0)
      let (total, b2) = difference.subtractingReportingOverflow(borrow ? 1 : 0)
      a[i] = total
      borrow = b1 || b2
    }
    while a.last == 0 { a.removeLast() }
  }

  /// Limbs divided by 2^`bits` in place, rounded down; zero limbs on top are dropped.
  private static func shiftRight(_ a: inout [UInt64], by bits: Int) {
    guard bits > 0, !a.isEmpty else { return }
    let (whole, part) = bits.quotientAndRemainder(dividingBy: 64)
    guard whole < a.count else {
      a.removeAll()
      return
    }
    if whole > 0 { a.removeFirst(whole) }
    if part > 0 {
      for i in 0..<a.count {
        let above = i + 1 < a.count ? a[i + 1] << UInt64(64 - part) : 0
        a[i] = a[i] >> UInt64(part) | above
      }
    }
    while a.last == 0 { a.removeLast() }
  }
}

extension BigUInt: Comparable {
  package static func < (a: BigUInt, b: BigUInt) -> Bool {
    compare(a.limbs, b.limbs) < 0
  }
}

extension BigUInt: CustomStringConvertible {
  /// The number in decimal digits.
  package var description: String {
    guard !isZero else { return "0" }
    // Nineteen digits at a time: 10^19 is the largest power of ten below 2^64.
    let chunk: UInt64 = 10_000_000_000_000_000_000
    var rest = limbs
    var chunks: [UInt64] = []
    while !rest.isEmpty {
      let (quotient, remainder) = Self.divide(rest, by: chunk)
      chunks.append(remainder)
      rest = quotient
      while rest.last == 0 { rest.removeLast() }
    }
    var text = String(chunks[chunks.count - 1])
    for part in chunks.dropLast().reversed() {
      let digits = String(part)
      text += String(repeating: "0", count: 19 - digits.count) + digits
    }
    return text
  }
}

/// An exact rational number: a sign, a numerator and a denominator, always reduced (their gcd is
/// 1, the denominator above 0, and zero is positive over 1), so that `==` and hashing are the
/// value's. A unit conversion's factor and offset are made of these, so that `3 ft → in` is 36
/// and `68 °F → °C` is 20: everything is exact until `convert` rounds once, to the nearest double.
package struct Exact: Hashable, Sendable {
  /// Whether the number is below 0 (never for 0).
  package private(set) var isNegative: Bool
  /// The magnitude's numerator, coprime with the denominator.
  package private(set) var numerator: BigUInt
  /// The denominator: above 0.
  package private(set) var denominator: BigUInt

  package static let zero = Exact(0)
  package static let one = Exact(1)
  /// The exact value of `Double.pi` (a dyadic rational, not π): the angle factors are in it, so
  /// that `180 °` in radians is `Double.pi` itself.
  package static let pi = Exact(Double.pi)!

  /// From parts already reduced; zero made positive.
  private init(negative: Bool, numerator: BigUInt, denominator: BigUInt) {
    self.isNegative = negative && !numerator.isZero
    self.numerator = numerator
    self.denominator = numerator.isZero ? .one : denominator
  }

  /// From parts of any common factor: both divided by their gcd. The denominator is not 0.
  private init(negative: Bool, reducing numerator: BigUInt, over denominator: BigUInt) {
    let divisor = BigUInt.gcd(numerator, denominator)
    if divisor == .one || numerator.isZero {
      self.init(negative: negative, numerator: numerator, denominator: denominator)
    } else {
      self.init(
        negative: negative, numerator: numerator.quotientAndRemainder(dividingBy: divisor).quotient,
        denominator: denominator.quotientAndRemainder(dividingBy: divisor).quotient)
    }
  }

  package init(_ n: Int) {
    self.init(negative: n < 0, numerator: BigUInt(UInt64(n.magnitude)), denominator: .one)
  }

  /// `numerator / denominator`, reduced; the denominator is not 0.
  package init(_ numerator: Int, over denominator: Int) {
    precondition(denominator != 0, "Exact with a zero denominator")
    self.init(
      negative: (numerator < 0) != (denominator < 0), reducing: BigUInt(UInt64(numerator.magnitude)),
      over: BigUInt(UInt64(denominator.magnitude)))
  }

  /// The exact value of a finite double (nil for an infinity or NaN); −0 is 0.
  package init?(_ d: Double) {
    guard d.isFinite else { return nil }
    guard d != 0 else {
      self = .zero
      return
    }
    let (significand, exponent) = Self.parts(of: d)
    let twos = significand.trailingZeroBitCount
    let odd = BigUInt(significand >> UInt64(twos))
    let power = exponent + twos
    self.init(
      negative: d < 0, numerator: power >= 0 ? odd << power : odd,
      denominator: power >= 0 ? .one : .one << -power)
  }

  /// A decimal as written in our tables, read exactly: an optional `-`, digits, optionally `.` and
  /// digits, optionally `e` or `E`, an optional sign and digits (`"0.45359237"`, `"1.602176634e-19"`,
  /// `"-459.67"`, `"1e5"`). Nil for anything else, and for an exponent beyond ±10000 (no unit's).
  package init?(decimal: String) {
    let zero = UInt8(ascii: "0")
    var bytes = decimal.utf8[...]
    let negative = bytes.first == UInt8(ascii: "-")
    if negative { bytes = bytes.dropFirst() }
    var digits = BigUInt.zero
    // Digits are gathered nineteen at a time in a word, then added to `digits`.
    var pending: UInt64 = 0
    var pendingCount = 0
    var digitCount = 0
    var fractionDigits = 0
    var inFraction = false
    func flush() {
      guard pendingCount > 0 else { return }
      var scale: UInt64 = 1
      for _ in 0..<pendingCount { scale *= 10 }
      digits = digits * BigUInt(scale) + BigUInt(pending)
      pending = 0
      pendingCount = 0
    }
    while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if byte == UInt8(ascii: ".") {
        // One point, after a digit and before one.
        guard !inFraction, digitCount > 0, let next = bytes.first, next &- zero < 10 else { return nil }
        inFraction = true
        continue
      }
      guard byte &- zero < 10 else { return nil }
      pending = pending * 10 + UInt64(byte &- zero)
      pendingCount += 1
      digitCount += 1
      if inFraction { fractionDigits += 1 }
      if pendingCount == 19 { flush() }
    }
    guard digitCount > 0 else { return nil }
    flush()
    var exponent = 0
    if !bytes.isEmpty {
      bytes = bytes.dropFirst()
      let exponentNegative = bytes.first == UInt8(ascii: "-")
      if exponentNegative || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
      guard !bytes.isEmpty else { return nil }
      for byte in bytes {
        guard byte &- zero < 10 else { return nil }
        exponent = exponent * 10 + Int(byte &- zero)
        guard exponent <= 10_000 else { return nil }
      }
      if exponentNegative { exponent = -exponent }
    }
    let power = exponent - fractionDigits
    let scale = BigUInt(10).power(Int(power.magnitude))
    if power >= 0 {
      self.init(negative: negative, numerator: digits * scale, denominator: .one)
    } else {
      self.init(negative: negative, reducing: digits, over: scale)
    }
  }

  package var isZero: Bool { numerator.isZero }

  /// 1 over the number, which is not 0.
  package var reciprocal: Exact {
    precondition(!isZero, "the reciprocal of 0")
    return Exact(negative: isNegative, numerator: denominator, denominator: numerator)
  }

  package static prefix func - (a: Exact) -> Exact {
    Exact(negative: !a.isNegative, numerator: a.numerator, denominator: a.denominator)
  }

  package static func + (a: Exact, b: Exact) -> Exact {
    if a.isZero { return b }
    if b.isZero { return a }
    if a.denominator == b.denominator {
      return signedSum(a.isNegative, a.numerator, b.isNegative, b.numerator, over: a.denominator)
    }
    return signedSum(
      a.isNegative, a.numerator * b.denominator, b.isNegative, b.numerator * a.denominator,
      over: a.denominator * b.denominator)
  }

  package static func - (a: Exact, b: Exact) -> Exact {
    a + -b
  }

  package static func * (a: Exact, b: Exact) -> Exact {
    if a.isZero || b.isZero { return .zero }
    if !a.isNegative && a.numerator.isOne && a.denominator.isOne { return b }
    if !b.isNegative && b.numerator.isOne && b.denominator.isOne { return a }
    // Cross-reduced first: the parts stay small, and the product is reduced.
    let g1 = BigUInt.gcd(a.numerator, b.denominator)
    let g2 = BigUInt.gcd(b.numerator, a.denominator)
    func divided(_ x: BigUInt, by g: BigUInt) -> BigUInt {
      g == .one ? x : x.quotientAndRemainder(dividingBy: g).quotient
    }
    return Exact(
      negative: a.isNegative != b.isNegative,
      numerator: divided(a.numerator, by: g1) * divided(b.numerator, by: g2),
      denominator: divided(a.denominator, by: g2) * divided(b.denominator, by: g1))
  }

  /// `a / b`; nil when `b` is 0.
  package func dividing(by b: Exact) -> Exact? {
    b.isZero ? nil : self * b.reciprocal
  }

  /// `a / b`, for `b` not 0 (else `dividing(by:)`).
  package static func / (a: Exact, b: Exact) -> Exact {
    a * b.reciprocal
  }

  /// The number to the power `n`; a negative `n` for a number that is not 0 only. Powers of a
  /// reduced fraction are reduced: no gcd is needed.
  package func power(_ n: Int) -> Exact {
    if n < 0 { return reciprocal.power(-n) }
    return Exact(
      negative: isNegative && n & 1 == 1, numerator: numerator.power(n), denominator: denominator.power(n))
  }

  /// `±x ± y` over a denominator, reduced.
  private static func signedSum(
    _ xNegative: Bool, _ x: BigUInt, _ yNegative: Bool, _ y: BigUInt, over denominator: BigUInt
  ) -> Exact {
    if xNegative == yNegative { return Exact(negative: xNegative, reducing: x + y, over: denominator) }
    return x >= y
      ? Exact(negative: xNegative, reducing: x - y, over: denominator)
      : Exact(negative: yNegative, reducing: y - x, over: denominator)
  }

  /// A finite double's whole significand and the power of two of its last bit: `d` is
  /// `±significand × 2^exponent`.
  private static func parts(of d: Double) -> (significand: UInt64, exponent: Int) {
    if d.isNormal {
      return (d.significandBitPattern | 1 << 52, Int(d.exponent) - 52)
    }
    return (d.significandBitPattern, -1074)
  }
}

extension Exact: Comparable {
  package static func < (a: Exact, b: Exact) -> Bool {
    if a.isNegative != b.isNegative { return a.isNegative }
    // Same sign: compare the magnitudes a/b and c/d as a·d and c·b.
    let left = a.numerator * b.denominator
    let right = b.numerator * a.denominator
    return a.isNegative ? right < left : left < right
  }
}

extension Exact: CustomStringConvertible {
  /// `p/q`, or `p` for a whole number, in decimal digits with a `-` when negative:
  /// `201168/125` for the mile in meters.
  package var description: String {
    let sign = isNegative ? "-" : ""
    return denominator == .one ? sign + numerator.description : "\(sign)\(numerator)/\(denominator)"
  }

  /// The exact decimal, in plain digits (`1609.344`, `0.3048`, `-459.67`, `5`), when the denominator
  /// has no prime factor but 2 and 5; else nil.
  package var decimalDescription: String? {
    let twos = denominator.trailingZeroBitCount
    var rest = denominator >> twos
    var fives = 0
    let five = BigUInt(5)
    while rest != .one {
      let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: five)
      guard remainder.isZero else { return nil }
      rest = quotient
      fives += 1
    }
    // p / (2^twos × 5^fives) is p × 2^(places − twos) × 5^(places − fives) / 10^places.
    let places = max(twos, fives)
    let digits = (numerator * (five.power(places - fives) << (places - twos))).description
    let sign = isNegative ? "-" : ""
    guard places > 0 else { return sign + digits }
    let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
    return sign + String(padded.dropLast(places)) + "." + String(padded.suffix(places))
  }
}

// MARK: - Rounding once

extension Exact {
  /// The nearest double, ties to even: ±infinity past the largest double's rounding range, ±0
  /// below half the least subnormal, and subnormals rounded once at their own precision.
  package func rounded() -> Double {
    if isZero { return 0 }
    if let d = denominator.uint64, numerator.limbs.count <= 2 {
      let high = numerator.limbs.count == 2 ? numerator.limbs[1] : 0
      return Self.nearest(TwoWords(high: high, low: numerator.limbs[0]), over: d, timesTwoToThe: 0, isNegative)
    }
    return Self.nearest(numerator, over: denominator, timesTwoToThe: 0, isNegative)
  }

  /// `x × ratio + offset` computed exactly and rounded once to the nearest double (ties to even).
  /// An exact zero is +0, but for `offset` 0, where it is `x × ratio` with the sign of IEEE's
  /// product (so −0 stays −0). A non-finite `x` gives the doubles' `x × ratio + offset`.
  ///
  /// Fast where it is provably the same: a ratio of 1, a ratio that is a power of two or a
  /// double (one hardware multiplication, which rounds once), the reciprocal of a double (one
  /// division), and parts that fit in words (128-bit arithmetic, no allocation). Else exact
  /// fractions of any size.
  package static func convert(_ x: Double, times ratio: Exact, plus offset: Exact = .zero) -> Double {
    guard x.isFinite else { return x * ratio.rounded() + offset.rounded() }
    if offset.isZero {
      if x == 0 || ratio.isZero { return ratio.isNegative ? -x * 0 : x * 0 }
      if let p = ratio.numerator.uint64, let q = ratio.denominator.uint64 {
        if p == 1 && q == 1 { return ratio.isNegative ? -x : x }
        // ±2^k for k within the doubles: one multiplication by an exact double.
        if p & (p &- 1) == 0 && q & (q &- 1) == 0 {
          let power = p.trailingZeroBitCount - q.trailingZeroBitCount
          let factor = Double(sign: ratio.isNegative ? .minus : .plus, exponent: power, significand: 1)
          return x * factor
        }
        // A ratio that is a double, or its reciprocal (a rate, `: _EUR 1.08_USD ;`): one
        // hardware operation, which rounds once.
        if let fast = DoubleRatio(p, over: q, negative: ratio.isNegative).convert(x) { return fast }
        let (significand, exponent) = parts(of: x)
        let product = significand.multipliedFullWidth(by: p)
        return nearest(
          TwoWords(high: product.high, low: product.low), over: q, timesTwoToThe: exponent,
          (x < 0) != ratio.isNegative)
      }
    } else if x != 0, let result = convertInWords(x, times: ratio, plus: offset) {
      return result
    }
    return convertExactly(x, times: ratio, plus: offset)
  }

  /// `convert` with exact fractions of any size: what the fast paths must equal.
  static func convertExactly(_ x: Double, times ratio: Exact, plus offset: Exact) -> Double {
    let sum = Exact(x)! * ratio + offset
    if sum.isZero {
      return offset.isZero ? (ratio.isNegative ? -x * 0 : x * 0) : 0
    }
    return sum.rounded()
  }

  /// `x × p/q ± r/s` (x finite, not 0) in 128-bit words, when every part fits: `(m·p·s·2^e ± r·q)
  /// / (q·s)` for `x = ±m·2^e`, the power of two moved to whichever term keeps it whole. Nil when
  /// something does not fit.
  private static func convertInWords(_ x: Double, times ratio: Exact, plus offset: Exact) -> Double? {
    guard let p = ratio.numerator.uint64, let q = ratio.denominator.uint64, let r = offset.numerator.uint64,
      let s = offset.denominator.uint64
    else { return nil }
    var (significand, exponent) = parts(of: x)
    let twos = significand.trailingZeroBitCount
    significand >>= UInt64(twos)
    exponent += twos
    let (denominator, overflow) = q.multipliedReportingOverflow(by: s)
    guard !overflow, var scaled = TwoWords(significand, times: p).multiplied(by: s) else { return nil }
    var term = TwoWords(r, times: q)
    // The sum is (scaled × 2^exponent ± term) / denominator: a power 2^exponent above 1 multiplies
    // `scaled`, one below 1 is taken out of both terms (`term` times 2^−exponent) and kept in `power`.
    var power = 0
    if exponent >= 0 {
      guard let moved = scaled.shiftedLeft(by: exponent) else { return nil }
      scaled = moved
    } else {
      guard let moved = term.shiftedLeft(by: -exponent) else { return nil }
      term = moved
      power = exponent
    }
    let productNegative = (x < 0) != ratio.isNegative
    let sum: TwoWords
    let negative: Bool
    if productNegative == offset.isNegative {
      guard let total = scaled.adding(term) else { return nil }
      (sum, negative) = (total, productNegative)
    } else if term < scaled {
      (sum, negative) = (scaled.subtracting(term), productNegative)
    } else {
      (sum, negative) = (term.subtracting(scaled), offset.isNegative)
    }
    if sum.isZero { return 0 }
    return nearest(sum, over: denominator, timesTwoToThe: power, negative)
  }

  /// The double nearest `±n/d × 2^power` (n and d not 0), for n in two words and d in one: n is
  /// shifted so that the quotient has 63 or 64 bits, the bits shifted out and the remainder
  /// making the sticky bit.
  private static func nearest(_ n: TwoWords, over d: UInt64, timesTwoToThe power: Int, _ negative: Bool) -> Double {
    // With n at d's width + 63 bits, n < d × 2^64: the quotient fits a word, and is ≥ 2^62.
    let shift = (64 - d.leadingZeroBitCount) + 63 - n.bitWidth
    var numerator = n
    var sticky = false
    if shift > 0 {
      numerator = n.shiftedLeft(by: shift)!
    } else if shift < 0 {
      (numerator, sticky) = n.shiftedRight(by: -shift)
    }
    let (quotient, remainder) = d.dividingFullWidth((numerator.high, numerator.low))
    return nearest(quotient, timesTwoToThe: power - shift, sticky: sticky || remainder != 0, negative)
  }

  /// The double nearest `±n/d × 2^power` (n and d not 0), for numbers of any size: long
  /// division to a quotient of 63 or 64 bits, the remainder making the sticky bit.
  private static func nearest(_ n: BigUInt, over d: BigUInt, timesTwoToThe power: Int, _ negative: Bool) -> Double {
    let widths = n.bitWidth - d.bitWidth + power
    // n/d·2^power is in [2^(widths − 1), 2^(widths + 1)).
    if widths - 1 >= 1024 { return negative ? -.infinity : .infinity }
    if widths + 1 <= -1075 { return negative ? -0.0 : 0 }
    let shift = d.bitWidth + 63 - n.bitWidth
    // Shifting the divisor rather than the dividend keeps every bit: the quotient is the same.
    let (quotient, remainder) =
      shift >= 0
      ? (n << shift).quotientAndRemainder(dividingBy: d) : n.quotientAndRemainder(dividingBy: d << -shift)
    return nearest(quotient.limbs[0], timesTwoToThe: power - shift, sticky: !remainder.isZero, negative)
  }

  /// The double nearest `±(q + f) × 2^power`, where `q` is a word not 0 and `f` a fraction in
  /// [0, 1) that is not 0 when `sticky`: at least 11 of q's bits are cut, so `f` only breaks ties.
  /// The double's bits are built directly, its precision cut to what its exponent allows, so a
  /// subnormal is rounded once.
  private static func nearest(_ q: UInt64, timesTwoToThe power: Int, sticky: Bool, _ negative: Bool) -> Double {
    // Top bit first: q × 2^power with q's bit 63 set.
    let zeros = q.leadingZeroBitCount
    let bits = q << UInt64(zeros)
    let exponent = power - zeros
    let top = exponent + 63  // the power of two of the top bit
    let signBit: UInt64 = negative ? 1 << 63 : 0
    if top > 1023 { return Double(bitPattern: signBit | 0x7FF0_0000_0000_0000) }
    // The bits kept are those at 2^−1074 and above: 53 for a normal, fewer for a subnormal.
    let kept = min(53, top + 1075)
    if kept < 0 { return Double(bitPattern: signBit) }
    let cut = 64 - kept  // 11...64
    var mantissa = bits >> UInt64(cut)
    let rest = bits & (UInt64.max >> UInt64(64 - cut))
    let half: UInt64 = 1 << UInt64(cut - 1)
    if rest > half || (rest == half && (sticky || mantissa & 1 == 1)) { mantissa += 1 }
    // mantissa × 2^(exponent + cut): a normal's mantissa has its hidden bit at 2^52, which adds 1
    // to the biased exponent field below it, as does a carry to 2^53 (up to infinity's field); a
    // subnormal's exponent is −1074, and a carry to 2^52 makes the least normal.
    let field = UInt64(exponent + cut + 1074) << 52
    return Double(bitPattern: signBit | (field + mantissa))
  }
}

/// A whole number of 128 bits in two words: the parts of a conversion when they are small.
private struct TwoWords: Comparable {
  var high: UInt64
  var low: UInt64

  init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// `a × b`, which always fits.
  init(_ a: UInt64, times b: UInt64) {
    (high, low) = a.multipliedFullWidth(by: b)
  }

  var isZero: Bool { high == 0 && low == 0 }

  var bitWidth: Int { high != 0 ? 128 - high.leadingZeroBitCount : 64 - low.leadingZeroBitCount }

  static func < (a: TwoWords, b: TwoWords) -> Bool {
    a.high != b.high ? a.high < b.high : a.low < b.low
  }

  /// The number times a word; nil past 128 bits.
  func multiplied(by factor: UInt64) -> TwoWords? {
    let lowProduct = low.multipliedFullWidth(by: factor)
    let highProduct = high.multipliedFullWidth(by: factor)
    let (top, overflow) = highProduct.low.addingReportingOverflow(lowProduct.high)
    guard highProduct.high == 0, !overflow else { return nil }
    return TwoWords(high: top, low: lowProduct.low)
  }

  /// The number times 2^`bits` (≥ 0); nil past 128 bits.
  func shiftedLeft(by bits: Int) -> TwoWords? {
    guard bits > 0 else { return self }
    guard isZero || bits <= 128 - bitWidth else { return nil }
    if bits >= 64 { return TwoWords(high: low << UInt64(bits - 64), low: 0) }
    return TwoWords(high: high << UInt64(bits) | low >> UInt64(64 - bits), low: low << UInt64(bits))
  }

  /// The number divided by 2^`bits` (1...64), rounded down, and whether bits were cut.
  func shiftedRight(by bits: Int) -> (TwoWords, cut: Bool) {
    if bits == 64 { return (TwoWords(high: 0, low: high), low != 0) }
    let cut = low & (UInt64.max >> UInt64(64 - bits)) != 0
    return (TwoWords(high: high >> UInt64(bits), low: low >> UInt64(bits) | high << UInt64(64 - bits)), cut)
  }

  /// The sum; nil past 128 bits.
  func adding(_ other: TwoWords) -> TwoWords? {
    let (low, carry) = low.addingReportingOverflow(other.low)
    let (high, o1) = high.addingReportingOverflow(other.high)
    let (total, o2) = high.addingReportingOverflow(carry ? 1 : 0)
    guard !o1, !o2 else { return nil }
    return TwoWords(high: total, low: low)
  }

  /// The difference, for `other` at most the number.
  func subtracting(_ other: TwoWords) -> TwoWords {
    let (low, borrow) = low.subtractingReportingOverflow(other.low)
    return TwoWords(high: high - other.high - (borrow ? 1 : 0), low: low)
  }
}

/// A ratio as one hardware operation that rounds as the exact product does, worked out once for
/// converting many values (a rate, `>EUR` on every other line): the ratio when it is a normal
/// double, or ±2^k over an integer below 2^53. Holds no reference, so a memo of it costs nothing
/// to read. `convert(_:)` is `Exact.convert(_:times:)` bit for bit, or nil where it is not sure.
package struct DoubleRatio: Sendable {
  /// The ratio when it is this normal double; 0 when it is none.
  private var multiplier = 0.0
  /// When the ratio is scale/divisor, scale a power of two and divisor an integer below 2^53 (its
  /// sign the ratio's): those; 0 otherwise.
  private var scale = 0.0
  private var divisor = 0.0

  /// No fast form: every `convert` is nil.
  package init() {}

  package init(_ exact: Exact) {
    guard let p = exact.numerator.uint64, let q = exact.denominator.uint64 else {
      self.init()
      return
    }
    self.init(p, over: q, negative: exact.isNegative)
  }

  /// ±p/q in lowest terms. Inlined: `Exact.convert` makes one on each conversion.
  @inline(__always)
  init(_ p: UInt64, over q: UInt64, negative: Bool) {
    guard p != 0 else { return }
    if q & (q &- 1) == 0, p < 1 << 53 {
      let factor = Double(sign: negative ? .minus : .plus, exponent: -q.trailingZeroBitCount, significand: Double(p))
      if factor.isNormal { multiplier = factor }
    } else if p & (p &- 1) == 0, q < 1 << 53 {
      scale = Double(sign: .plus, exponent: p.trailingZeroBitCount, significand: 1)
      divisor = negative ? -Double(q) : Double(q)
    }
  }

  /// `x` times the ratio, rounded once to the nearest double; nil when the exact way must say.
  @inline(__always)
  package func convert(_ x: Double) -> Double? {
    if multiplier != 0 {
      // One rounding; a product past the doubles' range goes the exact way.
      let product = x * multiplier
      if product.isFinite || !x.isFinite { return product }
    } else if divisor != 0 {
      // x × 2^k is exact while it is normal (or zero, or x is not finite); the division rounds once.
      let scaled = x * scale
      if scaled.isNormal || scaled == 0 || !x.isFinite { return scaled / divisor }
    }
    return nil
  }
}

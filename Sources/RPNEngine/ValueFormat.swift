// How values are shown: the display settings, and `%.Ng` formatting, exact and fast.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How values and stacks are shown: `%.Ng` with `-0` as `0`, and the `precision` and `inlayHints.maxItems`
/// settings of §2.4.
package struct DisplaySettings: Equatable, Sendable {
  package static let defaultPrecision = 15
  package static let defaultMaxItems = 8

  /// Significant digits, 1 to 17.
  package var precision: Int
  /// How many values a label shows before it starts with `…`; at least 1.
  package var maxItems: Int

  package init(precision: Int = defaultPrecision, maxItems: Int = defaultMaxItems) {
    self.precision = min(max(precision, 1), 17)
    self.maxItems = max(maxItems, 1)
  }
}

/// Formats one value like C's `printf("%.15g")`, with `-0` shown as `0`.
///
/// The fast path starts from Swift's shortest round-trip digits S of a normal value x. For precision
/// p ≤ 15: if S has at most p significant digits, |x − S| is below half an ulp, which is below
/// half a unit of x's p-th digit, so S *is* x rounded to p digits. If S is longer, rounding S
/// gives the same result as rounding x, unless S's digits past p are exactly "5": a rounding
/// boundary between x and S would be a shorter or closer round-trip string than S, which the
/// shortest representation rules out. That tie, and precisions 16 and 17, go to `vsnprintf`.
package enum ValueFormat {
  package static func format(_ value: Double, precision: Int = DisplaySettings.defaultPrecision) -> String {
    if value == 0 { return "0" }
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    let digits = min(max(precision, 1), 17)
    // Subnormals have too few bits for the argument above: their shortest digits ("5e-324") are
    // no rounding of the exact value (4.94065645841247e-324).
    if digits <= 15, value.isNormal, let fast = fastFormat(value, precision: digits) { return fast }
    return cFormat(value, precision: digits)
  }

  /// `vsnprintf("%.*g")`: exact, and slow (a `va_list` per call).
  package static func cFormat(_ value: Double, precision: Int) -> String {
    // 17 significant digits, a sign, a point and a five-character exponent fit in 32 bytes.
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
      let written = withVaList([Int32(precision), value]) { vsnprintf(buffer.baseAddress, 32, "%.*g", $0) }
      let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(max(0, min(written, 31))))
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// The `%g` text from the shortest digits, or nil for a tie that needs the exact value.
  private static func fastFormat(_ value: Double, precision: Int) -> String? {
    // Shortest digits and the decimal exponent of the first one: value = 0.d1d2… × 10^(point).
    var digits: [UInt8] = []
    digits.reserveCapacity(20)
    var exponent = 0
    var sawPoint = false
    var point = 0
    var readingExponent = false
    var exponentNegative = false
    for byte in value.magnitude.description.utf8 {
      if readingExponent {
        if byte == 0x2D { exponentNegative = true } else if byte != 0x2B { exponent = exponent * 10 + Int(byte - 0x30) }
      } else if byte == 0x2E {
        sawPoint = true
      } else if byte == 0x65 {
        readingExponent = true
      } else {
        if digits.isEmpty && byte == 0x30 {
          if sawPoint { point -= 1 }  // Leading zeros after the point: 0.00123.
          continue
        }
        digits.append(byte - 0x30)
        if !sawPoint { point += 1 }
      }
    }
    point += exponentNegative ? -exponent : exponent
    while digits.last == 0 { digits.removeLast() }
    guard !digits.isEmpty else { return "0" }
    if digits.count > precision {
      let tail = digits[precision...]
      if tail.first == 5 && tail.dropFirst().allSatisfy({ $0 == 0 }) { return nil }
      let roundUp = tail.first! >= 5
      digits.removeLast(digits.count - precision)
      if roundUp {
        var i = digits.count - 1
        while i >= 0 {
          if digits[i] == 9 {
            digits[i] = 0
            i -= 1
          } else {
            digits[i] += 1
            break
          }
        }
        if i < 0 {
          digits.insert(1, at: 0)
          digits.removeLast()
          point += 1
        }
      }
      while digits.last == 0 { digits.removeLast() }
    }
    // %g: scientific when the exponent of the first digit is below -4 or at least the precision.
    let scientificExponent = point - 1
    var text = value < 0 ? "-" : ""
    if scientificExponent < -4 || scientificExponent >= precision {
      text.unicodeScalars.append(Unicode.Scalar(digits[0] + 0x30))
      if digits.count > 1 {
        text += "."
        for digit in digits.dropFirst() { text.unicodeScalars.append(Unicode.Scalar(digit + 0x30)) }
      }
      let magnitude = abs(scientificExponent)
      text += (scientificExponent < 0 ? "e-" : "e+") + (magnitude < 10 ? "0" : "") + String(magnitude)
    } else if point <= 0 {
      text += "0." + String(repeating: "0", count: -point)
      for digit in digits { text.unicodeScalars.append(Unicode.Scalar(digit + 0x30)) }
    } else {
      for (index, digit) in digits.enumerated() {
        if index == point { text += "." }
        text.unicodeScalars.append(Unicode.Scalar(digit + 0x30))
      }
      if digits.count < point { text += String(repeating: "0", count: point - digits.count) }
    }
    return text
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The top of a stack at some point of the document: how many values it holds, and up to a
/// requested number of its top values, bottom to top. Enough to draw a label without copying
/// the whole stack.
package struct StackPicture: Equatable, Sendable {
  /// How many values the stack holds.
  package var depth: Int
  /// The top values, bottom to top; at most as many as were asked for.
  package var top: [Double]

  package init(depth: Int, top: [Double]) {
    self.depth = depth
    self.top = top
  }

  package static let empty = StackPicture(depth: 0, top: [])

  /// The stack label of SPEC §1.2: `[1 2 3]`, `[]`, or `[… 5 6 7]` past `maxItems` values.
  package func label(precision: Int = DisplaySettings.defaultPrecision, maxItems: Int = DisplaySettings.defaultMaxItems)
    -> String
  {
    let shown = top.suffix(max(1, maxItems))
    var label = "["
    if depth > shown.count { label += shown.isEmpty ? "…" : "… " }
    label += shown.map { ValueFormat.format($0, precision: precision) }.joined(separator: " ")
    return label + "]"
  }
}

/// How values and stacks are shown: SPEC §1.2 and the `precision` and `inlayHints.maxItems`
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
package enum ValueFormat {
  package static func format(_ value: Double, precision: Int = DisplaySettings.defaultPrecision) -> String {
    if value == 0 { return "0" }
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    let digits = Int32(min(max(precision, 1), 17))
    // 17 significant digits, a sign, a point and a five-character exponent fit in 32 bytes.
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
      let written = withVaList([digits, value]) { vsnprintf(buffer.baseAddress, 32, "%.*g", $0) }
      let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(max(0, min(written, 31))))
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}

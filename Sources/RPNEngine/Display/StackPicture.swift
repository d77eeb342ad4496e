// The top of a stack at one point of a document, its label (`[1 2 3]`, `[… 7 8]`) and its levels, one per line.

/// The top of a stack at some point of the document: how many values it holds, and up to a
/// requested number of its top values, bottom to top. Enough to draw a label without copying
/// the whole stack.
package struct StackPicture: Equatable, Sendable {
  /// How many values the stack holds.
  package var depth: Int
  /// The top values, bottom to top; at most as many as were asked for.
  package var top: [Value]

  package init(depth: Int, top: [Value]) {
    self.depth = depth
    self.top = top
  }

  package static let empty = StackPicture(depth: 0, top: [])

  /// The stack label: `[1 2 3]`, `[]`, or `[… 5 6 7]` past the display's `maxItems` values, each
  /// value in the display's notation.
  package func label(display: DisplaySettings = DisplaySettings()) -> String {
    label(of: top.suffix(display.maxItems).map { ValueFormat.format($0, display: display) }[...])
  }

  /// The stack as a calculator's display lists it: one value per line, the top last, each
  /// numbered by its level from the top (`3: 12.5\n2: 8\n1: 20.5`). Past `maxLevels` values (or
  /// past the values kept), a first line says how many are left out: `… 5 more`. An empty stack
  /// is `empty stack`.
  package func levels(display: DisplaySettings = DisplaySettings(), maxLevels: Int) -> String {
    levels(of: top.suffix(max(1, maxLevels)).map { ValueFormat.format($0, display: display) }[...])
  }

  /// The label and the levels at once, formatting each value they share once (formatting is
  /// most of their cost, and a hint shows both).
  package func labelAndLevels(display: DisplaySettings, maxLevels: Int) -> (label: String, levels: String) {
    var memo: [Value: String] = [:]
    return labelAndLevels(display: display, maxLevels: maxLevels, memo: &memo)
  }

  /// The same, with values already formatted taken from `memo` (and new ones put there): the
  /// labels of neighbouring lines share most of their values (a tall stack's top changes by a
  /// value or two a line), so a viewport's hints format each value once.
  package func labelAndLevels(display: DisplaySettings, maxLevels: Int, memo: inout [Value: String]) -> (
    label: String, levels: String
  ) {
    let items = display.maxItems
    let levels = max(1, maxLevels)
    let formatted = top.suffix(max(items, levels)).map { value in
      if let known = memo[value] { return known }
      let text = ValueFormat.format(value, display: display)
      memo[value] = text
      return text
    }
    return (label(of: formatted.suffix(items)), self.levels(of: formatted.suffix(levels)))
  }

  /// The label and the levels as UTF-8 bytes, with values already formatted taken from `cache`
  /// (and new ones put there): for a viewport's hints, whose labels share most of their values,
  /// and which are written straight into a response. With `maxLevels` 0, the levels are not
  /// written (empty): a client that resolves tooltips asks for them one hint at a time.
  package func labelAndLevelsUTF8(display: DisplaySettings, maxLevels: Int, cache: inout FormattedValues) -> (
    label: [UInt8], levels: [UInt8]
  ) {
    let items = min(display.maxItems, top.count)
    let levels = maxLevels > 0 ? min(maxLevels, top.count) : 0
    let shown = max(items, levels)
    cache.startLabel()
    var spans = [FormattedValues.Span](repeating: FormattedValues.Span(start: 0, count: 0), count: shown)
    var width = 0
    for k in 0..<shown {
      spans[k] = cache.span(of: top[top.count - shown + k], display: display)
      width += Int(spans[k].count)
    }
    var label: [UInt8] = [0x5B]  // "["
    label.reserveCapacity(width + 8)
    if depth > items { label += items == 0 ? Self.ellipsis : Self.ellipsis + [0x20] }
    for k in (shown - items)..<shown {
      if k != shown - items { label.append(0x20) }
      cache.append(spans[k], to: &label)
    }
    label.append(0x5D)  // "]"
    guard maxLevels > 0 else { return (label, []) }
    guard depth > 0 else { return (label, Array("empty stack".utf8)) }
    var lines: [UInt8] = []
    lines.reserveCapacity(width + 8 * levels + 24)
    if depth > levels {
      lines += Self.ellipsis
      lines.append(0x20)
      Self.appendDecimal(depth - levels, to: &lines)
      lines += " more".utf8
    }
    for k in (shown - levels)..<shown {
      if !lines.isEmpty { lines.append(0x0A) }
      Self.appendDecimal(shown - k, to: &lines)
      lines.append(0x3A)  // ":"
      lines.append(0x20)
      cache.append(spans[k], to: &lines)
    }
    return (label, lines)
  }

  /// The label of the top values shown, formatted. Built as bytes: appending to a `String` that
  /// holds `…` costs far more, and a viewport's hints build hundreds of these.
  private func label(of shown: ArraySlice<String>) -> String {
    var bytes: [UInt8] = [0x5B]  // "["
    bytes.reserveCapacity(shown.reduce(8) { $0 + $1.utf8.count + 1 })
    if depth > shown.count { bytes += shown.isEmpty ? Self.ellipsis : Self.ellipsis + [0x20] }
    for (index, value) in zip(shown.indices, shown) {
      if index != shown.startIndex { bytes.append(0x20) }
      bytes += value.utf8
    }
    bytes.append(0x5D)  // "]"
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The levels of the top values shown, formatted, built as bytes like the label.
  private func levels(of shown: ArraySlice<String>) -> String {
    guard depth > 0 else { return "empty stack" }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(shown.reduce(24) { $0 + $1.utf8.count + 6 })
    if depth > shown.count {
      bytes += Self.ellipsis
      bytes += " \(depth - shown.count) more".utf8
    }
    for (index, value) in zip(shown.indices, shown) {
      if !bytes.isEmpty { bytes.append(0x0A) }
      Self.appendDecimal(shown.endIndex - index, to: &bytes)
      bytes.append(0x3A)  // ":"
      bytes.append(0x20)
      bytes += value.utf8
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A non-negative integer's decimal digits.
  private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
    if value >= 10 { appendDecimal(value / 10, to: &bytes) }
    bytes.append(UInt8(value % 10) + 0x30)
  }

  /// `…` (U+2026) in UTF-8.
  private static let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
}

/// Values formatted in one display, for the labels of many lines at once: a table of 1,024 slots
/// chosen by a hash of the value's bits (a later value that lands on a taken slot takes it over),
/// whose texts live in one array. Cheaper than a dictionary of strings: a lookup is a multiply
/// and a compare, and no text is a separate allocation.
package struct FormattedValues {
  /// Where a value's text is in `texts`: valid until the next `startLabel()`.
  struct Span {
    var start: Int32
    var count: Int32
  }

  private static let slotCount = 1_024
  private var keys = [Value](repeating: .zero, count: FormattedValues.slotCount)
  private var spans = [Span](repeating: Span(start: 0, count: -1), count: FormattedValues.slotCount)
  private var texts: [UInt8] = []

  package init() {}

  /// Before a label's values are looked up: texts left behind by slots taken over are dropped
  /// once they are most of what is held (never while a label holds spans).
  mutating func startLabel() {
    guard texts.count > 64 << 10 else { return }
    texts.removeAll(keepingCapacity: true)
    for k in spans.indices { spans[k].count = -1 }
  }

  /// `value` formatted in `display` (which must be the same at every call).
  mutating func span(of value: Value, display: DisplaySettings) -> Span {
    let slot = Int(truncatingIfNeeded: (value.fingerprint &* 0x9E37_79B9_7F4A_7C15) >> 54)
    if keys[slot] == value && spans[slot].count >= 0 { return spans[slot] }
    let text = ValueFormat.format(value, display: display)
    keys[slot] = value
    spans[slot] = Span(start: Int32(texts.count), count: Int32(text.utf8.count))
    texts += text.utf8
    return spans[slot]
  }

  func append(_ span: Span, to bytes: inout [UInt8]) {
    texts.withUnsafeBufferPointer { bytes += $0[Int(span.start)..<Int(span.start + span.count)] }
  }
}

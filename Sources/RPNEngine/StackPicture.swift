// The top of a stack at one point of a document, its label (`[1 2 3]`, `[… 7 8]`) and its levels, one per line.

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
    var memo: [UInt64: String] = [:]
    return labelAndLevels(display: display, maxLevels: maxLevels, memo: &memo)
  }

  /// The same, with values already formatted taken from `memo` (and new ones put there): the
  /// labels of neighbouring lines share most of their values (a tall stack's top changes by a
  /// value or two a line), so a viewport's hints format each value once.
  package func labelAndLevels(display: DisplaySettings, maxLevels: Int, memo: inout [UInt64: String]) -> (
    label: String, levels: String
  ) {
    let items = display.maxItems
    let levels = max(1, maxLevels)
    let formatted = top.suffix(max(items, levels)).map { value in
      if let known = memo[value.bitPattern] { return known }
      let text = ValueFormat.format(value, display: display)
      memo[value.bitPattern] = text
      return text
    }
    return (label(of: formatted.suffix(items)), self.levels(of: formatted.suffix(levels)))
  }

  /// The label of the top values shown, formatted.
  private func label(of shown: ArraySlice<String>) -> String {
    var label = "["
    label.reserveCapacity(shown.reduce(4) { $0 + $1.utf8.count + 1 })
    if depth > shown.count { label += shown.isEmpty ? "…" : "… " }
    for (index, value) in zip(shown.indices, shown) {
      if index != shown.startIndex { label += " " }
      label += value
    }
    label += "]"
    return label
  }

  /// The levels of the top values shown, formatted.
  private func levels(of shown: ArraySlice<String>) -> String {
    guard depth > 0 else { return "empty stack" }
    var text = depth > shown.count ? "… \(depth - shown.count) more" : ""
    text.reserveCapacity(text.utf8.count + shown.reduce(0) { $0 + $1.utf8.count + 6 })
    for (index, value) in zip(shown.indices, shown) {
      if !text.isEmpty { text += "\n" }
      text += String(shown.endIndex - index)
      text += ": "
      text += value
    }
    return text
  }
}

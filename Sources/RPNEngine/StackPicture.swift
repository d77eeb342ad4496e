// The top of a stack at one point of a document, and its label: `[1 2 3]`, `[… 7 8]`.

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

  /// The stack label: `[1 2 3]`, `[]`, or `[… 5 6 7]` past `maxItems` values.
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

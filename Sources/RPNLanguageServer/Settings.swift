// Settings from `initializationOptions` and `didChangeConfiguration`, read leniently.

import JSONRPC
import RPNEngine

/// The settings, from `initializationOptions` and `didChangeConfiguration`.
struct Settings: Equatable {
  var precision = DisplaySettings.defaultPrecision
  var angleMode = AngleMode.radians
  var inlayHintsEnabled = true
  /// Whether each heading's line ends with its section's summary (when inlay hints are enabled).
  var inlayHintsSections = true
  /// Where each line's stack hint goes; a document's `# rpn: hints=` overrides it.
  var inlayHintsPosition = HintPosition.afterTokens
  var maxItems = DisplaySettings.defaultMaxItems
  var notation = Notation.auto
  var decimals = DisplaySettings.defaultDecimals
  var grouping = false

  var evaluation: EvaluationSettings { EvaluationSettings(angleMode: angleMode) }
  /// The editor's display settings: a document's `# rpn:` lines override them for that document
  /// (`Document.display(over:)`).
  var display: DisplaySettings {
    DisplaySettings(
      precision: precision, maxItems: maxItems, notation: notation, decimals: decimals, grouping: grouping)
  }

  /// Applies what `json` names, as `{"rpn": {...}}` or the inner object alone. A partial update
  /// changes only its keys; a value of the wrong type or out of range is ignored. Nested objects
  /// (`"inlayHints": {"enabled": false}`) and dotted keys (`"inlayHints.enabled"`) both work.
  mutating func merge(_ json: JSONValue) {
    let object = json["rpn"].flatMap { $0.isObject ? $0 : nil } ?? json
    guard object.isObject else { return }
    // A nested value of the wrong type does not hide a dotted one of the right type.
    func read<T>(_ group: String, _ key: String, _ typed: (JSONValue) -> T?) -> T? {
      object[group]?[key].flatMap(typed) ?? object["\(group).\(key)"].flatMap(typed)
    }
    if let value = object["precision"]?.intValue, (1...17).contains(value) { precision = value }
    if let value = object["angleUnit"]?.stringValue.flatMap(AngleMode.init(rawValue:)) { angleMode = value }
    if let value = read("inlayHints", "enabled", \.boolValue) { inlayHintsEnabled = value }
    if let value = read("inlayHints", "sections", \.boolValue) { inlayHintsSections = value }
    if let value = read("inlayHints", "position", { $0.stringValue.flatMap(HintPosition.init(rawValue:)) }) {
      inlayHintsPosition = value
    }
    if let value = read("inlayHints", "maxItems", \.intValue), DocumentSettings.maxItemsRange.contains(value) {
      maxItems = value
    }
    if let value = read("display", "notation", { $0.stringValue.flatMap(Notation.init(rawValue:)) }) {
      notation = value
    }
    if let value = read("display", "decimals", \.intValue), (0...15).contains(value) { decimals = value }
    if let value = read("display", "grouping", \.boolValue) { grouping = value }
  }
}

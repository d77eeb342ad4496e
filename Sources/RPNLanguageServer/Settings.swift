// Settings from `initializationOptions` and `didChangeConfiguration`, read leniently.

import JSONRPC
import RPNEngine

/// The settings, from `initializationOptions` and `didChangeConfiguration`.
struct Settings: Equatable {
  var precision = DisplaySettings.defaultPrecision
  var angleUnit = AngleUnit.radians
  var inlayHintsEnabled = true
  /// Whether each heading's line ends with its section's summary (when inlay hints are enabled).
  var inlayHintsSections = true
  var maxItems = DisplaySettings.defaultMaxItems

  var evaluation: EvaluationSettings { EvaluationSettings(angleUnit: angleUnit) }
  var display: DisplaySettings { DisplaySettings(precision: precision, maxItems: maxItems) }

  /// Applies what `json` names, as `{"rpn": {...}}` or the inner object alone. A partial update
  /// changes only its keys; a value of the wrong type or out of range is ignored. Nested objects
  /// (`"inlayHints": {"enabled": false}`) and dotted keys (`"inlayHints.enabled"`) both work.
  mutating func merge(_ json: JSONValue) {
    let object = json["rpn"].flatMap { $0.isObject ? $0 : nil } ?? json
    guard object.isObject else { return }
    if let value = object["precision"]?.intValue, (1...17).contains(value) { precision = value }
    if let value = object["angleUnit"]?.stringValue.flatMap(AngleUnit.init(rawValue:)) { angleUnit = value }
    let hints = object["inlayHints"]
    if let value = hints?["enabled"]?.boolValue ?? object["inlayHints.enabled"]?.boolValue { inlayHintsEnabled = value }
    if let value = hints?["sections"]?.boolValue ?? object["inlayHints.sections"]?.boolValue {
      inlayHintsSections = value
    }
    if let value = hints?["maxItems"]?.intValue ?? object["inlayHints.maxItems"]?.intValue, value >= 1 {
      maxItems = value
    }
  }
}

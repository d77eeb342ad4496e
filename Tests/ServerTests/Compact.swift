import JSONRPC

// How the server tests read the server's answers: ranges, diagnostics and inlay hints as short
// strings, so that an expectation is one readable line and a failure shows what differs.

/// A range as `line:character-line:character`.
func compact(range: JSONValue?) -> String {
  guard let range, let start = range["start"], let end = range["end"] else { return "no range" }
  return "\(compact(position: start))-\(compact(position: end))"
}

func compact(position: JSONValue?) -> String {
  guard let position, let line = position["line"]?.intValue, let character = position["character"]?.intValue else {
    return "bad position \(position.map { JSONWriter.string($0) } ?? "nil")"
  }
  return "\(line):\(character)"
}

/// A diagnostic as `range severity code: message`, with anything unexpected spelled out (a
/// source other than "rpn", a severity other than 1, 2 or 3).
func compact(diagnostic: JSONValue) -> String {
  let severity: String
  switch diagnostic["severity"]?.intValue {
  case 1: severity = "error"
  case 2: severity = "warning"
  case 3: severity = "info"
  default: severity = "severity=\(diagnostic["severity"].map { JSONWriter.string($0) } ?? "none")"
  }
  let code = diagnostic["code"]?.stringValue ?? "code=\(diagnostic["code"].map { JSONWriter.string($0) } ?? "none")"
  let source =
    diagnostic["source"]?.stringValue == "rpn"
    ? "" : " source=\(diagnostic["source"].map { JSONWriter.string($0) } ?? "none")"
  let message = diagnostic["message"]?.stringValue ?? "no message"
  return "\(compact(range: diagnostic["range"])) \(severity) \(code)\(source): \(message)"
}

/// A diagnostic without its message, for tests that fix only the range, severity and code.
func compactWithoutMessage(diagnostic: JSONValue) -> String {
  let full = compact(diagnostic: diagnostic)
  guard let colon = full.range(of: ": ") else { return full }
  return String(full[..<colon.lowerBound])
}

/// An inlay hint as `line:character label`, with anything unexpected spelled out.
func compact(hint: JSONValue) -> String {
  let padding =
    hint["paddingLeft"] == .bool(true)
    ? "" : " paddingLeft=\(hint["paddingLeft"].map { JSONWriter.string($0) } ?? "none")"
  let label = hint["label"]?.stringValue ?? "label=\(hint["label"].map { JSONWriter.string($0) } ?? "none")"
  return "\(compact(position: hint["position"])) \(label)\(padding)"
}

func compact(hints: JSONValue) -> [String] {
  guard let array = hints.arrayValue else { return ["not an array: \(JSONWriter.string(hints))"] }
  return array.map { compact(hint: $0) }
}

func compact(diagnostics: [JSONValue]) -> [String] { diagnostics.map { compact(diagnostic: $0) } }

func compactWithoutMessage(diagnostics: [JSONValue]) -> [String] { diagnostics.map(compactWithoutMessage) }

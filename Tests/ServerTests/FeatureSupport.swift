import JSONRPC
import TestSupport
import Testing

// Helpers shared by the tests of the README's table of server features's symbol, token, fix and formatting features:
// starting a server in one position encoding, the params of document requests, reading
// locations, and applying a server's `TextEdit`s to the test's own copy of the text.

/// The two position encodings of the README's rules for documents and positions, for `@Test(arguments:)`.
let encodings = ["utf-8", "utf-16"]

extension LSPClient {
  /// A server that negotiated `encoding` ("utf-8" or "utf-16"), with `capabilities` merged in.
  static func started(
    encoding: String, capabilities: [(key: String, value: JSONValue)] = [], initializationOptions: JSONValue? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (client: LSPClient, initializeResult: JSONValue) {
    let offered: JSONValue = encoding == "utf-8" ? ["utf-16", "utf-8"] : ["utf-16"]
    let client = try LSPClient()
    let result = try client.initialize(
      capabilities: .object([("general", ["positionEncodings": offered])] + capabilities),
      initializationOptions: initializationOptions)
    #expect(
      result["capabilities"]?["positionEncoding"] == .string(encoding), "negotiated encoding",
      sourceLocation: sourceLocation)
    return (client, result)
  }
}

func textDocument(_ uri: String) -> JSONValue { ["uri": .string(uri)] }

/// `TextDocumentPositionParams`.
func at(_ uri: String, _ position: JSONValue) -> JSONValue {
  ["textDocument": textDocument(uri), "position": position]
}

/// A `Location` (or a one-element `Location[]`, or a `LocationLink`) as
/// `line:character-line:character`, with the URI spelled out when it is not `uri`; "null" for
/// null and an empty list.
func compact(location: JSONValue, uri: String) -> String {
  var location = location
  if let array = location.arrayValue {
    if array.isEmpty { return "null" }
    if array.count > 1 { return "\(array.count) locations: \(JSONWriter.string(location))" }
    location = array[0]
  }
  if location == .null { return "null" }
  let target = location["uri"] ?? location["targetUri"]
  let range = location["range"] ?? location["targetSelectionRange"]
  let other = target == .string(uri) ? "" : " in \(target.map { JSONWriter.string($0) } ?? "no uri")"
  return compact(range: range) + other
}

/// A list of `Location`s as ranges in document order (the URI spelled out when it is not `uri`);
/// null as [].
func compact(locations: JSONValue, uri: String) -> [String] {
  if locations == .null { return [] }
  guard let array = locations.arrayValue else { return ["not an array: \(JSONWriter.string(locations))"] }
  return sortedByStart(array).map { compact(location: $0, uri: uri) }
}

/// Picks the UTF-8 or the UTF-16 spelling of an expectation.
func pick<T>(_ encoding: String, _ utf8: T, _ utf16: T) -> T { encoding == "utf-8" ? utf8 : utf16 }

/// A range on one line in both encodings: `line:s8-e8` in UTF-8, `line:s16-e16` in UTF-16.
func span(_ encoding: String, _ line: Int, _ utf8: (Int, Int), _ utf16: (Int, Int)) -> String {
  let (start, end) = pick(encoding, utf8, utf16)
  return "\(line):\(start)-\(line):\(end)"
}

// MARK: Applying edits

struct EditFailure: Error, CustomStringConvertible {
  var description: String
}

/// The text with LSP `TextEdit`s applied as a client applies them: every range refers to the
/// text before any edit, positions count `encoding`'s code units, and ranges must not overlap.
/// Lines end at `\n`, `\r\n` or `\r`; a position past a line's end is clamped to it.
func applying(_ edits: [JSONValue], to text: String, encoding: String) throws -> String {
  let scalars = Array(text.unicodeScalars)
  // Where each line's content starts and ends (before its terminator), as scalar indices.
  var lines: [(start: Int, end: Int)] = []
  var start = 0
  var i = 0
  while i < scalars.count {
    if scalars[i] == "\n" || scalars[i] == "\r" {
      lines.append((start, i))
      i += scalars[i] == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n" ? 2 : 1
      start = i
    } else {
      i += 1
    }
  }
  lines.append((start, scalars.count))

  func index(_ position: JSONValue?) throws -> Int {
    guard let line = position?["line"]?.intValue, let character = position?["character"]?.intValue else {
      throw EditFailure(description: "a bad position in an edit: \(position.map { JSONWriter.string($0) } ?? "nil")")
    }
    guard line < lines.count else { return scalars.count }
    var units = 0
    var index = lines[line].start
    while index < lines[line].end, units < character {
      let scalar = scalars[index]
      units += encoding == "utf-8" ? scalar.utf8.count : scalar.utf16.count
      index += 1
    }
    if units > character {
      throw EditFailure(description: "position \(line):\(character) is inside a character")
    }
    return index
  }

  var replacements: [(start: Int, end: Int, text: String)] = []
  for edit in edits {
    guard let newText = edit["newText"]?.stringValue else {
      throw EditFailure(description: "an edit without newText: \(JSONWriter.string(edit))")
    }
    let start = try index(edit["range"]?["start"])
    let end = try index(edit["range"]?["end"])
    guard start <= end else { throw EditFailure(description: "a reversed range: \(JSONWriter.string(edit))") }
    replacements.append((start, end, newText))
  }
  replacements.sort { $0.start < $1.start || ($0.start == $1.start && $0.end < $1.end) }
  for (a, b) in zip(replacements, replacements.dropFirst()) where b.start < a.end {
    throw EditFailure(description: "overlapping edits: \(edits.map { JSONWriter.string($0) })")
  }
  var result = String.UnicodeScalarView()
  var next = 0
  for replacement in replacements {
    result.append(contentsOf: scalars[next..<replacement.start])
    result.append(contentsOf: replacement.text.unicodeScalars)
    next = replacement.end
  }
  result.append(contentsOf: scalars[next...])
  return String(result)
}

/// The edits a `WorkspaceEdit` makes to `uri` (its `changes`, or its `documentChanges`).
func edits(of workspaceEdit: JSONValue, uri: String) throws -> [JSONValue] {
  if let changes = workspaceEdit["changes"] {
    guard case .object(let members) = changes else {
      throw EditFailure(description: "changes is not an object: \(JSONWriter.string(workspaceEdit))")
    }
    for (key, _) in members where key != uri {
      throw EditFailure(description: "an edit to another document, \(key)")
    }
    return changes[uri]?.arrayValue ?? []
  }
  if let documentChanges = workspaceEdit["documentChanges"]?.arrayValue {
    return documentChanges.filter { $0["textDocument"]?["uri"] == .string(uri) }
      .flatMap { $0["edits"]?.arrayValue ?? [] }
  }
  throw EditFailure(
    description: "a WorkspaceEdit with neither changes nor documentChanges: \(JSONWriter.string(workspaceEdit))")
}

/// A `TextEdit` as `range → "newText"`.
func compact(edit: JSONValue) -> String {
  "\(compact(range: edit["range"])) → \((edit["newText"]?.stringValue ?? "no newText").debugDescription)"
}

/// Edits in document order, compactly.
func compact(edits: [JSONValue]) -> [String] { sortedByStart(edits).map { compact(edit: $0) } }

/// Locations, highlights or edits sorted by where their range starts (servers may answer in any
/// order; the tests compare in document order).
func sortedByStart(_ items: [JSONValue]) -> [JSONValue] {
  func start(_ item: JSONValue) -> (Int, Int) {
    let range = item["range"] ?? item["targetRange"] ?? .null
    return (range["start"]?["line"]?.intValue ?? 0, range["start"]?["character"]?.intValue ?? 0)
  }
  return items.enumerated().sorted { a, b in
    let (x, y) = (start(a.element), start(b.element))
    return x < y || (x == y && a.offset < b.offset)
  }.map(\.element)
}

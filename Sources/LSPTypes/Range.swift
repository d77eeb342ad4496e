// LSPRange: a span between two positions, as LSP sends it.

import JSONRPC

/// A range between two positions; `end` is exclusive for text, inclusive for range parameters.
package struct LSPRange: Equatable, Sendable {
  package var start: Position
  package var end: Position

  package init(start: Position, end: Position) {
    self.start = start
    self.end = end
  }

  /// Written as `.object`, as `Position.json` is.
  package var json: JSONValue { .object([("start", start.json), ("end", end.json)]) }

  /// Decodes a range; a reversed one is an error.
  package static func decode(_ json: JSONValue?, field: String) throws(ResponseError) -> LSPRange {
    guard let json, json.isObject else { throw .invalidParams("\(field) must be an object") }
    let start = try Position.decode(json["start"], field: "\(field).start")
    let end = try Position.decode(json["end"], field: "\(field).end")
    guard start <= end else { throw .invalidParams("\(field) is reversed: its end comes before its start") }
    return LSPRange(start: start, end: end)
  }
}

extension LSPRange: JSONEncodable {
  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("start", start)
    writer.member("end", end)
    writer.endObject()
  }
}

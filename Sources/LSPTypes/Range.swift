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

  package var json: JSONValue { ["start": start.json, "end": end.json] }

  /// Decodes a range; a reversed one is an error.
  package static func decode(_ json: JSONValue?, field: String) -> Result<LSPRange, ResponseError> {
    guard let json, json.isObject else { return .failure(.invalidParams("\(field) must be an object")) }
    let start: Position
    let end: Position
    switch Position.decode(json["start"], field: "\(field).start") {
    case .success(let position): start = position
    case .failure(let error): return .failure(error)
    }
    switch Position.decode(json["end"], field: "\(field).end") {
    case .success(let position): end = position
    case .failure(let error): return .failure(error)
    }
    guard start <= end else { return .failure(.invalidParams("\(field) is reversed: its end comes before its start")) }
    return .success(LSPRange(start: start, end: end))
  }
}

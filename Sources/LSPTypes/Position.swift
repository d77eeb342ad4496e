// Position: a place in a document as LSP sends it, and the unit its `character` counts in.

import JSONRPC

/// A position as LSP sends it: a line and a `character` counted in the negotiated encoding's
/// code units. It stays in those units until the server converts it, in one place.
package struct Position: Equatable, Sendable {
  package var line: Int
  /// Code units of the negotiated encoding (UTF-8 bytes or UTF-16 units), not characters.
  package var character: Int

  package init(line: Int, character: Int) {
    self.line = line
    self.character = character
  }

  /// Written as `.object` with an array of members: a dictionary literal would build its members
  /// twice (its variadic arguments, then the object's), and positions are in every answer.
  package var json: JSONValue { .object([("line", JSONValue(line)), ("character", JSONValue(character))]) }

  /// Decodes `{"line": n, "character": n}`; `field` names it in the error ("position", "range.end").
  package static func decode(_ json: JSONValue?, field: String) throws(ResponseError) -> Position {
    guard let json, json.isObject else { throw .invalidParams("\(field) must be an object") }
    guard let line = json["line"]?.intValue, line >= 0 else {
      throw .invalidParams("\(field).line must be a non-negative integer")
    }
    guard let character = json["character"]?.intValue, character >= 0 else {
      throw .invalidParams("\(field).character must be a non-negative integer")
    }
    return Position(line: line, character: character)
  }
}

extension Position: JSONEncodable {
  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("line", line)
    writer.member("character", character)
    writer.endObject()
  }
}

extension Position: Comparable {
  package static func < (a: Position, b: Position) -> Bool { (a.line, a.character) < (b.line, b.character) }
}

/// The unit of `Position.character`, negotiated at `initialize`.
package enum PositionEncodingKind: String, Sendable {
  case utf8 = "utf-8"
  case utf16 = "utf-16"
  /// Unicode scalars.
  case utf32 = "utf-32"
}

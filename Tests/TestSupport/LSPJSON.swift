import JSONRPC

// The JSON of LSP's small structures, as tests write them.

/// A `Position`: a line and a column in the negotiated encoding's units.
package func position(_ line: Int, _ character: Int) -> JSONValue {
  ["line": JSONValue(line), "character": JSONValue(character)]
}

/// A `Range` from one position to another.
package func range(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) -> JSONValue {
  ["start": position(startLine, startCharacter), "end": position(endLine, endCharacter)]
}

/// An incremental change: replace `range` with `text`.
package func edit(_ range: JSONValue, _ text: String) -> JSONValue {
  ["range": range, "text": .string(text)]
}

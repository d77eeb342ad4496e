// Semantic tokens: the token types and modifiers that `.rpn` uses, the legend built from them, and the answer.

import JSONRPC

/// LSP's standard semantic token types that `.rpn` uses. The raw value is the type's index in the
/// legend, which is what an encoded token carries, so the cases are in legend order.
package enum SemanticTokenType: Int, CaseIterable, Sendable {
  case number
  case `operator`
  case function
  case variable
  case comment
  /// Appended, so that the earlier types keep their indices.
  case keyword
  /// Appended: a unit (`km` in `12_km`, `>mi`).
  case type

  /// The type's name in the legend.
  package var name: String {
    switch self {
    case .number: "number"
    case .operator: "operator"
    case .function: "function"
    case .variable: "variable"
    case .comment: "comment"
    case .keyword: "keyword"
    case .type: "type"
    }
  }
}

/// LSP's standard semantic token modifiers that `.rpn` uses, as the bit set an encoded token
/// carries: a modifier's bit is its index in the legend.
package struct SemanticTokenModifiers: OptionSet, Sendable {
  package let rawValue: Int

  package init(rawValue: Int) { self.rawValue = rawValue }

  package static let declaration = SemanticTokenModifiers(rawValue: 1 << 0)
  package static let readonly = SemanticTokenModifiers(rawValue: 1 << 1)
  package static let defaultLibrary = SemanticTokenModifiers(rawValue: 1 << 2)
  /// A constant of the language: `readonly` and `defaultLibrary`. (Named here because an array
  /// literal goes through `SetAlgebra`'s generic initializer, unspecialized across modules:
  /// measurably slow per token.)
  package static let constant = SemanticTokenModifiers(rawValue: readonly.rawValue | defaultLibrary.rawValue)

  /// The modifiers' names in legend order: bit 0 first.
  package static let names = ["declaration", "readonly", "defaultLibrary"]
}

/// The legend of `semanticTokensProvider`: the names of every type and modifier, in the order
/// that encoded tokens index.
package enum SemanticTokensLegend {
  package static let json: JSONValue = [
    "tokenTypes": .array(SemanticTokenType.allCases.map { .string($0.name) }),
    "tokenModifiers": .array(SemanticTokenModifiers.names.map { .string($0) }),
  ]
}

/// The answer to `semanticTokens/full` and `/range`: five integers per token (line delta, start
/// delta, length, type, modifiers), relative to the token before.
package struct SemanticTokens: JSONEncodable, Sendable {
  package var data: [Int]

  package init(data: [Int]) { self.data = data }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("data", data)
    writer.endObject()
  }
}

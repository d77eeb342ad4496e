import JSONRPC
import RPNEngine
import TestSupport
import Testing

/// Hover, completion and semantic tokens name every builtin spelling by the kind the builtins
/// table gives it (`Builtin.kind(ofSpelling:)`), so no two features disagree: `sin` is a function
/// in all three, `√` an operator, `dup` a stack operator shown as a function, `π` a constant.
@Suite(.inProcess) struct BuiltinKindTests {
  /// How each feature shows a kind: the hover's noun, the completion item kind, the semantic
  /// token type.
  static func shown(_ kind: Builtin.Kind) -> (noun: String, completion: Int, token: String) {
    switch kind {
    case .symbolicOperator: ("operator", 24, "operator")
    case .namedFunction: ("function", 3, "function")
    case .stackWord: ("stack operator", 3, "function")
    case .constant: ("constant", 21, "variable")
    }
  }

  @Test func everyFeatureAsksTheTable() throws {
    let spellings = Builtin.table.flatMap { builtin in builtin.spellings.map { (builtin, $0) } }
    // Three values under every spelling, so that each one evaluates and hovers without an error.
    let text = spellings.map { "3 3 3 \($0.1)" }.joined(separator: "\n")
    let uri = "file:///kinds.rpn"
    let client = try LSPClient.started(
      capabilities: [
        "general": ["positionEncodings": ["utf-8"]],
        "textDocument": ["hover": ["contentFormat": ["plaintext"]]],
      ])
    client.open(uri, text)
    let tokens = try client.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]])
    let data = tokens["data"]?.arrayValue?.compactMap(\.intValue) ?? []
    let legend = ["number", "operator", "function", "variable", "comment"]
    // The builtin is the fourth token of each line: its type is field 3 of every fourth 5-tuple.
    let builtinTypes = stride(from: 18, to: data.count, by: 20).map { legend[data[$0]] }
    #expect(builtinTypes.count == spellings.count)
    let completion = try client.request(
      "textDocument/completion", ["textDocument": ["uri": .string(uri)], "position": ["line": 0, "character": 6]])
    let items = completion["items"]?.arrayValue ?? []
    for (line, (builtin, spelling)) in spellings.enumerated() {
      let expected = Self.shown(builtin.kind(ofSpelling: spelling))
      let hover = try client.request(
        "textDocument/hover",
        ["textDocument": ["uri": .string(uri)], "position": ["line": JSONValue(line), "character": 6]])
      let value = hover["contents"]?["value"]?.stringValue ?? ""
      #expect(value.hasPrefix("\(expected.noun) \(spelling)"), "hover of \(spelling): \(value)")
      let item = items.first { $0["label"]?.stringValue == spelling }
      #expect(item?["kind"]?.intValue == expected.completion, "completion item kind of \(spelling)")
      if line < builtinTypes.count {
        #expect(builtinTypes[line] == expected.token, "semantic token type of \(spelling)")
      }
    }
    try client.finish()
  }
}

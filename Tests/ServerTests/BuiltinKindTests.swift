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
        "textDocument": [
          "hover": ["contentFormat": ["plaintext"]],
          "completion": ["completionItemKind": ["valueSet": .array((1...25).map { JSONValue($0) })]],
        ],
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

  /// A client that declares no completion item kinds knows only the first protocol's, 1 to 18
  /// (Emacs's eglot): a constant is sent as a value (12), an operator as a function (3), every
  /// other kind as it is; its items are otherwise the same.
  @Test func aClientThatDeclaresNoKindsGetsTheFirstProtocolsKinds() throws {
    let uri = "file:///kinds.rpn"
    var kinds: [[String: Int]] = []
    for declared in [true, false] {
      let completion: JSONValue =
        declared ? ["completionItemKind": ["valueSet": .array((1...25).map { JSONValue($0) })]] : [:]
      let client = try LSPClient.started(capabilities: ["textDocument": ["completion": completion]])
      client.open(uri, "2 sto\n3 ")
      let list = try client.request(
        "textDocument/completion", ["textDocument": ["uri": .string(uri)], "position": ["line": 1, "character": 2]])
      var byLabel: [String: Int] = [:]
      for item in list["items"]?.arrayValue ?? [] {
        if let label = item["label"]?.stringValue, let kind = item["kind"]?.intValue { byLabel[label] = kind }
      }
      kinds.append(byLabel)
      try client.finish()
    }
    let (full, first) = (kinds[0], kinds[1])
    #expect(full["+"] == 24 && full["pi"] == 21 && full["sqrt"] == 3 && full["dup"] == 3)
    #expect(first["+"] == 3 && first["pi"] == 12 && first["sqrt"] == 3 && first["dup"] == 3)
    #expect(first.values.allSatisfy { (1...18).contains($0) }, "\(first.filter { $0.value > 18 })")
    #expect(full.keys.sorted() == first.keys.sorted())
    #expect(full.count > 50)
  }
}

import JSONRPC
import TestSupport
import Testing

/// The in-process transport must show what the binary shows: one session touching every feature,
/// driven over both, gets the same messages, byte for byte once written again as JSON.
@Suite struct TransportTests {
  @Test func bothTransportsSeeTheSameMessages() throws {
    let overPipes = try Self.session(over: .pipes)
    let inProcess = try Self.session(over: .inProcess)
    #expect(inProcess.count == overPipes.count)
    for (index, (pipes, local)) in zip(overPipes, inProcess).enumerated() {
      #expect(JSONWriter.string(local) == JSONWriter.string(pipes), "message \(index)")
    }
  }

  static let uri = "file:///both.rpn"

  /// Every request the server answers, once, and edits, settings and an error among them.
  static func session(over transport: ServerTransport) throws -> [JSONValue] {
    let client = try LSPClient(transport: transport)
    try client.initialize(
      capabilities: [
        "general": ["positionEncodings": ["utf-16", "utf-8"]],
        "textDocument": [
          "hover": ["contentFormat": ["markdown"]], "rename": ["prepareSupport": true],
          "documentSymbol": ["hierarchicalDocumentSymbolSupport": true],
          "codeAction": ["codeActionLiteralSupport": ["codeActionKind": ["valueSet": ["quickfix"]]]],
        ],
        "workspace": ["inlayHint": ["refreshSupport": true]],
      ],
      initializationOptions: ["rpn": ["precision": 6]])
    client.open(uri, "# 😀 tape\n😀 2 =rate  3 ×\nrate ratr √ 4+\n  1   2 +  # sum\n")
    let document: JSONValue = ["uri": .string(uri)]
    let on: JSONValue = ["textDocument": document, "position": position(2, 1)]
    let requests: [(String, JSONValue)] = [
      ("textDocument/hover", on),
      ("textDocument/completion", ["textDocument": document, "position": position(2, 7)]),
      ("textDocument/inlayHint", ["textDocument": document, "range": range(0, 0, 9, 0)]),
      ("textDocument/definition", on),
      (
        "textDocument/references",
        ["textDocument": document, "position": position(2, 1), "context": ["includeDeclaration": true]]
      ),
      ("textDocument/documentHighlight", on),
      ("textDocument/prepareRename", on),
      ("textDocument/rename", ["textDocument": document, "position": position(2, 1), "newName": "price"]),
      ("textDocument/documentSymbol", ["textDocument": document]),
      ("textDocument/semanticTokens/full", ["textDocument": document]),
      ("textDocument/semanticTokens/range", ["textDocument": document, "range": range(1, 0, 2, 4)]),
      (
        "textDocument/codeAction",
        ["textDocument": document, "range": range(2, 0, 3, 0), "context": ["diagnostics": []]]
      ),
      ("textDocument/formatting", ["textDocument": document, "options": ["tabSize": 2, "insertSpaces": true]]),
      (
        "textDocument/rangeFormatting",
        ["textDocument": document, "range": range(3, 0, 4, 0), "options": ["tabSize": 2, "insertSpaces": true]]
      ),
      ("textDocument/hover", ["textDocument": ["uri": "file:///not-open.rpn"], "position": position(0, 0)]),
    ]
    for (method, params) in requests { client.sendRequest(method, params) }
    client.change(uri, version: 2, [edit(range(2, 5, 2, 9), "rate")])
    client.notify("workspace/didChangeConfiguration", ["settings": ["rpn": ["angleUnit": "degrees"]]])
    client.sendRequest("textDocument/inlayHint", ["textDocument": document, "range": range(0, 0, 9, 0)])
    client.close(uri)
    try client.finish()
    // initialize, the requests above, the last inlay hints and shutdown: each answered once.
    #expect(client.responses(in: 0..<client.messageCount).count == requests.count + 3, "over \(transport)")
    return client.messages
  }
}

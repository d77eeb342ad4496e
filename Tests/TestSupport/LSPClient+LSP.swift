import Foundation
import JSONRPC
import Testing

// The LSP side of the test client: the lifecycle, documents, and the requests most tests make.

extension LSPClient {
  /// Starts a server and initializes it: `initialize`, then `initialized`.
  package static func started(
    capabilities: JSONValue = [:], initializationOptions: JSONValue? = nil
  ) throws -> LSPClient {
    let client = try LSPClient()
    try client.initialize(capabilities: capabilities, initializationOptions: initializationOptions)
    return client
  }

  @discardableResult
  package func initialize(capabilities: JSONValue = [:], initializationOptions: JSONValue? = nil) throws -> JSONValue {
    var params: [(key: String, value: JSONValue)] = [
      ("processId", .null), ("rootUri", .null), ("capabilities", capabilities),
    ]
    if let initializationOptions { params.append(("initializationOptions", initializationOptions)) }
    let result = try request("initialize", .object(params))
    notify("initialized", [:])
    return result
  }

  /// `shutdown` then `exit`; returns the exit status.
  package func shutdownAndExit() throws -> Int32 {
    let result = try request("shutdown", nil)
    guard result == .null else { throw ClientFailure("shutdown answered \(JSONWriter.string(result))") }
    notify("exit", nil)
    return try waitForExit()
  }

  /// Ends a test: `shutdown`, `exit`, exit status 0, and nothing but framed JSON on stdout.
  package func finish(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let status = try shutdownAndExit()
    #expect(status == 0, "exit status after shutdown and exit", sourceLocation: sourceLocation)
    #expect(protocolViolations == [], "standard output carries only framed JSON-RPC", sourceLocation: sourceLocation)
  }

  package func open(_ uri: String, _ text: String, version: Int = 1) {
    notify(
      "textDocument/didOpen",
      [
        "textDocument": [
          "uri": .string(uri), "languageId": "rpn", "version": JSONValue(version), "text": .string(text),
        ]
      ])
  }

  package static func didChange(_ uri: String, version: Int, _ changes: [JSONValue]) -> JSONValue {
    notificationMessage(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(uri), "version": JSONValue(version)], "contentChanges": .array(changes)])
  }

  package func change(_ uri: String, version: Int, _ changes: [JSONValue]) {
    send(Self.didChange(uri, version: version, changes))
  }

  package func close(_ uri: String) {
    notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
  }

  /// The last `publishDiagnostics` for `uri` received once everything sent so far was handled.
  package func publishedDiagnostics(_ uri: String, timeout: TimeInterval = LSPClient.timeout) throws
    -> (version: Int?, diagnostics: [JSONValue])
  {
    let end = try barrier(timeout: timeout)
    let all = messages[..<end]
    guard
      let last = all.last(where: {
        $0["method"]?.stringValue == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri
      })
    else { throw ClientFailure("no textDocument/publishDiagnostics for \(uri)") }
    let params = last["params"] ?? .null
    return (params["version"]?.intValue, params["diagnostics"]?.arrayValue ?? [])
  }

  /// All `publishDiagnostics` notifications for `uri` received so far.
  package func allPublished(_ uri: String) -> [JSONValue] {
    messages.filter {
      $0["method"]?.stringValue == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri
    }.map { $0["params"] ?? .null }
  }

  package func inlayHints(_ uri: String, _ range: JSONValue, timeout: TimeInterval = LSPClient.timeout) throws
    -> JSONValue
  {
    try request("textDocument/inlayHint", ["textDocument": ["uri": .string(uri)], "range": range], timeout: timeout)
  }

  /// Inlay hints for the whole document (a range from the start to far past the end).
  package func allInlayHints(_ uri: String, timeout: TimeInterval = LSPClient.timeout) throws -> JSONValue {
    try inlayHints(uri, range(0, 0, 1_000_000_000, 0), timeout: timeout)
  }

  package func hover(_ uri: String, _ position: JSONValue, timeout: TimeInterval = LSPClient.timeout) throws
    -> JSONValue
  {
    try request("textDocument/hover", ["textDocument": ["uri": .string(uri)], "position": position], timeout: timeout)
  }

  package func completion(_ uri: String, _ position: JSONValue, timeout: TimeInterval = LSPClient.timeout) throws
    -> JSONValue
  {
    try request(
      "textDocument/completion", ["textDocument": ["uri": .string(uri)], "position": position], timeout: timeout)
  }
}

import JSONRPC
import TestSupport
import Testing

/// the README's settings: settings from `workspace/didChangeConfiguration`, as `{"rpn": {...}}` or the inner
/// object; partial updates; ill-typed values ignored; after a change, re-evaluation, new
/// diagnostics and `workspace/inlayHint/refresh` for clients that support it.
@Suite struct SettingsTests {
  static let refreshing: JSONValue = ["workspace": ["inlayHint": ["refreshSupport": true]]]

  static func configure(_ client: LSPClient, _ settings: JSONValue) {
    client.notify("workspace/didChangeConfiguration", ["settings": settings])
  }

  @Test func degreesChangeTrigonometryDiagnosticsAndLabels() throws {
    let client = try LSPClient.started()
    let uri = "file:///trig.rpn"
    client.open(uri, "180 sin\n90 tan\n1 asin\n", version: 4)
    #expect(try client.publishedDiagnostics(uri).diagnostics == [])
    #expect(
      compact(hints: try client.allInlayHints(uri)) == [
        "0:7 [-0.80115263573383]", "1:6 [-0.80115263573383 -1.99520041220824]",
        "2:6 [-0.80115263573383 -1.99520041220824 1.5707963267949]",
      ])

    let before = client.messageCount
    Self.configure(client, ["rpn": ["angleUnit": "degrees"]])
    let published = try client.publishedDiagnostics(uri)
    #expect(published.version == 4)
    #expect(compactWithoutMessage(diagnostics: published.diagnostics) == ["1:3-1:6 warning domain-error"])
    // the README's diagnostics table: the message says the operator and the value.
    #expect(published.diagnostics.first?["message"]?.stringValue?.contains("`tan`") == true)
    #expect(published.diagnostics.first?["message"]?.stringValue?.contains("90") == true)
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:7 [0]", "1:6 [0 90]", "2:6 [0 90 90]"])
    // No refresh for a client that does not support it.
    #expect(client.serverRequests.isEmpty)
    #expect(client.messages[before...].contains { $0["method"] == "textDocument/publishDiagnostics" })

    // And back, with the inner object alone.
    Self.configure(client, ["angleUnit": "radians"])
    #expect(try client.publishedDiagnostics(uri).diagnostics == [])
    #expect(compact(hints: try client.allInlayHints(uri)).first == "0:7 [-0.80115263573383]")
    try client.finish()
  }

  @Test func disablingInlayHintsGivesNone() throws {
    let client = try LSPClient.started(capabilities: Self.refreshing)
    client.open("file:///h.rpn", "1 2 +\n")
    #expect(compact(hints: try client.allInlayHints("file:///h.rpn")) == ["0:5 [3]"])
    Self.configure(client, ["rpn": ["inlayHints": ["enabled": false]]])
    #expect(try client.allInlayHints("file:///h.rpn") == [])
    #expect(client.serverRequests.map { $0["method"] } == ["workspace/inlayHint/refresh"])
    Self.configure(client, ["rpn": ["inlayHints": ["enabled": true]]])
    #expect(compact(hints: try client.allInlayHints("file:///h.rpn")) == ["0:5 [3]"])
    #expect(
      client.serverRequests.map { $0["method"] } == ["workspace/inlayHint/refresh", "workspace/inlayHint/refresh"])
    try client.finish()
  }

  /// Moving the hints to the end of the line asks the client to fetch them again; a value that is
  /// no position changes nothing, and asks for nothing.
  @Test func movingTheHintsRefreshesThem() throws {
    let client = try LSPClient.started(capabilities: Self.refreshing)
    client.open("file:///h.rpn", "1 2 + # sum\n")
    #expect(compact(hints: try client.allInlayHints("file:///h.rpn")) == ["0:5 [3]"])
    Self.configure(client, ["rpn": ["inlayHints": ["position": "endOfLine"]]])
    #expect(compact(hints: try client.allInlayHints("file:///h.rpn")) == ["0:11 [3]"])
    #expect(client.serverRequests.map { $0["method"] } == ["workspace/inlayHint/refresh"])
    Self.configure(client, ["rpn": ["inlayHints": ["position": "middle"]]])
    #expect(compact(hints: try client.allInlayHints("file:///h.rpn")) == ["0:11 [3]"])
    #expect(client.serverRequests.map { $0["method"] } == ["workspace/inlayHint/refresh"])
    try client.finish()
  }

  /// The refresh request is sent once per change of settings, only to clients that say
  /// `workspace.inlayHint.refreshSupport: true`.
  @Test(arguments: [
    (Self.refreshing, true),
    (["workspace": ["inlayHint": ["refreshSupport": false]]] as JSONValue, false),
    ([:] as JSONValue, false),
    (["workspace": ["inlayHint": ["refreshSupport": "yes"]]] as JSONValue, false),  // Ill-typed: ignored.
  ])
  func refreshIsRequestedFromClientsThatSupportIt(capabilities: JSONValue, refreshes: Bool) throws {
    let client = try LSPClient.started(capabilities: capabilities)
    client.open("file:///r.rpn", "1 3 /\n")
    Self.configure(client, ["rpn": ["precision": 3]])
    #expect(compact(hints: try client.allInlayHints("file:///r.rpn")) == ["0:5 [0.333]"])
    let requests = client.serverRequests
    #expect(requests.map { $0["method"] } == (refreshes ? ["workspace/inlayHint/refresh"] : []))
    #expect(requests.allSatisfy { $0["params"] == nil || $0["params"] == .null })
    try client.finish()
  }

  /// A partial update changes only the keys it names.
  @Test func partialUpdatesChangeOnlyWhatTheyName() throws {
    let client = try LSPClient.started(initializationOptions: ["rpn": ["inlayHints": ["maxItems": 2]]])
    let uri = "file:///p.rpn"
    client.open(uri, "1 3 / 2 3\n")
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:9 [… 2 3]"])
    Self.configure(client, ["rpn": ["precision": 3]])
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:9 [… 2 3]"])
    Self.configure(client, ["rpn": ["inlayHints": ["maxItems": 3]]])
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:9 [0.333 2 3]"])
    Self.configure(client, ["rpn": ["inlayHints": ["enabled": true]]])
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:9 [0.333 2 3]"])
    Self.configure(client, ["rpn": [:]])
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:9 [0.333 2 3]"])
    try client.finish()
  }

  /// Ill-typed and out-of-range values are ignored; the rest of the same update applies.
  @Test func illTypedValuesAreIgnored() throws {
    let client = try LSPClient.started()
    let uri = "file:///i.rpn"
    client.open(uri, "1 3 / 2 3 4 5 6 7 8 9\n90 sin\n")
    let defaults = ["0:21 [… 2 3 4 5 6 7 8 9]", "1:6 [… 3 4 5 6 7 8 9 0.893996663600558]"]
    #expect(compact(hints: try client.allInlayHints(uri)) == defaults)
    for settings: JSONValue in [
      ["rpn": ["precision": "3"]], ["rpn": ["precision": 0]], ["rpn": ["precision": 18]], ["rpn": ["precision": 2.5]],
      ["rpn": ["angleUnit": "gradians"]], ["rpn": ["angleUnit": 1]], ["rpn": ["inlayHints": ["maxItems": 0]]],
      ["rpn": ["inlayHints": ["maxItems": "2"]]], ["rpn": ["inlayHints": ["enabled": "false"]]],
      ["rpn": ["inlayHints": ["enabled": 0]]], ["rpn": ["inlayHints": false]], ["rpn": 3], "degrees", .null, [],
    ] {
      Self.configure(client, settings)
      #expect(compact(hints: try client.allInlayHints(uri)) == defaults, "\(JSONWriter.string(settings))")
    }
    // One bad key does not spoil the good ones next to it.
    Self.configure(client, ["rpn": ["precision": "x", "angleUnit": "degrees", "inlayHints": ["maxItems": -1]]])
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:21 [… 2 3 4 5 6 7 8 9]", "1:6 [… 3 4 5 6 7 8 9 1]"])
    try client.finish()
  }

  /// Every open document is evaluated again and republished.
  @Test func everyOpenDocumentIsRepublished() throws {
    let client = try LSPClient.started()
    client.open("file:///a.rpn", "90 tan", version: 1)
    client.open("file:///b.rpn", "270 TAN", version: 8)
    #expect(try client.publishedDiagnostics("file:///a.rpn").diagnostics == [])
    #expect(try client.publishedDiagnostics("file:///b.rpn").diagnostics == [])
    Self.configure(client, ["rpn": ["angleUnit": "degrees"]])
    let a = try client.publishedDiagnostics("file:///a.rpn")
    let b = try client.publishedDiagnostics("file:///b.rpn")
    #expect(a.version == 1)
    #expect(b.version == 8)
    #expect(compactWithoutMessage(diagnostics: a.diagnostics) == ["0:3-0:6 warning domain-error"])
    #expect(compactWithoutMessage(diagnostics: b.diagnostics) == ["0:4-0:7 warning domain-error"])
    try client.finish()
  }
}

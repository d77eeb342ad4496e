import JSONRPC
import TestSupport
import Testing

/// `inlayHint/resolve`: a client that declares it resolves a hint's `tooltip` or `textEdits` gets
/// stack hints without them (and with `data`), and each resolve gives exactly what a client that
/// does not resolve got in the first place.
@Suite(.inProcess) struct InlayHintResolveTests {
  static let uri = "file:///resolve.rpn"
  static let text = "# lunch split\n12.50 =lunch\n8 =coffee\n+\n3 /\n: half 2 / ;\n## S\n5 half\n"

  /// A client that resolves `properties` of a hint (none: a client that does not resolve), with
  /// the tape open.
  static func started(resolving properties: [String]) throws -> LSPClient {
    let inlayHint: JSONValue =
      properties.isEmpty ? [:] : ["resolveSupport": ["properties": .array(properties.map { .string($0) })]]
    let client = try LSPClient.started(capabilities: ["textDocument": ["inlayHint": inlayHint]])
    client.open(uri, text)
    return client
  }

  /// `hint` without the members a resolving client is sent later, and without `data`.
  static func strip(_ hint: JSONValue, _ members: [String]) -> JSONValue {
    guard case .object(let all) = hint else { return hint }
    return .object(all.filter { !members.contains($0.key) && $0.key != "data" })
  }

  @Test(.overPipes, arguments: [["tooltip", "textEdits"], ["tooltip"], ["textEdits"]])
  func resolvedHintsAreTheHintsOfAClientThatDoesNotResolve(_ properties: [String]) throws {
    let plain = try Self.started(resolving: [])
    guard case .array(let expected) = try plain.allInlayHints(Self.uri) else {
      Issue.record("no hints")
      return
    }
    try plain.finish()
    let client = try Self.started(resolving: properties)
    guard case .array(let hints) = try client.allInlayHints(Self.uri) else {
      Issue.record("no hints")
      return
    }
    #expect(hints.count == expected.count)
    var resolvedCount = 0
    for (hint, whole) in zip(hints, expected) {
      guard let data = hint["data"] else {
        // A word's effect and a section's summary come whole, as to any client.
        #expect(hint == whole)
        continue
      }
      // A stack hint: what the client resolves is left out, the rest is as it is for any client.
      #expect(Self.strip(hint, []) == Self.strip(whole, properties))
      #expect(data["textDocument"]?["uri"]?.stringValue == Self.uri)
      #expect(data["line"] == whole["position"]?["line"])
      #expect(data["version"] == 1)
      for property in properties { #expect(hint[property] == nil, "\(property) sent before it was asked for") }
      let resolved = try client.request("inlayHint/resolve", hint)
      #expect(Self.strip(resolved, []) == whole, "\(JSONWriter.string(hint))")
      #expect(resolved["data"] == data)
      resolvedCount += 1
    }
    // Lines 1 to 5 and 7 have tokens, so a stack hint each.
    #expect(resolvedCount == 6)
    try client.finish()
  }

  /// A hint made before an edit comes back as it was sent: its line may hold another stack now.
  @Test func aHintOfAnOlderVersionIsReturnedAsItCame() throws {
    let client = try Self.started(resolving: ["tooltip", "textEdits"])
    guard case .array(let hints) = try client.allInlayHints(Self.uri), let first = hints.first else {
      Issue.record("no hints")
      return
    }
    // Line 1 holds a stack still, another one.
    client.change(Self.uri, version: 2, [["text": "# sum\n1 2 +\n"]])
    #expect(try client.request("inlayHint/resolve", first) == first)
    // The hint made now resolves: [3] with its tooltip and its check.
    guard case .array(let fresh) = try client.allInlayHints(Self.uri), let now = fresh.first else {
      Issue.record("no hints")
      return
    }
    let resolved = try client.request("inlayHint/resolve", now)
    #expect(resolved["label"] == "[3]")
    #expect(resolved["tooltip"] == "1: 3")
    #expect(resolved["textEdits"]?.arrayValue?.first?["newText"] == " =3")
    try client.finish()
  }

  @Test func aHintWithoutItsDataIsAnError() throws {
    let client = try Self.started(resolving: ["tooltip"])
    let position: JSONValue = ["line": 1, "character": 12]
    #expect(try client.requestError("inlayHint/resolve", nil).code == -32602)
    #expect(try client.requestError("inlayHint/resolve", ["position": position, "label": "[12.5]"]).code == -32602)
    let unopened: JSONValue = [
      "position": position, "label": "[12.5]", "data": ["textDocument": ["uri": "file:///none.rpn"], "line": 1],
    ]
    #expect(try client.requestError("inlayHint/resolve", unopened).code == -32602)
    // A line past the end is no stack hint: returned as it came.
    let past: JSONValue = [
      "position": position, "label": "[12.5]",
      "data": ["textDocument": ["uri": .string(Self.uri)], "line": 99, "version": 1],
    ]
    #expect(try client.request("inlayHint/resolve", past) == past)
    try client.finish()
  }

  /// `resolveProvider` is true only for a client that resolves a tooltip or an edit.
  @Test(arguments: [([String](), false), (["tooltip"], true), (["textEdits"], true), (["label.location"], false)])
  func theCapabilitySaysWhetherHintsAreResolved(_ properties: [String], _ resolves: Bool) throws {
    let client = try LSPClient()
    let inlayHint: JSONValue = ["resolveSupport": ["properties": .array(properties.map { .string($0) })]]
    let result = try client.initialize(capabilities: ["textDocument": ["inlayHint": inlayHint]])
    #expect(result["capabilities"]?["inlayHintProvider"] == ["resolveProvider": .bool(resolves)])
    try client.finish()
  }
}

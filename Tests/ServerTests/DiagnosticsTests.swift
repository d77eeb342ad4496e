import JSONRPC
import TestSupport
import Testing

/// the README's diagnostics table and the README's table of server features `textDocument/publishDiagnostics`: every diagnostic with its exact range,
/// severity, code, source "rpn" and message, published with the document's version.
@Suite struct DiagnosticsTests {
  /// One document with every code, and every kind of line break (`\n`, `\r\n`, `\r`).
  @Test func everyCodeIsPublishedWithItsExactRangeSeverityAndMessage() throws {
    let client = try LSPClient.started()
    let lines = [
      "# every diagnostic",  // 0
      "1 +",  // 1
      "5 0 /",  // 2
      "clear -4 sqrt",  // 3
      "1e308 10 *",  // 4
      "dupp 4+ rate",  // 5
      "1e999 = =9x =sin",  // 6
      "=rate",  // 7
      "clear =x x",  // 8
      "=dup",  // 9
      "12_kmh 3_m/s/s 5_km 3_h +",  // 10
    ]
    let breaks = ["\n", "\r\n", "\r", "\n", "\r\n", "\r", "\r\n", "\n", "\r", "\n", ""]
    let text = zip(lines, breaks).map { $0 + $1 }.joined()
    client.open("file:///every.rpn", text, version: 7)
    let published = try client.publishedDiagnostics("file:///every.rpn")
    #expect(published.version == 7)
    #expect(
      compact(diagnostics: published.diagnostics) == [
        "1:2-1:3 warning stack-underflow: `+` needs 2 values but the stack holds only 1",
        "2:4-2:5 warning division-by-zero: `/` divides by zero",
        "3:9-3:13 warning domain-error: `sqrt` of -4 is undefined: a square root needs a value ≥ 0",
        "4:9-4:10 warning overflow: `*` of 1e+308 and 10 overflows: the result is beyond ±1.7976931348623157e+308, the largest double",
        "5:0-5:4 error unknown-word: unknown word `dupp`; did you mean `dup`?",
        "5:5-5:7 error unknown-word: unknown word `4+`; did you mean `4 +`?",
        "5:8-5:12 error unknown-word: unknown word `rate`: `rate` is stored later, on line 8; "
          + "a variable can be used only below its store",
        "6:0-6:5 error invalid-number: number `1e999` is out of the range of a double (±1.7976931348623157e+308)",
        "6:6-6:7 error invalid-name: `=` needs a name after it, like `=total`",
        "6:8-6:11 error invalid-name: `=9x` is not a valid name: a name starts with a letter, "
          + "followed by letters, digits 0-9 or `_`",
        "6:12-6:16 error invalid-name: `=sin` cannot store into `sin`: that is a function; choose another name",
        "8:6-8:8 warning stack-underflow: `=x` needs 1 value but the stack is empty",
        "8:9-8:10 error unknown-word: unknown word `x`",
        "9:0-9:4 error invalid-name: `=dup` cannot store into `dup`: that is a stack operator; choose another name",
        "10:0-10:6 error unknown-unit: unknown unit `kmh` in `12_kmh`; did you mean `km/h`?",
        "10:7-10:14 error invalid-unit: `3_m/s/s`: a unit has at most one `/`; write `m/s^2`",
        "10:24-10:25 warning unit-mismatch: `+` needs one dimension: 5 km is a length, 3 h is a time",
      ])
    // The stacks agree: the failed tokens changed nothing.
    #expect(
      compact(hints: try client.allInlayHints("file:///every.rpn")) == [
        "1:3 [1]", "2:5 [1 5 0]", "3:13 [-4]", "4:10 [-4 1e+308 10]", "5:12 [-4 1e+308 10]",
        "6:16 [-4 1e+308 10]", "7:5 [-4 1e+308 10]", "8:10 []", "9:4 []", "10:25 [5_km 3_h]",
      ])
    try client.finish()
  }

  @Test func suggestionsNameVisibleVariablesAndOperators() throws {
    let client = try LSPClient.started()
    client.open("file:///s.rpn", "3 =rate\nratr SQRT Sqrtt swpa\n")
    let published = try client.publishedDiagnostics("file:///s.rpn")
    #expect(
      compact(diagnostics: published.diagnostics) == [
        "1:0-1:4 error unknown-word: unknown word `ratr`; did you mean `rate`?",
        "1:10-1:15 error unknown-word: unknown word `Sqrtt`; did you mean `sqrt`?",
        "1:16-1:20 error unknown-word: unknown word `swpa`; did you mean `swap`?",
      ])
    try client.finish()
  }

  /// A line of uses that fail the same way is published as one diagnostic, on the first use,
  /// counting the rest: an editor shows one message, not one per use. Over the binary's pipes.
  @Test(.overPipes) func repeatedFailuresArePublishedOnce() throws {
    let client = try LSPClient.started()
    client.open("file:///r.rpn", "1 : z 0 / ;\nz 2 z z\n")
    let published = try client.publishedDiagnostics("file:///r.rpn")
    #expect(
      compact(diagnostics: published.diagnostics) == [
        "1:0-1:1 warning division-by-zero: `z` failed: in its definition (line 1), `/` divides by zero; the stack "
          + "is as it was before `z`",
        "1:4-1:5 warning division-by-zero: `z` failed: in its definition (line 1), `/` divides by zero; the stack "
          + "is as it was before `z`; 1 more use after it on this line fails the same way",
      ])
    try client.finish()
  }

  /// A tape's control characters reach messages escaped: some editors (Vim's message line) show
  /// them in a terminal, where an escape sequence would run. Over the binary's pipes.
  @Test(.overPipes) func controlCharactersInMessagesAreEscaped() throws {
    let client = try LSPClient.started()
    client.open("file:///esc.rpn", "\u{1B}]0;pwned\u{7} 0x\u{1B}[2J\n")
    let published = try client.publishedDiagnostics("file:///esc.rpn")
    #expect(
      published.diagnostics.compactMap { $0["message"]?.stringValue } == [
        "unknown word `\\x1b]0;pwned\\x07`",
        "`0x\\x1b[2J`: `\\x1b` is not a hexadecimal digit (0-9 and A-F)",
      ])
    try client.finish()
  }

  @Test func everyPublicationCarriesTheDocumentsVersion() throws {
    let client = try LSPClient.started()
    let uri = "file:///v.rpn"
    client.open(uri, "1 2 +\n", version: 3)
    let first = try client.waitForNotification("textDocument/publishDiagnostics") { $0["uri"] == .string(uri) }
    #expect(first["version"] == 3)
    #expect(first["diagnostics"] == [])
    var published = try client.publishedDiagnostics(uri)
    #expect(published.version == 3)
    #expect(published.diagnostics.isEmpty)

    client.change(uri, version: 4, [edit(range(0, 4, 0, 5), "+ +")])  // "1 2 + +"
    published = try client.publishedDiagnostics(uri)
    #expect(published.version == 4)
    #expect(
      compact(diagnostics: published.diagnostics) == [
        "0:6-0:7 warning stack-underflow: `+` needs 2 values but the stack holds only 1"
      ])

    client.change(uri, version: 5, [edit(range(0, 0, 0, 0), "9 ")])  // "9 1 2 + +"
    published = try client.publishedDiagnostics(uri)
    #expect(published.version == 5)
    #expect(published.diagnostics.isEmpty)
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:9 [12]"])

    // A full-text change (no range) replaces everything.
    client.change(uri, version: 6, [["text": "0 inv\n"]])
    published = try client.publishedDiagnostics(uri)
    #expect(published.version == 6)
    #expect(
      compact(diagnostics: published.diagnostics) == [
        "0:2-0:5 warning division-by-zero: `inv` of 0 divides by zero"
      ])
    try client.finish()
  }

  @Test func closingADocumentPublishesAnEmptyList() throws {
    let client = try LSPClient.started()
    client.open("file:///c.rpn", "+")
    #expect(try client.publishedDiagnostics("file:///c.rpn").diagnostics.count == 1)
    client.close("file:///c.rpn")
    #expect(try client.publishedDiagnostics("file:///c.rpn").diagnostics == [])
    try client.finish()
  }

  /// Each open document has its own diagnostics, and a change to one republishes only what it
  /// changed, for its own URI.
  @Test func documentsAreIndependent() throws {
    let client = try LSPClient.started()
    client.open("file:///a.rpn", "1 0 /", version: 1)
    client.open("file:///b.rpn", "=1x", version: 1)
    #expect(
      compactWithoutMessage(diagnostics: try client.publishedDiagnostics("file:///a.rpn").diagnostics) == [
        "0:4-0:5 warning division-by-zero"
      ])
    #expect(
      compactWithoutMessage(diagnostics: try client.publishedDiagnostics("file:///b.rpn").diagnostics) == [
        "0:0-0:3 error invalid-name"
      ])
    client.change("file:///a.rpn", version: 2, [edit(range(0, 2, 0, 3), "2")])
    let a = try client.publishedDiagnostics("file:///a.rpn")
    #expect(a.version == 2)
    #expect(a.diagnostics == [])
    let b = try client.publishedDiagnostics("file:///b.rpn")
    #expect(b.version == 1)
    #expect(compactWithoutMessage(diagnostics: b.diagnostics) == ["0:0-0:3 error invalid-name"])
    try client.finish()
  }

  /// the README's failure rule: one mistake never hides the rest; checks in order syntax, stack, result.
  @Test func theFailureRuleKeepsEvaluating() throws {
    let client = try LSPClient.started()
    client.open("file:///f.rpn", "200 15 % -\n9 0 mod 2 0 ^ 0 -1 ^\n-1 ln 2 asin\n=x\n")
    #expect(
      compact(diagnostics: try client.publishedDiagnostics("file:///f.rpn").diagnostics) == [
        "1:4-1:7 warning division-by-zero: `9 0 mod`: modulo by zero",
        "1:19-1:20 warning division-by-zero: `^`: 0 to a negative power (-1) divides by zero",
        "2:3-2:5 warning domain-error: `ln` of -1 is undefined: a logarithm needs a value > 0",
        "2:8-2:12 warning domain-error: `asin` of 2 is undefined: it needs a value from -1 to 1",
      ])
    #expect(
      compact(hints: try client.allInlayHints("file:///f.rpn")) == [
        "0:10 [170]", "1:20 [170 9 0 1 0 -1]", "2:12 [170 9 0 1 0 -1 -1 2]", "3:2 [170 9 0 1 0 -1 -1 2]",
      ])
    try client.finish()
  }

  // MARK: Pull diagnostics

  /// the README's table of server features: a client that supports pull diagnostics gets none pushed, `diagnosticProvider`
  /// is advertised, and `textDocument/diagnostic` answers the same diagnostics, `unchanged` when
  /// the `previousResultId` still holds.
  @Test func pullDiagnosticsReplacePushedOnesForClientsThatSupportThem() throws {
    let client = try LSPClient()
    let result = try client.initialize(capabilities: ["textDocument": ["diagnostic": ["dynamicRegistration": false]]])
    #expect(result["capabilities"]?["diagnosticProvider"]?.isObject == true)
    client.open("file:///p.rpn", "1 +")
    try client.barrier()
    #expect(client.allPublished("file:///p.rpn").count == 0, "diagnostics are not pushed to a client that pulls them")
    let report = try client.request("textDocument/diagnostic", ["textDocument": ["uri": "file:///p.rpn"]])
    #expect(report["kind"] == "full")
    #expect(
      compact(diagnostics: report["items"]?.arrayValue ?? []) == [
        "0:2-0:3 warning stack-underflow: `+` needs 2 values but the stack holds only 1"
      ])
    let resultID = try #require(report["resultId"]?.stringValue)
    let again = try client.request(
      "textDocument/diagnostic", ["textDocument": ["uri": "file:///p.rpn"], "previousResultId": .string(resultID)])
    #expect(again["kind"] == "unchanged")
    client.change("file:///p.rpn", version: 2, [edit(range(0, 0, 0, 0), "2 ")])
    let changed = try client.request(
      "textDocument/diagnostic", ["textDocument": ["uri": "file:///p.rpn"], "previousResultId": .string(resultID)])
    #expect(changed["kind"] == "full")
    #expect(changed["items"] == [])
    try client.finish()
  }
}

// MARK: Pull diagnostics: result ids, encodings, settings

/// the README's table of server features `textDocument/diagnostic`, beyond the basics above: the result id names the
/// diagnostics until an edit (or a settings change) to that document; a stale id gets a `full`
/// report; nothing is ever pushed to a client that pulls.
extension DiagnosticsTests {
  static let pullCapabilities: JSONValue = [
    "diagnostic": ["dynamicRegistration": false, "relatedDocumentSupport": false]
  ]

  static func pull(_ client: LSPClient, _ uri: String, previous: String? = nil) throws -> JSONValue {
    var params: [(key: String, value: JSONValue)] = [("textDocument", ["uri": .string(uri)])]
    if let previous { params.append(("previousResultId", .string(previous))) }
    return try client.request("textDocument/diagnostic", .object(params))
  }

  @Test(arguments: encodings)
  func pullResultIDsNameTheDiagnosticsUntilAnEdit(encoding: String) throws {
    let (client, result) = try LSPClient.started(
      encoding: encoding, capabilities: [("textDocument", Self.pullCapabilities)])
    #expect(result["capabilities"]?["diagnosticProvider"]?["interFileDependencies"] == false)
    #expect(result["capabilities"]?["diagnosticProvider"]?["workspaceDiagnostics"] == false)
    let uri = "file:///pull.rpn"
    client.open(uri, "😀 √ 1 +\n÷ 2 0 /\n")
    let first = try Self.pull(client, uri)
    #expect(first["kind"] == "full")
    #expect(
      compact(diagnostics: first["items"]?.arrayValue ?? []) == [
        span(encoding, 0, (0, 4), (0, 2)) + " error unknown-word: unknown word `😀`",
        span(encoding, 0, (5, 8), (3, 4)) + " warning stack-underflow: `√` needs 1 value but the stack is empty",
        span(encoding, 0, (11, 12), (7, 8)) + " warning stack-underflow: `+` needs 2 values but the stack holds only 1",
        span(encoding, 1, (0, 2), (0, 1)) + " warning stack-underflow: `÷` needs 2 values but the stack holds only 1",
        span(encoding, 1, (7, 8), (6, 7)) + " warning division-by-zero: `/` divides by zero",
      ])
    let id = try #require(first["resultId"]?.stringValue)

    // No edit: `unchanged`, with the same id; asked without an id: the same diagnostics, in full.
    let unchanged = try Self.pull(client, uri, previous: id)
    #expect(unchanged["kind"] == "unchanged")
    #expect(unchanged["resultId"] == .string(id))
    #expect(unchanged["items"] == nil)
    let again = try Self.pull(client, uri)
    #expect(again["kind"] == "full")
    #expect(again["items"] == first["items"])

    // An edit: a new id and a full report, for the old id and for none.
    client.change(uri, version: 2, [edit(range(1, 0, 1, pick(encoding, 2, 1)), "")])  // Line 1 loses its `÷`.
    let changed = try Self.pull(client, uri, previous: id)
    #expect(changed["kind"] == "full")
    let newID = try #require(changed["resultId"]?.stringValue)
    #expect(newID != id)
    #expect(
      compactWithoutMessage(diagnostics: changed["items"]?.arrayValue ?? []) == [
        span(encoding, 0, (0, 4), (0, 2)) + " error unknown-word",
        span(encoding, 0, (5, 8), (3, 4)) + " warning stack-underflow",
        span(encoding, 0, (11, 12), (7, 8)) + " warning stack-underflow", "1:5-1:6 warning division-by-zero",
      ])
    #expect(try Self.pull(client, uri, previous: newID)["kind"] == "unchanged")
    #expect(try Self.pull(client, uri, previous: newID)["resultId"] == .string(newID))
    #expect(try Self.pull(client, uri, previous: id)["kind"] == "full")
    #expect(try Self.pull(client, uri, previous: "no such id")["kind"] == "full")
    #expect(client.allPublished(uri).isEmpty, "nothing is pushed to a client that pulls")
    try client.finish()
  }

  /// Each document has its own ids: an edit to one leaves the other's id valid. A settings change
  /// that changes diagnostics invalidates every id, and a client that supports it is asked to
  /// pull again (`workspace/diagnostic/refresh`).
  @Test func pullResultIDsPerDocumentAndSettings() throws {
    let client = try LSPClient.started(capabilities: [
      "textDocument": Self.pullCapabilities, "workspace": ["diagnostics": ["refreshSupport": true]],
    ])
    client.open("file:///a.rpn", "1 +\n")
    client.open("file:///b.rpn", "90 tan\n")
    let a = try #require(try Self.pull(client, "file:///a.rpn")["resultId"]?.stringValue)
    let b = try Self.pull(client, "file:///b.rpn")
    #expect(b["items"] == [])
    let bID = try #require(b["resultId"]?.stringValue)
    #expect(a != bID)
    client.change("file:///a.rpn", version: 2, [edit(range(0, 0, 0, 0), "2 ")])
    #expect(try Self.pull(client, "file:///a.rpn", previous: a)["kind"] == "full")
    #expect(try Self.pull(client, "file:///b.rpn", previous: bID)["kind"] == "unchanged")

    let requestsBefore = client.serverRequests.count
    client.notify("workspace/didChangeConfiguration", ["settings": ["rpn": ["angleUnit": "degrees"]]])
    let degrees = try Self.pull(client, "file:///b.rpn", previous: bID)
    #expect(degrees["kind"] == "full")
    #expect(compactWithoutMessage(diagnostics: degrees["items"]?.arrayValue ?? []) == ["0:3-0:6 warning domain-error"])
    #expect(degrees["resultId"] != .string(bID))
    #expect(
      client.serverRequests.dropFirst(requestsBefore).contains { $0["method"] == "workspace/diagnostic/refresh" },
      "a refresh request after the settings changed")
    #expect(client.allPublished("file:///a.rpn").isEmpty && client.allPublished("file:///b.rpn").isEmpty)
    client.close("file:///a.rpn")
    try client.barrier()
    #expect(client.allPublished("file:///a.rpn").isEmpty, "not even an empty list on close")
    let error = try client.requestError("textDocument/diagnostic", ["textDocument": ["uri": "file:///a.rpn"]])
    #expect(error.code == -32602)
    #expect(error.message.contains("file:///a.rpn"))
    try client.finish()
  }

  /// A client that does not declare `textDocument.diagnostic` gets pushed diagnostics and no
  /// `diagnosticProvider`.
  @Test func clientsThatDoNotPullArePushedTo() throws {
    let (client, result) = try LSPClient.started(
      encoding: "utf-8", capabilities: [("textDocument", ["hover": ["contentFormat": ["plaintext"]]])])
    #expect(result["capabilities"]?["diagnosticProvider"] == nil)
    client.open("file:///push.rpn", "1 +\n")
    #expect(
      compactWithoutMessage(diagnostics: try client.publishedDiagnostics("file:///push.rpn").diagnostics) == [
        "0:2-0:3 warning stack-underflow"
      ])
    try client.finish()
  }
}

import JSONRPC
import TestSupport
import Testing

/// The code actions that write checks: a quick fix per failing check, the line's result written
/// as a check, and the source actions on every check (update the failing ones, add one to every
/// line, remove them all), filtered by `context.only`, and resolved later for clients that can.
/// Every action's edit is applied to the test's copy of the text and sent back: no check fails
/// in what it writes. The tests that apply edits run end to end, over the built binary's pipes.
@Suite(.inProcess) struct CheckActionTests {
  static let uri = "file:///checks.rpn"
  /// Every kind, asked for by name: what a client that cannot resolve edits sends to see the
  /// source actions (without `context.only` it gets none; see `sourceActionsNeedResolveOrOnly`).
  static let everyKind = ["quickfix", "refactor", "source"]
  /// Three failing checks (lines 1, 3 and 6; markers around the first two and the last), a
  /// passing one (line 2), a line without a check whose result can be written (line 4, marker 5
  /// where it goes), and a line after which the stack is empty (line 5). `÷`, `√` and `×` make
  /// UTF-8 and UTF-16 columns differ; the emoji sit in comments.
  static let source = Marked(
    """
    # 😀 lunch, checked
    12.5 8 + 1️⃣=20.42️⃣ # 😀 off by 0.1
    3 ÷ =6.83
    2 √ × 3️⃣=9.674️⃣
    1 3 ÷5️⃣ # 😀 a third
    clear
    1.5e3 6️⃣=1.4e37️⃣

    """)
  static let text = source.text
  /// The text with every failing check updated, in its own form.
  static let updated = """
    # 😀 lunch, checked
    12.5 8 + =20.5 # 😀 off by 0.1
    3 ÷ =6.83
    2 √ × =9.66
    1 3 ÷ # 😀 a third
    clear
    1.5e3 =1.5e3

    """
  /// The text with every check removed.
  static let removed = """
    # 😀 lunch, checked
    12.5 8 + # 😀 off by 0.1
    3 ÷
    2 √ ×
    1 3 ÷ # 😀 a third
    clear
    1.5e3

    """
  /// `removed` with a check added to every line that has a stack, as the display shows values,
  /// except the last: it ends on the number written there, which a check would only repeat.
  static let added = """
    # 😀 lunch, checked
    12.5 8 + =20.5 # 😀 off by 0.1
    3 ÷ =6.83333333333333
    2 √ × =9.66379267621615
    1 3 ÷ =0.333333333333333 # 😀 a third
    clear
    1.5e3

    """

  /// A client that negotiated `encoding`, declares code action literals (and, with `resolving`,
  /// that it resolves edits), with `text` open.
  static func started(_ encoding: String, text: String = Self.text, resolving: Bool = false) throws -> LSPClient {
    var codeAction: [(key: String, value: JSONValue)] = [
      ("codeActionLiteralSupport", ["codeActionKind": ["valueSet": ["quickfix", "refactor", "source"]]])
    ]
    if resolving { codeAction += [("dataSupport", true), ("resolveSupport", ["properties": ["edit"]])] }
    let client = try LSPClient.started(
      encoding: encoding, capabilities: [("textDocument", ["codeAction": .object(codeAction)])]
    ).client
    client.open(uri, text)
    return client
  }

  static func codeActions(
    _ client: LSPClient, _ range: JSONValue, _ diagnostics: [JSONValue] = [], only: [String]? = nil
  )
    throws -> [JSONValue]
  {
    try CodeActionTests.codeActions(client, range, diagnostics, only: only, uri: uri)
  }

  /// Replaces the document's text with `text` and returns the diagnostics published for it.
  static func publish(_ client: LSPClient, _ text: String, version: inout Int) throws -> [JSONValue] {
    version += 1
    client.change(uri, version: version, [["text": .string(text)]])
    let published = try client.publishedDiagnostics(uri)
    #expect(published.version == version)
    return published.diagnostics
  }

  /// The text once an action's edit is applied.
  static func applied(_ action: JSONValue, to text: String, _ encoding: String) throws -> String {
    try applying(
      edits(of: try #require(action["edit"], "an edit in \(JSONWriter.string(action))"), uri: uri),
      to: text, encoding: encoding)
  }

  // MARK: Quick fixes

  /// Each failing check, asked with its diagnostic's range as editors ask, gets one preferred
  /// quick fix carrying that diagnostic and replacing the check with its updated value, then the
  /// source actions. Applied one after another, no check fails any more. Also end to end.
  @Test(.overPipes, arguments: encodings)
  func eachFailingCheckGetsAQuickFix(encoding: String) throws {
    let client = try Self.started(encoding)
    let source = Self.source
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    #expect(
      compact(diagnostics: diagnostics) == [
        "\(compact(range: source.range(1, 2, encoding))) warning check-failed: expected 20.4, the top is 20.5 "
          + "(20.5 to 1 decimal)",
        "\(compact(range: source.range(3, 4, encoding))) warning check-failed: expected 9.67, the top is "
          + "9.66379267621615 (9.66 to 2 decimals)",
        "\(compact(range: source.range(6, 7, encoding))) warning check-failed: expected 1.4e3, the top is 1500 "
          + "(1500 to the nearest 100)",
      ])
    #expect(compact(range: source.range(3, 4, encoding)) == span(encoding, 3, (9, 14), (6, 11)))
    let fixes: [(range: JSONValue, newText: String)] = [
      (source.range(1, 2, encoding), "=20.5"), (source.range(3, 4, encoding), "=9.66"),
      (source.range(6, 7, encoding), "=1.5e3"),
    ]
    // Besides updating the failing checks (each fix leaves one fewer), the same every time:
    // updated values are as long as those they replace.
    let otherSourceActions = [
      "source.rpn.addChecks \"Add a check to every line\": "
        + "\(span(encoding, 4, (6, 6), (5, 5))) → \" =0.333333333333333\"",
      "source.rpn.removeChecks \"Remove every check\": 1:8-1:14 → \"\", \(span(encoding, 2, (4, 10), (3, 9))) → \"\", "
        + "\(span(encoding, 3, (8, 14), (5, 11))) → \"\", 6:5-6:12 → \"\"",
    ]
    var text = Self.text
    var version = 1
    var failing = diagnostics
    for (index, (range, newText)) in fixes.enumerated() {
      let diagnostic = try #require(
        failing.first { $0["range"] == range }, "the diagnostic at \(compact(range: range))")
      let actions = try Self.codeActions(client, range, [diagnostic], only: Self.everyKind)
      let fix = try #require(actions.first)
      let updateAll =
        "source.rpn.updateChecks \"Update every failing check\": "
        + fixes[index...].map { "\(compact(range: $0.range)) → \"\($0.newText)\"" }.joined(separator: ", ")
      #expect(
        compact(actions: actions, uri: Self.uri)
          == [
            "quickfix preferred \"Update the check to \(newText)\": \(compact(range: range)) → \"\(newText)\"",
            updateAll,
          ]
          + otherSourceActions)
      #expect(fix["diagnostics"] == [diagnostic])
      text = try Self.applied(fix, to: text, encoding)
      failing = try Self.publish(client, text, version: &version)
      #expect(!failing.contains(diagnostic), "the check at \(compact(range: range)) passes once updated")
      #expect(failing.allSatisfy { $0["code"] == "check-failed" })
    }
    #expect(text == Self.updated)
    #expect(failing == [])
    try client.finish()
  }

  /// A passing check, a store, and a check on too short a stack get no quick fix.
  @Test func passingChecksGetNoQuickFix() throws {
    let client = try Self.started("utf-16", text: "1 =1 =a\n=1 +\nclear =0\n")
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    #expect(
      compactWithoutMessage(diagnostics: diagnostics) == [
        "1:3-1:4 warning stack-underflow", "2:6-2:8 warning stack-underflow",
      ])
    let fixes = try Self.codeActions(client, range(0, 0, 2, 0), diagnostics, only: ["quickfix"])
    #expect(fixes == [])
    try client.finish()
  }

  // MARK: The result as a check

  /// A line without a check whose stack is not empty gets "Write the result as a check": ` =X`
  /// after its last token, before its comment, as the display shows it; once applied, it passes and
  /// the line gets the action no more.
  @Test(.overPipes, arguments: encodings)
  func aLineResultIsWrittenAsACheck(encoding: String) throws {
    let client = try Self.started(encoding, text: Self.updated)
    #expect(try client.publishedDiagnostics(Self.uri).diagnostics == [])
    let cursor = Self.source.at(5, encoding)
    let actions = try Self.codeActions(client, ["start": cursor, "end": cursor], only: Self.everyKind)
    #expect(
      compact(actions: actions, uri: Self.uri) == [
        "refactor.rewrite \"Write the result as a check: =0.333333333333333\": "
          + "\(span(encoding, 4, (6, 6), (5, 5))) → \" =0.333333333333333\"",
        "source.rpn.addChecks \"Add a check to every line\": "
          + "\(span(encoding, 4, (6, 6), (5, 5))) → \" =0.333333333333333\"",
        "source.rpn.removeChecks \"Remove every check\": 1:8-1:14 → \"\", \(span(encoding, 2, (4, 10), (3, 9))) → \"\", "
          + "\(span(encoding, 3, (8, 14), (5, 11))) → \"\", 6:5-6:12 → \"\"",
      ])
    let text = try Self.applied(actions[0], to: Self.updated, encoding)
    #expect(text == Self.updated.replacingOccurrences(of: "1 3 ÷ #", with: "1 3 ÷ =0.333333333333333 #"))
    var version = 1
    #expect(try Self.publish(client, text, version: &version) == [])
    let after = try Self.codeActions(client, ["start": cursor, "end": cursor], only: Self.everyKind)
    #expect(after.map { $0["kind"] } == ["source.rpn.removeChecks"])
    try client.finish()
  }

  /// The lines of the range get the action, but not one that the range ends at the start of (a
  /// whole-line selection), nor a line after which the stack is empty, a comment, a line with a
  /// check, or one that ends on the number written there (`1.5e3`).
  @Test(
    arguments: [
      (range(1, 0, 5, 0), [1, 2, 3, 4]), (range(1, 0, 4, 0), [1, 2, 3]), (range(1, 0, 4, 1), [1, 2, 3, 4]),
      (range(4, 0, 4, 0), [4]), (range(3, 5, 3, 5), [3]), (range(5, 0, 6, 0), []), (range(0, 0, 0, 4), []),
      (range(6, 0, 9, 0), []), (range(7, 0, 9, 0), []), (range(4, 0, 6, 0), [4]),
    ] as [(JSONValue, [Int])])
  func theLinesOfTheRangeGetTheAction(range: JSONValue, lines: [Int]) throws {
    let client = try Self.started("utf-16", text: Self.removed)
    let actions = try Self.codeActions(client, range, only: ["refactor"])
    #expect(actions.map { $0["kind"] } == lines.map { _ in "refactor.rewrite" })
    #expect(
      try actions.map { try edits(of: $0["edit"] ?? .null, uri: Self.uri).map { $0["range"]?["start"]?["line"] } }
        == lines.map { [JSONValue($0)] })
    try client.finish()
  }

  // MARK: Source actions

  /// Offered whatever the range, each only when it would change something; each applied leaves
  /// no failing check: updating every failing check, removing every check, then adding one to
  /// every line of what is left.
  @Test(.overPipes, arguments: encodings)
  func sourceActionsUpdateAddAndRemoveEveryCheck(encoding: String) throws {
    let client = try Self.started(encoding)
    _ = try client.publishedDiagnostics(Self.uri)
    let actions = try Self.codeActions(client, range(5, 0, 5, 0), only: ["source"])
    #expect(
      actions.map { "\($0["kind"]?.stringValue ?? "none") \($0["title"]?.stringValue ?? "none")" } == [
        "source.rpn.updateChecks Update every failing check", "source.rpn.addChecks Add a check to every line",
        "source.rpn.removeChecks Remove every check",
      ])
    #expect(actions.allSatisfy { $0["isPreferred"] == nil && $0["diagnostics"] == nil && $0["data"] == nil })
    var version = 1
    let updated = try Self.applied(actions[0], to: Self.text, encoding)
    #expect(updated == Self.updated)
    #expect(try Self.publish(client, updated, version: &version) == [])
    #expect(
      try Self.codeActions(client, range(0, 0, 0, 0), only: ["source"]).map { $0["kind"] } == [
        "source.rpn.addChecks", "source.rpn.removeChecks",
      ])

    let removed = try Self.applied(actions[2], to: Self.text, encoding)
    #expect(removed == Self.removed)
    #expect(try Self.publish(client, removed, version: &version) == [])
    let onRemoved = try Self.codeActions(client, range(0, 0, 0, 0), only: ["source"])
    #expect(
      compact(actions: onRemoved, uri: Self.uri) == [
        "source.rpn.addChecks \"Add a check to every line\": 1:8-1:8 → \" =20.5\", "
          + "\(span(encoding, 2, (4, 4), (3, 3))) → \" =6.83333333333333\", "
          + "\(span(encoding, 3, (8, 8), (5, 5))) → \" =9.66379267621615\", "
          + "\(span(encoding, 4, (6, 6), (5, 5))) → \" =0.333333333333333\""
      ])
    let added = try Self.applied(onRemoved[0], to: removed, encoding)
    #expect(added == Self.added)
    #expect(try Self.publish(client, added, version: &version) == [])
    #expect(
      try Self.codeActions(client, range(0, 0, 0, 0), only: ["source"]).map { $0["kind"] } == [
        "source.rpn.removeChecks"
      ])
    #expect(try Self.publish(client, "1 2 +\n", version: &version) == [])
    #expect(
      try Self.codeActions(client, range(0, 0, 0, 0), only: ["source"]).map { $0["kind"] } == ["source.rpn.addChecks"])
    #expect(try Self.publish(client, "# nothing\n\nclear\n", version: &version) == [])
    #expect(try Self.codeActions(client, range(0, 0, 0, 0), only: ["source"]) == [])
    try client.finish()
  }

  /// `context.only` keeps the kinds it includes: LSP's kinds are hierarchical, so `source` and
  /// `source.rpn` include every source action, `source.rpn.add` none, and `""` everything.
  @Test(
    arguments: [
      (nil, ["quickfix", "quickfix", "quickfix", "refactor.rewrite"]),
      (
        ["quickfix", "refactor", "source"],
        ["quickfix", "quickfix", "quickfix", "refactor.rewrite", "update", "add", "remove"]
      ),
      (["quickfix"], ["quickfix", "quickfix", "quickfix"]), (["refactor"], ["refactor.rewrite"]),
      (["refactor.rewrite"], ["refactor.rewrite"]), (["refactor.extract"], []),
      (["source"], ["update", "add", "remove"]),
      (["source.rpn"], ["update", "add", "remove"]), (["source.rpn.addChecks"], ["add"]), (["source.rpn.add"], []),
      (["source.fixAll"], []),
      (["quickfix", "source.rpn.removeChecks"], ["quickfix", "quickfix", "quickfix", "remove"]),
      ([""], ["quickfix", "quickfix", "quickfix", "refactor.rewrite", "update", "add", "remove"]), ([], []),
    ] as [([String]?, [String])])
  func onlyKeepsTheKindsItIncludes(only: [String]?, kinds: [String]) throws {
    let client = try Self.started("utf-8")
    let actions = try Self.codeActions(client, range(0, 0, 9, 0), only: only)
    let short = [
      "source.rpn.updateChecks": "update", "source.rpn.addChecks": "add", "source.rpn.removeChecks": "remove",
    ]
    #expect(actions.map { $0["kind"]?.stringValue.map { short[$0] ?? $0 } ?? "none" } == kinds)
    try client.finish()
  }

  /// A client that cannot resolve edits would get the source actions' whole-document edits with
  /// every request, and editors ask on every cursor move: it gets them only when it asks for
  /// them by kind. A client that resolves gets them either way, without their edits.
  @Test func sourceActionsNeedResolveOrOnly() throws {
    let eager = try Self.started("utf-8")
    #expect(try Self.codeActions(eager, range(0, 0, 0, 0)) == [])
    #expect(
      try Self.codeActions(eager, range(0, 0, 0, 0), only: ["source"]).map { $0["kind"] } == [
        "source.rpn.updateChecks", "source.rpn.addChecks", "source.rpn.removeChecks",
      ])
    try eager.finish()
    let resolving = try Self.started("utf-8", resolving: true)
    #expect(
      try Self.codeActions(resolving, range(0, 0, 0, 0)).map { $0["kind"] } == [
        "source.rpn.updateChecks", "source.rpn.addChecks", "source.rpn.removeChecks",
      ])
    try resolving.finish()
  }

  // MARK: Resolving

  /// A client that resolves edits gets the source actions without them (their `data` names the
  /// document) and resolves each to the edit a client that cannot resolve gets at once; quick
  /// fixes and the result as a check carry their edits from the start.
  @Test(.overPipes, arguments: encodings)
  func sourceActionsAreResolvedForClientsThatCan(encoding: String) throws {
    let eager = try Self.started(encoding)
    let expected = try Self.codeActions(eager, range(3, 0, 4, 9), only: Self.everyKind)
    try eager.finish()

    let client = try Self.started(encoding, resolving: true)
    let actions = try Self.codeActions(client, range(3, 0, 4, 9))
    #expect(actions.map { $0["kind"] } == expected.map { $0["kind"] })
    #expect(
      actions.map { $0["kind"] } == [
        "quickfix", "refactor.rewrite", "source.rpn.updateChecks",
        "source.rpn.addChecks", "source.rpn.removeChecks",
      ])
    for (action, wanted) in zip(actions, expected) {
      guard action["kind"]?.stringValue?.hasPrefix("source.") == true else {
        #expect(action == wanted)
        continue
      }
      #expect(action["edit"] == nil)
      #expect(action["data"] == ["textDocument": ["uri": .string(Self.uri)]])
      let resolved = try client.request("codeAction/resolve", action)
      #expect(resolved["title"] == wanted["title"] && resolved["kind"] == wanted["kind"])
      #expect(resolved["data"] == action["data"])
      #expect(
        compact(edits: try edits(of: resolved["edit"] ?? .null, uri: Self.uri))
          == compact(edits: try edits(of: wanted["edit"] ?? .null, uri: Self.uri)))
      // Resolved for the text as it is when resolved.
      #expect(try Self.applied(resolved, to: Self.text, encoding) == Self.applied(wanted, to: Self.text, encoding))
    }
    // An action that has its edit comes back as it is.
    #expect(try client.request("codeAction/resolve", actions[0]) == actions[0])
    try client.finish()
  }

  @Test func resolvingWhatCannotBeResolvedIsAnError() throws {
    let client = try Self.started("utf-16", resolving: true)
    let closed: JSONValue = ["textDocument": ["uri": "file:///closed.rpn"]]
    for action: JSONValue in [
      ["title": "x", "kind": "quickfix"], ["title": "x", "kind": "source.rpn.addChecks"],
      ["title": "x", "kind": "source.rpn.addChecks", "data": 3],
      ["title": "x", "kind": "source.rpn.addChecks", "data": closed], ["title": "x", "kind": "source.organizeImports"],
      ["title": "x"], [1, 2],
    ] {
      #expect(try client.requestError("codeAction/resolve", action).code == -32602, "\(JSONWriter.string(action))")
    }
    #expect(try client.requestError("codeAction/resolve", nil).code == -32602)
    try client.finish()
  }

  // MARK: Capabilities

  /// Every kind the server returns is announced to clients with literal support, and resolving
  /// to those that resolve edits; a client without literals gets `true`.
  @Test(
    arguments: [
      (false, false, nil), (true, false, false as JSONValue), (true, true, true as JSONValue),
    ] as [(Bool, Bool, JSONValue?)])
  func theCapabilityNamesEveryKind(literals: Bool, resolving: Bool, resolveProvider: JSONValue?) throws {
    var codeAction: [(key: String, value: JSONValue)] = []
    if literals { codeAction.append(("codeActionLiteralSupport", ["codeActionKind": ["valueSet": ["quickfix"]]])) }
    if resolving { codeAction += [("dataSupport", true), ("resolveSupport", ["properties": ["edit"]])] }
    let (client, result) = try LSPClient.started(
      encoding: "utf-16", capabilities: [("textDocument", ["codeAction": .object(codeAction)])])
    let capability = result["capabilities"]?["codeActionProvider"]
    if let resolveProvider {
      #expect(
        capability == [
          "codeActionKinds": [
            "quickfix", "refactor.rewrite", "source.rpn.updateChecks", "source.rpn.addChecks",
            "source.rpn.removeChecks",
          ],
          "resolveProvider": resolveProvider,
        ])
    } else {
      #expect(capability == true)
    }
    try client.finish()
  }
}

/// Code actions as `kind [preferred] "title": edits`, edits in document order, for exact
/// comparison of everything but the diagnostics they carry.
func compact(actions: [JSONValue], uri: String) -> [String] {
  actions.map { action in
    let kind = action["kind"]?.stringValue ?? "no kind"
    let preferred = action["isPreferred"] == true ? " preferred" : ""
    let title = (action["title"]?.stringValue ?? "no title").debugDescription
    let edits = (try? edits(of: action["edit"] ?? .null, uri: uri)).map { compact(edits: $0).joined(separator: ", ") }
    return "\(kind)\(preferred) \(title): \(edits ?? "no edit")"
  }
}

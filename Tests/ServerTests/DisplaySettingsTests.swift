// The display settings end to end: the editor's, a document's `# rpn:` lines over them, and every value the server shows.
import JSONRPC
import TestSupport
import Testing

/// The display settings (`display.notation`, `display.decimals`, `display.grouping`, with
/// `precision` and `inlayHints.maxItems`) over the built binary's pipes: every number the server
/// shows follows the document's effective display (inlay hints and their tooltips and check
/// edits, hover, completion, symbols, code lenses, diagnostic messages pushed and pulled, checks
/// written by code actions); a document's `# rpn:` lines override the editor's settings, and
/// editing them refreshes what clients show; a `# rpn:` comment after the first token sets
/// nothing, and hover says why; hover explains a line's keys and completion offers them and
/// their values; integers are also shown in hex, octal and binary; a comma out of place gets a
/// quick fix per reading.
@Suite(.overPipes) struct DisplaySettingsTests {
  static let uri = "file:///display.rpn"
  static let fixedGrouped: JSONValue = ["rpn": ["display": ["notation": "fixed", "decimals": 3, "grouping": true]]]
  static let refreshing: JSONValue = [
    "workspace": ["inlayHint": ["refreshSupport": true], "codeLens": ["refreshSupport": true]]
  ]
  /// A section with a store, a failing check and a failing `sqrt`: values in labels, summaries,
  /// symbols and messages.
  static let rent = "## Rent\n1234.5 =rent\nrent 2 / =1\n-2 sqrt\n"

  /// Inlay hints as `line:character label | tooltip | textEdits`.
  static func hints(_ client: LSPClient, _ uri: String = uri) throws -> [String] {
    let result = try client.allInlayHints(uri)
    return (result.arrayValue ?? []).map { hint in
      var text = compact(hint: hint)
      if let tooltip = hint["tooltip"]?.stringValue { text += " | " + tooltip }
      if let edits = hint["textEdits"]?.arrayValue { text += " | " + compact(edits: edits).joined(separator: ", ") }
      return text
    }
  }

  /// A plain-text hover's text, or "null".
  static func hover(_ client: LSPClient, _ position: JSONValue, _ uri: String = uri) throws -> String {
    let result = try client.hover(uri, position)
    return result == .null ? "null" : result["contents"]?["value"]?.stringValue ?? "no value"
  }

  /// A hover as `range text`, or "null".
  static func hoverWithRange(_ client: LSPClient, _ position: JSONValue, _ uri: String = uri) throws -> String {
    let result = try client.hover(uri, position)
    guard result != .null else { return "null" }
    return "\(compact(range: result["range"])) \(result["contents"]?["value"]?.stringValue ?? "no value")"
  }

  /// The requests the server sent the client, by method, once everything sent so far was handled.
  static func serverRequests(_ client: LSPClient) throws -> [String] {
    try client.barrier()
    return client.serverRequests.compactMap { $0["method"]?.stringValue }
  }

  // MARK: The editor's settings

  /// The editor's display reaches every value shown: labels, tooltips and the checks that
  /// hints write, hover, completion, symbols (hierarchical and flat), code lenses, pushed messages.
  @Test func theEditorsDisplayReachesEveryShownValue() throws {
    let client = try LSPClient.started(
      capabilities: ["textDocument": ["documentSymbol": ["hierarchicalDocumentSymbolSupport": true]]],
      initializationOptions: Self.fixedGrouped)
    client.open(Self.uri, Self.rent)
    #expect(
      try Self.hints(client) == [
        "0:7 Σ 1,849.750 · 3 values · avg 616.583",
        "1:12 [1,234.500] | 1: 1,234.500",
        "2:11 [1,234.500 617.250] | 2: 1,234.500\n1: 617.250",
        "3:7 [1,234.500 617.250 -2.000] | 3: 1,234.500\n2: 617.250\n1: -2.000",
      ])
    #expect(
      compact(diagnostics: try client.publishedDiagnostics(Self.uri).diagnostics) == [
        "2:9-2:11 warning check-failed: expected 1, the top is 617.250 (617 to a whole number)",
        "3:3-3:7 warning domain-error: `sqrt` of -2.000 is undefined: a square root needs a value ≥ 0",
      ])
    #expect(
      try Self.hover(client, position(2, 1))
        == "variable rent = 1,234.500, stored on line 2\n\nStack before: [1,234.500]\n"
        + "Stack after: [1,234.500 1,234.500]")
    let check = try Self.hover(client, position(2, 10))
    #expect(
      check
        == "check =1: the top must be 1 to a whole number\nfails: the top is 617.250 (617 to a whole number)\n\n"
        + "Stack before: [1,234.500 617.250]\nStack after: [1,234.500 617.250]\n\n"
        + "warning [check-failed]: expected 1, the top is 617.250 (617 to a whole number)")
    let items = CompletionTests.items(try client.completion(Self.uri, position(3, 3)))
    #expect(CompletionTests.item(items, "rent")?["detail"] == "1,234.500")
    let symbols = try client.request("textDocument/documentSymbol", ["textDocument": textDocument(Self.uri)])
    #expect(
      (symbols.arrayValue ?? []).flatMap { SectionTests.describe(symbol: $0) } == [
        "Rent 3 (Σ 1,849.750 · 3 values · avg 616.583) 0:0-3:7 sel 0:3-0:7",
        "  rent 13 (1,234.500) 1:7-1:12 sel 1:8-1:12",
      ])
    #expect(try SectionTests.lenses(client, uri: Self.uri) == ["0:0-0:7 Σ 1,849.750 · 3 values · avg 616.583"])
    try client.finish()
  }

  /// Words show their stacks, the variables their bodies read and the failures inside them in
  /// the display.
  @Test func wordHoversFollowTheDisplay() throws {
    let client = try LSPClient.started(initializationOptions: Self.fixedGrouped)
    client.open(Self.uri, "1234.5 =r\n: half r 2 / ;\nhalf\n: bad -2 sqrt ;\nbad\n")
    #expect(
      try Self.hover(client, position(1, 8))
        == "variable r = 1,234.500, stored on line 1\n\nIn the body of half: it runs at each use of half, not here")
    #expect(
      try Self.hover(client, position(2, 1))
        == "word half, defined on line 2\n( -- r )\n: half r 2 / ;\n\nStack before: [1,234.500]\n"
        + "Stack after: [1,234.500 617.250]")
    let bad = try Self.hover(client, position(4, 1))
    #expect(
      bad
        == "word bad, defined on line 4\n( -- r )\n: bad -2 sqrt ;\n\nStack before: [1,234.500 617.250]\n"
        + "Stack after: [1,234.500 617.250]\n\nwarning [domain-error]: `bad` failed: in its definition (line 4), "
        + "`sqrt` of -2.000 is undefined: a square root needs a value ≥ 0; the stack is as it was before `bad`")
    try client.finish()
  }

  /// Flat symbols show the value after the name; pulled diagnostics carry the same messages as
  /// pushed ones; dotted keys work as nested ones.
  @Test func flatSymbolsAndPulledDiagnosticsFollowTheDisplay() throws {
    let client = try LSPClient.started(
      capabilities: ["textDocument": ["diagnostic": [:]]],
      initializationOptions: ["rpn": ["display.notation": "fixed", "display.decimals": 1, "display.grouping": true]])
    client.open(Self.uri, Self.rent)
    let symbols = try client.request("textDocument/documentSymbol", ["textDocument": textDocument(Self.uri)])
    #expect(
      (symbols.arrayValue ?? []).map { SectionTests.describe(information: $0, uri: Self.uri) } == [
        "Rent 3 0:0-3:7", "rent = 1,234.5 13 1:7-1:12 in Rent",
      ])
    let report = try client.request("textDocument/diagnostic", ["textDocument": textDocument(Self.uri)])
    #expect(
      compact(diagnostics: report["items"]?.arrayValue ?? []) == [
        "2:9-2:11 warning check-failed: expected 1, the top is 617.2 (617 to a whole number)",
        "3:3-3:7 warning domain-error: `sqrt` of -2.0 is undefined: a square root needs a value ≥ 0",
      ])
    try client.finish()
  }

  /// A change of the display alone republishes the diagnostics (their messages show values) and
  /// asks clients that support it to refresh their hints and lenses; a document that pulls is
  /// asked to pull again.
  @Test(arguments: [(Self.refreshing, true), ([:] as JSONValue, false)])
  func aDisplayOnlyChangeRepublishesAndRefreshes(capabilities: JSONValue, refreshes: Bool) throws {
    let client = try LSPClient.started(capabilities: capabilities)
    client.open(Self.uri, Self.rent, version: 3)
    #expect(try client.publishedDiagnostics(Self.uri).diagnostics.count == 2)
    #expect(try Self.hints(client).first == "0:7 Σ 1849.75 · 3 values · avg 616.583333333333")
    let before = client.messageCount
    SettingsTests.configure(client, ["rpn": ["display": ["notation": "scientific", "decimals": 1]]])
    let published = try client.publishedDiagnostics(Self.uri)
    #expect(client.messages[before...].contains { $0["method"] == "textDocument/publishDiagnostics" })
    #expect(published.version == 3)
    #expect(
      compact(diagnostics: published.diagnostics) == [
        "2:9-2:11 warning check-failed: expected 1, the top is 6.2e+02 (617 to a whole number)",
        "3:3-3:7 warning domain-error: `sqrt` of -2.0e+00 is undefined: a square root needs a value ≥ 0",
      ])
    #expect(
      try Self.serverRequests(client)
        == (refreshes ? ["workspace/inlayHint/refresh", "workspace/codeLens/refresh"] : []))
    #expect(
      try Self.hints(client) == [
        "0:7 Σ 1.8e+03 · 3 values · avg 6.2e+02",
        "1:12 [1.2e+03] | 1: 1.2e+03",
        "2:11 [1.2e+03 6.2e+02] | 2: 1.2e+03\n1: 6.2e+02",
        "3:7 [1.2e+03 6.2e+02 -2.0e+00] | 3: 1.2e+03\n2: 6.2e+02\n1: -2.0e+00",
      ])
    #expect(try SectionTests.lenses(client, uri: Self.uri) == ["0:0-0:7 Σ 1.8e+03 · 3 values · avg 6.2e+02"])
    try client.finish()
  }

  /// Values of the wrong type or out of range are ignored, nested or dotted; the rest of the
  /// same update applies.
  @Test func illTypedDisplaySettingsAreIgnored() throws {
    let client = try LSPClient.started()
    client.open(Self.uri, "1234.6 1 3 /\n")
    let defaults = ["0:12 [1234.6 0.333333333333333]"]
    for settings: JSONValue in [
      ["rpn": ["display": ["notation": "Fixed"]]], ["rpn": ["display": ["notation": 1]]],
      ["rpn": ["display": ["decimals": 16]]], ["rpn": ["display": ["decimals": -1]]],
      ["rpn": ["display": ["decimals": 2.5]]], ["rpn": ["display": ["decimals": "3"]]],
      ["rpn": ["display": ["grouping": "true"]]], ["rpn": ["display": ["grouping": 1]]],
      ["rpn": ["display.notation": "hex"]], ["rpn": ["display.decimals": 99]], ["rpn": ["display": "fixed"]],
    ] {
      SettingsTests.configure(client, settings)
      #expect(compact(hints: try client.allInlayHints(Self.uri)) == defaults, "\(JSONWriter.string(settings))")
    }
    SettingsTests.configure(
      client, ["rpn": ["display": ["notation": "fixed", "decimals": "x", "grouping": true], "display.decimals": 0]])
    #expect(try Self.hints(client) == ["0:12 [1,235 0] | 2: 1,235\n1: 0 | 0:12-0:12 → \" =0\""])
    try client.finish()
  }

  // MARK: `# rpn:` lines

  /// A document's `# rpn:` lines override the editor's settings for that document only, and a
  /// later change of the editor's settings does not beat them (what they do not set still
  /// follows the editor). The lenses are not asked to refresh when no document shows them
  /// differently.
  @Test func aDocumentsLinesOverrideTheEditor() throws {
    let client = try LSPClient.started(capabilities: Self.refreshing, initializationOptions: Self.fixedGrouped)
    let other = "file:///other.rpn"
    client.open(Self.uri, "# title\n\n# rpn: notation=scientific decimals=1\n## Sum\n1234.5 1 3 /\n")
    client.open(other, "1234.5 1 3 /\n")
    #expect(
      try Self.hints(client) == [
        "3:6 Σ 1.2e+03 · 2 values · avg 6.2e+02",
        "4:12 [1.2e+03 3.3e-01] | 2: 1.2e+03\n1: 3.3e-01 | 4:12-4:12 → \" =3.3e-01\"",
      ])
    #expect(
      try Self.hints(client, other) == ["0:12 [1,234.500 0.333] | 2: 1,234.500\n1: 0.333 | 0:12-0:12 → \" =0.333\""])
    SettingsTests.configure(
      client, ["rpn": ["display": ["notation": "engineering", "decimals": 4], "inlayHints": ["maxItems": 1]]])
    #expect(try Self.serverRequests(client) == ["workspace/inlayHint/refresh", "workspace/codeLens/refresh"])
    #expect(
      try Self.hints(client) == [
        "3:6 Σ 1.2e+03 · 2 values · avg 6.2e+02",
        "4:12 [… 3.3e-01] | 2: 1.2e+03\n1: 3.3e-01 | 4:12-4:12 → \" =3.3e-01\"",
      ])
    #expect(
      try Self.hints(client, other) == [
        "0:12 [… 333.33e-03] | 2: 1.2345e+03\n1: 333.33e-03 | 0:12-0:12 → \" =333.33e-03\""
      ])
    // With the other document closed, no document shows its lenses differently.
    client.close(other)
    SettingsTests.configure(client, ["rpn": ["display": ["notation": "fixed"]]])
    #expect(
      try Self.serverRequests(client)
        == ["workspace/inlayHint/refresh", "workspace/codeLens/refresh", "workspace/inlayHint/refresh"])
    #expect(try SectionTests.lenses(client, uri: Self.uri) == ["3:0-3:6 Σ 1.2e+03 · 2 values · avg 6.2e+02"])
    try client.finish()
  }

  /// Editing a `# rpn:` line so that it sets something else shows new labels, and asks clients
  /// that support it to refresh their hints and lenses; an edit that sets the same, or an edit
  /// elsewhere, asks nothing.
  @Test(arguments: [(Self.refreshing, true), ([:] as JSONValue, false)])
  func editingTheLineRefreshes(capabilities: JSONValue, refreshes: Bool) throws {
    let client = try LSPClient.started(capabilities: capabilities)
    client.open(Self.uri, "# rpn: notation=fixed decimals=1\n## A\n1 3 /\n")
    #expect(try Self.hints(client) == ["1:4 Σ 0.3 · 1 value · avg 0.3", "2:5 [0.3] | 1: 0.3 | 2:5-2:5 → \" =0.3\""])
    client.change(Self.uri, version: 2, [edit(range(0, 31, 0, 32), "4")])
    #expect(
      try Self.serverRequests(client)
        == (refreshes ? ["workspace/inlayHint/refresh", "workspace/codeLens/refresh"] : []))
    #expect(
      try Self.hints(client) == [
        "1:4 Σ 0.3333 · 1 value · avg 0.3333", "2:5 [0.3333] | 1: 0.3333 | 2:5-2:5 → \" =0.3333\"",
      ])
    #expect(try SectionTests.lenses(client, uri: Self.uri) == ["1:0-1:4 Σ 0.3333 · 1 value · avg 0.3333"])
    let asked = client.serverRequests.count
    client.change(Self.uri, version: 3, [edit(range(0, 31, 0, 31), "0")])  // decimals=04: the same
    client.change(Self.uri, version: 4, [edit(range(3, 0, 3, 0), "# done\n")])
    #expect(try Self.serverRequests(client).count == asked)
    #expect(
      try Self.hints(client) == [
        "1:4 Σ 0.3333 · 1 value · avg 0.3333", "2:5 [0.3333] | 1: 0.3333 | 2:5-2:5 → \" =0.3333\"",
      ])
    try client.finish()
  }

  /// A `# rpn:` comment after the first token, or after tokens on its line, is a plain comment:
  /// it sets nothing, warns of nothing, completes nothing, and hover says so and why, over the
  /// whole comment.
  @Test func aLateLineHasNoEffectAndHoverSaysWhy() throws {
    let client = try LSPClient.started()
    let text = Marked("# plain\n1 2\n# rp1️⃣n: notation=fixed zz=9 2️⃣\n3 # rpn: decimals=4 3️⃣\n")
    client.open(Self.uri, text.text)
    #expect(try Self.hints(client).map { $0.prefix { $0 != "|" } } == ["1:3 [1 2] ", "3:1 [1 2 3] "])
    #expect(try client.publishedDiagnostics(Self.uri).diagnostics == [])
    let late =
      "# rpn: here is a plain comment: it sets nothing.\n\n"
      + "Settings lines must come before the first token, which is on line 2."
    #expect(try Self.hoverWithRange(client, text.utf16(1)) == "2:0-2:27 " + late)
    #expect(try Self.hoverWithRange(client, position(2, 20)) == "2:0-2:27 " + late)
    #expect(try Self.hoverWithRange(client, position(2, 0)) == "2:0-2:27 " + late)
    #expect(
      try Self.hoverWithRange(client, position(3, 9))
        == "3:2-3:20 # rpn: here is a plain comment: it sets nothing.\n\n"
        + "Settings lines are comment-only lines before the first token; this comment follows tokens on its line.")
    #expect(try Self.hover(client, position(3, 1)).hasPrefix("number 3\n"))
    #expect(try Self.hover(client, position(0, 3)) == "null")
    for marker in [2, 3] {
      #expect(CompletionTests.items(try client.completion(Self.uri, text.utf16(marker))).isEmpty)
    }
    try client.finish()
  }

  /// Hover on a pair of a line that applies: the key's meaning, what it takes, the value in
  /// effect and where it comes from, and the pair's diagnostic; a pair that is no setting says
  /// so. Null on the `# rpn:` itself, and in other comments.
  @Test(arguments: encodings)
  func hoverExplainsTheKeys(encoding: String) throws {
    let client = try LSPClient.started(encoding: encoding).client
    let text = Marked(
      "# rpn: 1️⃣notation=fixed Decimals=2️⃣4 decimals=93️⃣9 grö4️⃣ße=1 grouping5️⃣ angleUnit=6️⃣gradians\n"
        + "# r7️⃣pn: precision=38️⃣\n1 3 / # 9️⃣rpn: grouping=true\n")
    client.open(Self.uri, text.text)
    let notation =
      "setting notation: how numbers are written: auto (%g, `precision` digits), fixed (`decimals` after the "
      + "point), scientific, or engineering (exponents in threes)\ntakes auto, fixed, scientific or engineering\n"
    let decimals =
      "setting decimals: digits after the point in fixed and scientific notation (default 2)\n"
      + "takes a whole number from 0 to 15\nin effect: 4, set by this document's # rpn: lines"
    let expected: [(marker: Int, range: String, value: String)] = [
      (1, "0:7-0:21", notation + "in effect: fixed, set by this document's # rpn: lines"),
      (2, "0:22-0:32", decimals),
      (
        3, "0:33-0:44",
        decimals + "\n\nwarning [invalid-setting]: `decimals=99`: decimals takes a whole number from 0 to 15"
      ),
      (
        4, span(encoding, 0, (45, 54), (45, 52)),
        "größe=1 sets nothing\n\nwarning [invalid-setting]: unknown setting `größe`: the settings are `notation`, "
          + "`decimals`, `grouping`, `precision`, `angleUnit`, `maxItems`, `hints`"
      ),
      (
        5, pick(encoding, "0:55-0:63", "0:53-0:61"),
        "grouping sets nothing\n\nwarning [invalid-setting]: `grouping` is not a setting: write `key=value`, "
          + "like `decimals=2`"
      ),
      (
        6, pick(encoding, "0:64-0:82", "0:62-0:80"),
        "setting angleUnit: the unit of angles for trigonometry (default radians)\ntakes radians or degrees\n"
          + "in effect: radians, the editor's setting\n\n"
          + "warning [invalid-setting]: `angleUnit=gradians`: angleUnit takes radians or degrees"
      ),
      (
        8, "1:7-1:18",
        "setting precision: significant digits in auto notation (default 15)\ntakes a whole number from 1 to 17\n"
          + "in effect: 3, set by this document's # rpn: lines"
      ),
    ]
    for (marker, range, value) in expected {
      #expect(try Self.hoverWithRange(client, text.at(marker, encoding)) == "\(range) \(value)", "marker \(marker)")
    }
    #expect(try Self.hover(client, text.at(7, encoding)) == "null")
    #expect(try Self.hover(client, position(0, 6)) == "null")
    #expect(try Self.hover(client, position(1, 6)) == "null")
    #expect(try Self.hover(client, text.at(9, encoding)).hasPrefix("# rpn: here is a plain comment"))
    try client.finish()
  }

  /// Markdown hovers write the key, the value and the `# rpn:` as code.
  @Test func hoverOnAKeyInMarkdown() throws {
    let client = try LSPClient.started(capabilities: HoverTests.markdown)
    client.open(Self.uri, "# rpn: grouping=true\n1\n")
    #expect(
      try Self.hover(client, position(0, 9))
        == "setting `grouping`: commas between thousands in auto and fixed notation (default false)  \n"
        + "takes true or false  \nin effect: `true`, set by this document's `# rpn:` lines")
    try client.finish()
  }

  /// `hints=` says where the stack hints go, what it takes and the position in effect: the tape's,
  /// or the editor's `inlayHints.position` when the tape's value is bad.
  @Test func hoverOnTheHintsKey() throws {
    let client = try LSPClient.started(initializationOptions: ["rpn": ["inlayHints": ["position": "endOfLine"]]])
    let meaning =
      "setting hints: where each line's stack hint goes: afterTokens (right after the last token) or endOfLine "
      + "(after the line's comment, so that aligned comments stay aligned; default afterTokens)\n"
      + "takes afterTokens or endOfLine\n"
    client.open(Self.uri, "# rpn: hints=afterTokens\n1\n")
    #expect(
      try Self.hover(client, position(0, 9)) == meaning + "in effect: afterTokens, set by this document's # rpn: lines")
    client.close(Self.uri)
    client.open(Self.uri, "# rpn: hints=left\n1\n")
    #expect(
      try Self.hover(client, position(0, 9))
        == meaning + "in effect: endOfLine, the editor's setting\n\n"
        + "warning [invalid-setting]: `hints=left`: hints takes afterTokens or endOfLine")
    try client.finish()
  }

  /// Completion in a `# rpn:` line that applies: the keys where a key is typed (inserting `key=`,
  /// replacing the key and its `=`), the values of a known key after its `=` (replacing the
  /// value); nothing after an unknown key's `=`, nor inside `rpn:`.
  @Test(arguments: encodings)
  func completionOffersKeysAndValues(encoding: String) throws {
    let client = try LSPClient.started(encoding: encoding).client
    let keys = ["notation", "decimals", "grouping", "precision", "angleUnit", "maxItems", "hints"]
    let cases: [(source: String, labels: [String], range: String, newText: String?)] = [
      ("# rpn: deci1️⃣", keys, "0:7-0:11", "notation="),
      ("# rpn: 1️⃣", keys, "0:7-0:7", "notation="),
      ("# rpn:1️⃣", keys, "0:6-0:6", "notation="),
      ("# rpn: decimals=1 1️⃣\n1", keys, "0:18-0:18", "notation="),
      ("# rpn: nota1️⃣tion=fixed", keys, "0:7-0:16", "notation="),
      ("# rpn: notation=fi1️⃣", ["auto", "fixed", "scientific", "engineering"], "0:16-0:18", "auto"),
      ("# rpn: GROUPING=1️⃣ decimals=2", ["true", "false"], "0:16-0:16", "true"),
      ("# rpn: angleUnit=r1️⃣ad", ["radians", "degrees"], "0:17-0:20", "radians"),
      ("# rpn: maxItems=1️⃣", ["4", "8", "12", "16"], "0:16-0:16", "4"),
      ("# rpn: hints=end1️⃣", ["afterTokens", "endOfLine"], "0:13-0:16", "afterTokens"),
      (
        "# rpn: précision=1 größe=1 precision=1️⃣", (1...17).map(String.init), pick(encoding, "0:40-0:40", "0:37-0:37"),
        "1"
      ),
      ("# rpn: 😀 deci1️⃣", keys, pick(encoding, "0:12-0:16", "0:10-0:14"), "notation="),
      ("# rpn: foo=1️⃣", [], "", nil),
      ("# r1️⃣pn:", [], "", nil),
      ("# rpn:x\n1 2 # rpn: 1️⃣", [], "", nil),
    ]
    for (source, labels, range, newText) in cases {
      let text = Marked(source)
      client.open(Self.uri, text.text)
      let items = CompletionTests.items(try client.completion(Self.uri, text.at(1, encoding)))
      #expect(CompletionTests.labels(items) == labels, "\(source)")
      #expect(items.allSatisfy { compact(range: $0["textEdit"]?["range"]) == range }, "\(source)")
      if let newText {
        #expect(items.first?["textEdit"]?["newText"] == .string(newText), "\(source)")
      }
      client.close(Self.uri)
    }
    try client.finish()
  }

  /// A key's item: kind Property, what it takes as detail, its meaning as documentation; a
  /// value's item: kind Value, its key as detail.
  @Test func completionItemsSayWhatTheyAre() throws {
    let client = try LSPClient.started()
    client.open(Self.uri, "# rpn: dec\n# rpn: decimals=\n")
    let keys = CompletionTests.items(try client.completion(Self.uri, position(0, 10)))
    // Members in the order every completion item writes them (CompletionItem's).
    #expect(
      keys.first.map { JSONWriter.string($0) }
        == #"{"label":"notation","kind":10,"documentation":"#
        + #""how numbers are written: auto (%g, `precision` digits), fixed (`decimals` after the point), "#
        + #"scientific, or engineering (exponents in threes)","textEdit":{"range":{"start":"#
        + #"{"line":0,"character":7},"end":{"line":0,"character":10}},"newText":"notation="},"#
        + #""detail":"auto, fixed, scientific or engineering","sortText":"0000"}"#)
    let values = CompletionTests.items(try client.completion(Self.uri, position(1, 16)))
    #expect(
      values.last.map { JSONWriter.string($0) }
        == #"{"label":"15","kind":12,"textEdit":{"range":{"start":"#
        + #"{"line":1,"character":16},"end":{"line":1,"character":16}},"newText":"15"},"detail":"decimals","#
        + #""sortText":"0015"}"#)
    try client.finish()
  }

  /// The `invalid-setting` warnings of a `# rpn:` line at their exact ranges in both encodings,
  /// with non-ASCII text before them.
  @Test(arguments: encodings)
  func invalidSettingsAreAtTheirPairs(encoding: String) throws {
    let client = try LSPClient.started(encoding: encoding).client
    client.open(Self.uri, "# rpn: größe=1 😀=2 decimals=99 notation=fixed\n1 3 /\n")
    let settings =
      "the settings are `notation`, `decimals`, `grouping`, `precision`, `angleUnit`, `maxItems`, `hints`"
    #expect(
      compact(diagnostics: try client.publishedDiagnostics(Self.uri).diagnostics) == [
        "\(span(encoding, 0, (7, 16), (7, 14))) warning invalid-setting: unknown setting `größe`: \(settings)",
        "\(span(encoding, 0, (17, 23), (15, 19))) warning invalid-setting: unknown setting `😀`: \(settings)",
        "\(span(encoding, 0, (24, 35), (20, 31))) warning invalid-setting: `decimals=99`: decimals takes a whole "
          + "number from 0 to 15",
      ])
    #expect(try Self.hints(client) == ["1:5 [0.33] | 1: 0.33 | 1:5-1:5 → \" =0.33\""])
    try client.finish()
  }

  // MARK: Integers in hex, octal and binary

  /// Hover on a number, a store and a variable whose value is an integer below 2^53 adds its hex,
  /// octal and binary forms (negative ones signed); a fraction, 2^53 itself and a value past it
  /// get none.
  @Test func integersAreAlsoShownInHexOctalAndBinary() throws {
    let client = try LSPClient.started()
    client.open(
      Self.uri, "255 -255 2.5 9007199254740992 9007199254740991 =big\nbig 0x1F 0 1e300\n")
    func first(_ line: Int, _ character: Int) throws -> String {
      String(try Self.hover(client, position(line, character)).split(separator: "\n\n")[0])
    }
    let ones = "1" + String(repeating: "_1111", count: 13)
    #expect(try first(0, 0) == "number 255\nhex 0xFF, octal 0o377, binary 0b1111_1111")
    #expect(try first(0, 4) == "number -255\nhex -0xFF, octal -0o377, binary -0b1111_1111")
    #expect(try first(0, 10) == "number 2.5")
    #expect(try first(0, 15) == "number 9007199254740992 = 9.00719925474099e+15")
    #expect(
      try first(0, 35)
        == "number 9007199254740991 = 9.00719925474099e+15\nhex 0x1FFFFFFFFFFFFF, octal 0o377777777777777777, "
        + "binary 0b\(ones)")
    #expect(
      try first(0, 49)
        == "store into big: 9.00719925474099e+15\nhex 0x1FFFFFFFFFFFFF, octal 0o377777777777777777, binary 0b\(ones)")
    #expect(
      try first(1, 1)
        == "variable big = 9.00719925474099e+15, stored on line 1\nhex 0x1FFFFFFFFFFFFF, octal 0o377777777777777777, "
        + "binary 0b\(ones)")
    #expect(try first(1, 5) == "number 0x1F = 31\nhex 0x1F, octal 0o37, binary 0b1_1111")
    #expect(try first(1, 9) == "number 0\nhex 0x0, octal 0o0, binary 0b0")
    #expect(try first(1, 12) == "number 1e300 = 1e+300")
    try client.finish()
  }

  /// Hex, octal, binary and comma-grouped literals are numbers to semantic tokens.
  @Test func integerAndGroupedLiteralsAreNumberTokens() throws {
    let (client, result) = try LSPClient.started(encoding: "utf-16")
    let legend = try SemanticTokenTests.legend(result)
    client.open(Self.uri, "0x1F 0o17 0b1010 -0XfF 1,234,567.89 0b1_0000 1,5\n")
    #expect(
      try WordTests.semanticTokens(client, Self.uri, legend: legend) == [
        "0:0+4 number []", "0:5+4 number []", "0:10+6 number []", "0:17+5 number []", "0:23+12 number []",
        "0:36+8 number []", "0:45+3 number []",
      ])
    try client.finish()
  }

  // MARK: Code actions

  /// A comma out of place gets one quick fix per reading, the first preferred, each replacing the
  /// token; a check gets only the readings that are one number, written after its `=`. Each fix
  /// leaves no `invalid-number`.
  @Test(arguments: encodings)
  func aMisplacedCommaGetsAFixPerReading(encoding: String) throws {
    let (client, _) = try LSPClient.started(
      encoding: encoding,
      capabilities: [
        ("textDocument", ["codeAction": ["codeActionLiteralSupport": ["codeActionKind": ["valueSet": []]]]])
      ])
    let text = "4 √ 1,5 12,34\n2 =1,5\n1,000,00\n"
    client.open(Self.uri, text)
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    #expect(
      compact(diagnostics: diagnostics) == [
        "\(span(encoding, 0, (6, 9), (4, 7))) error invalid-number: `1,5` is not a number: a comma only separates "
          + "groups of three digits, as in `1,234,567.89`; did you mean `1.5` or `1 5`?",
        "\(span(encoding, 0, (10, 15), (8, 13))) error invalid-number: `12,34` is not a number: a comma only "
          + "separates groups of three digits, as in `1,234,567.89`; did you mean `12.34` or `12 34`?",
        "1:2-1:6 error invalid-number: `=1,5` is not a number: a comma only separates groups of three digits, as in "
          + "`1,234,567.89`; did you mean `1.5` or `1 5`?",
        "2:0-2:8 error invalid-number: `1,000,00` is not a number: a comma only separates groups of three digits, "
          + "as in `1,234,567.89`; did you mean `1,000.00`?",
      ])
    let actions = try CodeActionTests.codeActions(
      client, range(0, 0, 3, 0), diagnostics, only: ["quickfix"], uri: Self.uri)
    #expect(
      compact(actions: actions, uri: Self.uri) == [
        "quickfix preferred \"Replace with `1.5`\": \(span(encoding, 0, (6, 9), (4, 7))) → \"1.5\"",
        "quickfix \"Replace with `1 5`\": \(span(encoding, 0, (6, 9), (4, 7))) → \"1 5\"",
        "quickfix preferred \"Replace with `12.34`\": \(span(encoding, 0, (10, 15), (8, 13))) → \"12.34\"",
        "quickfix \"Replace with `12 34`\": \(span(encoding, 0, (10, 15), (8, 13))) → \"12 34\"",
        "quickfix preferred \"Replace with `=1.5`\": 1:2-1:6 → \"=1.5\"",
        "quickfix preferred \"Replace with `1,000.00`\": 2:0-2:8 → \"1,000.00\"",
      ])
    // Each carries the diagnostic it fixes, as published.
    let carried = actions.compactMap { $0["diagnostics"]?.arrayValue?.first }
    #expect(
      carried == [diagnostics[0], diagnostics[0], diagnostics[1], diagnostics[1], diagnostics[2], diagnostics[3]])
    // Every fix, applied, leaves no invalid number where it was.
    let fixed = [
      "4 √ 1.5 12,34\n2 =1,5\n1,000,00\n", "4 √ 1 5 12,34\n2 =1,5\n1,000,00\n", "4 √ 1,5 12.34\n2 =1,5\n1,000,00\n",
      "4 √ 1,5 12 34\n2 =1,5\n1,000,00\n", "4 √ 1,5 12,34\n2 =1.5\n1,000,00\n", "4 √ 1,5 12,34\n2 =1,5\n1,000.00\n",
    ]
    var version = 1
    for (action, expected) in zip(actions, fixed) {
      let applied = try applying(try edits(of: action["edit"] ?? .null, uri: Self.uri), to: text, encoding: encoding)
      #expect(applied == expected)
      version += 1
      client.change(Self.uri, version: version, [["text": .string(applied)]])
      #expect(
        try client.publishedDiagnostics(Self.uri).diagnostics.filter { $0["code"] == "invalid-number" }.count == 3)
      version += 1
      client.change(Self.uri, version: version, [["text": .string(text)]])
    }
    try client.finish()
  }

  /// The action that writes a line's result as a check, the source action on every line and the
  /// hint's edit write in the document's notation and decimals (grouped when the display groups,
  /// as this one's values do not need); the checks they write pass. A line that ends on the
  /// number written there (`1234.5`) gets none.
  @Test func checksAreWrittenInFixedNotation() throws {
    let client = try LSPClient.started(
      capabilities: ["textDocument": ["codeAction": ["codeActionLiteralSupport": ["codeActionKind": ["valueSet": []]]]]]
    )
    let text = "# rpn: notation=fixed grouping=true\n1 3 /\n2 3 *\n1234.5\n"
    client.open(Self.uri, text)
    let actions = try CodeActionTests.codeActions(client, range(1, 0, 1, 0), [], uri: Self.uri)
    #expect(
      compact(actions: actions, uri: Self.uri) == [
        "refactor.rewrite \"Write the result as a check: =0.33\": 1:5-1:5 → \" =0.33\""
      ])
    let every = try CodeActionTests.codeActions(
      client, range(1, 0, 1, 0), [], only: ["source.rpn.addChecks"], uri: Self.uri)
    #expect(
      compact(actions: every, uri: Self.uri) == [
        "source.rpn.addChecks \"Add a check to every line\": 1:5-1:5 → \" =0.33\", 2:5-2:5 → \" =6.00\""
      ])
    #expect(
      try Self.hints(client) == [
        "1:5 [0.33] | 1: 0.33 | 1:5-1:5 → \" =0.33\"", "2:5 [0.33 6.00] | 2: 0.33\n1: 6.00 | 2:5-2:5 → \" =6.00\"",
        "3:6 [0.33 6.00 1,234.50] | 3: 0.33\n2: 6.00\n1: 1,234.50",
      ])
    let applied = try applying(try edits(of: every[0]["edit"] ?? .null, uri: Self.uri), to: text, encoding: "utf-16")
    client.change(Self.uri, version: 2, [["text": .string(applied)]])
    #expect(try client.publishedDiagnostics(Self.uri).diagnostics == [])
    try client.finish()
  }
}

// The exchange's scripted LSP session: every method the server registers, asked everywhere it can be.

import JSONRPC

/// A client of the exchange: what it declares at `initialize`, and how it ends its session.
struct ExchangeClient {
  enum Ending { case shutdownThenExit, exitWithoutShutdown, inputClosed }

  let name: String
  let units: PositionUnits
  let initialize: JSONValue
  let ending: Ending
  /// Whether the session starts with requests before `initialize` and ends with requests after
  /// `shutdown` (one session is enough).
  let lifecycleErrors: Bool

  /// Three clients: UTF-16 that resolves nothing and takes pushed diagnostics; UTF-8 that
  /// resolves hints and code actions, pulls diagnostics and takes every refresh (VS Code-like);
  /// UTF-32 with code action literals but no resolving of them, and hints' tooltips resolved.
  static let all: [ExchangeClient] = [
    ExchangeClient(
      name: "[utf-16 plain]", units: .utf16,
      initialize: [
        "processId": nil, "rootUri": nil,
        "capabilities": [
          "general": ["positionEncodings": ["utf-16"]],
          "textDocument": ["hover": ["contentFormat": ["plaintext"]]],
        ],
      ], ending: .shutdownThenExit, lifecycleErrors: true),
    ExchangeClient(
      name: "[utf-8 resolving]", units: .utf8,
      initialize: [
        "processId": nil, "rootUri": nil,
        "initializationOptions": ["rpn": ["inlayHints": ["position": "endOfLine"]]],
        "capabilities": [
          "general": ["positionEncodings": ["utf-8", "utf-16"]],
          "textDocument": [
            "hover": ["contentFormat": ["markdown", "plaintext"]],
            "inlayHint": ["resolveSupport": ["properties": ["tooltip", "textEdits"]]],
            "codeAction": [
              "codeActionLiteralSupport": ["codeActionKind": ["valueSet": ["quickfix", "refactor", "source"]]],
              "dataSupport": true, "resolveSupport": ["properties": ["edit"]],
            ],
            "rename": ["prepareSupport": true],
            "documentSymbol": ["hierarchicalDocumentSymbolSupport": true],
            "diagnostic": ["dynamicRegistration": false],
          ],
          "workspace": [
            "inlayHint": ["refreshSupport": true], "codeLens": ["refreshSupport": true],
            "diagnostics": ["refreshSupport": true],
          ],
        ],
      ], ending: .exitWithoutShutdown, lifecycleErrors: false),
    ExchangeClient(
      name: "[utf-32 literals]", units: .utf32,
      initialize: [
        "processId": nil,
        "initializationOptions": ["precision": 6, "display.notation": "fixed", "angleUnit": "degrees"],
        "capabilities": [
          "general": ["positionEncodings": ["utf-32", "utf-16"]],
          "textDocument": [
            "hover": ["contentFormat": ["markdown"]],
            "inlayHint": ["resolveSupport": ["properties": ["tooltip"]]],
            "codeAction": ["codeActionLiteralSupport": ["codeActionKind": ["valueSet": ["quickfix"]]]],
          ],
          "workspace": ["codeLens": ["refreshSupport": true]],
        ],
      ], ending: .inputClosed, lifecycleErrors: false),
  ]
}

/// The requests the server registers, each asked with bad params too.
private let registeredRequests = [
  "textDocument/hover", "textDocument/completion", "textDocument/inlayHint", "inlayHint/resolve",
  "textDocument/definition", "textDocument/references", "textDocument/documentHighlight", "textDocument/rename",
  "textDocument/prepareRename", "textDocument/documentSymbol", "workspace/symbol", "textDocument/codeLens",
  "textDocument/foldingRange", "textDocument/selectionRange", "textDocument/semanticTokens/full",
  "textDocument/semanticTokens/range", "textDocument/codeAction", "codeAction/resolve", "textDocument/formatting",
  "textDocument/rangeFormatting", "textDocument/diagnostic",
]

/// What random edits insert: tokens of every kind, line breaks, headings, settings, text beyond ASCII.
private let editSnippets = [
  " 3 +", "dup", "\n", " =x", " : w 2 * ;", "\n## New\n", "1,5", "😀", "", "\t", "−", " x", "=12", " 1e999",
  " 0x1F", " sum", "# c", " ;", " :", "clear\n", " w", " =5", "é", " 2 pick", " subtotal", "##",
]

/// One session of the exchange: `client` opens `documents` and asks everything of them.
struct ExchangeSession {
  let recorder: ExchangeRecorder
  let client: ExchangeClient
  var texts: [String: ClientText] = [:]
  var uris: [String] = []
  var versions: [String: Int] = [:]
  var generator: Generator

  init(recorder: ExchangeRecorder, client: ExchangeClient, documents: [(uri: String, text: String)], seed: UInt64) {
    self.recorder = recorder
    self.client = client
    generator = Generator(state: seed)
    for (uri, text) in documents {
      uris.append(uri)
      texts[uri] = ClientText(uri: uri, text: text, units: client.units)
    }
  }

  private var r: ExchangeRecorder { recorder }
  private static let rich = "file:///exchange/rich.rpn"
  private static let plain = "file:///exchange/rich-plain.rpn"
  private static let sample = "file:///exchange/sample.rpn"

  mutating func play() {
    if client.lifecycleErrors {
      r.request("textDocument/hover", at(Self.rich, ClientText.position(0, 0)), label: "hover before initialize")
      r.notify("initialized", [:])
      r.notify("textDocument/didOpen", ["textDocument": ["uri": "file:///early.rpn", "version": 1, "text": "1 2 +"]])
      r.request("shutdown", nil, label: "shutdown before initialize")
    }
    r.request("initialize", client.initialize)
    r.notify("initialized", [:])
    r.request("initialize", client.initialize, label: "initialize again")
    for uri in uris {
      guard let text = texts[uri] else { continue }
      versions[uri] = 1
      r.notify(
        "textDocument/didOpen",
        ["textDocument": ["uri": .string(uri), "languageId": "rpn", "version": 1, "text": .string(text.text)]])
    }
    for uri in uris { askAboutDocument(uri) }
    sweep(Self.rich, everything: true)
    sweep(Self.sample, everything: true)
    for uri in uris where uri != Self.rich && uri != Self.sample {
      sweep(uri, everything: false, startsOnly: !uri.hasSuffix("rich-plain.rpn"))
    }
    askWorkspaceSymbols()
    changeSettings()
    askWhatIsNotRegistered()
    askWithBadParams()
    sendMalformedMessages()
    edit(Self.rich, steps: 40)
    edit(Self.sample, steps: 15)
    editEdgeCases(Self.plain)
    closeAndReopen()
    end()
  }

  // MARK: Helpers

  private func document(_ uri: String) -> JSONValue { ["uri": .string(uri)] }

  private func at(_ uri: String, _ position: JSONValue) -> JSONValue {
    ["textDocument": document(uri), "position": position]
  }

  private func lineRange(_ text: ClientText, _ lines: Range<Int>) -> JSONValue {
    let last = min(lines.upperBound, text.lines.count) - 1
    let first = min(lines.lowerBound, last)
    return text.range(text.lines[first].lowerBound..<text.lines[last].upperBound)
  }

  // MARK: Whole documents

  /// Every request about a whole document, its hints and code actions resolved one by one.
  private func askAboutDocument(_ uri: String) {
    guard let text = texts[uri] else { return }
    let doc: JSONValue = ["textDocument": document(uri)]
    r.request("textDocument/documentSymbol", doc)
    r.request("textDocument/foldingRange", doc)
    r.request("textDocument/semanticTokens/full", doc)
    let middle = text.lines[text.lines.count / 2]
    for range in [
      text.wholeRange, lineRange(text, 3..<12), text.range(middle.lowerBound + middle.count / 2..<text.scalars.count),
    ] {
      r.request("textDocument/semanticTokens/range", ["textDocument": document(uri), "range": range])
      r.request(
        "textDocument/rangeFormatting",
        ["textDocument": document(uri), "range": range, "options": ["tabSize": 2, "insertSpaces": true]])
    }
    r.request("textDocument/codeLens", doc)
    r.request(
      "textDocument/formatting", ["textDocument": document(uri), "options": ["tabSize": 4, "insertSpaces": true]])
    askHints(uri, resolving: true)
    r.request("textDocument/inlayHint", ["textDocument": document(uri), "range": lineRange(text, 5..<15)])
    r.request("textDocument/selectionRange", ["textDocument": document(uri), "positions": .array(starts(text))])
    let pulled = r.request("textDocument/diagnostic", doc)
    if let id = pulled?["result"]?["resultId"] {
      r.request("textDocument/diagnostic", ["textDocument": document(uri), "previousResultId": id])
    }
    for only: JSONValue? in [nil, ["source"], ["quickfix"], ["refactor.rewrite"], ["source.rpn.addChecks"]] {
      var context: [(key: String, value: JSONValue)] = [("diagnostics", [])]
      if let only { context.append(("only", only)) }
      askCodeActions(["textDocument": document(uri), "range": text.wholeRange, "context": .object(context)])
    }
    for diagnostic in pulled?["result"]?["items"]?.arrayValue ?? [] {
      guard let range = diagnostic["range"] else { continue }
      askCodeActions(["textDocument": document(uri), "range": range, "context": ["diagnostics": [diagnostic]]])
    }
    r.requests(
      text.lines.map { line in
        (
          "textDocument/codeAction",
          ["textDocument": document(uri), "range": text.range(line), "context": ["diagnostics": []]]
        )
      })
  }

  /// The inlay hints of the whole document, each resolved.
  private func askHints(_ uri: String, resolving: Bool) {
    guard let text = texts[uri] else { return }
    let hints = r.request("textDocument/inlayHint", ["textDocument": document(uri), "range": text.wholeRange])
    guard resolving else { return }
    for hint in hints?["result"]?.arrayValue ?? [] { r.request("inlayHint/resolve", hint) }
  }

  /// Code actions, each action (not a bare command) resolved.
  private func askCodeActions(_ params: JSONValue) {
    let actions = r.request("textDocument/codeAction", params)
    for action in actions?["result"]?.arrayValue ?? [] where action["kind"] != nil {
      r.request("codeAction/resolve", action)
    }
  }

  private func starts(_ text: ClientText) -> [JSONValue] {
    text.tokenBounds.filter(\.isStart).map { text.position($0.offset) }
  }

  // MARK: Positions

  /// Hover and completion at every token's start and end, and inside scalars that take several
  /// units; with `everything`, the name requests at every start too. Without it, `startsOnly`
  /// asks only hovers at the starts (the sweeps between edits).
  private func sweep(_ uri: String, everything: Bool, startsOnly: Bool = false) {
    guard let text = texts[uri] else { return }
    let contexts: [JSONValue?] = [nil, ["triggerKind": 1], ["triggerKind": 2, "triggerCharacter": "s"]]
    let names = ["renamed", "2bad", "income", "dup", "Ünï"]
    var list: [(method: String, params: JSONValue?)] = []
    for (index, bound) in text.tokenBounds.enumerated() {
      let position = text.position(bound.offset)
      if startsOnly {
        if bound.isStart { list.append(("textDocument/hover", at(uri, position))) }
        continue
      }
      list.append(("textDocument/hover", at(uri, position)))
      var params = at(uri, position)
      if let context = contexts[index % contexts.count], case .object(var members) = params {
        members.append(("context", context))
        params = .object(members)
      }
      list.append(("textDocument/completion", params))
      guard everything && bound.isStart else { continue }
      list.append(("textDocument/definition", at(uri, position)))
      list.append(
        (
          "textDocument/references",
          [
            "textDocument": document(uri), "position": position,
            "context": ["includeDeclaration": .bool(index % 2 == 0)],
          ]
        ))
      list.append(("textDocument/documentHighlight", at(uri, position)))
      list.append(("textDocument/prepareRename", at(uri, position)))
      list.append(
        (
          "textDocument/rename",
          ["textDocument": document(uri), "position": position, "newName": .string(names[index % names.count])]
        ))
    }
    let last = text.lines.count
    for position in text.splitScalarPositions + [
      ClientText.position(last - 1, 9_999), ClientText.position(last, 0), ClientText.position(last + 5, 3),
    ] {
      list.append(("textDocument/hover", at(uri, position)))
      list.append(("textDocument/completion", at(uri, position)))
      if everything { list.append(("textDocument/definition", at(uri, position))) }
    }
    r.requests(list)
  }

  // MARK: Workspace

  private func askWorkspaceSymbols() {
    for query: JSONValue in ["", "grc", "income", "sq", "zz", "INC", "é", "Sections", 5] {
      r.request("workspace/symbol", ["query": query])
    }
  }

  /// Settings changes, each followed by what shows values: hints, lenses, hovers, diagnostics.
  private func changeSettings() {
    let changes: [JSONValue] = [
      ["settings": ["rpn": ["angleUnit": "degrees"]]],
      ["settings": ["rpn": ["display": ["notation": "fixed", "decimals": 4, "grouping": true]]]],
      ["settings": ["inlayHints.enabled": false]],
      [
        "settings": [
          "rpn": ["inlayHints": ["enabled": true, "sections": false, "position": "endOfLine", "maxItems": 2]]
        ]
      ],
      ["settings": ["rpn": ["precision": 40, "angleUnit": "gradians", "display.decimals": 99]]],
      ["settings": ["rpn": ["precision": 6, "display.notation": "engineering"]]],
      ["settings": ["rpn": ["display": ["notation": "scientific"]]]],
      [:],
      ["settings": "not an object"],
      [
        "settings": [
          "rpn": [
            "angleUnit": "radians", "precision": 15, "display": ["notation": "auto", "decimals": 2, "grouping": false],
            "inlayHints": ["sections": true, "position": "afterTokens", "maxItems": 8],
          ]
        ]
      ],
    ]
    for change in changes {
      r.notify("workspace/didChangeConfiguration", change)
      askHints(Self.rich, resolving: false)
      r.request("textDocument/codeLens", ["textDocument": document(Self.rich)])
      r.request("textDocument/diagnostic", ["textDocument": document(Self.plain)])
      guard let text = texts[Self.plain] else { continue }
      r.requests(
        text.tokenBounds.filter(\.isStart).prefix(60).map {
          ("textDocument/hover", at(Self.plain, text.position($0.offset)))
        })
      r.request("textDocument/completion", at(Self.plain, text.position(text.lines[3].lowerBound)))
    }
  }

  // MARK: Errors

  /// Methods the server does not register (`workspace/executeCommand` among them: it advertises
  /// no command), and notifications it ignores.
  private func askWhatIsNotRegistered() {
    let position = at(Self.rich, ClientText.position(2, 1))
    let requests: [(String, JSONValue?)] = [
      ("textDocument/signatureHelp", position),
      (
        "textDocument/onTypeFormatting",
        [
          "textDocument": document(Self.rich), "position": ClientText.position(2, 1),
          "ch": "\n", "options": ["tabSize": 2, "insertSpaces": true],
        ]
      ),
      ("textDocument/semanticTokens/full/delta", ["textDocument": document(Self.rich), "previousResultId": "1"]),
      ("workspace/executeCommand", ["command": "rpn.updateChecks", "arguments": []]),
      ("completionItem/resolve", ["label": "dup"]),
      ("codeLens/resolve", ["range": ["start": ClientText.position(0, 0), "end": ClientText.position(0, 1)]]),
      ("textDocument/documentLink", ["textDocument": document(Self.rich)]),
      ("textDocument/typeDefinition", position), ("textDocument/implementation", position),
      ("textDocument/declaration", position), ("textDocument/linkedEditingRange", position),
      ("textDocument/prepareCallHierarchy", position), ("textDocument/moniker", position),
      ("workspace/diagnostic", ["previousResultIds": []]),
      ("textDocument/documentColor", ["textDocument": document(Self.rich)]),
      ("rpn/unknown", nil), ("$/unknownRequest", nil),
    ]
    for (method, params) in requests { r.request(method, params) }
    r.notify("$/setTrace", ["value": "verbose"])
    r.notify("workspace/didChangeWatchedFiles", ["changes": []])
    r.notify("textDocument/didSave", ["textDocument": document(Self.rich)])
    r.notify("$/cancelRequest", ["id": 100_000])
    r.notify("$/cancelRequest", ["id": "no such request"])
    r.notify("$/cancelRequest", nil)
    r.notify("$/progress", ["token": 1, "value": [:]])
  }

  /// Every registered request with params missing, of the wrong shape, or naming what is not
  /// there; and the ones whose params carry more than a position.
  private func askWithBadParams() {
    let zero = ClientText.position(0, 0)
    let closed: JSONValue = [
      "textDocument": ["uri": "file:///exchange/not-open.rpn"], "position": zero,
      "range": ["start": zero, "end": zero], "positions": [zero], "query": "", "newName": "x",
    ]
    for method in registeredRequests {
      r.request(method, nil)
      r.request(method, [])
      r.request(method, closed)
      r.request(method, ["textDocument": document(Self.rich)])
    }
    let rich = document(Self.rich)
    let bad: [(String, JSONValue)] = [
      ("textDocument/hover", ["textDocument": rich, "position": ["line": "0", "character": 0]]),
      ("textDocument/hover", ["textDocument": rich, "position": ["line": -1, "character": 0]]),
      ("textDocument/hover", ["textDocument": rich, "position": ["line": 0, "character": -4]]),
      ("textDocument/hover", ["textDocument": rich, "position": ["line": 1.5, "character": 0]]),
      ("textDocument/hover", ["textDocument": 7, "position": zero]),
      ("textDocument/rename", ["textDocument": rich, "position": ClientText.position(40, 0)]),
      ("textDocument/rename", ["textDocument": rich, "position": ClientText.position(40, 0), "newName": 3]),
      ("textDocument/inlayHint", ["textDocument": rich, "range": ["start": ClientText.position(9, 0), "end": zero]]),
      ("textDocument/inlayHint", ["textDocument": rich, "range": ["start": zero]]),
      ("textDocument/semanticTokens/range", ["textDocument": rich, "range": ["start": zero, "end": 3]]),
      ("textDocument/selectionRange", ["textDocument": rich, "positions": []]),
      ("textDocument/selectionRange", ["textDocument": rich, "positions": [zero, "x"]]),
      ("textDocument/codeAction", ["textDocument": rich, "range": ["start": zero, "end": zero], "context": 1]),
      ("codeAction/resolve", [:]),
      ("codeAction/resolve", ["title": "t", "kind": "source.rpn.updateChecks"]),
      ("codeAction/resolve", ["title": "t", "kind": "source.rpn.addChecks", "data": ["uri": "file:///nowhere.rpn"]]),
      ("codeAction/resolve", ["title": "t", "kind": "source.rpn.removeChecks", "data": ["uri": .string(Self.rich)]]),
      ("codeAction/resolve", ["title": "t", "kind": "quickfix.unknown", "data": ["uri": .string(Self.rich)]]),
      ("inlayHint/resolve", [:]),
      ("inlayHint/resolve", ["position": zero, "label": "x", "data": ["uri": .string(Self.rich), "line": 3]]),
      (
        "inlayHint/resolve",
        ["position": zero, "label": "x", "data": ["uri": .string(Self.rich), "version": 1, "line": 9_999]]
      ),
      (
        "inlayHint/resolve",
        ["position": zero, "label": "x", "data": ["uri": .string(Self.rich), "version": 1, "line": 3]]
      ),
      ("textDocument/diagnostic", ["textDocument": rich, "previousResultId": "no such id"]),
      ("textDocument/references", ["textDocument": rich, "position": zero, "context": "x"]),
      ("textDocument/completion", ["textDocument": rich, "position": zero, "context": ["triggerKind": "x"]]),
      ("textDocument/formatting", ["textDocument": rich]),
    ]
    for (method, params) in bad { r.request(method, params) }
  }

  /// Bytes that are not a well-formed request: bad JSON, bad envelopes, ids of every kind, bad
  /// and oversized headers, deep nesting, and a response to a request the server never sent.
  private func sendMalformedMessages() {
    let bodies = [
      #"{"jsonrpc":"2.0","id":1,"#, "[]", "42", "null", #"{"jsonrpc":"2.0","id":7}"#,
      #"{"jsonrpc":"2.0","id":1e3,"method":"workspace/symbol","params":{"query":"inc"}}"#,
      #"{"jsonrpc":"2.0","id":-0,"method":"workspace/symbol","params":{"query":"x"}}"#,
      #"{"jsonrpc":"2.0","id":9007199254740993,"method":"workspace/symbol","params":{"query":"x"}}"#,
      #"{"jsonrpc":"2.0","id":"an id","method":"textDocument/foldingRange","params":{"textDocument":{"uri":"file:///exchange/rich.rpn"}}}"#,
      #"{"jsonrpc":"2.0","id":1.5,"method":"shutdownX"}"#, #"{"jsonrpc":"2.0","id":true,"method":"workspace/symbol"}"#,
      #"{"jsonrpc":"2.0","id":null,"method":"workspace/symbol","params":{"query":""}}"#,
      #"{"jsonrpc":"2.0","id":{"a":1},"method":"workspace/symbol"}"#,
      #"{"jsonrpc":"1.0","id":3,"method":"workspace/symbol","params":{"query":""}}"#,
      #"{"jsonrpc":"2.0","id":4,"method":7}"#, #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":5}"#,
      #"{"jsonrpc":"2.0","id":99,"result":null}"#, #"{"jsonrpc":"2.0","id":98,"error":{"code":1,"message":"m"}}"#,
      #"{"jsonrpc":"2.0","id":5,"method":"workspace/symbol","params":{"query":"\ud83d\ude00 \u00e9"}}"#,
      #"{"jsonrpc":"2.0","id":6,"method":"workspace/symbol","params":{"query":"\ud800"}}"#,
      String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
    ]
    for body in bodies { r.raw("malformed message", body: Array(body.utf8)) }
    r.raw("not UTF-8", body: [0x7B, 0xFF, 0xFE, 0x7D])
    let headers = [
      "Content-Length: abc\r\n\r\n", "X-Other: 1\r\n\r\n", "Content-Length: 300000000\r\n\r\n",
      "X-Long: " + String(repeating: "a", count: 17_000) + "\r\n\r\n",
      "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
      "content-length: 2\r\n\r\n{}",
    ]
    for header in headers { r.raw("malformed header", framed: Array(header.utf8)) }
  }

  // MARK: Edits

  /// Seeded random incremental edits, one to three changes each, each followed by the requests
  /// that read what the edit changed.
  private mutating func edit(_ uri: String, steps: Int) {
    guard var text = texts[uri] else { return }
    for step in 0..<steps {
      var changes: [JSONValue] = []
      var start = 0
      for _ in 0..<(generator.next(4) == 0 ? 2 + generator.next(2) : 1) {
        let (range, inserted) = randomEdit(text)
        changes.append(["range": text.range(range), "text": .string(inserted)])
        text.replace(range, with: inserted)
        start = range.lowerBound
      }
      texts[uri] = text
      didChange(uri, .array(changes))
      let bounds = text.tokenBounds
      var positions = [text.position(start)]
      if !bounds.isEmpty {
        for _ in 0..<2 { positions.append(text.position(bounds[generator.next(bounds.count)].offset)) }
      }
      for position in positions {
        r.request("textDocument/hover", at(uri, position))
        r.request("textDocument/completion", at(uri, position))
        r.request("textDocument/definition", at(uri, position))
      }
      askAfterEdit(uri)
      if step % 8 == 7 {
        askAboutDocument(uri)
        sweep(uri, everything: false, startsOnly: true)
      }
    }
  }

  private mutating func randomEdit(_ text: ClientText) -> (Range<Int>, String) {
    let lineIndex = generator.next(text.lines.count)
    let line = text.lines[lineIndex]
    let start = line.lowerBound + generator.next(line.count + 1)
    var end = start
    switch generator.next(6) {
    case 0:
      let other = text.lines[min(lineIndex + 1 + generator.next(3), text.lines.count - 1)]
      end = max(start, other.lowerBound + generator.next(other.count + 1))
    case 1, 2:
      end = min(start + generator.next(6), line.upperBound)
    default:
      break
    }
    return (start..<end, editSnippets[generator.next(editSnippets.count)])
  }

  private mutating func didChange(_ uri: String, _ changes: JSONValue, versioned: Bool = true) {
    let version = (versions[uri] ?? 0) + 1
    versions[uri] = version
    let identifier: JSONValue = versioned ? ["uri": .string(uri), "version": JSONValue(version)] : document(uri)
    r.notify("textDocument/didChange", ["textDocument": identifier, "contentChanges": changes])
  }

  /// What an editor asks after every keystroke.
  private func askAfterEdit(_ uri: String) {
    askHints(uri, resolving: false)
    let doc: JSONValue = ["textDocument": document(uri)]
    r.request("textDocument/semanticTokens/full", doc)
    r.request("textDocument/codeLens", doc)
    r.request("textDocument/documentSymbol", doc)
    r.request("textDocument/foldingRange", doc)
    r.request("textDocument/diagnostic", doc)
  }

  /// Changes that are not one plain range: the whole text, a range written backwards, a
  /// malformed range, no text, no version, settings lines added at the top and taken away, and
  /// changes to a document that is not open.
  private mutating func editEdgeCases(_ uri: String) {
    guard var text = texts[uri] else { return }
    let settings = "# rpn: decimals=5 notation=fixed\n"
    text.replace(0..<0, with: settings)
    didChange(
      uri,
      [["range": ["start": ClientText.position(0, 0), "end": ClientText.position(0, 0)], "text": .string(settings)]])
    askAfterEdit(uri)
    text.replace(0..<settings.unicodeScalars.count, with: "")
    didChange(uri, [["range": ["start": ClientText.position(0, 0), "end": ClientText.position(1, 0)], "text": ""]])
    askAfterEdit(uri)
    let backwards = text.lines[6].lowerBound..<text.lines[8].lowerBound + 2
    didChange(
      uri,
      [
        [
          "range": ["start": text.position(backwards.upperBound), "end": text.position(backwards.lowerBound)],
          "text": " 7 ",
        ]
      ])
    text.replace(backwards, with: " 7 ")
    askAfterEdit(uri)
    didChange(uri, [["range": ["start": "x"], "text": "1"], ["text": 5], ["range": text.range(0..<0), "text": "4 "]])
    text.replace(0..<0, with: "4 ")
    didChange(uri, [["range": text.range(0..<2), "text": ""]], versioned: false)
    text.replace(0..<2, with: "")
    didChange(uri, [:])
    r.notify(
      "textDocument/didChange",
      ["textDocument": ["uri": "file:///exchange/not-open.rpn", "version": 2], "contentChanges": []])
    askAfterEdit(uri)
    let replaced = text.text + "\n1 2 + =3\n: late 2 * ;\n5 late\n"
    didChange(uri, [["text": .string(replaced)]])
    text = ClientText(uri: uri, text: replaced, units: client.units)
    texts[uri] = text
    askAfterEdit(uri)
    sweep(uri, everything: false, startsOnly: true)
  }

  // MARK: The end

  private mutating func closeAndReopen() {
    for uri in uris { r.notify("textDocument/didClose", ["textDocument": document(uri)]) }
    r.request("textDocument/hover", at(Self.rich, ClientText.position(3, 0)), label: "hover on a closed document")
    r.notify("textDocument/didClose", ["textDocument": document(Self.rich)])
    guard let text = texts[Self.sample] else { return }
    r.notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(Self.sample), "languageId": "rpn", "version": 7, "text": .string(text.text)]])
    askHints(Self.sample, resolving: true)
    r.request("workspace/symbol", ["query": ""])
  }

  private func end() {
    switch client.ending {
    case .shutdownThenExit:
      r.request("shutdown", nil)
      r.request("textDocument/hover", at(Self.sample, ClientText.position(3, 0)), label: "hover after shutdown")
      r.notify("textDocument/didClose", ["textDocument": document(Self.sample)])
      r.request("shutdown", nil, label: "shutdown again")
      r.notify("exit", nil)
      r.finish("exit status after shutdown and exit")
    case .exitWithoutShutdown:
      r.notify("exit", nil)
      r.finish("exit status after exit without shutdown")
    case .inputClosed:
      r.finish("exit status after the input closed")
    }
  }
}

import JSONRPC
import RPNLanguageServer

/// Target 3: the input decoded into a session of valid-looking requests (every method the server
/// handles, with random positions, ranges, edits and settings) against one server, set up as a
/// client the input picks (encoding, resolving code actions or not, pulling diagnostics or not,
/// initial settings). It must never trap, every request must get exactly one answer, and every
/// range it sends must be well formed (`checkRanges`). Code actions it offers are resolved
/// later, sometimes after edits, as an editor does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLSP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var stream = ByteStream(bytes: UnsafeBufferPointer(start: data, count: size))
  let flags = stream.byte()
  var client = Harness.Client()
  client.encoding = ["utf-16", "utf-8", "utf-32", "utf-16"][Int(flags & 3)]
  client.resolvesCodeActions = flags & 4 == 0
  client.pullsDiagnostics = flags & 8 != 0
  client.hierarchicalSymbols = flags & 16 == 0
  if flags & 32 != 0 { client.initializationOptions = fuzzSettings(&stream) }
  let harness = Harness(client: client)
  let document: JSONValue = ["uri": "file:///f.rpn"]
  var version = 1
  var otherIsOpen = false
  /// The code actions of the last answer to `textDocument/codeAction`, to resolve later.
  var offered: [JSONValue] = []
  var resultID: JSONValue = .null
  while !stream.isAtEnd {
    func position() -> JSONValue {
      ["line": JSONValue(stream.int(below: 12)), "character": JSONValue(stream.int(below: 64))]
    }
    func range() -> JSONValue { ["start": position(), "end": position()] }
    func text(_ pieces: Int) -> String {
      var text = ""
      for _ in 0..<stream.int(below: pieces) { text += stream.pick(fuzzVocabulary) }
      return text
    }
    let at: JSONValue = ["textDocument": document, "position": position()]
    var batch: [Incoming] = []
    var codeActionRequests: [Incoming] = []
    var pulls: [Incoming] = []
    for _ in 0...(stream.int(below: 3)) {
      switch stream.int(below: 30) {
      case 0, 1, 2:
        version += 1
        let edit = text(6)
        let change: JSONValue =
          stream.byte() < 16 ? ["text": .string(edit)] : ["range": range(), "text": .string(edit)]
        batch.append(
          harness.notification(
            "textDocument/didChange",
            ["textDocument": ["uri": "file:///f.rpn", "version": JSONValue(version)], "contentChanges": [change]]))
      case 3: batch.append(harness.request("textDocument/hover", at))
      case 4: batch.append(harness.request("textDocument/completion", at))
      case 5: batch.append(harness.request("textDocument/inlayHint", ["textDocument": document, "range": range()]))
      case 6: batch.append(harness.request("textDocument/definition", at))
      case 7:
        batch.append(
          harness.request(
            "textDocument/references",
            [
              "textDocument": document, "position": position(),
              "context": ["includeDeclaration": .bool(stream.byte() & 1 == 0)],
            ]))
      case 8: batch.append(harness.request("textDocument/documentHighlight", at))
      case 9: batch.append(harness.request("textDocument/prepareRename", at))
      case 10:
        batch.append(
          harness.request(
            "textDocument/rename",
            [
              "textDocument": document, "position": position(),
              "newName": .string(
                stream.pick([
                  "b", "c1", "dup", "2x", "é", "", "hyp", "subtotal", "lastx", "_stride", "stride", "km", "box",
                  "pace/h", "_", "EUR", "kd",
                ])),
            ]))
      case 11: batch.append(harness.request("textDocument/documentSymbol", ["textDocument": document]))
      case 12: batch.append(harness.request("textDocument/semanticTokens/full", ["textDocument": document]))
      case 13:
        batch.append(
          harness.request("textDocument/semanticTokens/range", ["textDocument": document, "range": range()]))
      case 14:
        let request = harness.request(
          "textDocument/codeAction",
          [
            "textDocument": document, "range": range(),
            "context": [
              "diagnostics": [],
              "only": stream.byte() < 128 ? .null : [.string(stream.pick(fuzzCodeActionKinds))],
            ],
          ])
        codeActionRequests.append(request)
        batch.append(request)
      case 15: batch.append(harness.request("textDocument/formatting", ["textDocument": document, "options": [:]]))
      case 16:
        batch.append(
          harness.request("textDocument/rangeFormatting", ["textDocument": document, "range": range(), "options": [:]]))
      case 17:
        batch.append(harness.notification("workspace/didChangeConfiguration", ["settings": fuzzSettings(&stream)]))
      case 18:
        // A made-up source action, resolved (sometimes with data that names no document).
        let data: JSONValue = stream.byte() < 200 ? ["textDocument": document] : ["textDocument": ["uri": "file:///x"]]
        batch.append(
          harness.request(
            "codeAction/resolve",
            ["title": "t", "kind": .string(stream.pick(fuzzCodeActionKinds)), "data": data]))
      case 19:
        // An action the server offered, resolved as it was, after whatever edits came since.
        if !offered.isEmpty { batch.append(harness.request("codeAction/resolve", stream.pick(offered))) }
      case 20: batch.append(harness.request("textDocument/codeLens", ["textDocument": document]))
      case 21: batch.append(harness.request("textDocument/foldingRange", ["textDocument": document]))
      case 22:
        let positions = (0...stream.int(below: 3)).map { _ in position() }
        batch.append(
          harness.request("textDocument/selectionRange", ["textDocument": document, "positions": .array(positions)]))
      case 23:
        let query = stream.pick(["", "grc", "h", "x", "lunch", "Rent", "😀", "##", "hyp", "é", " "])
        batch.append(harness.request("workspace/symbol", ["query": .string(query)]))
      case 24:
        // Completion and hover inside a `# rpn:` line: the start text's first line, or one
        // written there now.
        if stream.byte() < 128 {
          version += 1
          let line = stream.pick(fuzzSettingsLines)
          batch.append(
            harness.notification(
              "textDocument/didChange",
              [
                "textDocument": ["uri": "file:///f.rpn", "version": JSONValue(version)],
                "contentChanges": [
                  [
                    "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]],
                    "text": .string(line + "\n"),
                  ]
                ],
              ]))
        }
        let inLine: JSONValue = [
          "textDocument": document,
          "position": ["line": JSONValue(stream.int(below: 2)), "character": JSONValue(stream.int(below: 90))],
        ]
        batch.append(harness.request(stream.byte() < 170 ? "textDocument/completion" : "textDocument/hover", inLine))
      case 25:
        // A second tape, opened and closed: workspace symbols span every open tape.
        let uri: JSONValue = "file:///g.rpn"
        if otherIsOpen {
          batch.append(harness.notification("textDocument/didClose", ["textDocument": ["uri": uri]]))
        } else {
          batch.append(
            harness.notification(
              "textDocument/didOpen",
              ["textDocument": ["uri": uri, "languageId": "rpn", "version": 1, "text": .string(text(12))]]))
        }
        otherIsOpen.toggle()
      case 26:
        let request = harness.request(
          "textDocument/diagnostic", ["textDocument": document, "previousResultId": resultID])
        pulls.append(request)
        batch.append(request)
      case 27:
        // Every action on a line of checks, as a lightbulb asks for them.
        let line = JSONValue(stream.int(below: 12))
        let request = harness.request(
          "textDocument/codeAction",
          [
            "textDocument": document,
            "range": ["start": ["line": line, "character": 0], "end": ["line": line, "character": 200]],
            "context": ["diagnostics": [], "only": stream.byte() < 128 ? .null : ["source"]],
          ])
        codeActionRequests.append(request)
        batch.append(request)
      case 28: batch.append(harness.request("textDocument/inlayHint", ["textDocument": document, "range": range()]))
      default:
        batch.append(harness.request("textDocument/diagnostic", ["textDocument": document]))
      }
    }
    harness.handle(batch)
    for request in codeActionRequests {
      if let actions = harness.answer(to: request)?["result"]?.arrayValue, !actions.isEmpty { offered = actions }
    }
    for request in pulls {
      if let id = harness.answer(to: request)?["result"]?["resultId"] { resultID = id }
    }
    if harness.server.exitStatus != nil { return 0 }
  }
  return 0
}

/// `# rpn:` lines, valid and not, for completion and hover inside them.
let fuzzSettingsLines = [
  "# rpn: notation=fixed decimals=2 grouping=true angleUnit=degrees precision=10 maxItems=12",
  "# rpn: ", "# rpn: notation=", "# rpn: nota", "#rpn: decimals=20 colour=red plain", "# RPN: Notation=SCIENTIFIC",
  "# rpn: angleUnit=grad maxItems=0 =5 precision=", "  # rpn: grouping=true 😀=1", "# rpn:notation=engineering",
]

/// Settings as a client sends them, under `rpn` or not, nested or dotted, some of the wrong type
/// or out of range.
func fuzzSettings(_ stream: inout ByteStream) -> JSONValue {
  var members: [(key: String, value: JSONValue)] = []
  func bool() -> JSONValue { stream.byte() < 200 ? .bool(stream.byte() & 1 == 0) : "true" }
  func notation() -> JSONValue {
    stream.byte() < 220 ? .string(stream.pick(["auto", "fixed", "scientific", "engineering", "Fixed", "fancy"])) : 2
  }
  for _ in 0..<stream.int(below: 6) {
    switch stream.int(below: 12) {
    case 0: members.append(("precision", JSONValue(stream.int(below: 21) - 2)))
    case 1: members.append(("angleUnit", .string(stream.pick(["radians", "degrees", "grad"]))))
    case 2:
      members.append(
        (
          "inlayHints",
          ["enabled": bool(), "maxItems": JSONValue(stream.int(below: 10) - 1), "sections": bool()]
        ))
    case 3:
      members.append(
        ("display", ["notation": notation(), "decimals": JSONValue(stream.int(below: 19) - 2), "grouping": bool()]))
    case 4: members.append(("display.notation", notation()))
    case 5: members.append(("display.decimals", JSONValue(stream.int(below: 19) - 2)))
    case 6: members.append(("display.grouping", bool()))
    case 7: members.append(("inlayHints.sections", bool()))
    case 8: members.append(("inlayHints.maxItems", JSONValue(stream.int(below: 10) - 1)))
    case 9: members.append(("display", stream.pick(["fixed", 2, .null, [1, 2]])))
    case 10: members.append(("display.decimals", stream.pick(["2", 2.5, 1e300, .null])))
    default: members.append(("inlayHints.enabled", bool()))
    }
  }
  return stream.byte() < 128 ? ["rpn": .object(members)] : .object(members)
}

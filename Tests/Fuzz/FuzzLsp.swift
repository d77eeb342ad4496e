import JSONRPC
import RPNLanguageServer

/// Target 3: the input decoded into a session of valid-looking requests (every method the server
/// handles, with random positions, ranges, edits and settings) against one server. It must never
/// trap, and every request must get exactly one answer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLSP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var stream = ByteStream(bytes: UnsafeBufferPointer(start: data, count: size))
  let harness = Harness(encoding: stream.byte() & 1 == 0 ? "utf-16" : "utf-8")
  let document: JSONValue = ["uri": "file:///f.rpn"]
  var version = 1
  while !stream.isAtEnd {
    func position() -> JSONValue {
      ["line": JSONValue(stream.int(below: 12)), "character": JSONValue(stream.int(below: 24))]
    }
    func range() -> JSONValue { ["start": position(), "end": position()] }
    let at: JSONValue = ["textDocument": document, "position": position()]
    var batch: [Incoming] = []
    for _ in 0...(stream.int(below: 3)) {
      switch stream.int(below: 20) {
      case 0, 1, 2:
        version += 1
        var text = ""
        for _ in 0..<stream.int(below: 6) { text += stream.pick(fuzzVocabulary) }
        let change: JSONValue =
          stream.byte() < 16 ? ["text": .string(text)] : ["range": range(), "text": .string(text)]
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
              "newName": .string(stream.pick(["b", "c1", "dup", "2x", "é", ""])),
            ]))
      case 11: batch.append(harness.request("textDocument/documentSymbol", ["textDocument": document]))
      case 12: batch.append(harness.request("textDocument/semanticTokens/full", ["textDocument": document]))
      case 13:
        batch.append(
          harness.request("textDocument/semanticTokens/range", ["textDocument": document, "range": range()]))
      case 14:
        batch.append(
          harness.request(
            "textDocument/codeAction",
            [
              "textDocument": document, "range": range(),
              "context": [
                "diagnostics": [],
                "only": stream.byte() < 128 ? .null : [.string(stream.pick(fuzzCodeActionKinds))],
              ],
            ]))
      case 18:
        // A source action on every check, resolved (sometimes with data that names no document).
        let data: JSONValue = stream.byte() < 200 ? ["textDocument": document] : ["textDocument": ["uri": "file:///x"]]
        batch.append(
          harness.request(
            "codeAction/resolve",
            ["title": "t", "kind": .string(stream.pick(fuzzCodeActionKinds)), "data": data]))
      case 15: batch.append(harness.request("textDocument/formatting", ["textDocument": document, "options": [:]]))
      case 16:
        batch.append(
          harness.request("textDocument/rangeFormatting", ["textDocument": document, "range": range(), "options": [:]]))
      case 17:
        let settings: JSONValue = [
          "rpn": [
            "precision": JSONValue(stream.int(below: 20)),
            "angleUnit": .string(stream.pick(["radians", "degrees", "grad"])),
            "inlayHints": ["enabled": .bool(stream.byte() & 1 == 0), "maxItems": JSONValue(stream.int(below: 10))],
          ]
        ]
        batch.append(harness.notification("workspace/didChangeConfiguration", ["settings": settings]))
      default:
        batch.append(harness.request("textDocument/diagnostic", ["textDocument": document]))
      }
    }
    harness.handle(batch)
  }
  return 0
}

// A client of the release `rpn-lsp` over real pipes, for the end-to-end rows and the soak.

import Foundation
import JSONRPC
import ProcessPipes

/// A client of the real `rpn-lsp` binary over pipes: what an editor sees, framing and JSON
/// included.
///
/// It starts the server as the tests do (`PipedProcess`), and frames and builds messages as the
/// server does (`Outgoing`); reading stays its own: one thread, no copy of a body it only waits
/// for (`waitResponseUnparsed`), where the tests' client reads on a thread of its own and checks
/// every header the server writes.
final class PipeClient {
  private let child: PipedProcess
  private var reader: FrameReader
  private var nextID = 1

  private var process: Process { child.process }
  var pid: Int32 { process.processIdentifier }

  convenience init(binary: String, environment: [String: String] = [:]) throws {
    try self.init(executable: binary, arguments: ["--stdio"], environment: environment)
  }

  /// Starts `executable` with `arguments`, and `environment` set over this process's: the server,
  /// or a tool that runs it (callgrind).
  init(executable: String, arguments: [String], environment: [String: String] = [:]) throws {
    child = try PipedProcess(
      executable: URL(fileURLWithPath: executable), arguments: arguments, environment: environment,
      discardErrors: true)
    let fd = child.output.fileDescriptor
    reader = FrameReader(chunkSize: 1 << 16) { buffer in
      while true {
        let n = read(fd, buffer.baseAddress, buffer.count)
        if n < 0 && errno == EINTR { continue }
        return max(n, 0)
      }
    }
  }

  /// The framed bytes of a message, encoded ahead of time so that timing covers only the wire
  /// and the server.
  static func framed(_ json: JSONValue) -> [UInt8] { Outgoing.frame(JSONWriter.encode(json)) }

  func write(_ bytes: [UInt8]) {
    let fd = child.input.fileDescriptor
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n <= 0 { return }
        offset += n
      }
    }
  }

  func makeRequest(_ method: String, _ params: JSONValue) -> (id: Int, bytes: [UInt8]) {
    let id = nextID
    nextID += 1
    return (id, Self.framed(Outgoing.request(id: JSONValue(id), method: method, params: params)))
  }

  func notify(_ method: String, _ params: JSONValue) {
    write(Self.framed(Outgoing.notification(method: method, params: params)))
  }

  /// Reads messages until one matches.
  func wait(until matches: (JSONValue) -> Bool) -> JSONValue? {
    while let frame = reader.next() {
      guard case .message(let body) = frame, case .success(let json) = JSONParser.parse(body) else { continue }
      if matches(json) { return json }
    }
    return nil
  }

  /// The body of the next message the server writes (a header it cannot frame, as text saying
  /// so), or nil at the end of its output: the exchange records every message as written.
  func nextBody() -> [UInt8]? {
    switch reader.next() {
    case .message(let body)?: body
    case .headerError(let message)?: Array("<header error: \(message)>".utf8)
    case nil: nil
    }
  }

  func closeInput() throws { try child.input.close() }

  /// Waits for the server to exit, and returns its exit status.
  func waitForExit() -> Int32 {
    process.waitUntilExit()
    return process.terminationStatus
  }

  func waitResponse(_ id: Int) -> JSONValue? { wait { $0["id"]?.intValue == id && $0["method"] == nil } }

  /// Waits for the response to `id` without parsing it: the server writes `{"jsonrpc":"2.0",
  /// "id":N,` first, so the prefix tells. Timing then measures the server and the pipe, not
  /// this client's JSON parser on a multi-megabyte answer.
  func waitResponseUnparsed(_ id: Int) {
    let prefix = Array("{\"jsonrpc\":\"2.0\",\"id\":\(id),".utf8)
    while let frame = reader.next() {
      if case .message(let body) = frame, body.starts(with: prefix) { return }
    }
  }

  /// Waits for the diagnostics of `uri` at `version` without parsing them (see
  /// `waitResponseUnparsed`): a tape whose every check fails publishes tens of megabytes.
  func waitDiagnosticsUnparsed(uri: String, version: Int) {
    let prefix = Array(
      "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\",\"params\":{\"uri\":\"\(uri)\",\"version\":\(version),"
        .utf8)
    while let frame = reader.next() {
      if case .message(let body) = frame, body.starts(with: prefix) { return }
    }
  }

  func waitDiagnostics(uri: String, version: Int?) -> JSONValue? {
    wait {
      $0["method"]?.stringValue == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri
        && (version == nil || $0["params"]?["version"]?.intValue == version)
    }
  }

  func request(_ method: String, _ params: JSONValue) -> JSONValue? {
    let (id, bytes) = makeRequest(method, params)
    write(bytes)
    return waitResponse(id)
  }

  /// Sends a request and waits for its response without parsing it.
  func requestUnparsed(_ method: String, _ params: JSONValue) {
    let (id, bytes) = makeRequest(method, params)
    write(bytes)
    waitResponseUnparsed(id)
  }

  /// `initialize` then `initialized`; `textDocument` and `workspace` capabilities are the
  /// client's, if any.
  func initialize(utf8: Bool = true, textDocument: JSONValue? = nil, workspace: JSONValue? = nil) {
    let encodings: JSONValue = utf8 ? ["utf-8", "utf-16"] : ["utf-16"]
    var capabilities: [(key: String, value: JSONValue)] = [("general", ["positionEncodings": encodings])]
    if let textDocument { capabilities.append(("textDocument", textDocument)) }
    if let workspace { capabilities.append(("workspace", workspace)) }
    _ = request("initialize", ["processId": nil, "rootUri": nil, "capabilities": .object(capabilities)])
    notify("initialized", [:])
  }

  /// Opens a document and waits for its diagnostics.
  func open(_ uri: String, _ text: String) {
    notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(uri), "languageId": "rpn", "version": 1, "text": .string(text)]])
    _ = waitDiagnostics(uri: uri, version: 1)
  }

  func closeDocument(_ uri: String) {
    notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
    _ = waitDiagnostics(uri: uri, version: nil)
  }

  /// The median time from a one-character edit of `line` (the character at `column`, `first`,
  /// toggled with another digit) to its diagnostics, over `runs` after a warm-up; `version` is
  /// the document's, advanced by each edit.
  func keystrokeMedian(
    uri: String, line: Int, column: Int = 0, first: Character, version: inout Int, runs: Int
  ) -> Double {
    let alternate: Character = first == "1" ? "2" : "1"
    var times: [Double] = []
    for run in 0...runs {
      version += 1
      let text = String(run % 2 == 0 ? alternate : first)
      let bytes = Self.framed([
        "jsonrpc": "2.0", "method": "textDocument/didChange",
        "params": [
          "textDocument": ["uri": .string(uri), "version": JSONValue(version)],
          "contentChanges": [
            [
              "range": [
                "start": ["line": JSONValue(line), "character": JSONValue(column)],
                "end": ["line": JSONValue(line), "character": JSONValue(column + 1)],
              ], "text": .string(text),
            ]
          ],
        ],
      ])
      let start = now()
      write(bytes)
      _ = waitDiagnostics(uri: uri, version: version)
      if run > 0 { times.append(Double(now() - start)) }
    }
    return times.sorted()[times.count / 2]
  }

  /// Code actions as VS Code declares them: literals of every kind, and edits resolved when an
  /// action is run (so that source actions come without their edit).
  static let resolvingCodeActions: JSONValue = [
    "codeAction": [
      "codeActionLiteralSupport": ["codeActionKind": ["valueSet": ["quickfix", "refactor", "source"]]],
      "dataSupport": true, "resolveSupport": ["properties": ["edit"]],
    ]
  ]

  /// The median time from a `didOpen` of `text` to its diagnostics, over `runs` after a warm-up;
  /// each run opens a document of its own (named after `name`) and closes it.
  func didOpenMedian(_ text: String, runs: Int, name: String) -> Double {
    var times: [Double] = []
    for run in 0...runs {
      let uri = "file:///bench/\(name)-\(run).rpn"
      let bytes = Self.framed([
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": ["textDocument": ["uri": .string(uri), "languageId": "rpn", "version": 1, "text": .string(text)]],
      ])
      let start = now()
      write(bytes)
      _ = waitDiagnostics(uri: uri, version: 1)
      if run > 0 { times.append(Double(now() - start)) }
      closeDocument(uri)
    }
    return times.sorted()[times.count / 2]
  }

  /// The median time of `textDocument/inlayHint` for the lines `lines` (a viewport).
  func inlayHintsMedian(uri: String, lines: Range<Int>, runs: Int) -> Double {
    let range: JSONValue = [
      "start": ["line": JSONValue(lines.lowerBound), "character": 0],
      "end": ["line": JSONValue(lines.upperBound), "character": 0],
    ]
    return requestMedian("textDocument/inlayHint", ["textDocument": ["uri": .string(uri)], "range": range], runs: runs)
  }

  /// The median time of a request, from writing it to its response, over `runs` after a warm-up.
  func requestMedian(_ method: String, _ params: JSONValue, runs: Int) -> Double {
    var times: [Double] = []
    for run in 0...runs {
      let (id, bytes) = makeRequest(method, params)
      let start = now()
      write(bytes)
      waitResponseUnparsed(id)
      if run > 0 { times.append(Double(now() - start)) }
    }
    return times.sorted()[times.count / 2]
  }

  func close() {
    _ = request("shutdown", nil)
    notify("exit", nil)
    try? child.input.close()
    process.waitUntilExit()
  }
}

/// Starts the server for a part of the bench and initializes it (with the client's
/// `textDocument` and `workspace` capabilities, if any); nil, said in the output, when it cannot
/// be started.
func startServer(_ binary: String, textDocument: JSONValue? = nil, workspace: JSONValue? = nil) -> PipeClient? {
  guard let client = try? PipeClient(binary: binary) else {
    print("  cannot start \(binary)")
    return nil
  }
  client.initialize(textDocument: textDocument, workspace: workspace)
  return client
}

// End-to-end benchmarks: the release server over real pipes, each request timed from outside.

import Foundation
import JSONRPC

/// A client of the real `rpn-lsp` binary over pipes: what an editor sees, framing and JSON
/// included.
final class PipeClient {
  private let process = Process()
  private let toServer = Pipe()
  private let fromServer = Pipe()
  private var reader: FrameReader
  private var nextID = 1

  var pid: Int32 { process.processIdentifier }

  init(binary: String) throws {
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["--stdio"]
    process.standardInput = toServer
    process.standardOutput = fromServer
    process.standardError = FileHandle.nullDevice
    let fd = fromServer.fileHandleForReading.fileDescriptor
    reader = FrameReader(chunkSize: 1 << 16) { buffer in
      while true {
        let n = read(fd, buffer.baseAddress, buffer.count)
        if n < 0 && errno == EINTR { continue }
        return max(n, 0)
      }
    }
    try process.run()
  }

  /// The framed bytes of a message, encoded ahead of time so that timing covers only the wire
  /// and the server.
  static func framed(_ json: JSONValue) -> [UInt8] { Outgoing.frame(JSONWriter.encode(json)) }

  func write(_ bytes: [UInt8]) {
    let fd = toServer.fileHandleForWriting.fileDescriptor
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
    return (id, Self.framed(["jsonrpc": "2.0", "id": JSONValue(id), "method": .string(method), "params": params]))
  }

  func notify(_ method: String, _ params: JSONValue) {
    write(Self.framed(["jsonrpc": "2.0", "method": .string(method), "params": params]))
  }

  /// Reads messages until one matches.
  func wait(until matches: (JSONValue) -> Bool) -> JSONValue? {
    while let frame = reader.next() {
      guard case .message(let body) = frame, case .success(let json) = JSONParser.parse(body) else { continue }
      if matches(json) { return json }
    }
    return nil
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

  func initialize(utf8: Bool = true) {
    let encodings: JSONValue = utf8 ? ["utf-8", "utf-16"] : ["utf-16"]
    _ = request(
      "initialize",
      ["processId": nil, "rootUri": nil, "capabilities": ["general": ["positionEncodings": encodings]]])
    notify("initialized", [:])
  }

  func close() {
    _ = request("shutdown", nil)
    notify("exit", nil)
    try? toServer.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}

/// The end-to-end section: the release binary over real pipes, medians after a warm-up.
func runEndToEnd(binary: String, sizes: [Int], runs: Int) {
  print("\nEnd to end: \(binary) over pipes (median of \(runs) after a warm-up)")
  let widths = [46, 12, 10]
  row(["measure", "median", "target"], widths: widths)
  func show(_ name: String, _ nanoseconds: Double, _ target: String) {
    let text = nanoseconds >= 1e6 ? "\(format(nanoseconds / 1e6, 2)) ms" : "\(format(nanoseconds / 1e3, 1)) µs"
    row([name, text, target], widths: widths)
  }

  // Spawn → initialize response.
  var spawnTimes: [Double] = []
  for run in 0...runs {
    let start = now()
    guard let client = try? PipeClient(binary: binary) else {
      print("  cannot start \(binary)")
      return
    }
    client.initialize()
    let elapsed = Double(now() - start)
    if run > 0 { spawnTimes.append(elapsed) }
    client.close()
  }
  show("spawn → initialize response", spawnTimes.sorted()[spawnTimes.count / 2], "≤ 10 ms")

  guard let client = try? PipeClient(binary: binary) else { return }
  client.initialize()
  defer { client.close() }

  // didOpen of a 1 MB and a 10 MB tape → its diagnostics.
  for megabytes in [1, 10] {
    let text = blockTape(lines: megabytes * 1_000_000 / 11)
    var times: [Double] = []
    for run in 0...(megabytes == 10 ? min(runs, 10) : runs) {
      let uri = "file:///bench/open-\(megabytes)-\(run).rpn"
      let bytes = PipeClient.framed([
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": ["textDocument": ["uri": .string(uri), "languageId": "rpn", "version": 1, "text": .string(text)]],
      ])
      let start = now()
      client.write(bytes)
      _ = client.waitDiagnostics(uri: uri, version: 1)
      if run > 0 { times.append(Double(now() - start)) }
      client.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
      _ = client.waitDiagnostics(uri: uri, version: nil)
    }
    show(
      "didOpen \(megabytes) MB (\(format(Double(text.utf8.count) / 1e6, 1)) MB) → diagnostics",
      times.sorted()[times.count / 2],
      megabytes == 10 ? "≤ 100 ms" : "")
  }

  // Keystrokes, viewport hints, hover and completion on tapes of each size.
  for size in sizes {
    let uri = "file:///bench/tape-\(size).rpn"
    let document = makeDocument(blockTape(lines: size))
    client.notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(uri), "languageId": "rpn", "version": 1, "text": .string(document.text)]])
    _ = client.waitDiagnostics(uri: uri, version: 1)
    var version = 1
    let target = size <= 10_000 ? "≤ 0.3 ms" : size <= 100_000 ? "≤ 1 ms" : "≤ 5 ms"
    for (place, line) in [("start", 1), ("middle", size / 2 + 1), ("end", size - 8)] {
      let original = document.text(ofLine: line)
      guard let first = original.first else { continue }
      let alternate: Character = first == "1" ? "2" : "1"
      var times: [Double] = []
      for run in 0...runs {
        version += 1
        let text = String(run % 2 == 0 ? alternate : first)
        let bytes = PipeClient.framed([
          "jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": [
            "textDocument": ["uri": .string(uri), "version": JSONValue(version)],
            "contentChanges": [
              [
                "range": [
                  "start": ["line": JSONValue(line), "character": 0], "end": ["line": JSONValue(line), "character": 1],
                ], "text": .string(text),
              ]
            ],
          ],
        ])
        let start = now()
        client.write(bytes)
        _ = client.waitDiagnostics(uri: uri, version: version)
        if run > 0 { times.append(Double(now() - start)) }
      }
      show("keystroke → diagnostics, \(size) lines, \(place)", times.sorted()[times.count / 2], target)
    }
    let middle = size / 2
    let requests: [(String, String, JSONValue, String)] = [
      (
        "round trip floor (hover → null, blank line)", "textDocument/hover",
        ["textDocument": ["uri": .string(uri)], "position": ["line": JSONValue(size), "character": 0]], ""
      ),
      (
        "inlay hints, 100-line viewport", "textDocument/inlayHint",
        [
          "textDocument": ["uri": .string(uri)],
          "range": [
            "start": ["line": JSONValue(middle), "character": 0],
            "end": ["line": JSONValue(middle + 100), "character": 0],
          ],
        ], "≤ 0.5 ms"
      ),
      (
        "hover", "textDocument/hover",
        ["textDocument": ["uri": .string(uri)], "position": ["line": JSONValue(middle + 1), "character": 0]], "≤ 0.2 ms"
      ),
      (
        "completion", "textDocument/completion",
        ["textDocument": ["uri": .string(uri)], "position": ["line": JSONValue(middle + 4), "character": 1]], "≤ 0.2 ms"
      ),
    ]
    /// Times a request: the median of `count` runs after one warm-up.
    func time(_ name: String, _ method: String, _ params: JSONValue, _ target: String, count: Int) {
      var times: [Double] = []
      for run in 0...count {
        let (id, bytes) = client.makeRequest(method, params)
        let start = now()
        client.write(bytes)
        client.waitResponseUnparsed(id)
        if run > 0 { times.append(Double(now() - start)) }
      }
      show("\(name), \(size) lines", times.sorted()[times.count / 2], target)
    }
    for (name, method, params, target) in requests { time(name, method, params, target, count: runs) }
    // Whole-document requests at 100k lines; viewport requests at every size.
    var more: [(String, String, JSONValue, String)] = [
      (
        "semantic tokens, 100-line viewport", "textDocument/semanticTokens/range",
        [
          "textDocument": ["uri": .string(uri)],
          "range": [
            "start": ["line": JSONValue(middle), "character": 0],
            "end": ["line": JSONValue(middle + 100), "character": 0],
          ],
        ], "< 2 ms"
      )
    ]
    if size == 100_000 {
      // `subtotal` is stored on every tenth line and used on every tenth: 10,000 uses.
      more += [
        (
          "semantic tokens, full", "textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]],
          "< 100 ms"
        ),
        (
          "references of a variable used 10,000 times", "textDocument/references",
          [
            "textDocument": ["uri": .string(uri)], "position": ["line": 8, "character": 1],
            "context": ["includeDeclaration": true],
          ], "< 100 ms"
        ),
        (
          "formatting (10,000 lines change)", "textDocument/formatting",
          ["textDocument": ["uri": .string(uri)], "options": ["tabSize": 2, "insertSpaces": true]], "< 100 ms"
        ),
        (
          "document symbols (10,000 stores)", "textDocument/documentSymbol", ["textDocument": ["uri": .string(uri)]],
          "< 100 ms"
        ),
      ]
    }
    for (name, method, params, target) in more {
      // Whole-document requests take tens of milliseconds: 11 runs are enough for a median.
      time(name, method, params, target, count: method.hasSuffix("range") ? runs : min(runs, 11))
    }
    client.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
    _ = client.waitDiagnostics(uri: uri, version: nil)
  }
}

// End-to-end benchmarks: the release server over real pipes, each request timed from outside.

import Foundation
import JSONRPC

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
    guard let client = startServer(binary) else { return }
    let elapsed = Double(now() - start)
    if run > 0 { spawnTimes.append(elapsed) }
    client.close()
  }
  show("spawn → initialize response", spawnTimes.sorted()[spawnTimes.count / 2], "≤ 10 ms")

  guard let client = startServer(binary) else { return }
  defer { client.close() }

  // didOpen of a 1 MB and a 10 MB tape → its diagnostics.
  for megabytes in [1, 10] {
    let text = blockTape(lines: megabytes * 1_000_000 / 11)
    let time = client.didOpenMedian(text, runs: megabytes == 10 ? min(runs, 10) : runs, name: "open-\(megabytes)")
    show(
      "didOpen \(megabytes) MB (\(format(Double(text.utf8.count) / 1e6, 1)) MB) → diagnostics",
      time, megabytes == 10 ? "≤ 100 ms" : "")
  }

  // Keystrokes, viewport hints, hover and completion on tapes of each size.
  for size in sizes {
    let uri = "file:///bench/tape-\(size).rpn"
    let document = makeDocument(blockTape(lines: size))
    client.open(uri, document.text)
    var version = 1
    let target = keystrokeTarget(size)
    for (place, line) in keystrokePlaces(size) {
      guard let first = document.text(ofLine: line).first else { continue }
      let time = client.keystrokeMedian(uri: uri, line: line, first: first, version: &version, runs: runs)
      show("keystroke → diagnostics, \(size) lines, \(place)", time, target)
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
      show("\(name), \(size) lines", client.requestMedian(method, params, runs: count), target)
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
      // `part` is stored on every tenth line and used on every tenth: 10,000 uses.
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
    client.closeDocument(uri)
  }
}

/// The keystroke targets: 0.3 ms up to 10,000 lines, 1 ms up to 100,000, 5 ms beyond.
func keystrokeTarget(_ size: Int) -> String {
  size <= 10_000 ? "≤ 0.3 ms" : size <= 100_000 ? "≤ 1 ms" : "≤ 5 ms"
}

/// Where keystrokes go in a block tape: its first block, its middle, its last block.
private func keystrokePlaces(_ size: Int) -> [(String, Int)] {
  [("start", 1), ("middle", size / 2 + 1), ("end", size - 8)]
}

/// The checks section: the block tape as it is and with a check on every line that has a
/// result (` =X`, X the line's exact result, as "Add a check to every line" writes them), both
/// open in one server, timed side by side: keystrokes (which make the checks below them in their
/// block fail), the viewport's inlay hints, and code actions at a cursor, as an editor asks on
/// every move (no `only`; the client resolves edits, so the source actions only look for
/// something to change).
func runChecksComparison(binary: String, sizes: [Int], runs: Int) {
  print("\nChecks: the block tape, and the same with ` =X` on every line with a result (median of \(runs))")
  let widths = [46, 12, 12, 10]
  row(["measure", "no checks", "checks", "target"], widths: widths)
  guard let client = startServer(binary, textDocument: PipeClient.resolvingCodeActions) else { return }
  defer { client.close() }
  for size in sizes {
    let plain = makeDocument(blockTape(lines: size))
    let checked = makeDocument(plain.applying(plain.checkAdditions()))
    let uris = ["file:///bench/plain-\(size).rpn", "file:///bench/checked-\(size).rpn"]
    client.open(uris[0], plain.text)
    client.open(uris[1], checked.text)
    var versions = [1, 1]
    for (place, line) in keystrokePlaces(size) {
      let times = [plain, checked].indices.map { index in
        let first = (index == 0 ? plain : checked).text(ofLine: line).first ?? "1"
        return client.keystrokeMedian(uri: uris[index], line: line, first: first, version: &versions[index], runs: runs)
      }
      row(
        [
          "keystroke → diagnostics, \(size) lines, \(place)", duration(times[0]), duration(times[1]),
          keystrokeTarget(size),
        ],
        widths: widths)
    }
    let middle = size / 2
    let viewport: JSONValue = [
      "start": ["line": JSONValue(middle), "character": 0], "end": ["line": JSONValue(middle + 100), "character": 0],
    ]
    let requests: [(String, String, (String) -> JSONValue, String)] = [
      (
        "inlay hints, 100-line viewport", "textDocument/inlayHint",
        { ["textDocument": ["uri": .string($0)], "range": viewport] }, "≤ 0.5 ms"
      ),
      (
        "code actions at a cursor", "textDocument/codeAction",
        {
          [
            "textDocument": ["uri": .string($0)],
            "range": [
              "start": ["line": JSONValue(middle + 2), "character": 0],
              "end": ["line": JSONValue(middle + 2), "character": 0],
            ],
            "context": ["diagnostics": [], "triggerKind": 2],
          ]
        }, ""
      ),
    ]
    for (name, method, params, target) in requests {
      let times = uris.map { client.requestMedian(method, params($0), runs: runs) }
      row(["\(name), \(size) lines", duration(times[0]), duration(times[1]), target], widths: widths)
    }
    for uri in uris { client.closeDocument(uri) }
  }
}

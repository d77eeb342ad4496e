// The worst cases: tapes written to cost the most per megabyte, each timed, against a target of 2 s per MB.

import Foundation
import JSONRPC
import RPNEngine

/// `rpn-bench --worst-only`: the slowest nesting of words the cost limit allows, with uses of its
/// top word filling a megabyte (evaluated once, `Document(text:)`), and, over the release server's
/// pipes, a tape of 100,000 headings and a megabyte line of checks with the requests an editor
/// sends for them. Each row gives its time and its time per megabyte; the target is 2 s per MB.
func runWorstCases(binary: String, megabytes: Double, runs: Int) {
  print("\nWorst cases (target: none over 2 s at 1 MB; server rows: median of \(runs))")
  let widths = [70, 6, 10, 10, 44]
  row(["case", "MB", "time", "s per MB", "note"], widths: widths)
  func report(_ name: String, bytes: Int, nanoseconds: Double, note: String = "") {
    let size = Double(bytes) / 1e6
    let seconds = nanoseconds / 1e9
    let rate = seconds / size
    let time = seconds >= 1 ? "\(format(seconds, 2)) s" : duration(nanoseconds)
    row([name, format(size, 2), time, format(rate, 3) + (rate > 2 ? " ✗" : ""), note], widths: widths)
  }
  let bytes = Int(megabytes * 1_000_000)
  runWorstWords(bytes: bytes, report: report)
  runWorstBounds(binary: binary, bytes: bytes, report: report)
  // As VS Code does: code lenses refreshed (so the server follows sections), code actions
  // resolved when run.
  guard
    let client = startServer(
      binary, textDocument: PipeClient.resolvingCodeActions,
      workspace: ["codeLens": ["refreshSupport": true], "inlayHint": ["refreshSupport": true]])
  else { return }
  defer { client.close() }
  runWorstHeadings(client, runs: runs, report: report)
  runWorstCheckLine(client, bytes: bytes, runs: runs, report: report)
}

private typealias Report = (_ name: String, _ bytes: Int, _ nanoseconds: Double, _ note: String) -> Void

/// Words: the slowest nesting within the limit, with uses of its top word filling `bytes`; and
/// two ways past what the limit means to bound (empty words, `roll` on a deep stack).
private func runWorstWords(bytes: Int, report: Report) {
  func evaluate(_ text: String) -> (nanoseconds: Double, steps: Int) {
    let start = now()
    let document = makeDocument(text)
    return (Double(now() - start), document.wordStepsRun)
  }
  func fill(_ header: String, use: String) -> String {
    let line = Array(repeating: use, count: 10_000).joined(separator: " ") + "\n"
    var text = header
    while text.utf8.count < bytes { text += line }
    return text
  }
  func chain(_ fanOut: Int, levels: Int, leaf: String) -> String {
    var lines = ["2 : a0 \(leaf) ;"]
    for level in 1..<levels {
      lines.append(": a\(level) " + Array(repeating: "a\(level - 1)", count: fanOut).joined(separator: " ") + " ;")
    }
    // The top word's name is one letter, so that a use is two bytes (`w `): the most uses per MB.
    lines.append(": w " + Array(repeating: "a\(levels - 1)", count: fanOut).joined(separator: " ") + " ;")
    return lines.joined(separator: "\n") + "\n"
  }
  // A use of a word is a step, as each of its body's builtins is, and the limit counts both: the
  // top word is as close to the limit as a chain of each shape gets. Each level uses the one below
  // ten times (8,000 `sqrt` steps and 1,110 calls a use: 9,110 steps), or twice (4,096 `sqrt`
  // steps and 4,094 calls: 8,190 steps, the most calls); `sqrt` takes the general path of a step.
  for (fanOut, levels, leaf, steps) in [
    (10, 3, Array(repeating: "sqrt", count: 8).joined(separator: " "), 9_110), (2, 11, "sqrt sqrt", 8_190),
  ] {
    let text = fill(chain(fanOut, levels: levels, leaf: leaf), use: "w")
    let run = evaluate(text)
    // A chain past the limit would be refused, and its uses cost nothing: not the worst case. A
    // line runs at most 16 steps per byte of its text: the uses past that are refused.
    let note =
      run.steps < text.utf8.count * 16 / 2
      ? "✗ only \(run.steps) steps ran: the chain was refused"
      : "\(format(run.nanoseconds / Double(run.steps), 1)) ns per step, \(run.steps.formatted()) steps"
    report(
      "words: \(levels + 1) levels × \(fanOut) uses (\(steps.formatted()) steps); the top's uses fill the tape",
      text.utf8.count, run.nanoseconds, note)
  }
  // Empty words run no builtin, but each call is a step: ten uses a level reach the limit at
  // level 4 (11,110 calls), so the chain is refused there, and its uses cost nothing.
  var empty = [": e0 ;"]
  for level in 1...4 {
    empty.append(": e\(level) " + Array(repeating: "e\(level - 1)", count: 10).joined(separator: " ") + " ;")
  }
  let emptyText = empty.joined(separator: "\n") + "\n1 e4\n"
  let emptyRun = evaluate(emptyText)
  let refused = makeDocument(emptyText).diagnostics().contains { $0.diagnostic.code == .tooComplex }
  report(
    "words: empty words, 10 uses a level: level 4 (11,110 calls) defined and used", emptyText.utf8.count,
    emptyRun.nanoseconds, refused ? "refused: a call is a step" : "✗ not refused")
  // `roll` is one step, and moves the whole stack: a use costs its steps times the depth.
  let ones = Array(repeating: "1", count: 10_000).joined(separator: " ")
  let rolls = Array(repeating: "999999 roll", count: 1_000).joined(separator: " ")
  let rollText = ": p \(ones) ;\n" + Array(repeating: "p", count: 100).joined(separator: " ") + "\n: r \(rolls) ;\nr\n"
  let rollRun = evaluate(rollText)
  report(
    "words: `999999 roll` × 1,000 (2,000 steps), a use on 1,000,000 values", rollText.utf8.count,
    rollRun.nanoseconds, "5,000 rolls on 16,777,216 values ≈ \(longDuration(rollRun.nanoseconds * 5 * 16.8))")
}

/// The tapes of issue 22 that escaped the bounds, each filling `bytes`: `pick` in a word,
/// `depth pick` and `depth roll` after a deep line, failing uses over `sum`, words that push
/// thousands of values per line then `clear`, and many unknown words under many stores. Each
/// line may run 256 steps per byte of its text and leave 4 values per byte; suggestions look up
/// an index of the names. The note gives the nodes kept (16 bytes each) and the diagnostics. Each
/// tape is then checked by the release binary (`rpn-lsp check`, every message written): its time
/// and peak memory, against 2 s and 100 MB at 1 MB.
private func runWorstBounds(binary: String, bytes: Int, report: Report) {
  func fill(_ header: String, line: String) -> String {
    var text = header
    while text.utf8.count < bytes { text += line }
    return text
  }
  let ones = { (count: Int) in Array(repeating: "1", count: count).joined(separator: " ") }
  let uses = { (word: String, count: Int) in Array(repeating: word, count: count).joined(separator: " ") }
  let words = ": a \(ones(98)) ;\n: b \(uses("a", 100)) ;\n"
  let deepB = uses("b", 1_711) + "\n"
  let picks =
    ": q depth pick drop ;\n: q1 \(uses("q", 10)) ;\n: q2 \(uses("q1", 10)) ;\n: q3 \(uses("q2", 10)) ;\n"
  let deep = ones(bytes / 4) + "\n"
  let names = (0..<(bytes / 24)).map { "\($0) =v\($0)\n" }.joined()
  let unknown = (0..<(bytes / 12)).map { "w\($0)x\n" }.joined()
  let tapes: [(String, String)] =
    [
      (
        "`pick` in a word: 1,711 uses of a 9,800-value word, then lines of `q3` (1,000 picks)",
        fill(words + deepB + picks, line: uses("q3", 10) + "\n")
      ),
      (
        "a deep line (¼ MB of `1 `), then lines of `depth pick drop` × 250",
        fill(deep, line: uses("depth pick drop", 250) + "\n")
      ),
      (
        "a deep line (¼ MB of `1 `), then lines of `depth roll` × 250", fill(deep, line: uses("depth roll", 250) + "\n")
      ),
      ("a deep line (¼ MB of `1 `), then lines of `depth roll`", fill(deep, line: "depth roll\n")),
      (
        "80,000 × `1e308`, then lines of 500 failing uses of `: s sum ;`",
        fill(uses("1e308", 80_000) + "\n: s sum ;\n", line: uses("s", 500) + "\n")
      ),
      ("pairs of lines: 1,711 uses of a 9,800-value word / `clear`", fill(words, line: deepB + "clear\n")),
      ("stores `n =vn` (½ MB), then unknown words `wnx` (½ MB)", names + unknown),
    ] + unitTapes(bytes: bytes)
  for (name, text) in tapes {
    let start = now()
    let document = makeDocument(text)
    let diagnostics = document.diagnostics()
    let nanoseconds = Double(now() - start)
    let note = "\(document.stackNodeCount.formatted()) nodes, \(diagnostics.count.formatted()) diagnostics"
    report(name, text.utf8.count, nanoseconds, note)
    let file = NSTemporaryDirectory() + "rpn-bench-worst-\(getpid()).rpn"
    guard FileManager.default.createFile(atPath: file, contents: Data(text.utf8)) else { continue }
    defer { try? FileManager.default.removeItem(atPath: file) }
    guard let check = runMeasured(binary, ["check", file]) else { continue }
    let megabytes = Double(check.peakBytes) / 1e6
    // 100 MB per MB of tape, but never under 100 MB: the runtime alone takes ~10 MB, which a
    // quick run's 0.1 MB tapes would otherwise fail on. (The full run's tapes are 1 MB.)
    let limit = 100 * max(1, Double(text.utf8.count) / 1e6)
    report(
      "  the same, `rpn-lsp check` (every message written)", text.utf8.count, check.nanoseconds,
      "peak \(format(megabytes, 1)) MB" + (megabytes > limit ? " ✗ (over \(format(limit, 0)) MB)" : ""))
  }
}

/// The units' worst cases: a line of conversions, lines of the deepest unit expression the
/// limits allow (12 factors, each ^99), a line of 10,000 distinct units, a line of distinct
/// unknown units (each looked up for suggestions), and lines of one unknown unit.
private func unitTapes(bytes: Int) -> [(String, String)] {
  func fill(_ header: String, line: String, separator: String = "\n") -> String {
    var text = header
    while text.utf8.count < bytes { text += separator + line }
    return text + "\n"
  }
  let lengths = ["km", "mi", "m", "ft", "in", "yd", "cm", "mm", "nmi"]
  var conversions = "1_km"
  var k = 0
  while conversions.utf8.count < bytes {
    conversions += " >" + lengths[k % lengths.count]
    k += 1
  }
  let deepest = "1_m^99*s^99*g^99*A^99*K^99*B^99/(rad^99*Hz^99*N^99*W^99*J^99*Pa^99)"
  let distinct = (0..<10_000).map { "1_m^\($0 % 99 + 1)*s^\($0 / 99 % 99 + 1)" }.joined(separator: " ")
  let letters = Array("abcdefghijklmnopqrstuvwxyz")
  var unknown: [String] = []
  var size = 0
  var n = 0
  while size < bytes {
    let name = "_" + String([letters[n / 17_576 % 26], letters[n / 676 % 26], letters[n / 26 % 26], letters[n % 26]])
    unknown.append(name)
    size += name.utf8.count + 1
    n += 1
  }
  return [
    ("a line of \(k.formatted()) conversions `1_km >mi >m >ft …`", conversions + "\n"),
    ("lines of the deepest unit the limits allow (12 factors ^99, 70 bytes)", fill(deepest, line: deepest)),
    ("a line of 10,000 distinct units `1_m^a*s^b`", distinct + "\n"),
    ("a line of \(n.formatted()) distinct unknown units `_aaaa _aaab …`", unknown.joined(separator: " ") + "\n"),
    ("lines of one unknown unit `1_zq`", fill("1_zq", line: "1_zq")),
  ]
}

/// 100,000 headings, each over one value (the values pile up: no `clear`), through the server:
/// open → diagnostics, the outline requests, the viewport's hints, a keystroke in the first value.
private func runWorstHeadings(_ client: PipeClient, runs: Int, report: Report) {
  var generator = Generator()
  var text = ""
  for index in 0..<100_000 { text += "## Section \(index)\n\(generator.number())\n" }
  let uri = "file:///bench/headings.rpn"
  let size = text.utf8.count
  let open = PipeClient.framed([
    "jsonrpc": "2.0", "method": "textDocument/didOpen",
    "params": ["textDocument": ["uri": .string(uri), "languageId": "rpn", "version": 1, "text": .string(text)]],
  ])
  let start = now()
  client.write(open)
  client.waitDiagnosticsUnparsed(uri: uri, version: 1)
  report("100,000 headings: open → diagnostics", size, Double(now() - start), "")
  for (name, method) in [
    ("code lenses", "textDocument/codeLens"), ("folding ranges", "textDocument/foldingRange"),
    ("document symbols", "textDocument/documentSymbol"),
  ] {
    let time = client.requestMedian(method, ["textDocument": ["uri": .string(uri)]], runs: runs)
    report("100,000 headings: \(name)", size, time, "")
  }
  let hints = client.inlayHintsMedian(uri: uri, lines: 100_000..<100_100, runs: runs)
  report("100,000 headings: inlay hints, 100-line viewport", size, hints, "")
  var version = 1
  let first = text.split(separator: "\n")[1].first ?? "1"
  let keystroke = client.keystrokeMedian(uri: uri, line: 1, first: first, version: &version, runs: runs)
  report("100,000 headings: keystroke in the first value → diagnostics", size, keystroke, "every line after it redone")
  let heading = client.keystrokeMedian(uri: uri, line: 0, column: 11, first: "0", version: &version, runs: runs)
  report("100,000 headings: keystroke in the first heading → diagnostics", size, heading, "")
  client.closeDocument(uri)
}

/// A line of checks, `1 =1 =1 …`, `bytes` long, through the server: open, a keystroke in a check
/// in its middle, the first value changed so that every check fails (and back), its inlay hint,
/// the selection ranges of 4,000 positions on it, the code actions on it, and "Update every
/// failing check" resolved.
private func runWorstCheckLine(_ client: PipeClient, bytes: Int, runs: Int, report: Report) {
  let checks = (bytes - 1) / 3
  let text = "1" + String(repeating: " =1", count: checks)
  let uri = "file:///bench/checks.rpn"
  let size = text.utf8.count
  let name = "checks line"
  let start = now()
  client.write(
    PipeClient.framed([
      "jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": ["textDocument": ["uri": .string(uri), "languageId": "rpn", "version": 1, "text": .string(text)]],
    ]))
  client.waitDiagnosticsUnparsed(uri: uri, version: 1)
  report("\(name): open → diagnostics", size, Double(now() - start), "\(checks) checks, all passing")
  var version = 1
  /// The median time from replacing the character at `column` with `text` to its diagnostics,
  /// each timed run followed by one that puts it back (timed separately).
  func edit(column: Int, to replacement: String, back original: String) -> (there: Double, back: Double) {
    var there: [Double] = []
    var back: [Double] = []
    for _ in 0..<runs {
      for (text, times) in [(replacement, 0), (original, 1)] {
        version += 1
        let message = PipeClient.framed([
          "jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": [
            "textDocument": ["uri": .string(uri), "version": JSONValue(version)],
            "contentChanges": [
              [
                "range": [
                  "start": ["line": 0, "character": JSONValue(column)],
                  "end": ["line": 0, "character": JSONValue(column + 1)],
                ], "text": .string(text),
              ]
            ],
          ],
        ])
        let start = now()
        client.write(message)
        client.waitDiagnosticsUnparsed(uri: uri, version: version)
        if times == 0 { there.append(Double(now() - start)) } else { back.append(Double(now() - start)) }
      }
    }
    return (there.sorted()[there.count / 2], back.sorted()[back.count / 2])
  }
  // The `1` of the check in the middle (check k is ` =1` at 3k + 1): `=1` → `=2` fails, then
  // passes again.
  let middle = edit(column: 3 * (checks / 2) + 3, to: "2", back: "1")
  report("\(name): keystroke in a check → diagnostics", size, middle.there, "one fails")
  let first = edit(column: 0, to: "2", back: "1")
  report("\(name): first value changed → diagnostics", size, first.there, "all fail")
  report("\(name): … changed back → diagnostics", size, first.back, "all pass")
  let line: JSONValue = ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": JSONValue(size)]]
  let hints = client.requestMedian(
    "textDocument/inlayHint", ["textDocument": ["uri": .string(uri)], "range": line], runs: runs)
  report("\(name): inlay hints", size, hints, "")
  // Many cursors at once: a selection range for each of 4,000 positions spread over the line
  // (one lexing of the line each took 50 s).
  let positions = JSONValue.array((0..<4_000).map { k in ["line": 0, "character": JSONValue(k * (size / 4_000))] })
  let selections = client.requestMedian(
    "textDocument/selectionRange", ["textDocument": ["uri": .string(uri)], "positions": positions], runs: runs)
  report("\(name): selection ranges at 4,000 positions", size, selections, "")
  let cursor: JSONValue = ["start": ["line": 0, "character": 4], "end": ["line": 0, "character": 4]]
  for (range, place) in [(cursor, "at the cursor"), (line, "on the line")] {
    let actions = client.requestMedian(
      "textDocument/codeAction",
      ["textDocument": ["uri": .string(uri)], "range": range, "context": ["diagnostics": []]], runs: runs)
    report("\(name): code actions \(place), all passing", size, actions, "")
  }
  // Every check failing: a quick fix for each in the range, and the source actions' edits.
  version += 1
  client.notify(
    "textDocument/didChange",
    [
      "textDocument": ["uri": .string(uri), "version": JSONValue(version)],
      "contentChanges": [
        [
          "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 1]],
          "text": "2",
        ]
      ],
    ])
  client.waitDiagnosticsUnparsed(uri: uri, version: version)
  let actions = client.requestMedian(
    "textDocument/codeAction",
    ["textDocument": ["uri": .string(uri)], "range": cursor, "context": ["diagnostics": []]], runs: runs)
  report("\(name): code actions at the cursor, all failing", size, actions, "")
  let resolve = client.requestMedian(
    "codeAction/resolve",
    [
      "title": "Update every failing check", "kind": "source.rpn.updateChecks",
      "data": ["textDocument": ["uri": .string(uri)]],
    ], runs: runs)
  report("\(name): \"Update every failing check\" resolved", size, resolve, "an edit per check")
  client.closeDocument(uri)
  // The code actions on the whole line, every check failing: a quick fix for each, so the answer
  // is a hundred times the line. Timed once on smaller lines, and the megabyte's time
  // extrapolated at the growth measured between them (×2 for ×2 is linear).
  var times: [(bytes: Int, nanoseconds: Double)] = []
  for small in [bytes / 40, bytes / 20] {
    let text = "2" + String(repeating: " =1", count: (small - 1) / 3)
    client.open(uri, text)
    let line: JSONValue = ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": JSONValue(small)]]
    let time = client.requestMedian(
      "textDocument/codeAction",
      ["textDocument": ["uri": .string(uri)], "range": line, "context": ["diagnostics": []]], runs: 1)
    times.append((text.utf8.count, time))
    client.closeDocument(uri)
  }
  let growth = times[1].nanoseconds / times[0].nanoseconds
  let atSize = times[1].nanoseconds * pow(Double(size) / Double(times[1].bytes), max(1, log2(growth)))
  for (small, time) in times {
    report(
      "checks line: code actions on the line, all failing", small, time,
      small == times[1].bytes
        ? "×\(format(growth, 1)) for ×2: \(format(Double(size) / 1e6, 1)) MB ≈ \(longDuration(atSize))" : "")
  }
}

/// A long time in the unit that reads best: seconds, minutes or hours.
private func longDuration(_ nanoseconds: Double) -> String {
  let seconds = nanoseconds / 1e9
  if seconds < 120 { return "\(format(seconds, 1)) s" }
  if seconds < 7_200 { return "\(format(seconds / 60, 0)) min" }
  return "\(format(seconds / 3_600, 1)) h"
}

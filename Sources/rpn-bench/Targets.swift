// The speed targets on the named tapes, for two binaries side by side in one run:
// `rpn-bench --targets [--against OLD] [--server NEW]`.

import Foundation
import JSONRPC

/// Measures every target on the named tapes for `binaries` (the first the one under test, the
/// second what it is compared with), one measurement of each binary after the other, so that
/// both see the same load. Medians of `runs`.
func runTargets(binaries: [String], runs: Int, sizes: [Int]) {
  let names = binaries.map { URL(fileURLWithPath: $0).path }
  print("Targets on the named tapes, medians of \(runs); columns: \(names.joined(separator: " | "))")
  let widths = [54] + Array(repeating: 16, count: binaries.count) + [14]
  row(["measure"] + binaries.indices.map { $0 == 0 ? "this binary" : "compared" } + ["target"], widths: widths)
  func show(_ name: String, _ cells: [String], _ target: String) { row([name] + cells + [target], widths: widths) }

  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rpn-bench-targets-\(getpid())")
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }

  // `check` on the million-line running tape, whole process; dc runs the same text.
  let largest = sizes.max() ?? 1_000_000
  let running = NamedTape.running.text(lines: largest)
  let file = folder.appendingPathComponent("running.rpn")
  try? running.write(to: file, atomically: true, encoding: .utf8)
  let megabytes = Double(running.utf8.count) / 1e6
  var checkTimes = binaries.map { _ in [Double]() }
  var peaks = binaries.map { _ in [Double]() }
  for _ in 0..<runs {
    for (index, binary) in binaries.enumerated() {
      guard let (time, peak) = runMeasured(binary, ["check", file.path]) else { continue }
      checkTimes[index].append(time)
      peaks[index].append(Double(peak))
    }
  }
  let checkMedians = checkTimes.map(middle)
  show(
    "check running \(largest / 1000)k (\(format(megabytes, 1)) MB), whole process",
    checkMedians.map { "\(format(megabytes / ($0 / 1e9))) MB/s" }, "≥ 250 MB/s")
  show("  peak memory", peaks.map { "\(format(middle($0) / 1_048_576)) MiB" }, "≤ 35 MB")
  if let dc = executableInPath("dc") {
    runToExit(dc, [file.path])
    let theirs = median(runs: max(3, runs / 4)) { runToExit(dc, [file.path]) }
    show(
      "  against GNU dc on the same text (\(format(theirs / 1e6, 0)) ms)",
      checkMedians.map {
        "\(format(theirs / $0))×"
      }, "≥ 60×")
  } else {
    show("  GNU dc", ["not installed"], "apt-get install dc")
  }

  let clients = binaries.compactMap { startServer($0) }
  // The same binaries, for a client that resolves tooltips and edits (VS Code).
  let resolving = binaries.compactMap { startServer($0, textDocument: resolvingHints) }
  guard clients.count == binaries.count, resolving.count == binaries.count else { return }
  defer { for client in clients + resolving { client.close() } }

  let opens = clients.map { $0.didOpenMedian(running, runs: max(3, runs / 4), name: "targets-open") }
  show("didOpen running \(largest / 1000)k → diagnostics", opens.map(duration), "≤ 100 ms")

  for size in sizes {
    for tape in NamedTape.allCases {
      let text = tape.text(lines: size)
      let uri = "file:///bench/targets-\(tape.rawValue)-\(size).rpn"
      for client in clients + resolving { client.open(uri, text) }
      let lines = NamedTape.lines(of: text)
      let line = NamedTape.integerLine(in: lines, from: size / 2)
      let label = "\(tape.rawValue) \(size / 1000)k"
      if tape != .local && tape != .block {
        let first = Character(UnicodeScalar(lines[line].first ?? 0x31))
        let edits = clients.map { client in
          var version = 1
          return client.keystrokeMedian(uri: uri, line: line, first: first, version: &version, runs: runs)
        }
        let target =
          switch tape {
          case .running: "≤ 30 ms"
          case .column: "≤ 2 ms"
          case .units: "≤ 1.5× running"
          default: ""
          }
        show("edit in the middle, \(label) → diagnostics", edits.map(duration), target)
      }
      let document: JSONValue = ["uri": .string(uri)]
      let hints = clients.map { $0.inlayHintsMedian(uri: uri, lines: line..<line + 100, runs: runs) }
      show("inlay hints, 100-line viewport, \(label)", hints.map(duration), "≤ 0.4 ms")
      let resolvingHints = resolving.map { $0.inlayHintsMedian(uri: uri, lines: line..<line + 100, runs: runs) }
      show("  the same, a client that resolves tooltips", resolvingHints.map(duration), "≤ 0.4 ms")
      let hovers = clients.map {
        $0.requestMedian(
          "textDocument/hover", ["textDocument": document, "position": ["line": JSONValue(line), "character": 0]],
          runs: runs)
      }
      show("hover on an integer, \(label)", hovers.map(duration), "≤ 0.2 ms")
      let completions = clients.map {
        $0.requestMedian(
          "textDocument/completion",
          ["textDocument": document, "position": ["line": JSONValue(line), "character": 0]], runs: runs)
      }
      show("completion, nothing typed, \(label)", completions.map(duration), "≤ 0.15 ms")
      for client in clients + resolving { client.closeDocument(uri) }
    }
  }
  let floors = clients.map {
    $0.requestMedian(
      "textDocument/hover", ["textDocument": ["uri": "file:///none.rpn"], "position": ["line": 0, "character": 0]],
      runs: runs)
  }
  show("  round trip floor (hover on an unknown document)", floors.map(duration), "")
}

/// The median of `values` (0 when there are none).
private func middle(_ values: [Double]) -> Double {
  values.isEmpty ? 0 : values.sorted()[values.count / 2]
}

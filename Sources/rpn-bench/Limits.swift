// The limits section: the targets of "close to the limit", each measured from outside the binary.

import Foundation
import JSONRPC

/// One value pushed per line: every line's stack holds every value above it, so an edit deep in
/// the tape changes a value that every label below holds but that no line below reads.
func columnTape(lines: Int) -> String {
  var generator = Generator()
  var text = ""
  text.reserveCapacity(lines * 8)
  for _ in 0..<lines { text += generator.number() + "\n" }
  return text
}

/// The targets measured from outside, side by side in one run: `rpn-lsp check` on a token-dense
/// tape beside `cat` (the I/O floor) and GNU dc on the same arithmetic; a large `didOpen`; edits
/// in the middle of a running tape (every label below changes) and of a column tape (a value deep
/// under a tall stack); completion; and the viewport's hints on each tape.
func runLimits(binary: String, runs: Int, lines: Int) {
  print("\nLimits: \(binary), whole process or over pipes (median of \(runs) after a warm-up; \(lines) lines)")
  let widths = [58, 14, 16]
  row(["measure", "median", "target"], widths: widths)

  // Whole process: check, cat and dc on files.
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rpn-bench-limits-\(getpid())")
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let (dense, dcProgram) = arithmeticTape(lines: lines)
  let tape = folder.appendingPathComponent("dense.rpn")
  let program = folder.appendingPathComponent("dense.dc")
  try? dense.write(to: tape, atomically: true, encoding: .utf8)
  try? dcProgram.write(to: program, atomically: true, encoding: .utf8)
  let megabytes = Double(dense.utf8.count) / 1e6
  // `check` and `cat` take a fraction of a second: as many runs as the rest; dc takes seconds.
  func run(_ path: String, _ arguments: [String], runs: Int = runs) -> Double {
    runToExit(path, arguments)  // The warm-up: the file in the page cache, the binary loaded.
    return median(runs: runs) { runToExit(path, arguments) }
  }
  let check = run(binary, ["check", tape.path])
  let cat = run("/bin/cat", [tape.path])
  row(
    [
      "rpn-lsp check, \(format(megabytes, 1)) MB token-dense tape, whole process",
      "\(format(megabytes / (check / 1e9))) MB/s", "≥ 250 MB/s",
    ], widths: widths)
  row(["  cat (the I/O floor)", "\(format(megabytes / (cat / 1e9))) MB/s", ""], widths: widths)
  if let dc = ["/usr/bin/dc", "/bin/dc"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
    let theirs = run(dc, [program.path], runs: max(3, runs / 4))
    row(["  GNU dc on the same arithmetic", "\(format(megabytes / (theirs / 1e9))) MB/s", ""], widths: widths)
    row(["  rpn-lsp check against dc", "\(format(theirs / check))×", "≥ 60×"], widths: widths)
  } else {
    row(["  GNU dc", "not installed", "(apt-get install dc)"], widths: widths)
  }

  guard let client = startServer(binary) else { return }
  defer { client.close() }

  // didOpen of the block tape at `lines` lines → diagnostics.
  let block = blockTape(lines: lines)
  let open = client.didOpenMedian(block, runs: max(3, runs / 4), name: "limits-open")
  row(
    [
      "didOpen \(format(Double(block.utf8.count) / 1e6, 1)) MB block tape → diagnostics",
      duration(open), "≤ 100 ms (17.7 MB)",
    ], widths: widths)
  // The target names 17.7 MB: the same tape, as many lines as make 17.7 MB (scaled with --quick).
  let size = 17_700_000 * lines / 1_000_000
  let longer = blockTape(lines: lines * size / max(1, block.utf8.count) + 1)
  let openLonger = client.didOpenMedian(longer, runs: max(3, runs / 4), name: "limits-open-longer")
  row(
    [
      "didOpen \(format(Double(longer.utf8.count) / 1e6, 1)) MB block tape (\(longer.split(separator: "\n").count) lines)",
      duration(openLonger), "≤ 100 ms",
    ], widths: widths)

  // Edits in the middle, and the viewport's hints, on each tape.
  let tapes: [(name: String, text: String, target: String)] = [
    ("block", block, "≤ 5 ms"), ("running", rippleTape(lines: lines), "≤ 40 ms"),
    ("column", columnTape(lines: lines), "≤ 5 ms"),
  ]
  for (name, text, target) in tapes {
    let uri = "file:///bench/limits-\(name).rpn"
    client.open(uri, text)
    let document = makeDocument(text)
    var line = lines / 2
    while line < lines - 1, document.text(ofLine: line).first?.isNumber != true { line += 1 }
    var version = 1
    let edit = client.keystrokeMedian(
      uri: uri, line: line, first: document.text(ofLine: line).first ?? "1", version: &version, runs: runs)
    row(["edit in the middle of the \(name) tape → diagnostics", duration(edit), target], widths: widths)
    let hints = client.inlayHintsMedian(uri: uri, lines: line..<line + 100, runs: runs)
    row(["inlay hints, 100-line viewport, \(name) tape", duration(hints), "≤ 0.4 ms"], widths: widths)
    if name == "block" {
      let completion = client.requestMedian(
        "textDocument/completion",
        ["textDocument": ["uri": .string(uri)], "position": ["line": JSONValue(line + 3), "character": 1]],
        runs: runs)
      row(["completion, block tape", duration(completion), "≤ 0.15 ms"], widths: widths)
      // At a line's start nothing is typed: every item, the longest answer.
      let everything = client.requestMedian(
        "textDocument/completion",
        ["textDocument": ["uri": .string(uri)], "position": ["line": JSONValue(line + 3), "character": 0]],
        runs: runs)
      row(["completion, block tape, nothing typed", duration(everything), "≤ 0.15 ms"], widths: widths)
      let floor = client.requestMedian(
        "textDocument/hover",
        ["textDocument": ["uri": .string(uri)], "position": ["line": JSONValue(lines), "character": 0]], runs: runs)
      row(["  round trip floor (hover → null)", duration(floor), ""], widths: widths)
    }
    client.closeDocument(uri)
  }
}

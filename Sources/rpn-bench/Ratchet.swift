// The speed ratchet: instruction counts of named workloads under callgrind, against a committed
// baseline, so that a change that costs speed fails CI instead of passing unseen.

import Foundation
import JSONRPC

/// One measured workload: a whole process of `rpn-lsp` under `valgrind --tool=callgrind`.
struct RatchetWorkload {
  enum Kind {
    /// `rpn-lsp check FILE` on a tape of a million lines.
    case check(NamedTape)
    /// A session over pipes on a 100,000-line tape: `initialize`, `didOpen` and its diagnostics,
    /// then the requests, then `shutdown` and `exit`.
    case session(NamedTape, SessionStep)
  }

  /// What a session does after opening its tape.
  enum SessionStep: String, CaseIterable {
    /// Nothing: the cost of opening, evaluating and publishing.
    case open
    /// Ten one-character edits in the middle, each waited for until its diagnostics.
    case edit
    /// 100 inlay-hint requests, each for a 100-line viewport, spread over the tape.
    case hints
    /// The same, from a client that resolves tooltips and edits (as VS Code does).
    case hintsResolving = "hints-resolving"
    /// 100 hovers, each on an integer that starts a line, spread over the tape.
    case hover
    /// 100 completions at the start of a line (nothing typed: every item).
    case completion

    var count: Int {
      switch self {
      case .open: 0
      case .edit: 10
      case .hints, .hintsResolving, .hover, .completion: 100
      }
    }
  }

  static let checkLines = 1_000_000

  static let sessionLines = 100_000
  /// The mixed tape's lines, for `check` and the sessions alike: its conversions on every line
  /// cost 9x the running tape's per line, and at 100,000 lines its three rows took a minute of
  /// CI's run under callgrind.
  static let mixedLines = 20_000

  /// The lines of `check`'s tape: a million, but `mixedLines` of the mixed tape.
  static func checkLines(of tape: NamedTape) -> Int { tape == .mixed ? mixedLines : checkLines }
  /// The lines of a session's tape: 100,000, but `mixedLines` of the mixed tape.
  static func sessionLines(of tape: NamedTape) -> Int { tape == .mixed ? mixedLines : sessionLines }

  /// A count of lines as a row's name says it: `1M`, `100k`, `20k`.
  static func linesName(_ lines: Int) -> String {
    lines % 1_000_000 == 0 ? "\(lines / 1_000_000)M" : "\(lines / 1000)k"
  }

  let kind: Kind

  /// The row's name in the table and the baseline file.
  var name: String {
    switch kind {
    case .check(let tape): "check \(tape.rawValue) \(Self.linesName(Self.checkLines(of: tape)))"
    case .session(let tape, let step):
      step == .open
        ? "open \(tape.rawValue) \(Self.linesName(Self.sessionLines(of: tape)))"
        : "\(step.rawValue) ×\(step.count) \(tape.rawValue) \(Self.linesName(Self.sessionLines(of: tape)))"
    }
  }

  /// The session steps measured on `tape`: every one on the plain tapes; on the tapes with units
  /// (added by the units edition) opening and hints, where their values are read and shown. Not
  /// the edits: an edit in the middle of a running tape evaluates half of it again, ten times,
  /// which with units as slow as they are (Tests/Speed/baseline.tsv) is minutes under callgrind.
  static func steps(on tape: NamedTape) -> [SessionStep] {
    switch tape {
    case .running, .column, .local, .block: SessionStep.allCases
    case .units, .mixed: [.open, .hints]
    // A `check` row only: the issue that added it names that one.
    case .budget: []
    }
  }

  /// Every row: `check` on each tape, and the session steps on each tape.
  static let all: [RatchetWorkload] =
    NamedTape.allCases.map { RatchetWorkload(kind: .check($0)) }
    + NamedTape.allCases.flatMap { tape in
      steps(on: tape).map { RatchetWorkload(kind: .session(tape, $0)) }
    }
}

/// The instruction counts the baseline file holds, by row name, and the commit they were
/// measured on.
struct RatchetBaseline {
  var counts: [String: UInt64] = [:]
  var commit = "unknown"

  /// Reads `# measured on: COMMIT` and lines `NAME<TAB>COUNT`; other `#` lines are comments.
  init(reading path: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for line in text.split(separator: "\n") {
      if line.hasPrefix("# measured on:") {
        commit = line.dropFirst("# measured on:".count).trimmingCharacters(in: .whitespaces)
        continue
      }
      if line.hasPrefix("#") || line.isEmpty { continue }
      let fields = line.split(separator: "\t")
      guard fields.count == 2, let count = UInt64(fields[1]) else {
        throw RatchetError.badBaselineLine(String(line))
      }
      counts[String(fields[0])] = count
    }
  }

  init() {}

  /// The file's text: a header that says what the numbers are, then one row a line.
  func text(rows: [String]) -> String {
    var text = """
      # rpn-lsp's speed ratchet: instructions of each workload, whole process, as counted by
      # valgrind --tool=callgrind with SWIFT_DETERMINISTIC_HASHING=1 on a release build
      # (`rpn-bench --ratchet`; .ci/run fails when a row is more than 3% above its count here).
      # Lowering a count is a commit that says why; raising one, a commit that says what it bought.
      # measured on: \(commit)

      """
    for name in rows { text += "\(name)\t\(counts[name] ?? 0)\n" }
    return text
  }
}

enum RatchetError: Error, CustomStringConvertible {
  case badBaselineLine(String)
  case valgrindMissing
  case noCount(String)

  var description: String {
    switch self {
    case .badBaselineLine(let line): "the baseline has a line that is not NAME<TAB>COUNT: \(line)"
    case .valgrindMissing: "valgrind is not installed (apt-get install valgrind)"
    case .noCount(let name): "callgrind wrote no instruction count for \(name)"
    }
  }
}

/// How far above its baseline a row may go before the ratchet fails.
let ratchetTolerance = 0.03

/// `rpn-bench --ratchet BASELINE [--write] [--commit C] [--only TEXT] [--keep DIR]`: measures
/// every workload (or those whose name contains `only`) and compares it with the baseline (or,
/// with `--write`, writes the counts there); `keep` is a folder for callgrind's files, to read
/// with `callgrind_annotate`. Returns the exit status: 0 when no row is more than 3% above its
/// baseline, 1 when one is, 2 when it could not measure.
func runRatchet(
  binary: String, baselinePath: String, write: Bool, commit: String?, only: String?, keep: String?
) -> Int32 {
  if write && only != nil {
    printError("--write measures every row: it does not go with --only")
    return 2
  }
  let started = now()
  guard let valgrind = executableInPath("valgrind") else {
    printError(RatchetError.valgrindMissing.description)
    return 2
  }
  var baseline = RatchetBaseline()
  if !write {
    do { baseline = try RatchetBaseline(reading: baselinePath) } catch {
      printError("cannot read the baseline \(baselinePath): \(error)")
      return 2
    }
  }
  // Hashing seeded the same in every run, so that a dictionary's layout, and so the work of
  // filling it, is the same each time.
  setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rpn-ratchet-\(getpid())")
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }

  var files: [NamedTape: String] = [:]
  var texts: [NamedTape: String] = [:]
  for tape in NamedTape.allCases {
    let path = folder.appendingPathComponent("\(tape.rawValue).rpn").path
    guard
      FileManager.default.createFile(
        atPath: path, contents: Data(tape.text(lines: RatchetWorkload.checkLines(of: tape)).utf8))
    else {
      printError("cannot write the tape \(path)")
      return 2
    }
    files[tape] = path
    texts[tape] = tape.text(lines: RatchetWorkload.sessionLines(of: tape))
  }
  let checkFiles = files
  let sessionTexts = texts

  let workloads = RatchetWorkload.all.filter { only.map($0.name.contains) ?? true }
  let outputs = keep.map { URL(fileURLWithPath: $0) } ?? folder
  try? FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
  let results = RatchetResults(count: workloads.count)
  // Two at a time, one a core: counts do not depend on what else runs.
  DispatchQueue.concurrentPerform(iterations: 2) { worker in
    for index in stride(from: worker, to: workloads.count, by: 2) {
      let workload = workloads[index]
      let file = "callgrind." + workload.name.replacingOccurrences(of: " ", with: "-") + ".out"
      let out = outputs.appendingPathComponent(file).path
      let command = [valgrind, "--tool=callgrind", "--callgrind-out-file=\(out)", binary]
      let start = now()
      switch workload.kind {
      case .check(let tape):
        runToExit(command[0], Array(command.dropFirst()) + ["check", checkFiles[tape] ?? ""])
      case .session(let tape, let step):
        runSession(
          command: command, text: sessionTexts[tape] ?? "", lineCount: RatchetWorkload.sessionLines(of: tape),
          step: step)
      }
      results.set(index, count: callgrindTotal(out), seconds: Double(now() - start) / 1e9)
    }
  }
  let counts = results.counts
  let seconds = results.seconds

  if write {
    var measured = RatchetBaseline()
    measured.commit = commit ?? "unknown"
    for (workload, count) in zip(workloads, counts) { measured.counts[workload.name] = count ?? 0 }
    do {
      try measured.text(rows: workloads.map(\.name)).write(toFile: baselinePath, atomically: true, encoding: .utf8)
    } catch {
      printError("cannot write \(baselinePath): \(error)")
      return 2
    }
  }

  print("Speed ratchet: instructions (callgrind, whole process), baseline measured on \(baseline.commit)")
  let widths = [34, 16, 16, 9, 8, 32]
  row(["row", "baseline", "now", "ratio", "s", ""], widths: widths)
  var status: Int32 = 0
  for (index, workload) in workloads.enumerated() {
    guard let count = counts[index] else {
      row([workload.name, "", "no count", "", format(seconds[index]), "FAILED to measure"], widths: widths)
      status = 2
      continue
    }
    let base = write ? count : baseline.counts[workload.name]
    guard let base, base > 0 else {
      row([workload.name, "none", "\(count)", "", format(seconds[index]), "no baseline: add one"], widths: widths)
      status = max(status, 1)
      continue
    }
    let ratio = Double(count) / Double(base)
    var verdict = ""
    if ratio > 1 + ratchetTolerance {
      verdict = "SLOWER: over +\(Int(ratchetTolerance * 100))%"
      status = max(status, 1)
    } else if ratio < 1 - ratchetTolerance {
      verdict = "faster: lower the baseline"
    }
    row([workload.name, "\(base)", "\(count)", format(ratio, 4), format(seconds[index]), verdict], widths: widths)
  }
  print("The ratchet took \(format(Double(now() - started) / 1e9)) s.")
  if status == 1 {
    print(
      """
      A row is more than \(Int(ratchetTolerance * 100))% above its baseline. Profile it (valgrind --tool=callgrind \
      and callgrind_annotate) and win the instructions back; or, if the cost buys something worth it, raise \
      the baseline (`rpn-bench --ratchet FILE --write --commit HASH`) in a commit that says what it bought.
      """)
  }
  return status
}

/// The counts and times of the workloads, filled in by two threads.
private final class RatchetResults: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var counts: [UInt64?]
  private(set) var seconds: [Double]

  init(count: Int) {
    counts = Array(repeating: nil, count: count)
    seconds = Array(repeating: 0, count: count)
  }

  func set(_ index: Int, count: UInt64?, seconds time: Double) {
    lock.lock()
    defer { lock.unlock() }
    counts[index] = count
    seconds[index] = time
  }
}

/// One session of `step` on `text`, through `command` (the server under valgrind), to its exit.
private func runSession(command: [String], text: String, lineCount: Int, step: RatchetWorkload.SessionStep) {
  guard let client = try? PipeClient(executable: command[0], arguments: Array(command.dropFirst()) + ["--stdio"])
  else { return }
  client.initialize(textDocument: step == .hintsResolving ? resolvingHints : nil)
  let uri = "file:///ratchet/tape.rpn"
  client.open(uri, text)
  let lines = NamedTape.lines(of: text)
  func integerLine(from line: Int) -> Int { NamedTape.integerLine(in: lines, from: line) }
  let document: JSONValue = ["uri": .string(uri)]
  switch step {
  case .open: break
  case .edit:
    var version = 1
    let line = integerLine(from: lineCount / 2)
    let first = Character(UnicodeScalar(lines[line].first ?? 0x31))
    _ = client.keystrokeMedian(uri: uri, line: line, first: first, version: &version, runs: step.count - 1)
  case .hints, .hintsResolving:
    for k in 0..<step.count {
      let start = k * (lineCount - 100) / step.count
      let range: JSONValue = [
        "start": ["line": JSONValue(start), "character": 0], "end": ["line": JSONValue(start + 100), "character": 0],
      ]
      client.requestUnparsed("textDocument/inlayHint", ["textDocument": document, "range": range])
    }
  case .hover:
    for k in 0..<step.count {
      let line = integerLine(from: k * lineCount / step.count)
      client.requestUnparsed(
        "textDocument/hover", ["textDocument": document, "position": ["line": JSONValue(line), "character": 0]])
    }
  case .completion:
    for k in 0..<step.count {
      let line = k * lineCount / step.count
      client.requestUnparsed(
        "textDocument/completion", ["textDocument": document, "position": ["line": JSONValue(line), "character": 0]])
    }
  }
  client.close()
}

/// Inlay hints as VS Code declares them: tooltips and edits resolved when shown or accepted.
let resolvingHints: JSONValue = ["inlayHint": ["resolveSupport": ["properties": ["tooltip", "textEdits"]]]]

/// The total of instructions that callgrind wrote in `path` (its `totals:` or `summary:` line).
private func callgrindTotal(_ path: String) -> UInt64? {
  guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
  for line in text.split(separator: "\n").reversed() where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
    if let count = line.split(separator: " ").last.flatMap({ UInt64($0) }) { return count }
  }
  return nil
}

/// The full path of `name` in `PATH`, if it is there and can be run.
func executableInPath(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for folder in path.split(separator: ":") {
    let candidate = "\(folder)/\(name)"
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  return nil
}

func printError(_ message: String) {
  FileHandle.standardError.write(Data("rpn-bench: \(message)\n".utf8))
}

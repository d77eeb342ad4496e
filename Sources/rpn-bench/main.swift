// rpn-bench: the engine's speed and memory, measured side by side in one run.
//
//   swift run -c release rpn-bench [--quick]
//     [--e2e-only | --checks-only | --words-only | --sections-only | --worst-only | --limits-only |
//      --edits-only]
//   swift run -c release rpn-bench --ratchet Tests/Speed/baseline.tsv [--write --commit HASH]
//     [--only TEXT] [--keep DIR]
//   swift run -c release rpn-bench --targets [--against OLD-RPN-LSP] [--quick]
//   swift run rpn-bench --exchange --server RPN-LSP --against OTHER-RPN-LSP [--write DIR]
//   swift run -c release rpn-bench --units-only [--quick]
//   swift run rpn-bench --tape running|column|local|block|units|mixed LINES [FILE]
//   swift run rpn-bench --help
//
// Every figure is a median of several runs; the machines are shared and noisy, so compare the
// ratios printed here rather than absolute times across runs.

import Foundation
import JSONRPC
import RPNEngine

let quick = CommandLine.arguments.contains("--quick")
let sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]
/// The server binary measured end to end: beside this executable unless `--server PATH`.
let serverBinary: String = {
  if let flag = CommandLine.arguments.firstIndex(of: "--server"), flag + 1 < CommandLine.arguments.count {
    return CommandLine.arguments[flag + 1]
  }
  return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rpn-lsp")
    .path
}()

// MARK: Timing

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// The median time of `runs` calls, in nanoseconds. `setup` runs before each call, untimed.
func median(runs: Int, setup: () -> Void = {}, _ body: () -> Void) -> Double {
  var times: [UInt64] = []
  for _ in 0..<runs {
    setup()
    let start = now()
    body()
    times.append(now() - start)
  }
  times.sort()
  return Double(times[times.count / 2])
}

func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

/// A median time as a row shows it: µs below a millisecond, else ms.
func duration(_ nanoseconds: Double) -> String {
  nanoseconds >= 1e6 ? "\(format(nanoseconds / 1e6, 2)) ms" : "\(format(nanoseconds / 1e3, 1)) µs"
}

func row(_ cells: [String], widths: [Int]) {
  var line = zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " ")
  while line.last == " " { line.removeLast() }
  print(line)
}

// MARK: Tapes

/// Deterministic pseudo-random numbers, so every run measures the same tapes.
struct Generator {
  var state: UInt64 = 0x1234_5678
  mutating func next(_ bound: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((state >> 33) % UInt64(bound))
  }
  mutating func number() -> String {
    let whole = next(10_000)
    switch next(3) {
    case 0: return "\(whole)"
    case 1: return "\(whole).\(next(100))"
    default: return "\(next(100)).\(next(10))\(next(10))"
    }
  }
}

/// A realistic tape: blocks of ten lines (numbers, arithmetic, a store, a comment) each ending
/// with `clear`, so an edit inside a block stays inside it.
func blockTape(lines: Int) -> String {
  var generator = Generator()
  var text = ""
  text.reserveCapacity(lines * 12)
  appendBlocks(lines, to: &text) { place in
    switch place {
    case 1: "\(generator.number()) \(generator.number()) +\n"
    case 2: "\(generator.number()) *\n"
    case 3: "\(generator.number()) 15 %\n"
    case 4: "-\n"
    case 5: "=part\n"
    case 6: "\(generator.number()) \(generator.number()) / +\n"
    case 7: "2 sqrt *   # scale\n"
    default: "part max\n"
    }
  }
  return text
}

/// Appends `count` lines in blocks of ten: a heading `# block N`, eight lines that `line` writes
/// (given the line's place in its block, 1 to 8), and `clear`. The block tapes share this shape
/// so that an edit inside a block stays inside it, in each of them. `line` is called for every
/// line, the heading and `clear` too (their text is dropped), so a tape that draws a random
/// number for each line draws the same sequence as when it wrote its blocks itself.
func appendBlocks(_ count: Int, to text: inout String, line: (_ place: Int) -> String) {
  for i in 0..<count {
    let place = i % 10
    let written = line(place)
    switch place {
    case 0: text += "# block \(i / 10)\n"
    case 9: text += "clear\n"
    default: text += written
    }
  }
}

/// A running total: every line adds to what is above, so a change at the top ripples to the end.
func rippleTape(lines: Int) -> String {
  var generator = Generator()
  var text = "1\n"
  for _ in 1..<lines { text += "\(generator.number()) +\n" }
  return text
}

/// Arithmetic that GNU dc can run too: numbers and + - * / only, one block per line.
func arithmeticTape(lines: Int) -> (rpn: String, dc: String) {
  var generator = Generator()
  var rpn = ""
  var dc = ""
  for _ in 0..<lines {
    let line = "\(generator.number()) \(generator.number()) + \(generator.number()) * \(generator.next(90) + 10) /"
    rpn += line + " clear\n"
    dc += line + " c\n"
  }
  return (rpn, dc)
}

func makeDocument(_ text: String) -> Document {
  do { return try Document(text: text) } catch { fatalError("benchmark tape too large: \(error)") }
}

// MARK: Modes

if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
  print(
    """
    rpn-bench: the engine's speed and memory, measured side by side in one run.
      rpn-bench [--quick] [--server RPN-LSP]                   every section
      rpn-bench --e2e-only | --checks-only | --words-only | --sections-only | --worst-only |
                --limits-only | --edits-only [--quick]        one section
      rpn-bench --units-only [--quick]                         check: running, units, mixed tapes
      rpn-bench --ratchet BASELINE [--write --commit HASH] [--only TEXT] [--keep DIR] [--server RPN-LSP]
      rpn-bench --targets [--against OLD-RPN-LSP] [--quick]
      rpn-bench --exchange --server RPN-LSP --against OTHER-RPN-LSP [--write DIR]
      rpn-bench --soak STEPS [SEED]
      rpn-bench --profile-eval LINES
      rpn-bench --tape NAME LINES [FILE]                       a named tape's text (\(
      NamedTape.allCases.map(\.rawValue).joined(separator: ", ")))
    """)
  exit(0)
}

if let flag = CommandLine.arguments.firstIndex(of: "--tape") {
  exit(writeTape(arguments: CommandLine.arguments.dropFirst(flag + 1)))
}

if CommandLine.arguments.contains("--units-only") {
  runUnitsComparison(binary: serverBinary, runs: quick ? 5 : 11, lines: quick ? 100_000 : 1_000_000)
  exit(0)
}

// MARK: Profiling

// `rpn-bench --profile-eval N`: only evaluate a block tape of N lines, ten times, for
// `valgrind --tool=callgrind` (instruction counts, repeatable on a noisy machine).
if let flag = CommandLine.arguments.firstIndex(of: "--profile-eval") {
  let lines = CommandLine.arguments.dropFirst(flag + 1).first.flatMap { Int($0) } ?? 100_000
  let text = blockTape(lines: lines)
  var total = 0
  for _ in 0..<10 { total += makeDocument(text).lineCount }
  print("evaluated \(total) lines")
  exit(0)
}

// `rpn-bench --exchange --server A --against B [--write DIR]`: the same LSP sessions and command
// lines played to two binaries, every message compared (Exchange.swift).
if CommandLine.arguments.contains("--exchange") {
  exit(runExchange(server: serverBinary, arguments: CommandLine.arguments))
}

// `rpn-bench --ratchet BASELINE [--write] [--commit HASH] [--server PATH]`: the speed ratchet.
if let flag = CommandLine.arguments.firstIndex(of: "--ratchet") {
  let arguments = CommandLine.arguments
  guard flag + 1 < arguments.count else {
    printError("--ratchet takes the baseline file: rpn-bench --ratchet Tests/Speed/baseline.tsv")
    exit(2)
  }
  func value(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
  }
  exit(
    runRatchet(
      binary: serverBinary, baselinePath: arguments[flag + 1], write: arguments.contains("--write"),
      commit: value("--commit"), only: value("--only"), keep: value("--keep")))
}

// `rpn-bench --targets [--against OLD]`: the targets on the named tapes, two binaries side by side.
if CommandLine.arguments.contains("--targets") {
  let arguments = CommandLine.arguments
  let against = arguments.firstIndex(of: "--against").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
  runTargets(binaries: [serverBinary] + (against.map { [$0] } ?? []), runs: quick ? 5 : 15, sizes: sizes)
  exit(0)
}

if let flag = CommandLine.arguments.firstIndex(of: "--soak") {
  let rest = CommandLine.arguments.dropFirst(flag + 1)
  let steps = rest.first.flatMap { Int($0) } ?? 100_000
  let seed = rest.dropFirst().first.flatMap { UInt64($0) } ?? 1
  exit(runSoak(binary: serverBinary, steps: steps, seed: seed))
}

if CommandLine.arguments.contains("--edits-only") {
  runEdits(sizes: sizes)
  exit(0)
}
if CommandLine.arguments.contains("--limits-only") {
  runLimits(binary: serverBinary, runs: 21, lines: quick ? 100_000 : 1_000_000)
  exit(0)
}

if CommandLine.arguments.contains("--e2e-only") {
  runEndToEnd(binary: serverBinary, sizes: sizes, runs: 21)
  runChecksComparison(binary: serverBinary, sizes: sizes, runs: 21)
  exit(0)
}

if CommandLine.arguments.contains("--sections-only") {
  runSectionsComparison(binary: serverBinary, sizes: sizes, runs: 21)
  exit(0)
}

if CommandLine.arguments.contains("--words-only") {
  runWordsComparison(binary: serverBinary, sizes: sizes, runs: 21)
  runSlowWordTapes()
  exit(0)
}

if CommandLine.arguments.contains("--worst-only") {
  runWorstCases(binary: serverBinary, megabytes: quick ? 0.1 : 1, runs: quick ? 3 : 5)
  exit(0)
}

if CommandLine.arguments.contains("--checks-only") {
  runChecksComparison(binary: serverBinary, sizes: sizes, runs: 21)
  exit(0)
}

// MARK: Full evaluation

print("rpn-bench — \(quick ? "quick" : "full") run, medians\n")
print("Full evaluation (Document(text:): split lines, lex, evaluate)")
let widths = [10, 10, 12, 12, 14, 16]
row(["lines", "MB", "ms", "MB/s", "ns/line", "state B/line"], widths: widths)
for size in sizes {
  let text = blockTape(lines: size)
  let megabytes = Double(text.utf8.count) / 1e6
  var document: Document?
  let time = median(runs: size >= 1_000_000 ? 5 : 9) { document = makeDocument(text) }
  let perLine = Double(document?.stateByteCount ?? 0) / Double(size)
  row(
    [
      "\(size)", format(megabytes, 2), format(time / 1e6, 2), format(megabytes / (time / 1e9)),
      format(time / Double(size)),
      format(perLine),
    ], widths: widths)
}

// MARK: Number parsing

print("\nNumber parsing, per token (the same 1,000,000 literals)")
do {
  var generator = Generator()
  let literals = (0..<1_000_000).map { _ in generator.number() }
  let joined = literals.joined(separator: " ")
  var ranges: [Range<Int>] = []
  var start = 0
  for literal in literals {
    ranges.append(start..<start + literal.utf8.count)
    start += literal.utf8.count + 1
  }
  let bytes = Array(joined.utf8)
  var sink = 0.0
  let ours = median(runs: 9) {
    bytes.withUnsafeBufferPointer { buffer in
      for range in ranges {
        if case .value(let v) = NumberLiteral.parseBytes(UnsafeBufferPointer(rebasing: buffer[range])) { sink += v }
      }
    }
  }
  let substrings = literals.map { Substring($0) }
  let standard = median(runs: 5) {
    for literal in substrings { sink += Double(literal) ?? 0 }
  }
  let numbersOnly = (0..<100_000).map { _ in (0..<10).map { _ in generator.number() }.joined(separator: " ") }
    .joined(separator: "\n")
  let tape = median(runs: 9) { _ = makeDocument(numbersOnly) }
  print("  NumberLiteral fast path        \(format(ours / 1e6)) ns/token")
  print("  Swift Double(Substring)        \(format(standard / 1e6)) ns/token  (\(format(standard / ours))× slower)")
  print("  whole tape of numbers          \(format(tape / 1e6)) ns/token  (split, lex, parse, push, commit)")
  if sink == 42 { print("") }
}

// MARK: Edits

/// One-character edits of block, running and column tapes: the time, the lines whose results
/// may have changed, and the lines actually evaluated (a column tape's deep edit skips the lines
/// that do not read the changed value).
func runEdits(sizes: [Int]) {
  print("\nOne-character edit → re-evaluation (median of 21; ns per line evaluated)")
  let editWidths = [10, 8, 8, 12, 14, 14, 14]
  row(["lines", "kind", "where", "µs", "lines changed", "evaluated", "ns/evaluated"], widths: editWidths)
  for size in sizes {
    for (kind, text) in [
      ("local", blockTape(lines: size)), ("ripple", rippleTape(lines: size)), ("column", columnTape(lines: size)),
    ] {
      let document = makeDocument(text)
      for (place, line) in [("start", kind == "local" ? 1 : 0), ("middle", size / 2 + 1), ("end", size - 8)] {
        // Toggle the first digit of the line between two values, so that every edit changes it.
        let original = document.text(ofLine: line)
        guard let first = original.first, first.isNumber else { continue }
        let alternate: Character = first == "1" ? "2" : "1"
        var toggle = false
        var redone = 0
        var evaluated = 0
        let time = median(runs: 21) {
          toggle.toggle()
          let before = document.linesEvaluated
          let result = try? document.replace(
            from: TextPosition(line: line, utf8Column: 0), to: TextPosition(line: line, utf8Column: 1),
            with: String(toggle ? alternate : first))
          redone = result?.reevaluatedLines.count ?? 0
          evaluated = document.linesEvaluated - before
        }
        row(
          [
            "\(size)", kind, place, format(time / 1e3, 2), "\(redone)", "\(evaluated)",
            format(time / Double(max(evaluated, 1))),
          ], widths: editWidths)
      }
    }
  }
}

runEdits(sizes: sizes)

// MARK: GNU dc

print("\nThe same arithmetic in rpn-lsp's engine and GNU dc (numbers, + * /, clear)")
let dcPath = ["/usr/bin/dc", "/bin/dc"].first { FileManager.default.isExecutableFile(atPath: $0) }
if let dcPath {
  let lines = quick ? 100_000 : 1_000_000
  let (rpn, dcProgram) = arithmeticTape(lines: lines)
  let file = FileManager.default.temporaryDirectory.appendingPathComponent("rpn-bench-\(getpid()).dc")
  try dcProgram.write(to: file, atomically: true, encoding: .utf8)
  defer { try? FileManager.default.removeItem(at: file) }
  let megabytes = Double(rpn.utf8.count) / 1e6
  let ours = median(runs: 5) { _ = makeDocument(rpn) }
  let theirs = median(runs: 3) { runToExit(dcPath, [file.path]) }
  print(
    "  rpn-lsp engine  \(format(megabytes / (ours / 1e9))) MB/s   (\(format(ours / 1e6)) ms for \(format(megabytes, 2)) MB)"
  )
  print("  GNU dc          \(format(megabytes / (theirs / 1e9))) MB/s   (\(format(theirs / 1e6)) ms)")
  print("  ratio           \(format(theirs / ours))× faster than dc")
} else {
  print("  dc is not installed (apt-get install dc): skipped")
}

// MARK: JSON

print("\nJSON: ours against Foundation's (a 10 MB didOpen; 10,000 inlay hints)")
do {
  let text = blockTape(lines: 900_000)
  let didOpen: JSONValue = [
    "jsonrpc": "2.0", "method": "textDocument/didOpen",
    "params": ["textDocument": ["uri": "file:///x.rpn", "languageId": "rpn", "version": 1, "text": .string(text)]],
  ]
  let body = JSONWriter.encode(didOpen)
  let megabytes = Double(body.count) / 1e6
  let data = Data(body)
  struct Params: Decodable {
    struct Item: Decodable {
      var uri: String
      var text: String
      var version: Int
    }
    var textDocument: Item
  }
  struct Notification: Decodable {
    var method: String
    var params: Params
  }
  let ours = median(runs: 9) { _ = JSONParser.parse(body) }
  let serialization = median(runs: 5) { _ = try? JSONSerialization.jsonObject(with: data) }
  let decoder = median(runs: 5) { _ = try? JSONDecoder().decode(Notification.self, from: data) }
  print(
    "  parse \(format(megabytes, 1)) MB: JSONParser \(format(megabytes / (ours / 1e9))) MB/s, "
      + "JSONSerialization \(format(megabytes / (serialization / 1e9))) MB/s, JSONDecoder \(format(megabytes / (decoder / 1e9))) MB/s"
  )
  let hints: [JSONValue] = (0..<10_000).map { line in
    ["position": ["line": JSONValue(line), "character": 12], "label": "[12.5 8 20.5]", "paddingLeft": true]
  }
  let hintObjects: [[String: Any]] = (0..<10_000).map { line in
    ["position": ["line": line, "character": 12], "label": "[12.5 8 20.5]", "paddingLeft": true]
  }
  struct Hint: Encodable {
    struct At: Encodable {
      var line: Int
      var character: Int
    }
    var position: At
    var label: String
    var paddingLeft: Bool
  }
  let hintStructs = (0..<10_000).map {
    Hint(position: .init(line: $0, character: 12), label: "[12.5 8 20.5]", paddingLeft: true)
  }
  let writer = median(runs: 9) { _ = JSONWriter.encode(.array(hints)) }
  let serialized = median(runs: 5) { _ = try? JSONSerialization.data(withJSONObject: hintObjects) }
  let encoded = median(runs: 5) { _ = try? JSONEncoder().encode(hintStructs) }
  print(
    "  encode 10,000 hints: JSONWriter \(format(writer / 1e7, 3)) µs/hint, JSONSerialization "
      + "\(format(serialized / 1e7, 3)) µs/hint, JSONEncoder \(format(encoded / 1e7, 3)) µs/hint")
}

// MARK: End to end

runEndToEnd(binary: serverBinary, sizes: sizes, runs: 21)
runChecksComparison(binary: serverBinary, sizes: sizes, runs: 21)
runWordsComparison(binary: serverBinary, sizes: sizes, runs: 21)
runSectionsComparison(binary: serverBinary, sizes: sizes, runs: 21)
runSlowWordTapes()
runWorstCases(binary: serverBinary, megabytes: quick ? 0.1 : 1, runs: quick ? 3 : 5)

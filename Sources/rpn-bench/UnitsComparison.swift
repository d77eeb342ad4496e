// What units of measure cost a tape: `check` on the running tape, the same arithmetic in one unit
// (the units tape) and conversions on every line (the mixed tape), whole process, side by side.

import Foundation

/// `rpn-bench --units-only [--quick]`: `rpn-lsp check` on the running, units and mixed tapes of
/// `lines` lines, one run of each after the other so that all three see the same load; the
/// medians of `runs`, each tape's peak memory, and each tape's time over the running tape's (the
/// units tape's target: within 1.5×).
func runUnitsComparison(binary: String, runs: Int, lines: Int) {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rpn-bench-units-\(getpid())")
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let tapes: [NamedTape] = [.running, .units, .mixed]
  var files: [String] = []
  var megabytes: [Double] = []
  for tape in tapes {
    let text = tape.text(lines: lines)
    let file = folder.appendingPathComponent("\(tape.rawValue).rpn")
    try? text.write(to: file, atomically: true, encoding: .utf8)
    files.append(file.path)
    megabytes.append(Double(text.utf8.count) / 1e6)
  }
  print("check on \(lines / 1000)k lines, whole process (\(binary)), medians of \(runs) runs interleaved")
  let widths = [10, 10, 12, 10, 12, 12, 14, 12]
  row(["tape", "MB", "ms", "MB/s", "ns/line", "peak MiB", "× running", "target"], widths: widths)
  var times = tapes.map { _ in [Double]() }
  var peaks = tapes.map { _ in [Double]() }
  for _ in 0..<runs {
    for index in tapes.indices {
      guard let (time, peak) = runMeasured(binary, ["check", files[index]]) else { continue }
      times[index].append(time)
      peaks[index].append(Double(peak))
    }
  }
  func middle(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.sorted()[values.count / 2] }
  let plain = middle(times[0])
  for (index, tape) in tapes.enumerated() {
    let time = middle(times[index])
    row(
      [
        tape.rawValue, format(megabytes[index], 1), format(time / 1e6), format(megabytes[index] / (time / 1e9)),
        format(time / Double(lines)), format(middle(peaks[index]) / 1_048_576), format(time / plain, 3),
        tape == .units ? "≤ 1.5×" : "",
      ], widths: widths)
  }
}

/// `rpn-bench --tape NAME LINES [FILE]`: a named tape's text, to FILE or else to the standard
/// output, to check with `rpn-lsp check` or to profile by hand. Returns the exit status.
func writeTape(arguments: ArraySlice<String>) -> Int32 {
  let names = NamedTape.allCases.map(\.rawValue).joined(separator: ", ")
  guard let name = arguments.first, let tape = NamedTape(rawValue: name) else {
    printError("--tape takes a tape's name (\(names)) and a number of lines")
    return 2
  }
  let lines = arguments.dropFirst().first.flatMap { Int($0) } ?? RatchetWorkload.checkLines
  let text = tape.text(lines: lines)
  guard let path = arguments.dropFirst(2).first else {
    FileHandle.standardOutput.write(Data(text.utf8))
    return 0
  }
  guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
    printError("cannot write \(path)")
    return 2
  }
  return 0
}

// The words section: a tape of defined words beside the plain block tape, and tapes written to be slow.

import Foundation
import JSONRPC
import RPNEngine

/// A block tape that defines `words` words at its top and uses them below: fixed effects, a
/// word using earlier words, a stack-dependent one. Blocks of ten lines end with `clear`, as in
/// the plain block tape, and each block's second line starts with a number (where keystrokes go).
func wordsTape(lines: Int, words: Int = 100) -> (text: String, firstBlockLine: Int) {
  var generator = Generator()
  var text = "# words\n"
  for k in 0..<words {
    switch k % 5 {
    case 0: text += ": w\(k) 2 * 1 + ;\n"  // ( a -- r )
    case 1: text += ": w\(k) over over + ;\n"  // ( a b -- r₁ r₂ r₃ )
    case 2: text += ": w\(k) w\(k - 2) w\(max(0, k - 7)) ;\n"  // ( a -- r ), two words deep
    case 3: text += ": w\(k) \(generator.number()) * ;\n"  // ( a -- r )
    default: text += ": w\(k) sum ;\n"  // ( … -- … )
    }
  }
  let header = words + 1
  appendBlocks(lines - header, to: &text) { place in
    let group = 5 * generator.next(words / 5)
    return switch place {
    case 1: "\(generator.number()) \(generator.number()) w\(group + 1)\n"
    case 2: "w\(group)\n"
    case 3: "w\(group + 2)\n"
    case 4: "\(generator.number()) w\(group + 3)\n"
    case 5: "=s\n"
    case 6: "+ + s w\(group)\n"
    case 7: "w\(group + 4)   # the whole block\n"
    case 8: "w\(group + 2) 2 /\n"
    default: ""
    }
  }
  return (text, header + 1)
}

/// The words tape and the plain block tape of the same size, open in one server, side by side:
/// keystrokes in a block (start, middle, end), a keystroke in a definition (which changes every
/// use below it), and the viewport's inlay hints.
func runWordsComparison(binary: String, sizes: [Int], runs: Int) {
  print("\nWords: the block tape, and a tape of the same size using 100 defined words (median of \(runs))")
  let widths = [62, 12, 12, 10]
  row(["measure", "plain", "words", "target"], widths: widths)
  guard let client = startServer(binary) else { return }
  defer { client.close() }
  for size in sizes {
    let plain = blockTape(lines: size)
    let (words, first) = wordsTape(lines: size)
    let documents = [makeDocument(plain), makeDocument(words)]
    let uris = ["file:///bench/plain-\(size).rpn", "file:///bench/words-\(size).rpn"]
    client.open(uris[0], plain)
    client.open(uris[1], words)
    var versions = [1, 1]
    let blocks = (size - first) / 10
    let places = [
      ("start", 1, first), ("middle", size / 2 + 1, first + 10 * (blocks / 2)),
      ("end", size - 8, first + 10 * (blocks - 1)),
    ]
    for (place, plainLine, wordsLine) in places {
      let times = [plainLine, wordsLine].indices.map { index in
        let line = index == 0 ? plainLine : wordsLine
        let first = documents[index].text(ofLine: line).first ?? "1"
        return client.keystrokeMedian(uri: uris[index], line: line, first: first, version: &versions[index], runs: runs)
      }
      row(
        [
          "keystroke → diagnostics, \(size) lines, \(place)", duration(times[0]), duration(times[1]),
          keystrokeTarget(size),
        ],
        widths: widths)
    }
    // `: w3 1234.5 *` → `: w3 2234.5 *`: every use of w3 below changes, so every block does.
    let definitionLine = 4
    let digit = documents[1].withUTF8(ofLine: definitionLine) { bytes in
      bytes.firstIndex { $0 >= 0x30 && $0 <= 0x39 } ?? 0
    }
    let definitionTime = client.keystrokeMedian(
      uri: uris[1], line: definitionLine, column: digit,
      first: Character(UnicodeScalar(documents[1].withUTF8(ofLine: definitionLine) { $0[digit] })),
      version: &versions[1], runs: max(3, runs / 3))
    row(
      ["keystroke in a definition used all the way down, \(size) lines", "", duration(definitionTime), ""],
      widths: widths)
    let times = uris.map { client.inlayHintsMedian(uri: $0, lines: size / 2..<size / 2 + 100, runs: runs) }
    row(
      ["inlay hints, 100-line viewport, \(size) lines", duration(times[0]), duration(times[1]), "≤ 0.5 ms"],
      widths: widths)
    let definitions = client.inlayHintsMedian(uri: uris[1], lines: 0..<100, runs: runs)
    row(["inlay hints, the 100 definitions, \(size) lines", "", duration(definitions), "≤ 0.5 ms"], widths: widths)
    for uri in uris { client.closeDocument(uri) }
  }
}

/// Tapes written to be slow with words, timed once each through the engine (`Document(text:)`):
/// what the cost limit allows at worst, and what it refuses at once. The slowest are measured at
/// 100 KB, and their 1 MB time is that rate times ten (the cost is linear in the uses).
func runSlowWordTapes() {
  print("\nWords written to be slow, evaluated once (Document(text:))")
  let widths = [56, 8, 10, 14, 10, 12]
  row(["tape", "MB", "seconds", "steps in words", "ns/step", "s per MB"], widths: widths)
  func measure(_ name: String, _ text: String) {
    let start = now()
    let document = makeDocument(text)
    let seconds = Double(now() - start) / 1e9
    let steps = document.wordStepsRun
    let megabytes = Double(text.utf8.count) / 1e6
    row(
      [
        name, format(megabytes, 2), format(seconds, 2), "\(steps)",
        steps > 0 ? format(seconds * 1e9 / Double(steps), 2) : "–", format(seconds / megabytes, 2),
      ], widths: widths)
  }
  func fill(_ header: String, line: String, bytes: Int) -> String {
    var text = header
    while text.utf8.count < bytes { text += line + "\n" }
    return text
  }
  let uses = { (word: String) in Array(repeating: word, count: 10_000).joined(separator: " ") }
  // The costliest word the limit allows (9,998 steps of `1 +`), used as often as 1 MB allows.
  let add = Array(repeating: "1 +", count: 4_999).joined(separator: " ")
  measure("`1 +` × 4,999 (9,998 steps), a use per 2 bytes", fill("0 : w \(add) ;\n", line: uses("w"), bytes: 1_000_000))
  // The same cost in `sqrt` steps: a slow instruction, chained.
  let roots = Array(repeating: "sqrt", count: 10_000).joined(separator: " ")
  measure("`sqrt` × 10,000, a use per 2 bytes", fill("2 : w \(roots) ;\n", line: uses("w"), bytes: 100_000))
  // 30 levels, each using the one before ten times: level 5 and above are refused when defined.
  var levels = [": w0 sqrt ;"]
  for level in 1...30 {
    levels.append(": w\(level) " + Array(repeating: "w\(level - 1)", count: 10).joined(separator: " ") + " ;")
  }
  let ladder = "2 " + levels.joined(separator: "\n") + "\n"
  measure("30 levels × 10 uses each, uses of level 30 (refused)", fill(ladder, line: uses("w30"), bytes: 1_000_000))
  measure("30 levels × 10 uses each, uses of level 4 (10,000 steps)", fill(ladder, line: uses("w4"), bytes: 100_000))
  // One line: nested uses, each level using the one before twice, within the limit.
  let chain = (1...12).map { ": c\($0) c\($0 - 1) c\($0 - 1) ;" }.joined(separator: " ")
  var line = ": c0 1 + ; 0 " + chain
  while line.utf8.count < 100_000 { line += " c12" }
  measure("one line: 12 nested levels (4,096 steps), a use per 4 bytes", line)
}

// The sections section: a tape of 1,000 headings beside the plain block tape, and the outline requests.

import Foundation
import JSONRPC
import RPNEngine

/// The block tape with a heading every `lines / sections` lines (in place of a block's comment)
/// and `subtotal` in every block (in place of `part max`, adding up the block's values). Blocks
/// still end with `clear`, so edits stay local and every heading's base is 0; a section's summary
/// is read at its last line, a `clear`, so it is empty: a tape that kept each section's sum on the
/// stack would make every edit reach the end, as the running tape does.
func sectionsTape(lines: Int, sections: Int = 1_000) -> String {
  let every = max(10, lines / sections / 10 * 10)
  var text = ""
  for (index, line) in blockTape(lines: lines).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    if index == lines { break }
    if index % every == 0 {
      text += "## Section \(index / every)\n"
    } else if line == "part max" {
      text += "subtotal\n"
    } else {
      text += line + "\n"
    }
  }
  return text
}

/// The sections tape and the plain block tape, open in one server, side by side: keystrokes,
/// the viewport's inlay hints (a heading's hint carries its summary), then the requests that read
/// the whole outline: code lenses, folding ranges, document symbols.
func runSectionsComparison(binary: String, sizes: [Int], runs: Int) {
  print("\nSections: the block tape, and the same with 1,000 headings and subtotals (median of \(runs))")
  let widths = [56, 12, 12, 10]
  row(["measure", "plain", "sections", "target"], widths: widths)
  guard let client = startServer(binary) else { return }
  defer { client.close() }
  for size in sizes {
    let texts = [blockTape(lines: size), sectionsTape(lines: size)]
    let documents = texts.map(makeDocument)
    let uris = ["file:///bench/plain-\(size).rpn", "file:///bench/sections-\(size).rpn"]
    for (uri, text) in zip(uris, texts) { client.open(uri, text) }
    var versions = [1, 1]
    for (place, line) in [("start", 1), ("middle", size / 2 + 1), ("end", size - 8)] {
      let times = uris.indices.map { index in
        // The nearest line below that starts with a digit (a heading or `subtotal` may be there).
        var target = line
        while target < size - 1, documents[index].text(ofLine: target).first?.isNumber != true { target += 1 }
        let first = documents[index].text(ofLine: target).first ?? "1"
        return client.keystrokeMedian(
          uri: uris[index], line: target, first: first, version: &versions[index], runs: runs)
      }
      row(
        [
          "keystroke → diagnostics, \(size) lines, \(place)", duration(times[0]), duration(times[1]),
          keystrokeTarget(size),
        ],
        widths: widths)
    }
    let hints = uris.map { client.inlayHintsMedian(uri: $0, lines: size / 2..<size / 2 + 100, runs: runs) }
    row(
      ["inlay hints, 100-line viewport, \(size) lines", duration(hints[0]), duration(hints[1]), "≤ 0.5 ms"],
      widths: widths)
    let whole: [(String, String, String)] = [
      ("code lenses, whole document", "textDocument/codeLens", "≤ 10 ms"),
      ("folding ranges", "textDocument/foldingRange", "≤ 20 ms"),
      ("document symbols", "textDocument/documentSymbol", "≤ 20 ms"),
    ]
    for (name, method, target) in whole {
      let times = uris.map { client.requestMedian(method, ["textDocument": ["uri": .string($0)]], runs: runs) }
      row(["\(name), \(size) lines", duration(times[0]), duration(times[1]), target], widths: widths)
    }
    for uri in uris { client.closeDocument(uri) }
  }
}

// `textDocument/foldingRange`: each section from its heading to its last line, and each run of comment lines.

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// `textDocument/foldingRange`: each section of two lines or more, from its heading to its last
  /// line (kind `region`), and each run of three or more comment-only lines (kind `comment`),
  /// ordered by their first line. Whole lines only: no range has characters, which is all that a
  /// client with `lineFoldingOnly` takes.
  func foldingRanges(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let document = try openDocument(params).open.document
    let headings = document.headingLines()
    let runs = document.commentRuns(minimum: 3)
    var ranges: [FoldingRange] = []
    ranges.reserveCapacity(headings.count + runs.count)
    func fold(_ lines: ClosedRange<Int>, _ kind: FoldingRangeKind) {
      ranges.append(FoldingRange(startLine: lines.lowerBound, endLine: lines.upperBound, kind: kind))
    }
    // Both lists go down the document, and no run starts on a heading: merge them.
    var r = 0
    for (k, heading) in headings.enumerated() {
      while r < runs.count, runs[r].lowerBound < heading {
        fold(runs[r], .comment)
        r += 1
      }
      let end = k + 1 < headings.count ? headings[k + 1] - 1 : document.lineCount - 1
      let lastLine = document.lastLine(ofSectionAt: heading, through: end)
      if lastLine > heading { fold(heading...lastLine, .region) }
    }
    for run in runs[r...] { fold(run, .comment) }
    return JSONValue(encoding: ranges, capacity: 64 * ranges.count)
  }
}

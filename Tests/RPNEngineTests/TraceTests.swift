import Testing

@testable import RPNEngine

@Suite struct TraceTests {
  /// `trace(near:)` keeps exactly the tokens at the cursor, the stores before it and the last
  /// token before it, with the same pictures as the full trace.
  @Test func nearTraceIsTheMatchingSubsetOfTheFullTrace() throws {
    let text = "1 2 =a + 3 # c\n=b b dup drop   x 4+ 5 =c 6\n\n  sum"
    let document = try Document(text: text)
    for line in 0..<document.lineCount {
      let full = document.trace(line: line)
      let length = document.text(ofLine: line).utf8.count
      for offset in 0...length + 1 {
        let lastBefore = full.last { $0.token.range.upperBound < offset && $0.token.kind != .store }
        let expected = full.filter { trace in
          trace.token.range.lowerBound <= offset
            && (trace.token.range.upperBound >= offset || trace.token.kind == .store || trace == lastBefore)
        }
        #expect(document.trace(line: line, near: offset) == expected, "line \(line), offset \(offset)")
      }
    }
  }

  @Test func aMillionTokenLineIsTracedNearTheCursorOnly() throws {
    let document = try Document(text: String(repeating: "1 ", count: 1_000_000) + "+")
    #expect(document.stack(afterLine: 0, keepingTop: 1) == StackPicture(depth: 999_999, top: [2]))
    let atEnd = document.trace(line: 0, keepingTop: 3, near: 2_000_001)
    #expect(atEnd.map(\.token.range) == [1_999_998..<1_999_999, 2_000_000..<2_000_001])
    #expect(atEnd.last?.before == StackPicture(depth: 1_000_000, top: [1, 1, 1]))
    #expect(atEnd.last?.after == StackPicture(depth: 999_999, top: [1, 1, 2]))
    let atStart = document.trace(line: 0, near: 0)
    #expect(atStart.map(\.token.range) == [0..<1])
  }
}

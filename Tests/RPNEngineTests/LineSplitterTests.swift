import TestSupport
import Testing

@testable import RPNEngine

/// Line counting (32 bytes at a time) and splitting (`memchr`) against a byte-by-byte reading of
/// the same rule: `\n`, `\r\n` and `\r` end a line, nothing else does.
@Suite struct LineSplitterTests {
  /// Each line's start, length and terminator, read one byte at a time.
  private static func referenceLines(_ text: [UInt8]) -> [[Int]] {
    var lines: [[Int]] = []
    var start = 0
    var i = 0
    while i < text.count {
      if text[i] == 0x0A || text[i] == 0x0D {
        let terminator: LineTerminator =
          text[i] == 0x0A ? .lf : (i + 1 < text.count && text[i + 1] == 0x0A ? .crlf : .cr)
        lines.append([start, i - start, Int(terminator.rawValue)])
        i += terminator == .crlf ? 2 : 1
        start = i
      } else {
        i += 1
      }
    }
    lines.append([start, text.count - start, Int(LineTerminator.none.rawValue)])
    return lines
  }

  /// Random texts of every length up to a few thousand bytes (past the 63 turns after which the
  /// counter sums its lanes), dense or sparse in line breaks, with and without `\r`.
  @Test func countAndSplitAgreeWithReadingByteByByte() {
    var random = SplitMix64(seed: 13)
    let pieces: [[UInt8]] = [[0x61], [0x20], [0x0A], [0x0D], [0x0D, 0x0A], [0x0C], [0xE2, 0x80, 0xA8], [0x0B]]
    var mismatches: [String] = []
    for round in 0..<5_000 {
      let length = random.next(below: 3) == 0 ? random.next(below: 5_000) : random.next(below: 80)
      let breaks = random.next(below: 4)  // 0: no \n at all; 3: mostly line breaks
      let noCR = random.next(below: 2) == 0
      var text: [UInt8] = []
      while text.count < length {
        var piece = pieces[random.next(below: pieces.count)]
        if piece.contains(0x0A) && random.next(below: 4) >= breaks { piece = [0x61] }
        if noCR && piece.contains(0x0D) { piece = [0x0A] }
        text += piece
      }
      if round == 0 { text = [UInt8](repeating: 0x0A, count: 20_000) }
      let expected = Self.referenceLines(text)
      var lines: [[Int]] = []
      let count = text.withUnsafeBufferPointer { bytes in
        LineSplitter.split(bytes, base: 0) { lines.append([Int($0), Int($1), Int($2.rawValue)]) }
        return LineSplitter.countLines(bytes)
      }
      if (lines != expected || count != expected.count) && mismatches.count < 5 {
        mismatches.append("round \(round), \(text.count) bytes: \(count) lines counted, \(expected.count) expected")
      }
    }
    #expect(mismatches == [])
  }
}

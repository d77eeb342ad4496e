import JSONRPC
import TestSupport
import Testing

@Suite struct MarkedTests {
  @Test func aMarkerIsTakenOutAndPlaced() {
    let source = Marked("3 4 1️⃣+")
    #expect(source.text == "3 4 +")
    #expect(source.place(1) == Marked.Place(line: 0, utf8: 4, utf16: 4))
    #expect(source.utf8(1) == position(0, 4))
    #expect(source.utf16(1) == position(0, 4))
  }

  /// Columns count what comes before the marker on its line: 😀 is 4 bytes and 2 UTF-16 units,
  /// `×` 2 bytes and 1 unit, `−` 3 bytes and 1 unit.
  @Test func columnsCountEachEncodingsUnits() {
    let source = Marked("😀 1️⃣× 2️⃣− 3️⃣x")
    #expect(source.text == "😀 × − x")
    #expect(
      source.places == [
        1: Marked.Place(line: 0, utf8: 5, utf16: 3), 2: Marked.Place(line: 0, utf8: 8, utf16: 5),
        3: Marked.Place(line: 0, utf8: 12, utf16: 7),
      ])
    #expect(source.at(2, "utf-8") == position(0, 8))
    #expect(source.at(2, "utf-16") == position(0, 5))
    #expect(source.range(1, 3, "utf-8") == range(0, 5, 0, 12))
    #expect(source.range(1, 3, "utf-16") == range(0, 3, 0, 7))
  }

  /// Every kind of line break starts a new line at column 0; `\r\n` is one break.
  @Test func linesEndAtEachKindOfBreak() {
    let source = Marked("1️⃣a\n2️⃣b\r\n😀3️⃣\r4️⃣\r\r5️⃣é6️⃣\r7️⃣")
    #expect(source.text == "a\nb\r\n😀\r\r\ré\r")
    #expect(
      source.places == [
        1: Marked.Place(line: 0, utf8: 0, utf16: 0), 2: Marked.Place(line: 1, utf8: 0, utf16: 0),
        3: Marked.Place(line: 2, utf8: 4, utf16: 2), 4: Marked.Place(line: 3, utf8: 0, utf16: 0),
        5: Marked.Place(line: 5, utf8: 0, utf16: 0), 6: Marked.Place(line: 5, utf8: 2, utf16: 1),
        7: Marked.Place(line: 6, utf8: 0, utf16: 0),
      ])
  }

  /// Markers in any order, all nine, next to digits; the other keycaps and lone digits stay text.
  @Test func allNineMarkersInAnyOrderBesideDigits() {
    let source = Marked("9️⃣1 41️⃣+ 5️⃣2️⃣ 3️⃣7️⃣8️⃣#️⃣ 6️⃣0\u{20E3} 4️⃣")
    #expect(source.text == "1 4+  #️⃣ 0\u{20E3} ")
    #expect(source.places.keys.sorted() == Array(1...9))
    #expect(source.place(9) == Marked.Place(line: 0, utf8: 0, utf16: 0))
    #expect(source.place(1) == Marked.Place(line: 0, utf8: 3, utf16: 3))
    #expect(source.place(5) == Marked.Place(line: 0, utf8: 5, utf16: 5))
    #expect(source.place(2) == source.place(5))
    #expect(source.place(8) == Marked.Place(line: 0, utf8: 6, utf16: 6))
    #expect(source.place(6) == Marked.Place(line: 0, utf8: 14, utf16: 10))
    #expect(source.place(4) == Marked.Place(line: 0, utf8: 19, utf16: 13))
  }

  @Test func aTextWithoutMarkersStaysAsItIs() {
    let text = "1 2 +\r\n# 😀 note\n"
    #expect(Marked(text).text == text)
    #expect(Marked(text).places.isEmpty)
  }

  @Test func aMissingMarkerIsAnIssue() {
    withKnownIssue {
      #expect(Marked("1 2").utf16(3) == position(0, 0))
    }
  }

  @Test func aRepeatedMarkerIsAnIssue() {
    withKnownIssue {
      _ = Marked("1️⃣1 1️⃣2")
    }
  }
}

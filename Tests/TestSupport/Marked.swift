import JSONRPC
import Testing

/// Source text with cursor markers `1️⃣` … `9️⃣` taken out, and where each marker was, in UTF-8
/// bytes and in UTF-16 code units (the two position encodings' columns), so that a test marks a
/// position where it is instead of counting columns by hand:
///
///     let source = Marked("😀 3 4 1️⃣+")
///     source.text       // "😀 3 4 +"
///     source.utf8(1)    // {"line": 0, "character": 9}
///     source.utf16(1)   // {"line": 0, "character": 7}
///
/// A marker is a keycap: a digit, U+FE0F, U+20E3. Lines end at `\n`, `\r\n` or `\r`, as in LSP.
/// Markers may come in any order; each may appear once.
package struct Marked {
  /// Where a marker was: its line, and its column in each encoding.
  package struct Place: Equatable, CustomStringConvertible {
    package var line: Int
    package var utf8: Int
    package var utf16: Int

    package init(line: Int, utf8: Int, utf16: Int) {
      self.line = line
      self.utf8 = utf8
      self.utf16 = utf16
    }

    package var description: String { "\(line):\(utf8)/\(utf16)" }
  }

  /// The text without its markers.
  package private(set) var text: String
  /// Each marker's place, by its digit.
  package private(set) var places: [Int: Place] = [:]

  package init(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let scalars = Array(source.unicodeScalars)
    var text = String.UnicodeScalarView()
    var place = Place(line: 0, utf8: 0, utf16: 0)
    var i = 0
    while i < scalars.count {
      let scalar = scalars[i]
      if i + 2 < scalars.count, ("1"..."9").contains(scalar), scalars[i + 1] == "\u{FE0F}", scalars[i + 2] == "\u{20E3}"
      {
        let digit = Int(scalar.value - 0x30)
        if places[digit] != nil {
          Issue.record("marker \(digit) appears twice in \(source.debugDescription)", sourceLocation: sourceLocation)
        }
        places[digit] = place
        i += 3
        continue
      }
      if scalar == "\r" || (scalar == "\n" && text.last != "\r") {
        place = Place(line: place.line + 1, utf8: 0, utf16: 0)
      } else if scalar != "\n" {
        place.utf8 += scalar.utf8.count
        place.utf16 += scalar.utf16.count
      }
      text.append(scalar)
      i += 1
    }
    self.text = String(text)
  }

  /// Marker `n`'s place; a missing marker is an issue (and line 0, column 0).
  package func place(_ n: Int, sourceLocation: SourceLocation = #_sourceLocation) -> Place {
    guard let found = places[n] else {
      Issue.record("no marker \(n) in \(text.debugDescription)", sourceLocation: sourceLocation)
      return Place(line: 0, utf8: 0, utf16: 0)
    }
    return found
  }

  /// Marker `n`'s position in UTF-16 code units.
  package func utf16(_ n: Int, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
    let found = place(n, sourceLocation: sourceLocation)
    return position(found.line, found.utf16)
  }

  /// Marker `n`'s position in UTF-8 bytes.
  package func utf8(_ n: Int, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
    let found = place(n, sourceLocation: sourceLocation)
    return position(found.line, found.utf8)
  }

  /// Marker `n`'s position in the given encoding ("utf-8" or "utf-16").
  package func at(_ n: Int, _ encoding: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
    encoding == "utf-8" ? utf8(n, sourceLocation: sourceLocation) : utf16(n, sourceLocation: sourceLocation)
  }

  /// The range from marker `start` to marker `end`, in the given encoding.
  package func range(
    _ start: Int, _ end: Int, _ encoding: String, sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONValue {
    [
      "start": at(start, encoding, sourceLocation: sourceLocation),
      "end": at(end, encoding, sourceLocation: sourceLocation),
    ]
  }
}

// Text from a tape made safe to show in a terminal or an editor's message line.

/// Tape text shown to people: control characters escaped, so that a tape cannot move a
/// terminal's cursor, recolour it or retitle its window through `eval`, `check` or a message,
/// and the characters that reorder text escaped, so that it cannot make a message read
/// otherwise than it is written.
package enum ControlCharacters {
  /// `text` with every control character but the tab written as `\xNN`: C0 (`\x1b`), DEL
  /// (`\x7f`) and C1 (`\x9b`). The tab moves the cursor only to the next tab stop, and tapes use
  /// it to lay out columns. The Unicode format characters that set the direction of text are
  /// written as `\u{NNNN}` (`\u{202e}`): the embeddings and overrides U+202A–U+202E, the isolates
  /// U+2066–U+2069 and the marks U+200E, U+200F and U+061C: shown raw, a U+202E in a word would
  /// show the rest of its message, or of the terminal's line, reversed.
  package static func escaped(_ text: String) -> String {
    guard needsEscapes(text) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      let v = scalar.value
      if v != 0x09 && (v < 0x20 || (v >= 0x7F && v < 0xA0)) {
        result += "\\x"
        if v < 0x10 { result += "0" }
        result += String(v, radix: 16)
      } else if isDirectional(v) {
        result += "\\u{" + String(v, radix: 16) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Whether a scalar is one of the format characters that set the direction of text.
  private static func isDirectional(_ v: UInt32) -> Bool {
    (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C
  }

  /// Whether `text` holds anything `escaped` writes otherwise, read from its UTF-8 at the cost
  /// of a comparison a byte for plain text: messages are escaped whole, most need nothing, and
  /// the lead bytes alone (0xE2 leads `—`, `’` and `…` too) would often send them the long way.
  private static func needsEscapes(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var i = 0
      let n = bytes.count
      while i < n {
        let byte = bytes[i]
        if byte < 0x20 {
          if byte != 0x09 { return true }
        } else if byte == 0x7F {
          return true
        } else if byte >= 0xC2 {
          // C1 is U+0080–U+009F: C2 80–9F; U+061C is D8 9C; U+200E, U+200F are E2 80 8E–8F,
          // U+202A–U+202E E2 80 AA–AE, U+2066–U+2069 E2 81 A6–A9.
          let second = i + 1 < n ? bytes[i + 1] : 0
          let third = i + 2 < n ? bytes[i + 2] : 0
          switch byte {
          case 0xC2 where second <= 0x9F: return true
          case 0xD8 where second == 0x9C: return true
          case 0xE2 where second == 0x80 && (0x8E...0x8F ~= third || 0xAA...0xAE ~= third): return true
          case 0xE2 where second == 0x81 && 0xA6...0xA9 ~= third: return true
          default: break
          }
        }
        i += 1
      }
      return false
    }
  }
}

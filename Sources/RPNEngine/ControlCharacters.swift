// Text from a tape made safe to show in a terminal or an editor's message line.

/// Tape text shown to people: control characters escaped, so that a tape cannot move a
/// terminal's cursor, recolour it or retitle its window through `eval`, `check` or a message.
package enum ControlCharacters {
  /// `text` with every control character but the tab written as `\xNN`: C0 (`\x1b`), DEL
  /// (`\x7f`) and C1 (`\x9b`). The tab moves the cursor only to the next tab stop, and tapes use
  /// it to lay out columns.
  package static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: { isControlByte($0) }) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      let v = scalar.value
      if v != 0x09 && (v < 0x20 || (v >= 0x7F && v < 0xA0)) {
        result += "\\x"
        if v < 0x10 { result += "0" }
        result += String(v, radix: 16)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A byte that starts or is a control character: C0 but the tab, DEL, or the lead byte 0xC2 of
  /// C1's UTF-8 (it leads U+0080–U+00BF: a hint to look closer, not a proof).
  private static func isControlByte(_ byte: UInt8) -> Bool {
    (byte < 0x20 && byte != 0x09) || byte == 0x7F || byte == 0xC2
  }
}

// Whether a tape writes integers in a radix (`0x1F`, `0o17`, `0b1010`): hover then shows its integers in the radixes.

/// Integer literals written in a radix: an optional sign, `0`, then `x`, `o` or `b`; as numbers
/// (`0x1F`) or as checks (`=0xFF`).
package enum RadixLiteral {
  /// Whether a token's bytes are a radix literal: an optional sign (`+`, `-`, U+2212 `−`), `0`,
  /// then `x`, `o` or `b` in either case (a number token whose text starts so is one).
  package static func isRadixLiteral(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = bytes.first == 0xE2 ? 3 : bytes.first == 0x2B || bytes.first == 0x2D ? 1 : 0
    return bytes.count >= start + 2 && bytes[start] == 0x30 && isRadixLetter(bytes[start + 1])
  }

  @inline(__always)
  static func isRadixLetter(_ byte: UInt8) -> Bool {
    let lower = byte | 0x20
    return lower == 0x78 || lower == 0x6F || lower == 0x62
  }

  /// Whether a line's tokens (its bytes up to its last token's end) hold a radix literal, a number
  /// or a check. Only a line where a token starts with `0x`, `0o` or `0b` (after `=` or a sign, or
  /// both) is lexed.
  static func lineHasOne(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    while i + 1 < bytes.count {
      if bytes[i] == 0x30, isRadixLetter(bytes[i + 1]), startsToken(bytes, i) { break }
      i += 1
    }
    guard i + 1 < bytes.count else { return false }
    return LexedLine(bytes).tokens.contains { token in
      switch token.kind {
      case .number: return isRadixLiteral(UnsafeBufferPointer(rebasing: bytes[token.range]))
      case .check: return isRadixLiteral(UnsafeBufferPointer(rebasing: bytes[token.range].dropFirst()))
      default: return false
      }
    }
  }

  /// Whether the `0` at `i` can start a number or a check's number: at the line's start or after
  /// a blank, maybe after a sign, maybe after `=`. (A byte beyond ASCII counts as a blank: the
  /// minus sign U+2212 ends in one; it only makes the lexer read a line more.)
  private static func startsToken(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
    let blank = { (k: Int) in k < 0 || bytes[k] <= 0x20 || bytes[k] >= 0x80 }
    var k = i - 1
    if k >= 0, bytes[k] == 0x2B || bytes[k] == 0x2D { k -= 1 }
    if k >= 0, bytes[k] == 0x3D { k -= 1 }
    return blank(k)
  }
}

extension Document {
  /// Whether the tape writes an integer in a radix somewhere: a number or a check (`=0xFF`), not
  /// a comment or a name. Asked on every hover of an integer: the count of such lines, which
  /// evaluation keeps (the scanner notes a radix literal on the path only such tokens take), so
  /// a hover costs the same on a tape of ten lines or a million.
  package var hasRadixLiteral: Bool { radixLiteralLines > 0 }

  /// `hasRadixLiteral` found by reading every line's tokens: what the count must agree with
  /// (the differential tests compare them after every edit).
  package var scansRadixLiteral: Bool {
    storage.withUnsafeBufferPointer { text in
      for record in lines where record.lastTokenEnd > 0 {
        let start = Int(record.start)
        // Tokens end where the hint goes: the comment after them is not read.
        let tokens = UnsafeBufferPointer(rebasing: text[start..<start + Int(record.lastTokenEnd)])
        if RadixLiteral.lineHasOne(tokens) { return true }
      }
      return false
    }
  }
}

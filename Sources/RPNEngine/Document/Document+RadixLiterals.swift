// Whether a tape writes integers in a radix (`0x1F`, `0o17`, `0b1010`): hover then shows its integers in the radixes.

/// Integer literals written in a radix: an optional sign, `0`, then `x`, `o` or `b`; as numbers
/// (`0x1F`) or as checks (`=0xFF`).
package enum RadixLiteral {
  /// Whether a token's bytes are a radix literal: an optional sign (`+`, `-`, U+2212 `−`), `0`,
  /// then `x`, `o` or `b` in either case (a number token whose text starts so is one), as
  /// `NumberLiteral` reads a literal's sign and prefix.
  package static func isRadixLiteral(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    NumberLiteral.radix(ofPrefixAt: NumberLiteral.signLength(bytes, at: 0), in: bytes) != nil
  }

  /// Whether a line's tokens (its bytes up to its last token's end) hold a radix literal, a number
  /// or a check. Only a line where a token starts with a radix prefix (after `=` or a sign, or
  /// both) is lexed.
  static func lineHasOne(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard (0..<bytes.count).contains(where: { startsRadixLiteral(bytes, $0) }) else { return false }
    return LexedLine(bytes).tokens.contains { token in
      switch token.kind {
      case .number: return isRadixLiteral(UnsafeBufferPointer(rebasing: bytes[token.range]))
      case .check: return isRadixLiteral(UnsafeBufferPointer(rebasing: bytes[token.range].dropFirst()))
      default: return false
      }
    }
  }

  /// Whether a token may start at `i` (at the line's start or after a blank; a byte beyond ASCII
  /// counts as one, as white space beyond ASCII ends in one) with a radix prefix, maybe after `=`,
  /// maybe after a sign: a cheap test that only makes the lexer read a line more than it must.
  private static func startsRadixLiteral(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
    guard i == 0 || bytes[i - 1] <= 0x20 || bytes[i - 1] >= 0x80 else { return false }
    var k = i
    if bytes[k] == 0x3D { k += 1 }
    k += NumberLiteral.signLength(bytes, at: k)
    return NumberLiteral.radix(ofPrefixAt: k, in: bytes) != nil
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

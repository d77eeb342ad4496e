// The named tapes that the speed targets and the ratchet measure: running, column, local, block.

/// A tape the targets name, written the same way on every run (seeded).
///
/// Each line's numbers are `A`, `B` and `C`: half of them (by a seeded coin) an integer 0–99,
/// half `D.D` (0–99, a point, one digit), so that a million-line running tape is 17.7 MB.
enum NamedTape: String, CaseIterable {
  /// `0`, then lines `A B + C * +`: a total that every line changes.
  case running
  /// Lines `A B + C *`: each line leaves one value, so the stack is as deep as the tape is long.
  case column
  /// Lines `A B + C * drop`: every line's work is its own.
  case local
  /// The block tape (`blockTape`): headings, eight lines of arithmetic and a store, `clear`.
  case block

  /// The tape's text, `lines` lines long.
  func text(lines: Int) -> String {
    if self == .block { return blockTape(lines: lines) }
    var generator = Generator()
    var text = ""
    text.reserveCapacity(lines * 18)
    func number() -> String {
      generator.next(2) == 0 ? "\(generator.next(100))" : "\(generator.next(100)).\(generator.next(10))"
    }
    for index in 0..<lines {
      if self == .running && index == 0 {
        text += "0\n"
        continue
      }
      text += number()
      text += " "
      text += number()
      text += " + "
      text += number()
      switch self {
      case .running: text += " * +\n"
      case .column: text += " *\n"
      case .local: text += " * drop\n"
      case .block: break
      }
    }
    return text
  }
}

extension NamedTape {
  /// A tape's lines as bytes, without their line breaks.
  static func lines(of text: String) -> [ArraySlice<UInt8>] {
    Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
  }

  /// The first line at or after `line` whose first token is an integer (digits only): where the
  /// targets and the ratchet hover and edit. The next-to-last line when none is.
  static func integerLine(in lines: [ArraySlice<UInt8>], from line: Int) -> Int {
    var line = line
    while line < lines.count - 2 {
      let token = lines[line].prefix { $0 != 0x20 }
      if !token.isEmpty, token.allSatisfy({ $0 &- 0x30 < 10 }) { return line }
      line += 1
    }
    return line
  }
}

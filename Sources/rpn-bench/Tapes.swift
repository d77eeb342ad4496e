// The named tapes that the speed targets and the ratchet measure: running, column, local, block,
// and since units of measure, units and mixed.

/// A tape the targets name, written the same way on every run (seeded).
///
/// Each line's numbers are `A`, `B` and `C`: half of them (by a seeded coin) an integer 0–99,
/// half `D.D` (0–99, a point, one digit), so that a million-line running tape is 17.7 MB (units:
/// 26.7 MB, mixed: 31.8 MB).
enum NamedTape: String, CaseIterable {
  /// `0`, then lines `A B + C * +`: a total that every line changes.
  case running
  /// Lines `A B + C *`: each line leaves one value, so the stack is as deep as the tape is long.
  case column
  /// Lines `A B + C * drop`: every line's work is its own.
  case local
  /// The block tape (`blockTape`): headings, eight lines of arithmetic and a store, `clear`.
  case block
  /// The running tape's text with every number a quantity in one unit (`0`, then
  /// `A_km B_km + C_km * +`): the same numbers, lines and operations, so that it measures what
  /// units cost a tape that converts nothing. The total is in km² (the first `0` takes the unit).
  case units
  /// A running total of lengths with a conversion on every line, in six shapes in turn: lengths
  /// converted and added, a speed times a time, temperatures (°C, °F, Δ°F, K), energy over power,
  /// an area times a length, a mass times an acceleration, `ubase` (`mixedLine`).
  case mixed
  /// A budget in two currencies: the rate `: _EUR 1.08_USD ;` first, then sections of 20 lines,
  /// `## Week N`, 18 amounts (in turn `A_EUR` and `A_USD >EUR`, converted by the rate) and
  /// `subtotal`; every fifth line has a check that passes (`budgetLine`).
  case budget

  /// The tape's text, `lines` lines long.
  func text(lines: Int) -> String {
    if self == .block { return blockTape(lines: lines) }
    if self == .budget { return budgetTape(lines: lines) }
    var generator = Generator()
    var text = ""
    text.reserveCapacity(lines * (self == .mixed ? 32 : self == .units ? 27 : 18))
    func number() -> String { Self.number(&generator) }
    if self == .mixed {
      for index in 0..<lines {
        text += index == 0 ? "0_m\n" : Self.mixedLine(index, &generator)
      }
      return text
    }
    // A unit after each number; none for the plain tapes, so that their text is as it was.
    let unit = self == .units ? "_km" : ""
    for index in 0..<lines {
      if (self == .running || self == .units) && index == 0 {
        text += "0\n"
        continue
      }
      text += number()
      text += unit
      text += " "
      text += number()
      text += unit
      text += " + "
      text += number()
      text += unit
      switch self {
      case .running, .units: text += " * +\n"
      case .column: text += " *\n"
      case .local: text += " * drop\n"
      case .block, .mixed, .budget: break
      }
    }
    return text
  }

  /// Line `index` of the mixed tape: each line converts; the lengths join the running total (in
  /// metres, so that adding a length in another unit converts too), the rest are dropped. No
  /// divisor is zero and no temperature is below absolute zero, so the tape has no diagnostic.
  private static func mixedLine(_ index: Int, _ generator: inout Generator) -> String {
    func number() -> String { Self.number(&generator) }
    return switch index % 6 {
    case 1: "\(number())_mi >km \(number())_m + >ft +\n"
    case 2: "\(number())_km/h \(number())_min * >m +\n"
    case 3: "\(number())_°C >°F \(number())_Δ°F + >K drop\n"
    case 4: "\(number())_kWh \(generator.next(90) + 10)_W / >h drop\n"
    case 5: "\(number())_ft^2 \(number())_in * >L ubase drop\n"
    default: "\(number())_lb >kg \(number())_m/s^2 * >N drop \(number())_mph ubase \(number())_s * +\n"
    }
  }

  /// The budget tape (see `budget`): its checks are the amounts as the display rounds them.
  private func budgetTape(lines: Int) -> String {
    var generator = Generator()
    var text = ": _EUR 1.08_USD ;\n"
    text.reserveCapacity(lines * 22)
    for index in 1..<max(lines, 1) {
      let place = (index - 1) % 20
      var line: String
      switch place {
      case 0: line = "## Week \((index - 1) / 20 + 1)"
      case 19: line = "subtotal"
      default:
        let written = Self.number(&generator)
        let amount = Double(written) ?? 0
        if place % 2 == 1 {
          line = "\(written)_EUR"
          if index % 5 == 0 { line += " =" + String(format: "%.2f", amount) + "_EUR" }
        } else {
          line = "\(written)_USD >EUR"
          if index % 5 == 0 { line += " =" + String(format: "%.2f", amount / 1.08) + "_EUR" }
        }
      }
      text += line
      text += "\n"
    }
    return text
  }

  /// A number as the tapes write it: by a coin, an integer 0–99 or `D.D` (0–99, a point, a digit).
  private static func number(_ generator: inout Generator) -> String {
    generator.next(2) == 0 ? "\(generator.next(100))" : "\(generator.next(100)).\(generator.next(10))"
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
      // A quantity's number counts: the token up to its unit (`12_km`).
      let token = lines[line].prefix { $0 != 0x20 && $0 != 0x5F }
      if !token.isEmpty, token.allSatisfy({ $0 &- 0x30 < 10 }) { return line }
      line += 1
    }
    return line
  }
}

import TestSupport
import Testing

@testable import RPNEngine

/// The scanner's shortcuts (plain decimals parsed while scanned, checks, one-byte tokens, builtin
/// keys read eight bytes at once) against the plain definitions they stand in for: the same
/// tokens, ranges, kinds and comment start as scanning to each token's end and classifying it
/// whole, and the same values to the bit as a correctly rounded parser, over many seeded random
/// lines of every form.
@Suite struct LexerFastPathTests {
  /// The tokens and comment start of a line as the scanner found them before it had shortcuts:
  /// skip white space, stop at `#`, scan to the token's end, classify the token's bytes alone.
  private static func referenceTokens(_ line: String) -> (tokens: [Token], commentStart: Int?) {
    var line = line
    return line.withUTF8 { bytes in
      var tokens: [Token] = []
      var i = 0
      while true {
        while i < bytes.count {
          let (value, length) = Lexer.decode(bytes, at: i)
          guard Lexer.isWhitespace(value) else { break }
          i += length
        }
        guard i < bytes.count else { return (tokens, nil) }
        if bytes[i] == 0x23 { return (tokens, i) }
        let start = i
        while i < bytes.count, bytes[i] != 0x23 {
          let (value, length) = Lexer.decode(bytes, at: i)
          if Lexer.isWhitespace(value) { break }
          i += length
        }
        let token = UnsafeBufferPointer(rebasing: bytes[start..<i])
        tokens.append(Token(range: start..<i, kind: Lexer.classify(token, builtins: BuiltinIndex.shared)))
      }
    }
  }

  /// Whether two kinds are the same, numbers as values are (so `-0` is not `0`).
  private static func same(_ a: TokenKind, _ b: TokenKind) -> Bool {
    a == b
  }

  /// `count` random digits.
  private static func digits(_ count: Int, _ random: inout SplitMix64) -> String {
    String((0..<count).map { _ in Character(String(random.next(below: 10))) })
  }

  /// A random plain decimal: a sign or none, up to 24 digits before and after an optional point
  /// (mostly short, as tapes have them), leading zeros now and then.
  private static func plainDecimal(_ random: inout SplitMix64) -> String {
    let sign = ["", "", "", "-", "+"][random.next(below: 5)]
    let long = random.next(below: 8) == 0
    let whole = digits(random.next(below: long ? 25 : 6), &random)
    let fraction = random.next(below: 3) == 0 ? "" : "." + digits(random.next(below: long ? 25 : 4), &random)
    let text = sign + whole + fraction
    return text == sign + "." || text == sign ? sign + "0" : text
  }

  /// A random token of any form the language has, or that only looks like one.
  /// Every builtin's every spelling, made once: made per token, it was most of the test's time.
  private static let spellings = Builtin.table.flatMap(\.spellings)

  private static func token(_ random: inout SplitMix64) -> String {
    switch random.next(below: 18) {
    case 0, 1, 2: return plainDecimal(&random)
    case 3:
      return plainDecimal(&random) + ["e", "E"][random.next(below: 2)] + ["", "-", "+"][random.next(below: 3)]
        + digits(random.next(below: 4), &random)
    case 4:
      let number = plainDecimal(&random)
      return ["−", "1_", "_"].randomElement(using: &random)! + number.drop { $0 == "-" || $0 == "+" }
    case 5:
      let groups = (0..<random.next(below: 4)).map { _ in digits(random.next(below: 8) == 0 ? 2 : 3, &random) }
      return ([digits(1 + random.next(below: 4), &random)] + groups).joined(separator: ",")
        + (random.next(below: 2) == 0 ? "" : "." + digits(random.next(below: 3), &random))
    case 6:
      let prefix = ["0x", "0X", "0o", "0b", "-0x", "−0b"].randomElement(using: &random)!
      let alphabet = Array("0123456789abcdefABCDEFgz_.")
      return prefix + String((0..<random.next(below: 18)).map { _ in alphabet.randomElement(using: &random)! })
    case 7: return "=" + plainDecimal(&random) + (random.next(below: 4) == 0 ? "e3" : "")
    case 8: return "=" + ["x", "total", "π", "", "1a", "dup", "Pi", "_9"].randomElement(using: &random)!
    case 9, 10:
      let spelling = spellings.randomElement(using: &random)!
      return String(spelling.map { random.next(below: 2) == 0 ? Character($0.uppercased()) : $0 })
    case 11:
      return ["x", "total", "café", "Δx", "_", "a1", "subtotals", "ABCDEFGH", "abcdefg", "SubTotal"].randomElement(
        using: &random)!
    case 12:
      return [":", ";", ".", ",", "=", "!", "\"", "$", "@", "[", "`", "{", "\u{7F}", "\u{01}"].randomElement(
        using: &random)!
    case 13:
      let alphabet = Array("0123456789.,_+-eE=xX:;$@[`{|~")
      return String((0..<(1 + random.next(below: 10))).map { _ in alphabet.randomElement(using: &random)! })
    case 14:
      return digits(1 + random.next(below: 4), &random) + ["+", "x", "é", "$", "\u{01}", "\""].randomElement(
        using: &random)!
    case 16, 17:
      // Quantities, good and bad: the scanner's fast path takes some, `classify` the rest.
      let unit = ["km", "m/s^2", "°C", "kWh", "", "_km", "1/s", "km/", "kmh", "m²", "9", "Δ°C", "J/(kg*K)", "e3"]
        .randomElement(using: &random)!
      return (random.next(below: 4) == 0 ? "=" : "") + plainDecimal(&random) + "_" + unit
    default: return spellings.randomElement(using: &random)! + ["", "2", "x"].randomElement(using: &random)!
    }
  }

  /// Random lines of random tokens, parted by every kind of white space, some with a comment,
  /// tokenized by the scanner and by the reference: 200,000 tokens, not one may differ.
  @Test func scannerAgreesWithClassifyingWholeTokens() {
    var random = SplitMix64(seed: 2026)
    let separators = [" ", " ", " ", "  ", "\t", "\u{0B}", "\u{0C}", "\u{A0}", "\u{2003}", "\u{3000}", "\u{85}"]
    var mismatches: [String] = []
    var tokens = 0
    while tokens < 200_000 {
      var line = random.next(below: 4) == 0 ? separators.randomElement(using: &random)! : ""
      for k in 0..<(1 + random.next(below: 8)) {
        if k > 0 { line += separators.randomElement(using: &random)! }
        line += Self.token(&random)
        tokens += 1
      }
      switch random.next(below: 6) {
      case 0: line += "#" + Self.token(&random)
      case 1: line += " # note"
      case 2: line += separators.randomElement(using: &random)!
      default: break
      }
      let got = Lexer.tokens(of: line)
      let expected = Self.referenceTokens(line)
      let agrees =
        got.commentStart == expected.commentStart && got.tokens.count == expected.tokens.count
        && zip(got.tokens, expected.tokens).allSatisfy { $0.range == $1.range && Self.same($0.kind, $1.kind) }
      if !agrees && mismatches.count < 10 { mismatches.append("\(line.debugDescription): \(got) vs \(expected)") }
    }
    #expect(mismatches == [])
  }

  /// Plain decimals, parsed while scanned, have exactly the value `Double(String)` gives, and
  /// the value the full parser gives: 200,000 literals, mostly short, many too long for the fast
  /// path, at every place of a line (so that the 8-byte loads at the literal and at the line's
  /// end are both taken, and the byte loop for lines shorter than eight bytes); those before a
  /// quantity's `_` likewise, found as numbers before a unit, and never as numbers.
  @Test func plainDecimalsAreCorrectlyRounded() {
    var random = SplitMix64(seed: 53)
    var mismatches: [String] = []
    var fast = 0
    var beforeUnit = 0
    for _ in 0..<200_000 {
      let text = Self.plainDecimal(&random)
      let before = ["", "", "x ", "12 ", "dup\t", "a b c d e f "].randomElement(using: &random)!
      let after = ["", "", " ", " +", "\t*", "#c", " 1 2 3 4 5 6 7", "_km", "_m/s^2 +", "_°C"].randomElement(
        using: &random)!
      var bytes = Array((before + text + after).utf8)
      let start = before.utf8.count
      let scan = bytes.withUnsafeMutableBufferPointer {
        NumberLiteral.plainDecimal(UnsafeBufferPointer($0), from: start)
      }
      let value: Double
      let end: Int
      switch scan {
      case .other: continue
      case .number(let number, let ended):
        (value, end) = (number, ended)
        if after.hasPrefix("_") { mismatches.append("\(before + text + after): a number, not before a unit") }
      case .beforeUnit(let number, let underscore):
        (value, end) = (number, underscore)
        beforeUnit += 1
        if !after.hasPrefix("_") { mismatches.append("\(before + text + after): before a unit") }
      }
      fast += 1
      let expected = Double(text.hasPrefix("+") ? String(text.dropFirst()) : text)
      let parsed = NumberLiteral.parse(text)
      if end != start + text.utf8.count || value.bitPattern != expected?.bitPattern || parsed != .value(value) {
        if mismatches.count < 10 {
          mismatches.append("\(before + text + after): \(value) vs \(String(describing: expected))")
        }
      }
    }
    #expect(mismatches == [])
    #expect(fast > 150_000)
    #expect(beforeUnit > 40_000)
  }

  /// The builtin key read from the line eight bytes at once is the key made byte by byte, for
  /// every place of a token in a line (start, middle, end; lines shorter than eight bytes).
  @Test func wordKeysAgreeWithByteKeys() {
    var random = SplitMix64(seed: 8)
    let alphabet: [UInt8] = Array("azAZ@[`{_09+*%^".utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xA9, 0xE2, 0xFF]
    var mismatches: [String] = []
    for _ in 0..<200_000 {
      let line = (0..<(1 + random.next(below: 14))).map { _ in alphabet.randomElement(using: &random)! }
      let start = random.next(below: line.count)
      let end = start + 1 + random.next(below: line.count - start)
      line.withUnsafeBufferPointer { bytes in
        let word = Builtin.packedKey(bytes, start..<end)
        let byByte = Builtin.packedKey(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        if word != byByte && mismatches.count < 10 { mismatches.append("\(line) \(start)..<\(end)") }
      }
    }
    #expect(mismatches == [])
  }
}

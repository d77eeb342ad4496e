import Testing

@testable import RPNEngine

/// The kinds of a line's tokens.
private func kinds(_ line: String) -> [TokenKind] {
  Lexer.tokens(of: line).tokens.map(\.kind)
}

/// The ranges of a line's tokens, in UTF-8 offsets.
private func ranges(_ line: String) -> [Range<Int>] {
  Lexer.tokens(of: line).tokens.map(\.range)
}

private func builtin(_ name: String) -> Builtin.ID {
  Builtin.ID(Builtin.table.firstIndex { $0.name == name }!)
}

/// The value of a token that must be a single number.
private func number(_ text: String) -> Double? {
  guard case .number(let value)? = kinds(text).first, kinds(text).count == 1 else { return nil }
  return value.number
}

/// A long literal: `0.` then 399 zeros then `1e400`, which is exactly 1.
private let longFraction = "0." + String(repeating: "0", count: 399) + "1e400"
/// `1` then 400 zeros then `e-400`, which is exactly 1.
private let longInteger = "1" + String(repeating: "0", count: 400) + "e-400"

@Suite struct LexerTests {
  // MARK: Numbers (the README's token rules, check 1)

  @Test(arguments: [
    ("12", 12.0), ("12.5", 12.5), (".5", 0.5), ("12.", 12), ("-3", -3), ("+3", 3), ("−3", -3),
    ("1e3", 1000), ("2.5E-4", 2.5e-4), ("1E+2", 100), ("1_000_000", 1_000_000), ("0.000_1", 0.0001),
    ("-.5", -0.5), ("+.5", 0.5), ("5.e1", 50), (".5e1", 5), ("0012", 12), ("1_2.3_4", 12.34),
    ("−1_000.5", -1000.5), ("-2.5e+2", -250), ("0e999", 0), ("1e308", 1e308), ("1e22", 1e22), ("1e23", 1e23),
  ])
  func parsesNumberSyntax(_ text: String, _ value: Double) {
    #expect(number(text)?.bitPattern == value.bitPattern, "\(text)")
    #expect(NumberLiteral.parse(text) == .value(value), "\(text)")
  }

  /// Literals are rounded once, correctly, whatever their length.
  @Test(
    arguments: [
      ("0.1", 0.1),
      ("0.30000000000000004", 0.30000000000000004),
      ("9007199254740993", 9_007_199_254_740_992),
      ("9007199254740995", 9_007_199_254_740_996),
      ("9_007_199_254_740_993", 9_007_199_254_740_992),
      ("9007199254740993.0000000001", 9_007_199_254_740_994),
      ("123456789012345678", 123_456_789_012_345_680),
      ("123456789012345678901234567890", 1.2345678901234568e29),
      ("1.00000000000000011102230246251565404236316680908203125", 1),
      ("1.00000000000000011102230246251565404236316680908203126", 1.0000000000000002),
      ("1.7976931348623157e308", Double.greatestFiniteMagnitude),
      ("1.7976931348623158e308", Double.greatestFiniteMagnitude),
      ("2.2250738585072014e-308", Double.leastNormalMagnitude),
      ("2.2250738585072011e-308", Double.leastNormalMagnitude.nextDown),
      ("1e-320", Double(bitPattern: 0x07E8)),
      ("4.9e-324", Double.leastNonzeroMagnitude),
      ("3e-324", Double.leastNonzeroMagnitude),
      ("2e-324", 0),
      ("1e-999", 0),
      ("0.000_000_000_000_000_000_000_1", 1e-22),
      (longFraction, 1),
      (longInteger, 1),
    ] as [(String, Double)])
  func roundsLiteralsCorrectly(_ text: String, _ value: Double) {
    #expect(number(text)?.bitPattern == value.bitPattern, "\(text.prefix(40))")
  }

  @Test func subnormalLiteralsStaySubnormal() throws {
    let value = try #require(number("1e-310"))
    #expect(value.isSubnormal)
    #expect(value.bitPattern == 0x1268_8B70_E62B)
  }

  @Test(arguments: [
    "1e999", "-1e999", "−1e999", "1e400", "1.7976931348623159e308", "1" + String(repeating: "0", count: 309),
  ])
  func outOfRangeIsAnInvalidNumber(_ text: String) {
    #expect(kinds(text) == [.invalidNumber(.outOfRange)])
    #expect(NumberLiteral.parse(text) == .outOfRange)
  }

  @Test(arguments: [
    ("1._5", TokenKind.unknown),
    ("1e", .unknown), ("1E", .unknown), ("1e+", .unknown), ("1e_3", .unknown), ("1e1_0", .unknown),
    ("1e3.5", .unknown), ("1e3e3", .unknown), ("1ee3", .unknown), (".", .unknown), ("..5", .unknown),
    ("-.", .unknown), ("1.2.3", .unknown), ("+-3", .unknown), ("--3", .unknown), ("1-2", .unknown),
    ("-_1", .unknown), (".e3", .unknown),
    ("１２", .unknown), ("١٢", .unknown), ("½", .unknown), ("inf", .name), ("nan", .name), ("e3", .name),
    ("-", .builtin(builtin("-"))), ("+", .builtin(builtin("+"))), ("−", .builtin(builtin("-"))),
  ])
  func rejectsWhatIsNotANumber(_ text: String, _ kind: TokenKind) {
    #expect(kinds(text) == [kind], "\(text)")
    #expect(NumberLiteral.parse(text) == .notANumber, "\(text)")
  }

  /// Every string of up to five characters over the number alphabet is classified as the
  /// grammar of the README's token rules says, with the value a correctly rounded parser gives.
  @Test func agreesWithTheGrammarOnEveryShortString() throws {
    let digits = "[0-9](?:_?[0-9])*"
    let grammar = try Regex("^[+-]?(?:\(digits)(?:\\.(?:\(digits))?)?|\\.\(digits))(?:[eE][+-]?[0-9]+)?$")
    let alphabet: [Character] = ["0", "1", "9", ".", "_", "e", "+", "-"]
    var strings = [""]
    var mismatches: [String] = []
    for _ in 1...5 {
      strings = strings.flatMap { prefix in alphabet.map { prefix + String($0) } }
      for text in strings {
        let expected: NumberLiteral.Result
        if text.wholeMatch(of: grammar) != nil {
          let value = Double(text.filter { $0 != "_" })!
          expected = value.isFinite ? .value(value) : .outOfRange
        } else {
          expected = .notANumber
        }
        let got = NumberLiteral.parse(text)
        let same: Bool
        switch (got, expected) {
        case (.value(let a), .value(let b)): same = a.bitPattern == b.bitPattern
        default: same = got == expected
        }
        if !same { mismatches.append("\(text): \(got), expected \(expected)") }
      }
    }
    #expect(mismatches == [])
  }

  // MARK: Tokens and comments

  @Test func rangesAreUTF8Offsets() {
    let (tokens, comment) = Lexer.tokens(of: "café 2 × 3 # ☕ x")
    #expect(tokens.map(\.range) == [0..<5, 6..<7, 8..<10, 11..<12])
    #expect(tokens.map(\.kind) == [.name, .number(2), .builtin(builtin("*")), .number(3)])
    #expect(comment == 13)
    #expect(ranges("\u{3000}1\u{A0}dup") == [3..<4, 6..<9])
    #expect(ranges("😀 =é √") == [0..<4, 5..<8, 9..<12])
  }

  @Test(
    arguments: [
      ("12#x", [0..<2], 2), ("  12#x", [2..<4], 4), ("=x#y", [0..<2], 2), ("# only", [], 0), ("#", [], 0),
      ("1 2 # c # d", [0..<1, 2..<3], 4), ("a#", [0..<1], 1), ("dup#dup", [0..<3], 3),
    ] as [(String, [Range<Int>], Int)])
  func commentsStartAnywhere(_ line: String, _ tokens: [Range<Int>], _ commentStart: Int) {
    let lexed = Lexer.tokens(of: line)
    #expect(lexed.tokens.map(\.range) == tokens)
    #expect(lexed.commentStart == commentStart)
  }

  @Test func noCommentNoTokens() {
    #expect(Lexer.tokens(of: "").tokens.isEmpty)
    #expect(Lexer.tokens(of: "").commentStart == nil)
    #expect(Lexer.tokens(of: " \t ").tokens.isEmpty)
    #expect(Lexer.tokens(of: " \t ").commentStart == nil)
    #expect(Lexer.tokens(of: "1 2").commentStart == nil)
    check("12#x", stack: "[12]")
    check("# 1 2 +", stack: "[]")
    check("1 2 + # 3 4", stack: "[3]")
  }

  @Test(arguments: ["4+", "1+2", "dup+", "(1)", "x,y", "1\u{200B}2", "1\u{FEFF}2", "1\u{180E}2", "1\u{2060}2"])
  func onlyWhitespaceSplitsTokens(_ text: String) {
    #expect(ranges(text) == [0..<text.utf8.count])
    #expect(kinds(text) == [.unknown])
  }

  // MARK: Whitespace

  @Test func whitespaceIsTheUnicodeWhiteSpaceProperty() {
    var mismatches: [UInt32] = []
    for value in UInt32(0)...0x10FFFF where value != 0x0A && value != 0x0D {
      guard let scalar = Unicode.Scalar(value) else { continue }
      if Lexer.isWhitespace(value) != scalar.properties.isWhitespace { mismatches.append(value) }
    }
    #expect(mismatches == [])
  }

  /// The tokenizer splits `1?2` in two exactly when `?` is White_Space (`#` starts a comment).
  @Test func tokensSplitExactlyAtWhiteSpace() {
    var mismatches: [UInt32] = []
    for value in UInt32(0)...0x10FFFF where value != 0x0A && value != 0x0D && value != 0x23 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let count = Lexer.tokens(of: "1\(scalar)2").tokens.count
      if count != (scalar.properties.isWhitespace ? 2 : 1) { mismatches.append(value) }
    }
    #expect(mismatches == [])
  }

  /// Every White_Space scalar but `\n` and `\r` separates tokens and keeps the line whole.
  @Test(
    arguments: (UInt32(0)...0x10FFFF).compactMap(Unicode.Scalar.init).filter {
      $0.properties.isWhitespace && $0 != "\n" && $0 != "\r"
    })
  func everySeparatorSplitsTokens(_ separator: Unicode.Scalar) throws {
    let s = String(separator)
    let width = s.utf8.count
    #expect(ranges("1\(s)2") == [0..<1, (1 + width)..<(2 + width)])
    #expect(ranges("\(s)dup\(s)\(s)") == [width..<(width + 3)])
    let document = try Document(text: "1\(s)2\(s)+")
    #expect(document.lineCount == 1)
    #expect(document.stack(afterLine: 0).label() == "[3]")
  }

  // MARK: Names (the README's token rules, checks 2 and 3)

  @Test(arguments: [
    ("café", TokenKind.name), ("=café", .store), ("π2", .name), ("=π2", .store), ("=日本", .store),
    ("=ǅx", .store), ("=ʰ", .store), ("=_", .invalidStore(.malformed)), ("=_1", .invalidStore(.malformed)),
    ("=_x", .invalidStore(.underscore)), ("=x1_y", .store), ("=Å", .store),
    ("=\u{212B}", .store), ("=\u{1100}\u{1161}", .store), ("π", .builtin(builtin("pi"))),
    ("=π", .invalidStore(.reserved(builtin("pi")))), ("=PI", .invalidStore(.reserved(builtin("pi")))),
    ("=e", .invalidStore(.reserved(builtin("e")))), ("=Dup", .invalidStore(.reserved(builtin("dup")))),
    ("=×", .invalidStore(.malformed)), ("=", .invalidStore(.missing)), ("=1x", .invalidStore(.malformed)),
    ("=x²", .invalidStore(.malformed)), ("=x١", .invalidStore(.malformed)), ("=e\u{301}", .invalidStore(.malformed)),
    ("=a-b", .invalidStore(.malformed)), ("=x=", .invalidStore(.malformed)), ("==", .invalidStore(.malformed)),
    ("x.y", .unknown), ("x-1", .unknown), ("Ⅻ", .unknown), ("e\u{301}", .unknown), ("Π", .name),
  ])
  func classifiesNames(_ text: String, _ kind: TokenKind) {
    #expect(kinds(text) == [kind], "\(text)")
  }

  @Test func storeBeforeAComment() {
    let lexed = Lexer.tokens(of: "=#x")
    #expect(lexed.tokens == [Token(range: 0..<1, kind: .invalidStore(.missing))])
    #expect(lexed.commentStart == 1)
  }

  // MARK: Lines

  @Test func crCRLFAndLFEndLines() throws {
    let document = try Document(text: "1\r2\r\n3\n4")
    #expect(document.lineCount == 4)
    #expect((0..<4).map(document.terminator(ofLine:)) == [.cr, .crlf, .lf, .none])
    #expect((0..<4).map(document.text(ofLine:)) == ["1", "2", "3", "4"])
    check("1\r2\r\n3\n4", stack: "[1 2 3 4]")
  }

  @Test(arguments: [
    ("", 1), ("1", 1), ("1\n", 2), ("1\r\n", 2), ("1\r", 2), ("\r\r", 3), ("\n\r", 3), ("\r\n\r\n", 3),
    ("\n\r\n\r", 4),
  ])
  func countsLines(_ text: String, _ count: Int) throws {
    #expect(try Document(text: text).lineCount == count)
  }

  @Test func otherSeparatorsDoNotEndLines() throws {
    let document = try Document(text: "1\u{2028}2\u{85}3\u{0C}4\u{0B}5\u{2029}6")
    #expect(document.lineCount == 1)
    #expect(document.stack(afterLine: 0).label() == "[1 2 3 4 5 6]")
  }

  @Test func diagnosticsCountLinesAfterEveryBreak() {
    check(
      "1\rzzz\r\n+\n1 # a\r=", stack: "[1 1]",
      diagnostics: [
        "unknown-word@1:0-3", "stack-underflow@2:0-1", "invalid-name@4:0-1",
      ])
  }
}

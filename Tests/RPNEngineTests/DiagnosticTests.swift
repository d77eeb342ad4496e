import Testing

@testable import RPNEngine

/// The only diagnostic of a document.
private func only(_ source: String, angleMode: AngleMode = .radians) throws -> Diagnostic {
  let document = try Document(text: source, settings: EvaluationSettings(angleMode: angleMode))
  let all = document.diagnostics()
  try #require(all.count == 1, "diagnostics of \(source.debugDescription): \(all.map(\.diagnostic.message))")
  return all[0].diagnostic
}

/// The suggestions of the only diagnostic, which must be an unknown word, best first.
private func suggestions(_ source: String) throws -> [Suggestion] {
  let diagnostic = try only(source)
  guard case .unknownWord(_, let suggestions, _) = diagnostic.problem else {
    Issue.record("\(source.debugDescription): \(diagnostic.code.rawValue), not unknown-word")
    return []
  }
  return suggestions
}

/// One diagnostic code: a source with exactly one diagnostic, and what its message must say.
struct CodeCase: Sendable, CustomTestStringConvertible {
  var source: String
  var code: String
  var severity: Severity
  var range: Range<Int>
  /// What the message must mention.
  var mustSay: [String]

  var testDescription: String { "\(code): \(source)" }
}

@Suite struct DiagnosticTests {
  // MARK: One case per code

  @Test(arguments: [
    CodeCase(source: "1 +", code: "stack-underflow", severity: .warning, range: 2..<3, mustSay: ["`+`", "2", "1"]),
    CodeCase(source: "1 2 rot", code: "stack-underflow", severity: .warning, range: 4..<7, mustSay: ["rot", "3", "2"]),
    CodeCase(source: "1 0 /", code: "division-by-zero", severity: .warning, range: 4..<5, mustSay: []),
    CodeCase(source: "-4 sqrt", code: "domain-error", severity: .warning, range: 3..<7, mustSay: ["sqrt", "-4"]),
    CodeCase(source: "1e308 10 *", code: "overflow", severity: .warning, range: 9..<10, mustSay: []),
    CodeCase(source: "zzz", code: "unknown-word", severity: .error, range: 0..<3, mustSay: ["zzz"]),
    CodeCase(source: "1e999", code: "invalid-number", severity: .error, range: 0..<5, mustSay: []),
    CodeCase(source: "=", code: "invalid-name", severity: .error, range: 0..<1, mustSay: []),
    CodeCase(source: "1 =1x", code: "invalid-name", severity: .error, range: 2..<5, mustSay: []),
    CodeCase(source: "1 =dup", code: "invalid-name", severity: .error, range: 2..<6, mustSay: []),
    CodeCase(source: "1 =PI", code: "invalid-name", severity: .error, range: 2..<5, mustSay: []),
  ])
  func reportsEachCode(_ c: CodeCase) throws {
    let diagnostic = try only(c.source)
    #expect(diagnostic.code.rawValue == c.code)
    #expect(diagnostic.severity == c.severity)
    #expect(diagnostic.range == c.range)
    for text in c.mustSay {
      #expect(diagnostic.message.contains(text), "\(diagnostic.message) does not say \(text)")
    }
  }

  /// Each way of dividing by zero says which: a power of 0 names its exponent, a modulo its
  /// operands; `0 0 /` is a division, not "0 to a negative power".
  @Test(arguments: [
    ("0 0 /", "`/` divides by zero"),
    ("5 0 ÷", "`÷` divides by zero"),
    ("0 -1 ^", "`^`: 0 to a negative power (-1) divides by zero"),
    ("0 0.5 neg ^", "`^`: 0 to a negative power (-0.5) divides by zero"),
    ("0 inv", "`inv` of 0 divides by zero"),
    ("5 0 mod", "`5 0 mod`: modulo by zero"),
  ])
  func divisionByZeroSaysWhichDivision(_ source: String, _ message: String) throws {
    #expect(try only(source).message == message)
  }

  @Test func severitiesFollowTheCode() {
    let warnings: Set<DiagnosticCode> = [
      .stackUnderflow, .divisionByZero, .domainError, .overflow, .checkFailed, .invalidSetting, .unitMismatch,
      .noRate,
    ]
    let notes: Set<DiagnosticCode> = [.infix]
    for code in DiagnosticCode.allCases {
      let expected: Severity = notes.contains(code) ? .information : warnings.contains(code) ? .warning : .error
      #expect(code.severity == expected, "\(code.rawValue)")
    }
    #expect(
      Set(DiagnosticCode.allCases.map(\.rawValue)) == [
        "stack-underflow", "division-by-zero", "domain-error", "overflow", "unknown-word", "invalid-number",
        "invalid-name", "check-failed", "invalid-definition", "unterminated-definition", "too-complex",
        "invalid-setting", "infix", "unknown-unit", "invalid-unit", "unit-mismatch", "no-rate",
      ])
  }

  // MARK: The failure rule (the README's failure rule)

  @Test func aFailingTokenChangesNothing() {
    check("1 2 foo +", stack: "[3]", diagnostics: ["unknown-word@0:4-7"])
    check("1 0 / 5", stack: "[1 0 5]", diagnostics: ["division-by-zero@0:4-5"])
    check("5 =x =dup x", stack: "[5 5]", diagnostics: ["invalid-name@0:5-9"])
    check("1e308 dup +", stack: "[1e+308 1e+308]", diagnostics: ["overflow@0:10-11"])
    check("1e308 1e308 sum", stack: "[1e+308 1e+308]", diagnostics: ["overflow@0:12-15"])
    check("1 2 3 rot rot rot drop drop drop drop", stack: "[]", diagnostics: ["stack-underflow@0:33-37"])
    check("-1 sqrt 2 +", stack: "[1]", diagnostics: ["domain-error@0:3-7"])
    check("1e999 1", stack: "[1]", diagnostics: ["invalid-number@0:0-5"])
    check("5 =x\n7 =x =\nx", stack: "[5 7 7]", diagnostics: ["invalid-name@1:5-6"])
  }

  @Test func oneMistakeDoesNotHideTheRest() {
    check(
      "+\nzzz\n1 0 /\n=\n2", stack: "[1 0 2]",
      diagnostics: [
        "stack-underflow@0:0-1", "unknown-word@1:0-3", "division-by-zero@2:4-5", "invalid-name@3:0-1",
      ])
  }

  // MARK: Check order

  @Test func syntaxIsCheckedBeforeTheStack() {
    check("=dup", stack: "[]", diagnostics: ["invalid-name@0:0-4"])
    check("=", stack: "[]", diagnostics: ["invalid-name@0:0-1"])
    check("zzz", stack: "[]", diagnostics: ["unknown-word@0:0-3"])
    check("1e999", stack: "[]", diagnostics: ["invalid-number@0:0-5"])
  }

  @Test func aFailedStoreStoresNothing() {
    check("=x x", stack: "[]", diagnostics: ["stack-underflow@0:0-2", "unknown-word@0:3-4"])
    check("=x\n1 x", stack: "[1]", diagnostics: ["stack-underflow@0:0-2", "unknown-word@1:2-3"])
  }

  @Test func theStackIsCheckedBeforeTheResult() {
    check("0 /", stack: "[0]", diagnostics: ["stack-underflow@0:2-3"])
    check("0 mod", stack: "[0]", diagnostics: ["stack-underflow@0:2-5"])
    check("inv", stack: "[]", diagnostics: ["stack-underflow@0:0-3"])
    check("sqrt", stack: "[]", diagnostics: ["stack-underflow@0:0-4"])
  }

  @Test func divisionByZeroBeforeDomainErrorAndOverflow() {
    check("0 0 /", stack: "[0 0]", diagnostics: ["division-by-zero@0:4-5"])
    check("0 0 mod", stack: "[0 0]", diagnostics: ["division-by-zero@0:4-7"])
    check("0 -1 ^", stack: "[0 -1]", diagnostics: ["division-by-zero@0:5-6"])
  }

  // MARK: Stack underflow says the operator, what it needs and what there is

  @Test(arguments: [
    ("+", "`+`", 2, 0), ("1 -", "`-`", 2, 1), ("1 2 rot", "`rot`", 3, 2), ("dup", "`dup`", 1, 0),
    ("sum", "`sum`", 1, 0), ("=x", "`=x`", 1, 0), ("1 %", "`%`", 2, 1), ("7 SWAP", "`SWAP`", 2, 1),
  ])
  func underflowMessage(_ source: String, _ word: String, _ needs: Int, _ has: Int) throws {
    let diagnostic = try only(source)
    #expect(diagnostic.code == .stackUnderflow)
    #expect(diagnostic.problem == .stackUnderflow(word: String(word.dropFirst().dropLast()), needs: needs, has: has))
    let message = diagnostic.message
    #expect(message.contains(word), "\(message)")
    #expect(message.contains("\(needs)"), "\(message)")
    #expect(message.contains("\(has)") || (has == 0 && message.contains("empty")), "\(message)")
  }

  // MARK: Division by zero, domain errors, overflow

  @Test(arguments: [
    ("1 0 /", 4..<5), ("1 0 ÷", 4..<6), ("-0 inv", 3..<6), ("0 inv", 2..<5), ("7 0 mod", 4..<7), ("7 -0 mod", 5..<8),
    ("0 -1 ^", 5..<6), ("0 -0.5 pow", 7..<10), ("-0 -2 **", 6..<8),
  ])
  func divisionByZero(_ source: String, _ range: Range<Int>) throws {
    let diagnostic = try only(source)
    #expect(diagnostic.code == .divisionByZero)
    #expect(diagnostic.severity == .warning)
    #expect(diagnostic.range == range)
  }

  @Test(arguments: [
    ("-4 sqrt", "sqrt", "-4"), ("-1e-320 √", "√", "-9.99988867182683e-321"), ("0 ln", "ln", "0"),
    ("-1 ln", "ln", "-1"), ("0 log", "log", "0"), ("-5 log", "log", "-5"), ("0 log2", "log2", "0"),
    ("1.5 asin", "asin", "1.5"), ("-2 acos", "acos", "-2"), ("-8 0.5 ^", "^", "-8"), ("-2 0.5 pow", "pow", "-2"),
  ])
  func domainError(_ source: String, _ word: String, _ value: String) throws {
    let diagnostic = try only(source)
    #expect(diagnostic.code == .domainError)
    #expect(diagnostic.severity == .warning)
    #expect(diagnostic.message.contains(word), "\(diagnostic.message)")
    #expect(diagnostic.message.contains(value), "\(diagnostic.message)")
  }

  @Test func domainErrorInDegrees() throws {
    let diagnostic = try only("90 tan", angleMode: .degrees)
    #expect(diagnostic.code == .domainError)
    #expect(diagnostic.range == 3..<6)
    #expect(diagnostic.message.contains("tan"))
    #expect(diagnostic.message.contains("90"))
  }

  @Test(arguments: [
    ("1e308 10 *", 9..<10), ("1000 exp", 5..<8), ("2 1024 ^", 7..<8), ("1e308 -1e308 -", 13..<14),
    ("5e-324 inv", 7..<10), ("1e200 sq", 6..<8), ("1e308 0.5 /", 10..<11), ("1e308 200 %", 10..<11),
    ("1e308 1e308 avg", 12..<15), ("1e-320 -2 ^", 10..<11),
  ])
  func overflow(_ source: String, _ range: Range<Int>) throws {
    let diagnostic = try only(source)
    #expect(diagnostic.code == .overflow)
    #expect(diagnostic.severity == .warning)
    #expect(diagnostic.range == range)
  }

  // MARK: Unknown words and suggestions

  @Test(arguments: [
    ("dupp", "dup"), ("DUPP", "dup"), ("SWPA", "swap"), ("swpa", "swap"), ("Sqrtt", "sqrt"), ("clera", "clear"),
    ("depht", "depth"), ("rott", "rot"), ("5 =total totl", "total"), ("5 =rate rtae", "rate"),
    ("5 =Total total", "Total"), ("5 =budget budgt", "budget"), ("1 =velocity\nvelocty", "velocity"),
  ])
  func suggestsACloseWord(_ source: String, _ word: String) throws {
    #expect(try suggestions(source).first == .word(word))
    #expect(try only(source).message.contains("`\(word)`"))
  }

  /// Several suggestions, best first: nearer spellings, then the longer shared beginning (`sqr`
  /// is one edit from `sq` and `sqrt`, and `sqrt` shares more); splits only where the right part
  /// is an operation; an operation glued to its number is offered operand first. Never an
  /// operator before its operand (`ln 2`, `sin e`) or two glued values (`pi e`).
  @Test(arguments: [
    ("sqr", ["sqrt", "sq"]), ("su", ["sum"]), ("pie", ["pi"]), ("sine", ["sin"]),
    ("ln2", ["2 ln"]), ("sqrt2", ["2 sqrt"]), ("SIN30", ["30 SIN"]), ("4+", ["4 +"]),
    ("3dup", ["3 dup"]), ("dup+", ["dup +"]), ("5 =x x*", ["x *"]), ("5 =x 2x", []),
    (": f 2 * ;\n3f", ["3 f"]), ("5 =f 3f", []),
  ])
  func ranksSuggestions(_ source: String, _ expected: [String]) throws {
    let found = try suggestions(source)
    #expect(found.map(\.replacement) == expected, "\(source.debugDescription)")
    let message = try only(source).message
    if expected.count == 2 {
      #expect(message.hasSuffix("; did you mean `\(expected[0])` or `\(expected[1])`?"), "\(message)")
    }
  }

  @Test func listsUpToFourSuggestions() throws {
    let message = try only("1 =abc 2 =abd 3 =abe 4 =abf 5 =abg ab").message
    #expect(message == "unknown word `ab`; did you mean `abc`, `abd`, `abe` or `abf`?")
  }

  @Test(arguments: [
    ("4+", ["4", "+"]), ("3dup", ["3", "dup"]), ("dup+", ["dup", "+"]), ("1 2+", ["2", "+"]),
    ("5 =x x*", ["x", "*"]), ("2.5*", ["2.5", "*"]), ("1 -3sqrt", ["-3", "sqrt"]),
  ])
  func suggestsASplit(_ source: String, _ parts: [String]) throws {
    #expect(try suggestions(source).first == .split(parts))
    #expect(try only(source).message.contains("`\(parts.joined(separator: " "))`"))
  }

  @Test(arguments: [
    "zzz", "qqqq", "budgt\n5 =budget", "5 =total TOTAL",
  ])
  func suggestsNothingFar(_ source: String) throws {
    #expect(try suggestions(source).isEmpty)
    #expect(try !only(source).message.contains("did you mean"))
  }

  @Test func unknownWordNamesTheWord() throws {
    let diagnostic = try only("1 2 frobnicate")
    #expect(diagnostic.range == 4..<14)
    #expect(diagnostic.message.contains("frobnicate"))
  }

  @Test(arguments: [
    ("x\n5 =x", 2), ("x 5 =x", 1), ("1\n2\ny\n\n7 =y", 5), ("z =z\n\n1 =z", 3), ("x\r\n1 =x", 2), ("x\r1 =x", 2),
  ])
  func saysWhereAVariableIsStoredLater(_ source: String, _ line: Int) throws {
    let diagnostic = try #require(try Document(text: source).diagnostics().first?.diagnostic)
    #expect(diagnostic.code == .unknownWord)
    #expect(diagnostic.message.contains("stored later, on line \(line)"), "\(diagnostic.message)")
  }

  @Test func aFailedStoreBelowIsNotAStore() throws {
    let document = try Document(text: "x\n=x")
    let diagnostics = document.diagnostics()
    #expect(
      diagnostics.map { compact($0.diagnostic, line: $0.line) } == [
        "unknown-word@0:0-1", "stack-underflow@1:0-2",
      ])
    #expect(!diagnostics[0].diagnostic.message.contains("stored later"))
  }

  @Test func storedLaterFollowsEdits() throws {
    let document = try Document(text: "x\n1")
    #expect(document.diagnostics(inLine: 0).map(\.message).allSatisfy { !$0.contains("stored later") })
    try document.replaceLines(1..<2, with: "1 =x")
    #expect(document.diagnostics(inLine: 0).first?.message.contains("stored later, on line 2") == true)
    try document.replaceLines(1..<2, with: "1")
    #expect(document.diagnostics(inLine: 0).first?.message.contains("stored later") == false)
  }
}

/// Messages carry tape text with its control characters escaped: shown in a terminal (`check`,
/// Vim's message line), a tape cannot command it.
@Suite struct EscapedMessageTests {
  @Test(arguments: [
    ("\u{1B}[2J", "unknown word `\\x1b[2J`"), ("a\u{7F}", "unknown word `a\\x7f`"),
    ("0x\u{1B}", "`0x\\x1b`: `\\x1b` is not a hexadecimal digit (0-9 and A-F)"),
    ("\u{9B}31m", "unknown word `\\x9b31m`"), ("ab\u{202E}cd", "unknown word `ab\\u{202e}cd`"),
  ])
  func controlCharactersAreEscaped(_ source: String, _ message: String) throws {
    let document = try Document(text: source)
    #expect(document.diagnostics().map(\.diagnostic.message) == [message])
  }

  @Test func escapingLeavesOtherTextAlone() {
    #expect(ControlCharacters.escaped("a\tb é 😀 \u{A0}") == "a\tb é 😀 \u{A0}")
    #expect(ControlCharacters.escaped("\u{0}\u{1F}\u{80}\u{9F}") == "\\x00\\x1f\\x80\\x9f")
  }

  /// The format characters that set the direction of text are escaped, each of them alone and
  /// among other text; their neighbours in Unicode (the joiner in 👨‍👩‍👧, the narrow no-break
  /// space, the line separator) and other text that shares their first bytes are left alone.
  @Test func directionalFormatCharactersAreEscaped() {
    let directional: [UInt32] = [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
    for v in directional {
      let scalar = Unicode.Scalar(v).map(String.init) ?? ""
      let hex = String(v, radix: 16)
      #expect(ControlCharacters.escaped(scalar) == "\\u{\(hex)}", "U+\(hex)")
      #expect(ControlCharacters.escaped("é" + scalar + "x") == "é\\u{\(hex)}x", "U+\(hex)")
    }
    let neighbours = "\u{061B}\u{061D}\u{200D}\u{2028}\u{2029}\u{2065}\u{206A}\u{202F}\u{2010}— ’ … € 👨‍👩‍👧"
    #expect(ControlCharacters.escaped(neighbours) == neighbours)
    #expect(ControlCharacters.escaped("\u{1B}\u{202E}") == "\\x1b\\u{202e}")
  }
}

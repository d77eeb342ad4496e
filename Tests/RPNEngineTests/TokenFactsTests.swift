import TestSupport
import Testing

@testable import RPNEngine

/// The answers the engine gives the server as plain data, so that the server reads no syntax: what
/// the token at a cursor is (hover), the misplaced comma's replacements (a fix), a check's parts
/// (semantic tokens), a heading's `#`s (the outline), and where a value is being written
/// (completion).
@Suite struct TokenFactsTests {
  /// A tape with the cursor at `1️⃣`, and the facts there: the place written as `summary` writes it,
  /// and the code of the diagnostic, if any.
  static let cases: [(tape: String, place: String, diagnostic: DiagnosticCode?)] = [
    ("1️⃣1.5 2", "number 1.5", nil),
    ("0x1️⃣1F", "number 31.0 radix", nil),
    ("-0b11️⃣01", "number -5.0 radix", nil),
    ("1e9991️⃣", "invalid outOfRange", .invalidNumber),
    ("1,51️⃣", "invalid misplacedComma", .invalidNumber),
    ("1 2 + =1️⃣3", "check 3 (to a whole number) passes 3.0 as 3", nil),
    ("10 3 / =3.31️⃣4", "check 3.34 (to 2 decimals) fails 3.3333333333333335 as 3.33", .checkFailed),
    ("=1️⃣5", "check 5 (to a whole number)", .stackUnderflow),
    ("4 sqrt1️⃣", "builtin sqrt namedFunction", nil),
    ("4 SQRT1️⃣", "builtin sqrt namedFunction", nil),
    ("4 √1️⃣", "builtin sqrt symbolicOperator alias", nil),
    ("1 2 +1️⃣", "builtin + symbolicOperator", nil),
    ("4 =x\nx1️⃣", "variable x 4.0 stored 0", nil),
    ("x1️⃣ 4 =x", "unknown", .unknownWord),
    ("4 =x1️⃣", "store x 4.0", nil),
    ("=x1️⃣", "store x", .stackUnderflow),
    ("4 =1️⃣", "invalid store", .invalidName),
    ("nope1️⃣", "unknown", .unknownWord),
    ("4+1️⃣", "unknown", .unknownWord),
    (": twice dup + ;\n3 twice1️⃣", "word twice@0", nil),
    // The tokens of a definition: its part, and the word it defined.
    (":1️⃣ twice dup + ;", "colon defines twice@0", nil),
    (": twice dup + ;1️⃣", "end defines twice@0", nil),
    (": twi1️⃣ce dup + ;", "name defines twice@0", nil),
    (": du1️⃣p 1 + ;", "name not a name", .invalidName),
    // A definition that failed: its name tells why, with the definition's first diagnostic.
    (": f1️⃣ nope ;", "name", .unknownWord),
    (": f nope1️⃣ ;", "body of f: unknown", .unknownWord),
    (": twice dup1️⃣ + ;", "body of twice defines twice@0: builtin dup stackWord", nil),
    // A body's names mean what they meant at the `:`; a check and a store (which a body may not
    // hold) are only what they are.
    ("2 =y\n: g y1️⃣ ;", "body of g defines g@1: variable y 2.0 stored 0", nil),
    (": h 1 ;\n: g h1️⃣ ;", "body of g defines g@1: word h@0", nil),
    ("5 : g =1️⃣3 ;", "body of g: check", .invalidDefinition),
    (": g 5 =z1️⃣ ;", "body of g: store z", .invalidDefinition),
    (":1️⃣", "colon", .unterminatedDefinition),
    // Units a tape defines: the definition's parts say what one of it is; a quantity in a unit
    // of the tape's own, below its definition, is a quantity (above it, an unknown unit).
    (": _pa1️⃣ce 0.75_m ;", "unit pace = 0.75 m@0", nil),
    (":1️⃣ _pace 0.75_m ;", "unit pace = 0.75 m@0", nil),
    (": _pace 0.75_m ;1️⃣", "unit pace = 0.75 m@0", nil),
    (": _pace 0.71️⃣5_m ;", "body of unit pace = 0.75 m@0: quantity 0.75 m", nil),
    (": _€1️⃣ 1.08_USD ;", "unit EUR = 1.08 USD@0", nil),
    (": _bo1️⃣x ;", "unit box new dimension@0", nil),
    (": _pace1️⃣ 0_m ;", "unit pace", .invalidDefinition),
    (": _pace 0_m1️⃣ ;", "body of unit pace: quantity 0.0 m", nil),
    (": _pace 0.75_m ;\n12_pa1️⃣ce", "quantity 12.0 pace", nil),
    (": _pace 0.75_m ;\n>pa1️⃣ce", "convert pace", .stackUnderflow),
    ("12_pa1️⃣ce\n: _pace 0.75_m ;", "invalid unit", .unknownUnit),
  ]

  @Test(arguments: 0..<cases.count)
  func theTokenAtTheCursor(_ index: Int) throws {
    let (tape, expected, code) = Self.cases[index]
    let marked = Marked(tape)
    let document = try Document(text: marked.text)
    let cursor = marked.place(1)
    let facts = try #require(document.tokenFacts(atLine: cursor.line, utf8Offset: cursor.utf8, keepingTop: 4))
    #expect(Self.summary(facts.place) == expected, "\(tape.debugDescription)")
    #expect(facts.diagnostic?.code == code, "\(tape.debugDescription)")
  }

  /// Nothing at white space, in a comment, on a blank line.
  @Test(arguments: ["1 1️⃣ 2", "1 # a 1️⃣comment", "1️⃣"])
  func noTokenNoFacts(_ tape: String) throws {
    let marked = Marked(tape)
    let document = try Document(text: marked.text)
    let cursor = marked.place(1)
    #expect(document.tokenFacts(atLine: cursor.line, utf8Offset: cursor.utf8, keepingTop: 4) == nil)
  }

  /// The facts as plain values: the range, the text as written, the stacks around the token.
  @Test func factsAreThePlainValues() throws {
    let document = try Document(text: "1 2 + =3 # sum")
    let facts = try #require(document.tokenFacts(atLine: 0, utf8Offset: 7, keepingTop: 4))
    let outcome = CheckOutcome(passes: true, top: Value(3), rounded: "3")
    #expect(
      facts
        == TokenFacts(
          range: 6..<8, text: "=3",
          place: .line(.check(CheckFacts(written: "3", places: "to a whole number", outcome: outcome))),
          before: StackPicture(depth: 1, top: [Value(3)]), after: StackPicture(depth: 1, top: [Value(3)]),
          diagnostic: nil))
  }

  /// A place in one line: its case and its data, a word as `name@line`.
  static func summary(_ place: TokenFacts.Place) -> String {
    switch place {
    case .line(let meaning): return summary(meaning)
    case .definition(.colon(let word)): return "colon" + defines(word)
    case .definition(.end(let word)): return "end" + defines(word)
    case .definition(.name(let word, let isName)): return "name" + defines(word) + (isName ? "" : " not a name")
    case .definition(.body(let meaning, let name, let word)):
      return "body of \(name ?? "?")" + defines(word) + ": " + summary(meaning)
    case .definition(.unitName(let unit, let definition)): return "unit \(unit)" + defines(definition)
    case .definition(.unitBody(let meaning, let unit, let definition)):
      return "body of unit \(unit)" + defines(definition) + ": " + summary(meaning)
    }
  }

  /// What a unit's definition defined: ` = 0.75 m@0`, ` new dimension@3`, or nothing.
  static func defines(_ definition: UnitDefinition?) -> String {
    guard let definition else { return "" }
    let what = definition.value.map { " = \($0.number) \($0.unit.spelling)" } ?? " new dimension"
    return what + "@\(definition.line)"
  }

  static func summary(_ meaning: TokenMeaning) -> String {
    switch meaning {
    case .number(let value, let isRadix): return "number \(value.number)" + (isRadix ? " radix" : "")
    case .invalidNumber(let problem): return "invalid \(problem)"
    case .check(nil): return "check"
    case .check(let check?):
      let outcome = check.outcome.map { " \($0.passes ? "passes" : "fails") \($0.top.number) as \($0.rounded)" }
      return "check \(check.written) (\(check.places))" + (outcome ?? "")
    case .builtin(let id, let kind, let isAlias):
      return "builtin \(Builtin.table[Int(id)].name) \(kind)" + (isAlias ? " alias" : "")
    case .word(let word): return "word " + at(word)
    case .variable(let name, let value, let line):
      return "variable \(name) \(value.number)" + (line.map { " stored \($0)" } ?? "")
    case .store(let name, let value): return "store \(name)" + (value.map { " \($0.number)" } ?? "")
    case .invalidStore: return "invalid store"
    case .unknownWord: return "unknown"
    case .colon: return "colon"
    case .semicolon: return "semicolon"
    case .quantity(let value): return "quantity \(value.number) \(value.unit.spelling)"
    case .unitWord(let unit, let converts): return (converts ? "convert " : "attach ") + unit.spelling
    case .invalidUnit: return "invalid unit"
    }
  }

  private static func at(_ word: WordInfo) -> String { "\(word.name)@\(word.line)" }
  private static func defines(_ word: WordInfo?) -> String { word.map { " defines " + at($0) } ?? "" }

  // MARK: The other answers

  /// The fixes of a comma out of place, as whole replacements: a check keeps its `=` and takes
  /// only the readings that are one number.
  @Test(arguments: [
    ("1,5", ["1.5", "1 5"]), ("=1,5", ["=1.5"]), ("1,50,000", ["150.000"]), ("=12,5", ["=12.5"]),
  ])
  func misplacedCommaReplacements(literal: String, expected: [String]) {
    #expect(Problem.invalidNumber(literal: literal, problem: .misplacedComma).misplacedCommaReplacements == expected)
  }

  @Test func otherProblemsHaveNoCommaReplacements() {
    #expect(Problem.invalidNumber(literal: "1e999", problem: .outOfRange).misplacedCommaReplacements == [])
  }

  /// A check's parts, for semantic tokens: the `=`, then the value written.
  @Test func aCheckHasItsParts() throws {
    let document = try Document(text: "1 =1.5 =x")
    var roles: [TokenRole] = []
    document.forEachRoledLine(in: 0..<1) { _, _, tokens, _ in roles = tokens.map(\.role) }
    #expect(roles == [.number, .check(mark: 2..<3, value: 3..<6, unit: nil), .store])
  }

  /// A heading's `#`s, and the name and range an outline shows for its section.
  @Test(arguments: [
    ("## Groceries\n1", 0..<2, "Groceries", 3..<12), ("  ###\n1", 2..<5, "###", 2..<5),
    ("## \u{2003}Rent ✓ \n1", 0..<2, "Rent ✓", 3..<14),
  ])
  func headingMarks(tape: String, marks: Range<Int>, name: String, nameRange: Range<Int>) throws {
    let section = try #require(try Document(text: tape).sections().first)
    #expect(section.headingMarks == marks)
    #expect(section.name == name)
    #expect(section.nameRange == nameRange)
  }

  /// A cursor past a check's `=` is in a value being written; at its `=`, or on another token, not.
  @Test(arguments: [("=12", 0, false), ("=12", 1, true), ("=12", 3, true), ("12", 1, false), ("=x", 1, false)])
  func writingAValue(line: String, offset: Int, expected: Bool) throws {
    let document = try Document(text: line)
    let token = try #require(document.tokens(ofLine: 0).tokens.first)
    #expect(token.isWritingValue(at: offset) == expected)
  }
}

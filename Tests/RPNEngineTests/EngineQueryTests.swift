import Testing

@testable import RPNEngine

/// The builtins table as the one source of kinds and arity, and the questions the server asks
/// the engine instead of answering them itself: the token at the cursor, a store's name, the
/// names visible at a position, and whether a name is valid.
@Suite struct EngineQueryTests {
  // MARK: Kinds

  /// Every spelling's kind, as hover, completion and semantic tokens show it: the builtin's own,
  /// except that symbols are operators (`√`) and letters are not (`pow`); constants stay
  /// constants (`π`).
  @Test(arguments: [
    ("+", Builtin.Kind.symbolicOperator), ("−", .symbolicOperator), ("**", .symbolicOperator),
    ("pow", .namedFunction), ("%", .symbolicOperator), ("mod", .namedFunction), ("sqrt", .namedFunction),
    ("√", .symbolicOperator), ("Chs", .namedFunction), ("sum", .namedFunction), ("mean", .namedFunction),
    ("dup", .stackWord), ("CLEAR", .stackWord), ("depth", .stackWord), ("pi", .constant), ("π", .constant),
    ("E", .constant),
  ])
  func kindOfSpelling(spelling: String, kind: Builtin.Kind) throws {
    let id = try #require(Builtin.lookup(spelling))
    let builtin = Builtin.table[Int(id)]
    #expect(builtin.kind(ofSpelling: spelling) == kind)
    #expect(Builtin.kind(id, spelledSymbolically: Builtin.isSymbolic(spelling)) == kind)
  }

  /// The nouns messages use, with their articles.
  @Test func nouns() {
    #expect(
      Builtin.Kind.allCases.map(\.withArticle) == ["an operator", "a function", "a stack operator", "a constant"])
  }

  /// Evaluation takes each builtin's arity from the table: one value fewer than `inputs` is an
  /// underflow naming that count, and exactly `inputs` values is not (for `pick` and `roll`,
  /// with the value their n reaches).
  @Test func evaluationReadsArityFromTheTable() throws {
    for builtin in Builtin.table where builtin.inputs > 0 {
      let short = Array(repeating: "2", count: builtin.inputs - 1).joined(separator: " ")
      let document = try Document(text: short + " " + builtin.name)
      let problems = document.diagnostics().map(\.diagnostic.problem)
      #expect(problems == [.stackUnderflow(word: builtin.name, needs: builtin.inputs, has: builtin.inputs - 1)])
      // `pick` and `roll` need n more values below their n: enough for them is one more.
      let below = builtin.operation == .pick || builtin.operation == .roll ? "2 " : ""
      let enough = try Document(text: below + short + " 1 " + builtin.name)
      #expect(!enough.diagnostics().contains { $0.diagnostic.code == .stackUnderflow }, "\(builtin.name)")
    }
  }

  /// A fixed effect leaves `outputs` values in place of `inputs`; whole-stack builtins say so.
  @Test func outputsMatchEvaluation() throws {
    for builtin in Builtin.table where !builtin.readsWholeStack {
      // 0.5 is in every domain but a factorial's and an inverse hyperbolic cosine's.
      let operand = ["fact": "3", "acosh": "2"][builtin.name] ?? "0.5"
      let operands = Array(repeating: operand, count: builtin.inputs).joined(separator: " ")
      // `6 1 +` leaves one value and gives `lastx` something to recall.
      let document = try Document(text: "6 1 + " + operands + " " + builtin.name)
      #expect(document.stack(afterLine: 0).depth == 1 + builtin.outputs, "\(builtin.name)")
    }
    #expect(
      Builtin.table.filter(\.readsWholeStack).map(\.name) == [
        "clear", "depth", "pick", "roll", "sum", "avg", "sdev", "subtotal",
      ])
  }

  // MARK: The token at the cursor

  /// Inside a token or right after it: the cursor just after a word still means that word.
  @Test func tokenAtTheCursor() {
    let tokens = Lexer.tokens(of: "12 dup  =x # c").tokens
    func at(_ offset: Int) -> Range<Int>? { tokens.first { $0.isAtCursor(offset) }?.range }
    #expect(at(0) == 0..<2)
    #expect(at(2) == 0..<2)
    #expect(at(3) == 3..<6)
    #expect(at(6) == 3..<6)
    #expect(at(7) == nil)
    #expect(at(8) == 8..<10)
    #expect(at(12) == nil)
  }

  /// A store's name is the token without its `=`; any other token's is the whole token.
  @Test func nameRanges() {
    let tokens = Lexer.tokens(of: "=rate rate =").tokens
    #expect(tokens.map(\.nameRange) == [1..<5, 6..<10, 11..<12])
  }

  // MARK: Names

  @Test(arguments: [
    ("rate", nil), ("_1", InvalidName.malformed), ("_x", .underscore), ("café", nil), ("2x", InvalidName.malformed),
    ("", .malformed),
    ("a b", .malformed), ("a#b", .malformed), ("=x", .malformed), ("√", .malformed),
  ])
  func nameProblems(name: String, problem: InvalidName?) {
    #expect(Lexer.nameProblem(name) == problem)
  }

  @Test func reservedNames() throws {
    #expect(Lexer.nameProblem("DUP") == .reserved(try #require(Builtin.lookup("dup"))))
    #expect(Lexer.nameProblem("π") == .reserved(try #require(Builtin.lookup("pi"))))
    #expect(InvalidName.reserved(try #require(Builtin.lookup("sin"))).explanation(for: "sin") == "`sin` is a function")
    #expect(
      InvalidName.malformed.explanation(for: "2x")
        == "`2x` is not a valid name: a name starts with a letter, followed by letters, digits 0-9 or `_`")
  }

  // MARK: Scopes

  /// The depth and the variables a cursor sees: stores above, then the line's own stores that
  /// end before it and succeeded.
  @Test func scopeAtAPosition() throws {
    let document = try Document(text: "1 =a 2 =b\n3 =a drop =c 4")
    func scope(_ line: Int, _ offset: Int) -> String {
      let scope = document.scope(atLine: line, utf8Offset: offset)
      return "\(scope.depth) "
        + scope.variables.map { "\($0.name)=\(ValueFormat.format($0.value))" }.joined(separator: ",")
    }
    #expect(scope(0, 0) == "0 ")
    #expect(scope(0, 4) == "1 a=1")
    #expect(scope(0, 5) == "1 a=1")
    #expect(scope(1, 0) == "2 a=1,b=2")
    #expect(scope(1, 4) == "3 a=3,b=2")
    #expect(scope(1, 9) == "2 a=3,b=2")
    #expect(scope(1, 12) == "2 a=3,b=2,c=2")
    #expect(scope(5, 0) == "0 ")
  }
}

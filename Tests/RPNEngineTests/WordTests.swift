import Foundation
import Testing

@testable import RPNEngine

/// One evaluation of defined words: a source, the stack label after it, and its diagnostics in
/// `check`'s compact form (`code@line:start-end`).
struct WordCase: Sendable, CustomTestStringConvertible {
  var source: String
  var stack: String
  var diagnostics: [String] = []

  var testDescription: String { "\(source.debugDescription) → \(stack)" }
}

private func word(_ source: String, _ stack: String, _ diagnostics: [String] = []) -> WordCase {
  WordCase(source: source, stack: stack, diagnostics: diagnostics)
}

let wordCases: [WordCase] = [
  // A definition binds a word and leaves the stack alone; tokens after `;` run as usual.
  word(": hyp sq swap sq + sqrt ;\n3 4 hyp", "[5]"),
  word("1 2 : f + ;", "[1 2]"),
  word(": f 2 * ; 3 f", "[6]"),
  word(": f 2 * ; : g 3 + ; 1 f g f", "[10]"),
  word(": nop ;\n1 nop", "[1]"),
  word(": sq2 dup * ;\n: quad sq2 sq2 ;\n3 quad", "[81]"),
  // One namespace: the newest binding above wins, a store or a definition.
  word(": f 2 ;\n: f 3 ;\nf", "[3]"),
  word(": f 2 ;\n5 =f\nf", "[5 5]"),
  word("5 =x\n: x 7 ;\nx", "[5 7]"),
  word(": F 1 ;\nf", "[]", ["unknown-word@1:0-1"]),
  // A body is fixed where it is defined: a variable's value then, the words bound then.
  word("2 =r\n: twice r * ;\n3 =r\n5 twice", "[2 3 10]"),
  word(": f 2 ;\n: g f f + ;\n: f 10 ;\ng", "[4]"),
  word(": f 2 ;\n: f f 1 + ;\nf", "[3]"),
  // A fixed effect's inputs are checked before the use runs.
  word(": hyp sq swap sq + sqrt ;\n1 hyp", "[1]", ["stack-underflow@1:2-5"]),
  // A step failing inside fails the whole use, which leaves the stack as it was: values the
  // line pushed, values of the lines above, and `lastx`.
  word(": bad 0 / ;\n5 bad", "[5]", ["division-by-zero@1:2-5"]),
  word(": inner 0 / ;\n: outer 1 + inner ;\n5 outer", "[5]", ["division-by-zero@2:2-7"]),
  word(": s drop drop sum ;\n1 s", "[1]", ["stack-underflow@1:2-3"]),
  word("2 3 + 1 2 3 : f + + 0 / ; f lastx", "[5 1 2 3 3]", ["division-by-zero@0:26-27"]),
  word("1 2 3\n: f + + 0 / ;\nf", "[1 2 3]", ["division-by-zero@2:0-1"]),
  word("1 2 3\n4 : f clear 1 0 / ; f", "[1 2 3 4]", ["division-by-zero@1:20-21"]),
  word("4 : f sqrt neg sqrt ; f", "[4]", ["domain-error@0:22-23"]),
  word("1e300 : f dup * ; f", "[1e+300]", ["overflow@0:18-19"]),
  // Stack-dependent words run on whatever stack they meet.
  word(": total sum ;\n1 2 3 total", "[6]"),
  word(": n depth ;\n7 7 n", "[7 7 2]"),
  word(": top3 3 pick ;\n1 2 3 top3", "[1 2 3 1]"),
  // `lastx` after a use is the top the word was given, when it consumed values.
  word(": hyp sq swap sq + sqrt ;\n3 4 hyp lastx", "[5 4]"),
  word("2 3 +\n: five 5 ;\nfive lastx", "[5 5 3]"),
  word(": keep dup ;\n2 3 +\nkeep lastx", "[5 5 3]"),
  word(": s sum ;\n1 2 s lastx", "[3 2]"),
  word(": t lastx ;\n2 3 + t", "[5 3]"),
  // Bad definitions: each a diagnostic at its token, and nothing defined.
  word(":", "[]", ["unterminated-definition@0:0-1"]),
  word(": f 1 2", "[]", ["unterminated-definition@0:0-1"]),
  word(": ;", "[]", ["invalid-name@0:0-1"]),
  word(": 2x ;", "[]", ["invalid-name@0:2-4"]),
  word(": dup 1 ;", "[]", ["invalid-name@0:2-5"]),
  word(": Sqrt 1 ;", "[]", ["invalid-name@0:2-6"]),
  word(";", "[]", ["invalid-definition@0:0-1"]),
  word("1 ; 2", "[1 2]", ["invalid-definition@0:2-3"]),
  word(": f =x ;", "[]", ["invalid-definition@0:4-6"]),
  word(": f =dup ;", "[]", ["invalid-definition@0:4-8"]),
  word(": f =20.5 ;", "[]", ["invalid-definition@0:4-9"]),
  word(": f : g ; 1", "[1]", ["invalid-definition@0:4-5", "unknown-word@0:6-7"]),
  word(": f foo ;", "[]", ["unknown-word@0:4-7"]),
  word(": f 1e999 ;", "[]", ["invalid-number@0:4-9"]),
  word(": f 1 =x foo ;", "[]", ["invalid-definition@0:6-8", "unknown-word@0:9-12"]),
  word(": f f ;", "[]", ["unknown-word@0:4-5"]),
  word(": f g ;\n: g 1 ;", "[]", ["unknown-word@0:4-5"]),
  word(": f 1 =x ;\nf", "[]", ["invalid-definition@0:6-8", "unknown-word@1:0-1"]),
  word(": f 1 ;\n: f 0 =x ;\nf", "[1]", ["invalid-definition@1:6-8"]),
  // `4:` is a time with its minutes missing (`4:00`), not a definition glued to a number.
  word("4: 1 ;x", "[1]", ["invalid-number@0:0-2", "unknown-word@0:5-7"]),
]

/// Defined words (`: name … ;`): binding, scope, effects, the failure rule and the cost limit.
@Suite struct WordTests {
  @Test(arguments: wordCases)
  func evaluates(_ test: WordCase) {
    check(test.source, stack: test.stack, diagnostics: test.diagnostics)
  }

  /// Messages name the thing and say what would fix it.
  @Test(arguments: [
    (": hyp sq swap sq + sqrt ;\n1 hyp", 1, "`hyp` needs 2 values but the stack holds only 1"),
    (
      ": bad 0 / ;\n5 bad", 1,
      "`bad` failed: in its definition (line 1), `/` divides by zero; the stack is as it was before `bad`"
    ),
    (
      "\n: inner 0 ÷ ;\n: outer 1 + inner ;\n5 outer", 3,
      "`outer` failed: in `inner` (line 2), `÷` divides by zero; the stack is as it was before `outer`"
    ),
    (
      ":", 0,
      "this definition has no `;`: a definition ends with `;` on the same line, like `: hyp sq swap sq + sqrt ;`"
    ),
    (
      ": f 1", 0,
      "the definition of `f` has no `;`: a definition ends with `;` on the same line, like `: hyp sq swap sq + sqrt ;`"
    ),
    (": ;", 0, "`:` needs a name after it, like `: hyp sq swap sq + sqrt ;`"),
    (": dup 1 ;", 0, "`dup` cannot be defined: that is a stack operator; choose another name"),
    (";", 0, "`;` ends a definition, but no `:` starts one before it on this line"),
    (": f =x ;", 0, "`=x`: a definition cannot store; store before or after it, on its own"),
    (": f =2 ;", 0, "`=2`: a definition cannot hold a check; check the result after a use"),
    (": f : g ;", 0, "`:` inside a definition: definitions cannot nest; end the first one with `;`"),
    (": f f ;", 0, "`f` cannot use itself: a body can use only names bound above its definition"),
    (
      ": f g ;\n\n: g 1 ;", 0,
      "unknown word `g`: `g` is defined later, on line 3; a word can be used only below its definition"
    ),
    (": f 1 =x ;\n\nf", 2, "`f` is not defined: its definition on line 1 has an error, so it defined nothing"),
    (
      "x\n: x 1 ;", 0, "unknown word `x`: `x` is defined later, on line 2; a word can be used only below its definition"
    ),
    ("x\n5 =x", 0, "unknown word `x`: `x` is stored later, on line 2; a variable can be used only below its store"),
    ("lastx", 0, "`lastx` has nothing to recall yet: no operator or function above it has consumed a value"),
  ])
  func messages(source: String, line: Int, message: String) throws {
    let document = try Document(text: source)
    let found = document.diagnostics().filter { $0.line == line }.map(\.diagnostic.message)
    #expect(found.first == message)
  }

  /// Effects are inferred when a word is defined, and shown like the builtins' effects.
  @Test(arguments: [
    (": hyp sq swap sq + sqrt ;", "( a b -- r )"),
    (": five 5 ;", "( -- r )"),
    (": nop ;", "( -- )"),
    (": k drop ;", "( a -- )"),
    (": d dup ;", "( a -- r₁ r₂ )"),
    (": m over over ;", "( a b -- r₁ r₂ r₃ r₄ )"),
    (": w 1 2 3 4 5 ;", "( -- r₁ … r₅ )"),
    (": nine + + + + + + + + ;", "( x₁ … x₉ -- r )"),
    (": p 200 15 % ;", "( -- r₁ r₂ )"),
    (": t lastx ;", "( -- r )"),
    (": n depth ;", "( … -- … )"),
    (": c 1 clear ;", "( … -- … )"),
    (": r 2 roll ;", "( … -- … )"),
    (": s sum ;", "( … -- … )"),
    (": a avg ;", "( … -- … )"),
    (": q 1 pick ;", "( … -- … )"),
    (": n depth ; : nn n ;", "( … -- … )"),
    (": hyp sq swap sq + sqrt ; : h2 1 hyp ;", "( a -- r )"),
    ("3 =v : addv v + ;", "( a -- r )"),
  ])
  func effects(source: String, effect: String) throws {
    let document = try Document(text: source)
    let last = try #require(document.definedWords().last)
    #expect(last.effect.description == effect)
  }

  /// What hover, symbols and completion read of a word.
  @Test func wordQueries() throws {
    let document = try Document(text: "1 =x\n: hyp sq swap sq + sqrt ; 3 4 hyp\n: f 1 =y ;\nx hyp")
    let hyp = try #require(document.word(named: "hyp", atLine: 3, utf8Offset: 2))
    #expect(hyp.name == "hyp" && hyp.line == 1 && hyp.body == "sq swap sq + sqrt" && hyp.cost == 5)
    #expect(hyp.definitionRange == 0..<25 && hyp.nameRange == 2..<5)
    #expect(document.word(named: "hyp", atLine: 1, utf8Offset: 0) == nil, "not bound before its definition")
    #expect(document.word(named: "hyp", atLine: 1, utf8Offset: 30) == hyp)
    #expect(document.word(named: "x", atLine: 3, utf8Offset: 0) == nil)
    #expect(document.isVariable("x", atLine: 3, utf8Offset: 0))
    #expect(document.definedWords() == [hyp], "the broken `f` defines nothing")
    #expect(document.definedWords(inLine: 1).map(\.endOffset) == [25])
    #expect(document.definedWords(inLine: 2).isEmpty && document.definedWords(inLine: 3).isEmpty)
    let scope = document.scope(atLine: 1, utf8Offset: 26)
    #expect(scope.words.map(\.name) == ["hyp"] && scope.variables.map(\.name) == ["x"])
    #expect(document.scope(atLine: 1, utf8Offset: 0).words.isEmpty)
    #expect(
      document.bindingSite(of: "hyp", visibleAtLine: 3, utf8Offset: 2)
        == BindingSite(line: 1, range: 2..<5, isDefinition: true))
    let names = document.occurrences(of: "hyp").map { "\($0.line):\($0.range.lowerBound)\($0.isDefinition ? "d" : "")" }
    #expect(names == ["1:2d", "1:30", "3:2"])
  }

  /// A store in an unterminated definition never runs; a name in a body means what it meant
  /// above the definition; a `:` in a body names nothing.
  @Test func bodiesAreNotEvaluatedWhereTheyStand() throws {
    let document = try Document(text: "5 =v : b 1 ; : w =b =v\nb v")
    #expect(document.word(named: "b", atLine: 1, utf8Offset: 0)?.line == 0)
    #expect(document.storeLocation(ofVariable: "v", visibleAtLine: 1, utf8Offset: 2)?.range == 2..<4)
    #expect(document.storedVariables().map(\.range) == [2..<4])
    let shadow = try Document(text: "2 =c : c c 1 + ;")
    #expect(shadow.isVariable("c", atLine: 0, utf8Offset: 9))
    #expect(!shadow.isVariable("c", atLine: 0, utf8Offset: 16))
    let nested = try Document(text: ": : a 1 ;")
    #expect(nested.variable(atLine: 0, utf8Offset: 4)?.occurrence.isDefinition == false)
    #expect(nested.occurrences(of: "a").map(\.isDefinition) == [false])
  }

  /// A word whose use would run more than 10,000 steps, nested words expanded (each call a step
  /// too), is `too-complex` and defines nothing; exactly 10,000 is allowed.
  @Test func costLimit() throws {
    let ten = Array(repeating: "1", count: 10_000).joined(separator: " ")
    // Its use runs on a line long enough to pay for it: 10,000 steps and 10,000 values left.
    check(": big \(ten) ;\nbig depth # \(String(repeating: "-", count: 2_600))", stack: "[… 1 1 1 1 1 1 1 10000]")
    check(": big \(ten) 1 ;", stack: "[]", diagnostics: ["too-complex@0:2-5"])
    // Ten uses of a word of 999 steps: 10 × (1 + 999).
    let thousand = Array(repeating: "1", count: 999).joined(separator: " ")
    let tens = Array(repeating: "w", count: 10).joined(separator: " ")
    check(": w \(thousand) ;\n: w10 \(tens) ;\n: w11 \(tens) 1 ;", stack: "[]", diagnostics: ["too-complex@2:2-5"])
    let document = try Document(text: ": w \(thousand) ;\n: w11 \(tens) 1 ;")
    #expect(
      document.diagnostics().first?.diagnostic.message
        == "`w11` is too complex: a use would run more than 10000 steps (its words expanded), and a word may run "
        + "at most 10000; split the work over several lines")
  }

  /// 30 levels of words, each using the one before ten times: the expansion is exponential,
  /// but the cost is known at each definition (w1 = 10 × (1 + 1), w2 = 210, w3 = 2,110, w4 =
  /// 21,110), so level 4 is refused at once and every level above it names the broken one.
  @Test func exponentialNestingIsRefusedAtTheDefinition() throws {
    var lines = [": w0 1 ;"]
    for level in 1...30 {
      lines.append(": w\(level) " + Array(repeating: "w\(level - 1)", count: 10).joined(separator: " ") + " ;")
    }
    lines.append("w3 depth # a line may leave 4 values a byte: " + String(repeating: "-", count: 260))
    let document = try Document(text: lines.joined(separator: "\n"))
    #expect(document.stack(afterLine: 31, keepingTop: 1).top == [1_000])
    let found = document.diagnostics()
    #expect(found.first.map { compact($0.diagnostic, line: $0.line) } == "too-complex@4:2-4")
    #expect(found.dropFirst().allSatisfy { $0.diagnostic.code == .unknownWord })
    #expect(found.count == 1 + 26 * 10)
    #expect(
      found.last?.diagnostic.message
        == "`w29` is not defined: its definition on line 30 has an error, so it defined nothing")
  }

  /// A tape written to be slow: the costliest word the limit allows, used as often as the text
  /// can. Each line may run 16 steps per byte of its text, plus what the lines above left unused
  /// (at most `Machine.reserveCap`): a few uses of each line run, the rest are `too-complex`
  /// without running, and the whole tape runs at most 16 steps a byte plus the reserve.
  @Test func costlyUsesRunWithinTheBound() throws {
    let body = Array(repeating: "1 +", count: 4_999).joined(separator: " ")
    let line = Array(repeating: "w", count: 1_000).joined(separator: " ")
    let text = "0 : w \(body) ;\n" + Array(repeating: line, count: 10).joined(separator: "\n")
    let document = try Document(text: text)
    let found = document.eachFailure()
    #expect(found.allSatisfy { $0.diagnostic.code == .tooComplex })
    let ran = 10_000 - found.count
    #expect(ran >= 3 * 10)
    #expect(document.stack(afterLine: 10, keepingTop: 1).top == [Value(4_999.0 * Double(ran))])
    #expect(document.wordStepsRun == 9_998 * ran)
    #expect(document.wordStepsRun <= text.utf8.count * Machine.workPerByte + Machine.reserveCap)
  }

  /// A word may push thousands of values per use, so the text of a use does not bound the stack;
  /// the text does: 4 values per byte of the line, plus the room the lines above left (at most
  /// `Machine.valueReserveCap`), each refused use leaving the stack as it was.
  @Test func usesCannotGrowTheStackWithoutBound() throws {
    let body = Array(repeating: "1", count: 10_000).joined(separator: " ")
    let uses = Array(repeating: "w", count: 1_700).joined(separator: " ")
    let document = try Document(text: ": w \(body) ;\n\(uses)")
    let found = document.eachFailure()
    let depth = document.stack(afterLine: 1, keepingTop: 0).depth
    #expect(depth % 10_000 == 0 && depth >= 10_000 && depth <= 4 * (uses.utf8.count + 1) + Machine.valueReserveCap)
    #expect(found.count == 1_700 - depth / 10_000 && found.allSatisfy { $0.diagnostic.code == .tooComplex })
    #expect(
      document.diagnostics().first?.diagnostic.message
        == "`w` would push more than 79136 values on this line, the most it may push through words and `roll` "
        + "(4 per byte of its text, and what the lines above left unused, up to 65536); the stack is as it was "
        + "before it; 102 more uses after it on this line fail the same way")
    // The rest are past the line's work: one more diagnostic, counting them.
    #expect(document.diagnostics().count == 2)
  }
}

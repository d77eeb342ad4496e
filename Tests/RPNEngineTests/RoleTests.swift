import Testing

@testable import RPNEngine

/// Each token's role, as the document tells it: what semantic tokens show, asked of the engine
/// rather than worked out by the server. A case is a tape and the roles of its last line's
/// tokens, written `text:role`; a token with no role (an unknown word, an invalid store or
/// definition name) is absent.
@Suite struct RoleTests {
  static let cases: [(tape: String, roles: [String])] = [
    ("1.5 1e999 + pi sqrt", ["1.5:number", "1e999:number", "+:operator", "pi:constant", "sqrt:function"]),
    ("dup √ sum", ["dup:stack", "√:operator", "sum:function"]),
    ("1 2 + =3 =x", ["1:number", "2:number", "+:operator", "=3:check", "=x:store"]),
    // A definition that succeeds: its name, then a use of the word; `x` is a variable.
    (
      "4 =x\n: twice dup + ; 3 twice x",
      [
        "::keyword", "twice:defined", "dup:stack", "+:operator", ";:keyword", "3:number", "twice:word", "x:variable",
      ]
    ),
    // An unknown word and an invalid store have no role; nor has `: dup … ;`'s name.
    ("nope =1x 2", ["2:number"]),
    (": dup 1 + ;", ["::keyword", "1:number", "+:operator", ";:keyword"]),
    // A name stored after a word of that name was defined is a variable from the store on.
    (": f 1 ;\nf 5 =f f", ["f:word", "5:number", "=f:store", "f:variable"]),
    // A body without `;` is not evaluated: its names mean what they meant at the `:`.
    ("2 =y\n: g y", ["::keyword", "g:defined", "y:variable"]),
    ("1 # a comment", ["1:number"]),
  ]

  @Test(arguments: 0..<cases.count)
  func eachTokenHasItsRole(_ index: Int) throws {
    let (tape, expected) = Self.cases[index]
    let document = try Document(text: tape)
    let last = document.lineCount - 1
    var roles: [String] = []
    // A walk from the first line and one from the last line alone must agree.
    for start in [0, last] {
      roles = []
      document.forEachRoledLine(in: start..<(last + 1)) { line, bytes, tokens, _ in
        guard line == last else { return }
        for token in tokens {
          let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[token.range]), as: UTF8.self)
          roles.append("\(text):\(Self.name(token.role))")
        }
      }
      #expect(roles == expected, "\(tape.debugDescription), walking from line \(start)")
    }
  }

  @Test func theCommentIsReported() throws {
    let document = try Document(text: "1 2 # note")
    var comment: Int?
    document.forEachRoledLine(in: 0..<1) { _, _, _, start in comment = start }
    #expect(comment == 4)
  }

  static func name(_ role: TokenRole) -> String {
    switch role {
    case .number: "number"
    case .builtin(.symbolicOperator): "operator"
    case .builtin(.namedFunction): "function"
    case .builtin(.stackWord): "stack"
    case .builtin(.constant): "constant"
    case .check: "check"
    case .quantity: "quantity"
    case .unitWord: "unit"
    case .store: "store"
    case .definitionKeyword: "keyword"
    case .definedName: "defined"
    case .definedUnit: "defined unit"
    case .word: "word"
    case .variable: "variable"
    }
  }
}

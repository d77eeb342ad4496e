// Defined words: their compiled bodies, inferred stack effects and costs, and the table that holds them.

/// One step of a compiled body: push a number (a literal, or a variable's value taken where the
/// word was defined), run a builtin, run another word, or give the top a unit or convert it.
struct WordOp: Equatable {
  enum Kind: UInt8 {
    case push, builtin, call
    /// `_unit` and `>unit`: the unit is `value.unit`, the spelling `target`.
    case attach, convert
  }

  var kind: Kind
  /// The builtin, for `.builtin`.
  var builtin: Builtin.ID = 0
  /// For `.call` the word it runs; for `.builtin`, `.attach` and `.convert` its spelling as written
  /// (in `WordTable.spellings`).
  var target: Int32 = -1
  /// For `.push`; for `.attach` and `.convert`, a value that carries the unit.
  var value: Value = .zero
}

/// A word's stack effect: how many values it needs and how many it leaves in their place, or
/// stack-dependent (its body uses `clear`, `depth`, `sum`, `avg`, `pick` or `roll`).
package struct WordEffect: Equatable, Sendable, CustomStringConvertible {
  /// nil when the effect depends on the stack.
  package var inputs: Int?
  package var outputs: Int?

  package static let stackDependent = WordEffect(inputs: nil, outputs: nil)

  package var isFixed: Bool { inputs != nil }

  /// Forth style, like the builtins' effects: `( a b -- r )`, `( -- r₁ r₂ )`, `( … -- … )`.
  package var description: String {
    guard let inputs, let outputs else { return "( … -- … )" }
    var text = "( "
    text +=
      inputs <= Self.letters.count
      ? Self.letters.prefix(inputs).joined(separator: " ") : Self.numbered("x", inputs)
    text += inputs == 0 ? "--" : " --"
    if outputs > 0 { text += " " + (outputs == 1 ? "r" : Self.numbered("r", outputs)) }
    return text + " )"
  }

  private static let letters = ["a", "b", "c", "d", "e", "f", "g", "h"]
  private static let subscripts = ["₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"]

  /// `r₁ r₂ r₃` for a few values, `r₁ … r₉` past four.
  private static func numbered(_ prefix: String, _ count: Int) -> String {
    if count <= 4 { return (1...count).map { prefix + subscripts[$0] }.joined(separator: " ") }
    return prefix + subscripts[1] + " … " + prefix + subscripted(count)
  }

  private static func subscripted(_ number: Int) -> String {
    String(number).compactMap { $0.wholeNumberValue.map { subscripts[$0] } }.joined()
  }
}

/// A defined word, compiled when its definition is evaluated.
struct Word {
  var name: Int32
  /// Its steps: `WordTable.code[codeStart..<codeEnd]`.
  var codeStart: Int32
  var codeEnd: Int32
  /// -1 when the effect depends on the stack.
  var inputs: Int32
  var outputs: Int32
  /// How many steps a use runs, nested words expanded; at most `WordTable.limit + 1`.
  var cost: Int

  var effect: WordEffect {
    inputs < 0 ? .stackDependent : WordEffect(inputs: Int(inputs), outputs: Int(outputs))
  }
}

/// Every word compiled in a document, interned by content (name and steps): evaluating the same
/// definition again yields the same ID, so two states bind the same word exactly when their IDs
/// are equal, and comparing states stays a comparison of numbers.
struct WordTable {
  /// The most steps one use of a word may run, nested words expanded. A use is at least two bytes
  /// of text (`w `), so a document of n bytes runs at most n / 2 × limit steps in its words.
  package static let limit = 10_000

  var words: ContiguousArray<Word> = []
  var code: ContiguousArray<WordOp> = []
  /// Builtins as the bodies spell them (`÷`, `DUP`), for messages.
  var spellings: [String] = []
  private var spellingIDs: [String: Int32] = [:]
  private var index: [UInt64: [Int32]] = [:]

  var count: Int { words.count }

  mutating func spelling(_ text: String) -> Int32 {
    if let id = spellingIDs[text] { return id }
    let id = Int32(spellings.count)
    spellings.append(text)
    spellingIDs[text] = id
    return id
  }

  /// The ID of the word with this name and these steps, if it was compiled before.
  func find(name: Int32, ops: [WordOp]) -> Int32? {
    index[Self.hash(name: name, ops: ops)]?.first { id in
      let word = words[Int(id)]
      return word.name == name && code[Int(word.codeStart)..<Int(word.codeEnd)].elementsEqual(ops)
    }
  }

  /// The word's ID, adding it when new.
  mutating func intern(name: Int32, ops: [WordOp], effect: WordEffect, cost: Int) -> Int32 {
    if let id = find(name: name, ops: ops) { return id }
    let id = Int32(words.count)
    let start = Int32(code.count)
    code.append(contentsOf: ops)
    words.append(
      Word(
        name: name, codeStart: start, codeEnd: Int32(code.count), inputs: Int32(effect.inputs ?? -1),
        outputs: Int32(effect.outputs ?? -1), cost: cost))
    index[Self.hash(name: name, ops: ops), default: []].append(id)
    return id
  }

  /// Keeps only the words `live` marks and the words they call, in order (a word only calls
  /// words compiled before it); returns the old ID → new ID map (-1 for dropped words).
  mutating func compact(live: [Bool]) -> [Int32] {
    var keep = live + [Bool](repeating: false, count: max(0, words.count - live.count))
    for id in words.indices.reversed() where keep[id] {
      for op in code[Int(words[id].codeStart)..<Int(words[id].codeEnd)] where op.kind == .call {
        keep[Int(op.target)] = true
      }
    }
    var remap = [Int32](repeating: -1, count: words.count)
    var table = WordTable()
    table.spellings = spellings
    table.spellingIDs = spellingIDs
    for id in words.indices where keep[id] {
      let word = words[id]
      let ops = code[Int(word.codeStart)..<Int(word.codeEnd)].map { op in
        var op = op
        if op.kind == .call { op.target = remap[Int(op.target)] }
        return op
      }
      remap[id] = table.intern(name: word.name, ops: ops, effect: word.effect, cost: word.cost)
    }
    self = table
    return remap
  }

  private static func hash(name: Int32, ops: [WordOp]) -> UInt64 {
    var hash = mix(UInt64(UInt32(bitPattern: name)))
    for op in ops {
      let payload =
        op.kind == .push ? op.value.fingerprint : UInt64(op.builtin) << 32 | UInt64(UInt32(bitPattern: op.target))
      hash = mix(hash ^ (payload &+ UInt64(op.kind.rawValue)))
    }
    return hash
  }
}

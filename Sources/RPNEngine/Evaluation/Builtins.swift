// The builtins table: every operator and constant, and the index that finds a spelling in it.

/// One operator or constant of the language, with every spelling that names it.
///
/// This table is the single source of everything about a builtin: evaluation reads its
/// operation and arity here, and hover, completion, semantic tokens, diagnostics and the editor
/// grammars' checks read its kind, effect and meaning here. Spellings are matched ASCII
/// case-insensitively.
package struct Builtin: Sendable {
  /// The index of a builtin in `Builtin.table`.
  package typealias ID = UInt8

  /// What sort of builtin this is, as every feature names and colours it.
  package enum Kind: Sendable, CaseIterable {
    /// Arithmetic written as a symbol: `+`, `-`, `*`, `/`, `^`, `%`, `%ch`.
    case symbolicOperator
    /// A named computation on values: `sqrt`, `sin`, `mod`, `sum`.
    case namedFunction
    /// A word that rearranges the stack without computing: `dup`, `swap`, `clear`, `pick`.
    case stackWord
    /// A constant: `pi`, `e`.
    case constant

    /// The noun a message or hover uses: "operator `+`", "function `sin`".
    package var noun: String {
      switch self {
      case .symbolicOperator: "operator"
      case .namedFunction: "function"
      case .stackWord: "stack operator"
      case .constant: "constant"
      }
    }

    /// The noun with its article: "an operator", "a function".
    package var withArticle: String { self == .symbolicOperator ? "an operator" : "a \(noun)" }
  }

  /// The canonical spelling, as the documentation names it.
  package let name: String
  /// Other spellings of the same builtin (`×` for `*`, `chs` for `neg`).
  package let aliases: [String]
  /// What sort of builtin it is.
  package let kind: Kind
  /// What evaluation does.
  package let operation: Operation
  /// How many values the builtin needs on the stack before it can run (its arity).
  package let inputs: Int
  /// How many values it leaves in place of its inputs (`dup`: 1 in, 2 out). For a builtin that
  /// reads the whole stack, what it leaves in place of all of it (`sum`: 1; `clear`: 0) or, for
  /// `depth`, what it adds.
  package let outputs: Int
  /// Whether what it does depends on the whole stack, not only on its inputs (`clear`, `depth`,
  /// `pick`, `roll`, `sum`, `avg`, `sdev`): its effect is not a fixed `( inputs -- outputs )`.
  package let readsWholeStack: Bool
  /// The stack effect, Forth style, top of the stack on the right: `( a b -- a+b )`.
  package let effect: String
  /// What it computes, in a sentence fragment a user can read in a hover.
  package let meaning: String

  init(
    name: String, aliases: [String], kind: Kind, operation: Operation, inputs: Int, outputs: Int,
    readsWholeStack: Bool = false, effect: String, meaning: String
  ) {
    self.name = name
    self.aliases = aliases
    self.kind = kind
    self.operation = operation
    self.inputs = inputs
    self.outputs = outputs
    self.readsWholeStack = readsWholeStack
    self.effect = effect
    self.meaning = meaning
  }

  /// Every spelling, canonical first.
  package var spellings: [String] { [name] + aliases }

  /// Whether this builtin pushes a constant (`pi`, `e`).
  package var isConstant: Bool { kind == .constant }

  /// The kind a spelling shows as: the builtin's own, except that a symbol spelling of a named
  /// builtin (`√` for `sqrt`) is an operator and a lettered spelling of an operator (`pow` for
  /// `^`) a function, since that is how a reader sees them. Constants stay constants (`π`).
  package func kind(ofSpelling spelling: String) -> Kind {
    Self.kind(kind, spelledSymbolically: Self.isSymbolic(spelling))
  }

  /// The kind a token naming builtin `id` shows as, given whether it is spelled in symbols:
  /// `kind(ofSpelling:)` for callers that hold a token's bytes, not a `String`.
  package static func kind(_ id: ID, spelledSymbolically symbolic: Bool) -> Kind {
    kind(kinds[Int(id)], spelledSymbolically: symbolic)
  }

  private static func kind(_ kind: Kind, spelledSymbolically symbolic: Bool) -> Kind {
    guard kind != .constant else { return .constant }
    if symbolic { return .symbolicOperator }
    return kind == .symbolicOperator ? .namedFunction : kind
  }

  /// Whether a spelling is made of symbols (`+`, `√`, `**`) rather than letters (`dup`, `π`).
  package static func isSymbolic(_ spelling: String) -> Bool {
    guard let first = spelling.unicodeScalars.first else { return false }
    return !Lexer.isNameStart(first)
  }
}

/// What a builtin does to the stack. `Machine.apply` implements each case; what each family
/// computes is written once, in `Machine+Operations.swift`, and the switches over them have no
/// `default:`, so that a new case is one the compiler asks for.
package enum Operation: Sendable, Equatable {
  /// `+ − × ÷`, the commonest: done in place on the line's buffer when the result is finite.
  case arithmetic(Arithmetic)
  /// Another computation on the top two values.
  case binary(Binary)
  /// A computation on the top value.
  case unary(Unary)
  /// A rearrangement of the top values, which computes nothing.
  case shuffle(Shuffle)
  /// A statistic of the whole stack, which it replaces.
  case statistic(Statistic)
  case clear, depth, pick, roll, lastX, subtotal
  case pi, e

  package enum Arithmetic: Sendable, Equatable {
    case add, subtract, multiply, divide
  }

  package enum Binary: Sendable, Equatable {
    case power, percent, percentChange, percentOfTotal, modulo, minimum, maximum, atan2
  }

  package enum Unary: Sendable, Equatable {
    case negate, absolute, inverse, square, squareRoot
    case exp, ln, log10, log2
    case sin, cos, tan, asin, acos, atan
    case sinh, cosh, tanh, asinh, acosh, atanh
    case floor, ceil, round, trunc, factorial
    /// `uval`, `ubase`: a quantity's number without its unit, and the quantity in base units.
    case unitValue, baseUnits
  }

  package enum Shuffle: Sendable, Equatable {
    case dup, drop, swap, over, rot
  }

  package enum Statistic: Sendable, Equatable {
    case sum, average, standardDeviation
  }
}

extension Builtin {
  /// Every operator and constant, in the order the README lists them.
  package static let table: [Builtin] = [
    Builtin(
      name: "+", aliases: [], kind: .symbolicOperator, operation: .arithmetic(.add), inputs: 2, outputs: 1,
      effect: "( a b -- a+b )", meaning: "add"),
    Builtin(
      name: "-", aliases: ["−"], kind: .symbolicOperator, operation: .arithmetic(.subtract), inputs: 2, outputs: 1,
      effect: "( a b -- a−b )", meaning: "subtract"),
    Builtin(
      name: "*", aliases: ["×"], kind: .symbolicOperator, operation: .arithmetic(.multiply), inputs: 2, outputs: 1,
      effect: "( a b -- a·b )", meaning: "multiply"),
    Builtin(
      name: "/", aliases: ["÷"], kind: .symbolicOperator, operation: .arithmetic(.divide), inputs: 2, outputs: 1,
      effect: "( a b -- a÷b )", meaning: "divide"),
    Builtin(
      name: "^", aliases: ["**", "pow"], kind: .symbolicOperator, operation: .binary(.power), inputs: 2, outputs: 1,
      effect: "( a b -- aᵇ )", meaning: "a to the power b"),
    Builtin(
      name: "%", aliases: [], kind: .symbolicOperator, operation: .binary(.percent), inputs: 2, outputs: 2,
      effect: "( a b -- a a·b/100 )", meaning: "b percent of a, keeping a (HP style: `200 15 % -` is 170)"),
    Builtin(
      name: "%ch", aliases: [], kind: .symbolicOperator, operation: .binary(.percentChange), inputs: 2, outputs: 2,
      effect: "( a b -- a (b−a)·100/a )",
      meaning: "the percent change from a to b, keeping a (HP %CH: `80 100 %ch` is 25)"),
    Builtin(
      name: "%t", aliases: [], kind: .symbolicOperator, operation: .binary(.percentOfTotal), inputs: 2, outputs: 2,
      effect: "( a b -- a b·100/a )", meaning: "b as a percent of the total a, keeping a (HP %T: `200 50 %t` is 25)"),
    Builtin(
      name: "mod", aliases: [], kind: .namedFunction, operation: .binary(.modulo), inputs: 2, outputs: 1,
      effect: "( a b -- a mod b )", meaning: "floored modulo a − b·⌊a/b⌋ (takes the sign of b)"),
    Builtin(
      name: "min", aliases: [], kind: .namedFunction, operation: .binary(.minimum), inputs: 2, outputs: 1,
      effect: "( a b -- m )", meaning: "the smaller of a and b"),
    Builtin(
      name: "max", aliases: [], kind: .namedFunction, operation: .binary(.maximum), inputs: 2, outputs: 1,
      effect: "( a b -- m )", meaning: "the larger of a and b"),
    Builtin(
      name: "neg", aliases: ["chs"], kind: .namedFunction, operation: .unary(.negate), inputs: 1, outputs: 1,
      effect: "( a -- −a )", meaning: "change sign"),
    Builtin(
      name: "abs", aliases: [], kind: .namedFunction, operation: .unary(.absolute), inputs: 1, outputs: 1,
      effect: "( a -- |a| )", meaning: "absolute value"),
    Builtin(
      name: "inv", aliases: [], kind: .namedFunction, operation: .unary(.inverse), inputs: 1, outputs: 1,
      effect: "( a -- 1/a )", meaning: "reciprocal"),
    Builtin(
      name: "sq", aliases: [], kind: .namedFunction, operation: .unary(.square), inputs: 1, outputs: 1,
      effect: "( a -- a² )", meaning: "square"),
    Builtin(
      name: "sqrt", aliases: ["√"], kind: .namedFunction, operation: .unary(.squareRoot), inputs: 1, outputs: 1,
      effect: "( a -- √a )", meaning: "square root"),
    Builtin(
      name: "exp", aliases: [], kind: .namedFunction, operation: .unary(.exp), inputs: 1, outputs: 1,
      effect: "( a -- eᵃ )", meaning: "e to the power a"),
    Builtin(
      name: "ln", aliases: [], kind: .namedFunction, operation: .unary(.ln), inputs: 1, outputs: 1,
      effect: "( a -- ln a )", meaning: "natural logarithm"),
    Builtin(
      name: "log", aliases: ["log10"], kind: .namedFunction, operation: .unary(.log10), inputs: 1, outputs: 1,
      effect: "( a -- log₁₀ a )", meaning: "logarithm base 10"),
    Builtin(
      name: "log2", aliases: [], kind: .namedFunction, operation: .unary(.log2), inputs: 1, outputs: 1,
      effect: "( a -- log₂ a )", meaning: "logarithm base 2"),
    Builtin(
      name: "sin", aliases: [], kind: .namedFunction, operation: .unary(.sin), inputs: 1, outputs: 1,
      effect: "( a -- sin a )", meaning: "sine, in the angle unit"),
    Builtin(
      name: "cos", aliases: [], kind: .namedFunction, operation: .unary(.cos), inputs: 1, outputs: 1,
      effect: "( a -- cos a )", meaning: "cosine, in the angle unit"),
    Builtin(
      name: "tan", aliases: [], kind: .namedFunction, operation: .unary(.tan), inputs: 1, outputs: 1,
      effect: "( a -- tan a )", meaning: "tangent, in the angle unit"),
    Builtin(
      name: "asin", aliases: [], kind: .namedFunction, operation: .unary(.asin), inputs: 1, outputs: 1,
      effect: "( a -- asin a )", meaning: "arc sine, in the angle unit"),
    Builtin(
      name: "acos", aliases: [], kind: .namedFunction, operation: .unary(.acos), inputs: 1, outputs: 1,
      effect: "( a -- acos a )", meaning: "arc cosine, in the angle unit"),
    Builtin(
      name: "atan", aliases: [], kind: .namedFunction, operation: .unary(.atan), inputs: 1, outputs: 1,
      effect: "( a -- atan a )", meaning: "arc tangent, in the angle unit"),
    Builtin(
      name: "atan2", aliases: [], kind: .namedFunction, operation: .binary(.atan2), inputs: 2, outputs: 1,
      effect: "( y x -- θ )",
      meaning: "the angle of the point (x, y), in the angle unit: from −π to π, or −180° to 180° (C's atan2)"),
    Builtin(
      name: "sinh", aliases: [], kind: .namedFunction, operation: .unary(.sinh), inputs: 1, outputs: 1,
      effect: "( a -- sinh a )", meaning: "hyperbolic sine (the angle unit does not apply)"),
    Builtin(
      name: "cosh", aliases: [], kind: .namedFunction, operation: .unary(.cosh), inputs: 1, outputs: 1,
      effect: "( a -- cosh a )", meaning: "hyperbolic cosine (the angle unit does not apply)"),
    Builtin(
      name: "tanh", aliases: [], kind: .namedFunction, operation: .unary(.tanh), inputs: 1, outputs: 1,
      effect: "( a -- tanh a )", meaning: "hyperbolic tangent (the angle unit does not apply)"),
    Builtin(
      name: "asinh", aliases: [], kind: .namedFunction, operation: .unary(.asinh), inputs: 1, outputs: 1,
      effect: "( a -- asinh a )", meaning: "inverse hyperbolic sine"),
    Builtin(
      name: "acosh", aliases: [], kind: .namedFunction, operation: .unary(.acosh), inputs: 1, outputs: 1,
      effect: "( a -- acosh a )", meaning: "inverse hyperbolic cosine, of a value ≥ 1"),
    Builtin(
      name: "atanh", aliases: [], kind: .namedFunction, operation: .unary(.atanh), inputs: 1, outputs: 1,
      effect: "( a -- atanh a )", meaning: "inverse hyperbolic tangent, of a value between −1 and 1"),
    Builtin(
      name: "floor", aliases: [], kind: .namedFunction, operation: .unary(.floor), inputs: 1, outputs: 1,
      effect: "( a -- ⌊a⌋ )", meaning: "round down"),
    Builtin(
      name: "ceil", aliases: [], kind: .namedFunction, operation: .unary(.ceil), inputs: 1, outputs: 1,
      effect: "( a -- ⌈a⌉ )", meaning: "round up"),
    Builtin(
      name: "round", aliases: [], kind: .namedFunction, operation: .unary(.round), inputs: 1, outputs: 1,
      effect: "( a -- r )", meaning: "round to the nearest integer, halves away from zero"),
    Builtin(
      name: "trunc", aliases: [], kind: .namedFunction, operation: .unary(.trunc), inputs: 1, outputs: 1,
      effect: "( a -- r )", meaning: "round toward zero"),
    Builtin(
      name: "fact", aliases: [], kind: .namedFunction, operation: .unary(.factorial), inputs: 1, outputs: 1,
      effect: "( n -- n! )", meaning: "factorial of a whole number from 0 to 170 (171! is beyond the largest double)"),
    Builtin(
      name: "dup", aliases: [], kind: .stackWord, operation: .shuffle(.dup), inputs: 1, outputs: 2,
      effect: "( a -- a a )", meaning: "duplicate the top value"),
    Builtin(
      name: "drop", aliases: [], kind: .stackWord, operation: .shuffle(.drop), inputs: 1, outputs: 0,
      effect: "( a -- )", meaning: "discard the top value"),
    Builtin(
      name: "swap", aliases: [], kind: .stackWord, operation: .shuffle(.swap), inputs: 2, outputs: 2,
      effect: "( a b -- b a )", meaning: "exchange the top two"),
    Builtin(
      name: "over", aliases: [], kind: .stackWord, operation: .shuffle(.over), inputs: 2, outputs: 3,
      effect: "( a b -- a b a )", meaning: "copy the second to the top"),
    Builtin(
      name: "rot", aliases: [], kind: .stackWord, operation: .shuffle(.rot), inputs: 3, outputs: 3,
      effect: "( a b c -- b c a )", meaning: "rotate the third to the top"),
    Builtin(
      name: "clear", aliases: [], kind: .stackWord, operation: .clear, inputs: 0, outputs: 0, readsWholeStack: true,
      effect: "( … -- )", meaning: "empty the stack"),
    Builtin(
      name: "depth", aliases: [], kind: .stackWord, operation: .depth, inputs: 0, outputs: 1, readsWholeStack: true,
      effect: "( … -- … n )", meaning: "push the number of values"),
    Builtin(
      name: "pick", aliases: [], kind: .stackWord, operation: .pick, inputs: 1, outputs: 1, readsWholeStack: true,
      effect: "( xₙ … x₁ n -- xₙ … x₁ xₙ )",
      meaning: "copy the n-th value below n to the top (`1 pick` is `dup`, `2 pick` is `over`)"),
    Builtin(
      name: "roll", aliases: [], kind: .stackWord, operation: .roll, inputs: 1, outputs: 0, readsWholeStack: true,
      effect: "( xₙ … x₁ n -- xₙ₋₁ … x₁ xₙ )",
      meaning: "move the n-th value below n to the top (`2 roll` is `swap`, `3 roll` is `rot`)"),
    Builtin(
      name: "lastx", aliases: [], kind: .stackWord, operation: .lastX, inputs: 0, outputs: 1,
      effect: "( -- x )",
      meaning:
        "push again the top operand of the most recent operator or function that consumed values (HP LASTx)"),
    Builtin(
      name: "sum", aliases: [], kind: .namedFunction, operation: .statistic(.sum), inputs: 1, outputs: 1,
      readsWholeStack: true,
      effect: "( x₁ … xₙ -- Σ )", meaning: "add up the whole stack, bottom to top"),
    Builtin(
      name: "avg", aliases: ["mean"], kind: .namedFunction, operation: .statistic(.average), inputs: 1, outputs: 1,
      readsWholeStack: true,
      effect: "( x₁ … xₙ -- mean )", meaning: "mean of the whole stack"),
    Builtin(
      name: "sdev", aliases: [], kind: .namedFunction, operation: .statistic(.standardDeviation), inputs: 2, outputs: 1,
      readsWholeStack: true, effect: "( x₁ … xₙ -- s )",
      meaning: "sample standard deviation of the whole stack, dividing by n − 1 (HP SDEV; needs 2 values)"),
    Builtin(
      name: "subtotal", aliases: [], kind: .namedFunction, operation: .subtotal, inputs: 0, outputs: 1,
      readsWholeStack: true, effect: "( s₁ … sₖ -- Σ )",
      meaning: "add up the values pushed since the current section's heading (`##`), bottom to top"),
    Builtin(
      name: "pi", aliases: ["π"], kind: .constant, operation: .pi, inputs: 0, outputs: 1,
      effect: "( -- π )", meaning: "the constant π"),
    Builtin(
      name: "e", aliases: [], kind: .constant, operation: .e, inputs: 0, outputs: 1,
      effect: "( -- e )", meaning: "the constant e, base of ln"),
    Builtin(
      name: "uval", aliases: [], kind: .namedFunction, operation: .unary(.unitValue), inputs: 1, outputs: 1,
      effect: "( q -- x )", meaning: "the number of a quantity without its unit, in its own unit (`12_km uval` is 12)"),
    Builtin(
      name: "ubase", aliases: [], kind: .namedFunction, operation: .unary(.baseUnits), inputs: 1, outputs: 1,
      effect: "( q -- q' )",
      meaning: "the quantity in SI base units: kg, m, s, A, K, rad, bit (`1_kWh ubase` is 3600000_kg*m^2/s^2)"),
  ]

  /// Each builtin's kind, by ID.
  static let kinds: [Kind] = table.map(\.kind)

  /// Each builtin's operation and effect, by ID: reading one copies no strings (the hot path).
  static let steps: ContiguousArray<Step> = ContiguousArray(
    table.map { builtin in
      var kept = 0
      if case .shuffle(let shuffle) = builtin.operation {
        kept = Machine.kept(shuffle, inputs: builtin.inputs, outputs: builtin.outputs)
      }
      return Step(operation: builtin.operation, inputs: builtin.inputs, outputs: builtin.outputs, kept: kept)
    })

  /// What evaluation reads of a builtin, small enough to copy per word. Evaluation reads
  /// `outputs` too (how many operands a result replaces, how many values a shuffle leaves), so
  /// the effect that inference reads is the one evaluation does.
  struct Step {
    let operation: Operation
    let inputs: Int
    let outputs: Int
    /// For a shuffle, how many of its first inputs it leaves where they were (`Machine.kept`).
    let kept: Int

    /// How many of a computation's operands its result replaces: all of them, but the percents
    /// keep a (HP style), so only b is replaced.
    var replaced: Int { inputs - outputs + 1 }
  }

  /// The builtin a spelling names, ASCII case-insensitively, or nil.
  package static func lookup(_ spelling: String) -> ID? {
    var bytes = Array(spelling.utf8)
    return bytes.withUnsafeMutableBufferPointer { lookup(UnsafeBufferPointer($0)) }
  }

  /// The builtin the UTF-8 bytes name, ASCII case-insensitively, or nil. The hot path of evaluation.
  @inline(__always)
  static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> ID? {
    guard let key = packedKey(bytes) else { return nil }
    return BuiltinIndex.shared.find(key)
  }

  /// A spelling of up to eight bytes, lowercased, packed into an integer with its length in the
  /// top byte; nil for anything longer than every builtin spelling. Up to seven bytes take a byte
  /// each; eight (`subtotal`) must be ASCII, and take seven bits each.
  @inline(__always)
  static func packedKey(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
    guard bytes.count <= 7, bytes.count > 0 else { return bytes.count == 8 ? packedKey8(bytes) : nil }
    var key = UInt64(bytes.count) << 56
    for (i, byte) in bytes.enumerated() {
      let lower = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
      key |= UInt64(lower) << (UInt64(i) * 8)
    }
    return key
  }

  /// The packed key of the token at `range` of a line's bytes, as `packedKey(_:)` makes it, but
  /// for up to seven bytes in one unaligned load of the eight bytes that start (or end) with the
  /// token, lowercased all at once (`packedKey(word:length:)`).
  @inline(__always)
  static func packedKey(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64? {
    let length = range.count
    guard length <= 7, length > 0, let base = line.baseAddress else {
      return packedKey(UnsafeBufferPointer(rebasing: line[range]))
    }
    let raw = UnsafeRawPointer(base)
    let word: UInt64
    if range.lowerBound + 8 <= line.count {
      word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self))
    } else if range.upperBound >= 8 {
      let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: range.upperBound - 8, as: UInt64.self))
      word = last >> UInt64(64 - 8 * length)
    } else {
      return packedKey(UnsafeBufferPointer(rebasing: line[range]))
    }
    return packedKey(word: word, length: length)
  }

  /// The packed key of the first `length` bytes (one to seven) of a little-endian word, all
  /// lowercased at once: ASCII `A`…`Z` are the bytes whose top bit is clear and whose low seven
  /// bits are at least 0x41 and below 0x5B; adding 0x3F and 0x25 to the low seven bits sets the
  /// top bit of exactly those at least 0x41 and 0x5B, with no carry between bytes.
  @inline(__always)
  static func packedKey(word: UInt64, length: Int) -> UInt64 {
    let text = word & ((1 << UInt64(8 * length)) &- 1)
    let low = text & 0x7F7F_7F7F_7F7F_7F7F
    let atLeastA = low &+ 0x3F3F_3F3F_3F3F_3F3F
    let pastZ = low &+ 0x2525_2525_2525_2525
    let upper = atLeastA & ~pastZ & ~text & 0x8080_8080_8080_8080
    return text | (upper >> 2) | UInt64(length) << 56
  }

  /// Eight ASCII bytes, seven bits each, under the length.
  private static func packedKey8(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
    var key = UInt64(8) << 56
    for (i, byte) in bytes.enumerated() {
      guard byte < 0x80 else { return nil }
      let lower = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
      key |= UInt64(lower) << (UInt64(i) * 7)
    }
    return key
  }
}

/// An open-addressing hash table from packed spellings to builtin IDs: a lookup is a multiply,
/// a shift and one or two compares, which matters because every word of a tape goes through it.
/// Its storage is allocated once for the life of the process and never freed, so copies of it
/// are plain pointers: passing it around the hot loop costs no reference counting.
package struct BuiltinIndex: @unchecked Sendable {
  static let shared = BuiltinIndex()

  private static let bits = 8
  private let keys: UnsafeMutablePointer<UInt64>
  private let values: UnsafeMutablePointer<Builtin.ID>
  /// The kind of each token of one ASCII byte (`+`, `e`, `x`, `;`), as `Lexer.classify` finds it.
  private let singleBytes: UnsafeMutablePointer<TokenKind>

  private init() {
    singleBytes = .allocate(capacity: 128)
    singleBytes.initialize(repeating: .unknown, count: 128)
    let size = 1 << Self.bits
    keys = .allocate(capacity: size)
    keys.initialize(repeating: 0, count: size)
    values = .allocate(capacity: size)
    values.initialize(repeating: 0, count: size)
    for (id, builtin) in Builtin.table.enumerated() {
      for spelling in builtin.spellings {
        var bytes = Array(spelling.utf8)
        let key = bytes.withUnsafeMutableBufferPointer { Builtin.packedKey(UnsafeBufferPointer($0)) }
        guard let key else { preconditionFailure("builtin spelling \(spelling) is longer than 8 bytes") }
        var slot = Self.slot(key)
        while keys[slot] != 0 { slot = (slot + 1) & (size - 1) }
        keys[slot] = key
        values[slot] = Builtin.ID(id)
      }
    }
    for byte in 0..<UInt8(128) {
      singleBytes[Int(byte)] = withUnsafeBytes(of: byte) {
        Lexer.classify($0.assumingMemoryBound(to: UInt8.self), builtins: self)
      }
    }
  }

  /// The kind of a token made of one ASCII byte.
  @inline(__always)
  func kind(ofByte byte: UInt8) -> TokenKind { singleBytes[Int(byte)] }

  @inline(__always)
  private static func slot(_ key: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
  }

  @inline(__always)
  func find(_ key: UInt64) -> Builtin.ID? {
    var slot = Self.slot(key)
    while true {
      let candidate = keys[slot]
      if candidate == key { return values[slot] }
      if candidate == 0 { return nil }
      slot = (slot + 1) & ((1 << Self.bits) - 1)
    }
  }
}

// Habits from other calculators, told after a line is evaluated: infix (`3 + 4`) and `= 7`.

/// The first three tokens of a line, kept while it is evaluated: a line of exactly a number, a
/// binary operator and a number reads as infix.
struct LineShape {
  private var first = Token(range: 0..<0, kind: .unknown)
  private var second = Token(range: 0..<0, kind: .unknown)
  private var third = Token(range: 0..<0, kind: .unknown)

  @inline(__always)
  mutating func record(_ token: Token, at ordinal: Int) {
    switch ordinal {
    case 0: first = token
    case 1: second = token
    default: third = token
    }
  }

  /// For a line of exactly three tokens that reads `NUMBER OPERATOR NUMBER`: the operator's
  /// range, the three tokens' span and the line in RPN (`3 4 +`).
  func infix(builtins: BuiltinIndex, in line: UnsafeBufferPointer<UInt8>) -> Infix? {
    guard case .number = first.kind, case .number = third.kind, case .builtin(let id) = second.kind,
      Self.isBinaryOperation[Int(id)]
    else { return nil }
    let text = { (token: Token) in String(decoding: UnsafeBufferPointer(rebasing: line[token.range]), as: UTF8.self) }
    return Infix(
      operatorRange: second.range, span: first.range.lowerBound..<third.range.upperBound,
      reading: "\(text(first)) \(text(third)) \(text(second))")
  }

  /// Whether a builtin takes two values and computes with them (`+`, `^`, `mod`, `atan2`): what
  /// an infix habit puts between two numbers. Stack words (`swap`) do not compute.
  private static let isBinaryOperation: [Bool] = Builtin.table.map { builtin in
    builtin.inputs == 2 && !builtin.readsWholeStack
      && (builtin.kind == .symbolicOperator || builtin.kind == .namedFunction)
  }
}

/// An infix line: where its operator is, the span of its three tokens, and how it reads in RPN.
struct Infix {
  var operatorRange: Range<Int>
  var span: Range<Int>
  var reading: String
}

extension Machine {
  /// Tells the infix habit at the operator: its diagnostic, if it failed (an underflow when
  /// nothing was above the line), gains the RPN reading; else an `infix` note is added there.
  mutating func markInfix(_ infix: Infix) {
    if let index = diagnostics.lastIndex(where: { $0.range == infix.operatorRange }) {
      let inner = diagnostics[index].problem
      diagnostics[index].problem = .infix(reading: infix.reading, span: infix.span, inner: inner)
    } else {
      diagnostics.append(
        Diagnostic(range: infix.operatorRange, problem: .infix(reading: infix.reading, span: infix.span, inner: nil)))
    }
  }

  /// `=` alone followed by a number (`= 7`) was meant as a check: its `invalid-name` says how a
  /// check is written. Rare, so the line is lexed again here rather than watched on the hot path.
  mutating func markSpacedChecks(in line: UnsafeBufferPointer<UInt8>) {
    let tokens = Lexer.tokens(of: line).tokens
    for (index, token) in tokens.enumerated().dropLast() {
      guard case .invalidStore(.missing) = token.kind, case .number = tokens[index + 1].kind,
        let diagnostic = diagnostics.firstIndex(where: { $0.range == token.range })
      else { continue }
      let number = tokens[index + 1].range
      let check = "=" + String(decoding: UnsafeBufferPointer(rebasing: line[number]), as: UTF8.self)
      diagnostics[diagnostic].problem = .spacedCheck(check: check, span: token.range.lowerBound..<number.upperBound)
    }
  }
}

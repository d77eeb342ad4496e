// Habits from other calculators, told after a line is evaluated: infix (`3 + 4`) and `= 7`.

/// What a line's tokens are, two bits each, the last in the lowest bits, kept while it is
/// evaluated: a line of exactly a number, a binary operator and a number reads as infix. Only such
/// a line is looked at again, so the common line pays a shift per token, not a copy of its tokens.
enum LineShape {
  static let number: UInt64 = 1
  static let builtin: UInt64 = 2
  static let other: UInt64 = 3
  /// A number, a builtin, a number (the last two tokens' six bits): the shape an infix line has.
  static let numberBuiltinNumber: UInt64 = number << 4 | builtin << 2 | number

  /// Whether a builtin takes two values and computes with them (`+`, `^`, `mod`): what an
  /// infix habit puts between two numbers. Stack words (`swap`) do not compute.
  static let isBinaryOperation: [Bool] = Builtin.table.map { builtin in
    builtin.inputs == 2 && !builtin.readsWholeStack
      && (builtin.kind == .symbolicOperator || builtin.kind == .namedFunction)
  }
}

extension Machine {
  /// On a line of the infix shape (`LineShape.numberBuiltinNumber`) whose builtin is a binary
  /// operation: its diagnostic at the operator, if it failed (an underflow when nothing was
  /// above the line), gains the RPN reading; else an `infix` note is added there.
  @inline(never)  // Rare, and its lexer would swell the loop that calls it.
  mutating func markInfix(in line: UnsafeBufferPointer<UInt8>) {
    let lexed = LexedLine(line)
    let tokens = lexed.tokens
    guard tokens.count == 3, case .builtin(let id) = tokens[1].kind, LineShape.isBinaryOperation[Int(id)] else {
      return
    }
    let reading = [0, 2, 1].map { lexed.text(tokens[$0].range) }.joined(separator: " ")
    let span = tokens[0].range.lowerBound..<tokens[2].range.upperBound
    let at = tokens[1].range
    if let index = diagnostics.lastIndex(where: { $0.range == at }) {
      diagnostics[index].problem = .infix(reading: reading, span: span, inner: diagnostics[index].problem)
    } else {
      diagnostics.append(Diagnostic(range: at, problem: .infix(reading: reading, span: span, inner: nil)))
    }
  }

  /// `=` alone followed by a number (`= 7`) was meant as a check: its `invalid-name` says how a
  /// check is written. Rare, so the line is lexed again here rather than watched on the hot path.
  @inline(never)
  mutating func markSpacedChecks(in line: UnsafeBufferPointer<UInt8>) {
    let lexed = LexedLine(line)
    let tokens = lexed.tokens
    for (index, token) in tokens.enumerated().dropLast() {
      guard case .invalidStore(.missing) = token.kind, case .number = tokens[index + 1].kind,
        let diagnostic = diagnostics.firstIndex(where: { $0.range == token.range })
      else { continue }
      let number = tokens[index + 1].range
      let check = "=" + lexed.text(number)
      diagnostics[diagnostic].problem = .spacedCheck(check: check, span: token.range.lowerBound..<number.upperBound)
    }
  }
}

// The work and memory a line may spend: its budget, the reserves carried down, what passing them is.

extension Machine {
  /// Steps a line may run per byte of its text: 16 keeps a megabyte of text under 17 million
  /// steps, a second on the slowest (builtins such as `sqrt`, at some 70 ns a step in a word).
  static let workPerByte = 16
  /// The most work carried from line to line: some 70 ms at the slowest steps.
  static let reserveCap = 1 << 20
  /// The most values' room carried from line to line: a megabyte of stack nodes.
  static let valueReserveCap = 1 << 16
  /// Steps a value read by `pick`, `roll`, `sum`, `avg`, `sdev` or `subtotal` counts as: reading
  /// the persistent stack follows one node to the next, some four times a step's time.
  static let stepsPerRead = 4
  /// Values a line may push through words and `roll` per byte of its text: with 16-byte nodes,
  /// 64 bytes of memory per byte of text at most.
  static let valuesPerByte = 4
  /// Values a use may hold for a while past what its line may leave (`: ten … ; ten sum`).
  static let transientValues = 1 << 16

  /// Takes `work` from the line's budget; false, taking nothing, when too little is left.
  @inline(__always)
  mutating func spend(_ work: Int) -> Bool {
    guard work <= workLeft else { return false }
    workLeft -= work
    return true
  }

  /// Takes the reading of `values` values from the line's free read of its starting stack, then
  /// from its budget; false, taking nothing, when too little is left.
  @inline(__always)
  mutating func spend(reading values: Int) -> Bool {
    let free = min(values, readAllowance)
    guard spend((values - free) * Self.stepsPerRead) else { return false }
    readAllowance -= free
    return true
  }

  /// The problem of a step past the line's budget of work.
  func overBudget(_ word: String) -> Problem { .overBudget(word: word, limit: lineBudget, values: false) }

  /// Carries what the line just evaluated left of its work and room down to the next line. Out of
  /// `evaluateLine`, and out of line, so that its loop stays small enough for the lexer's `next()`
  /// to be inlined into it.
  @inline(never)
  mutating func carryReserves() {
    reserve = min(max(workLeft, 0), Self.reserveCap)
    valueReserve = min(max(valueCap - localCount, 0), Self.valueReserveCap)
  }
}

import Testing

@testable import RPNEngine

/// A builtin runs on one of two paths: in place on the values a line or a word's use pushed
/// itself (arithmetic, and inside a use the shuffles too), or through `Machine.apply` when its
/// operands lie on the stack that lines above left. Both read one definition of each operation
/// and the table's effect, so every builtin gives the same stack whichever path runs it.
@Suite struct BuiltinPathTests {
  /// The stack label after the last line of `text`, and its diagnostics' codes.
  static func evaluate(_ text: String) throws -> (label: String, codes: [String]) {
    let document = try Document(text: text)
    let label = document.stack(afterLine: document.lineCount - 1, keepingTop: 8)
      .label(display: DisplaySettings(precision: 15, maxItems: 8))
    return (label, document.diagnostics().map(\.diagnostic.code.rawValue))
  }

  /// Operands in the builtin's domain: 0.5 is in every one but a factorial's and an inverse
  /// hyperbolic cosine's; `pick` and `roll` get an n of 2, with values below it.
  static func operands(_ builtin: Builtin) -> String {
    if builtin.operation == .pick || builtin.operation == .roll { return "7 8 2" }
    let operand = ["fact": "3", "acosh": "2"][builtin.name] ?? "0.5"
    return Array(repeating: operand, count: builtin.inputs).joined(separator: " ")
  }

  @Test(arguments: Builtin.table.filter { $0.operation != .subtotal && $0.operation != .lastX }.map(\.name))
  func everyPathGivesTheSameStack(_ name: String) throws {
    let builtin = try #require(Builtin.lookup(name).map { Builtin.table[Int($0)] })
    let operands = Self.operands(builtin)
    // `6 1 +` leaves a value below the operands and gives `lastx` something to recall.
    let inLine = try Self.evaluate("6 1 + \(operands) \(name)")
    #expect(inLine.codes == [], "\(name)")
    let paths = [
      // The operands on the line above: `apply` reads them from the persistent stack.
      "6 1 + \(operands)\n\(name)",
      // Inside a use, on values the use pushed: in place.
      ": w \(operands) \(name) ;\n6 1 + w",
      // Inside a use, on values lines above left: `apply` again.
      ": w \(name) ;\n6 1 + \(operands)\nw",
      // Inside a word that a use calls, after a value the use pushed.
      ": v \(name) ;\n: w 9 drop v ;\n6 1 + \(operands)\nw",
    ]
    for text in paths {
      let result = try Self.evaluate(text)
      #expect(result.label == inLine.label, "\(text.debugDescription)")
      #expect(result.codes == [], "\(text.debugDescription)")
    }
    // `lastx` too is the same on both paths outside words (a use sets it as a whole).
    let lastX = try Self.evaluate("6 1 + \(operands) \(name) lastx")
    #expect(try Self.evaluate("6 1 + \(operands)\n\(name) lastx").label == lastX.label, "\(name)")
  }

  /// A shuffle runs in place inside a use and leaves exactly the table's `outputs` in place of its
  /// `inputs`, with what lay below untouched; a use that fails after in-place steps is undone.
  @Test func inPlaceStepsKeepWhatLiesBelowAndUndo() throws {
    #expect(try Self.evaluate(": w 1 2 3 rot ;\n4 w").label == "[4 2 3 1]")
    #expect(try Self.evaluate(": w 1 2 over ;\n4 w").label == "[4 1 2 1]")
    #expect(try Self.evaluate(": w 1 2 swap ;\n4 w").label == "[4 2 1]")
    #expect(try Self.evaluate(": w 1 dup ;\n4 w").label == "[4 1 1]")
    #expect(try Self.evaluate(": w 1 2 drop ;\n4 w").label == "[4 1]")
    // A failing step after an in-place step puts back the stack the use was given: values the
    // line pushed before the use, which the step changed in place, as well as the lines' above.
    for (text, label) in [
      (": w swap 0 / ;\n1 2\nw", "[1 2]"), (": w swap 0 / ;\n1 2 w", "[1 2]"),
      (": w rot 0 / ;\n1 2 3 w", "[1 2 3]"), (": w drop 0 / ;\n1 2 w", "[1 2]"),
      (": w * 0 / ;\n3 4 w", "[3 4]"), (": w dup * 0 / ;\n3 4 w", "[3 4]"),
      (": w sqrt 0 / ;\n3 4 w", "[3 4]"), (": w % 0 / ;\n200 15 w", "[200 15]"),
      (": w max 0 / ;\n3 4 w", "[3 4]"),
    ] {
      let result = try Self.evaluate(text)
      #expect(result.codes == ["division-by-zero"], "\(text.debugDescription)")
      #expect(result.label == label, "\(text.debugDescription)")
    }
  }
}

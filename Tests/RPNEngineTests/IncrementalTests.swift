import TestSupport
import Testing

@testable import RPNEngine

/// The incremental model must be indistinguishable from evaluating the edited text afresh.
@Suite struct IncrementalTests {
  /// 2,000 seeded documents of 12 edits each, in 8 runs of 250 seeds that the test runner may
  /// run side by side (one run of 2,000 was the longest test of the suite, alone at its end).
  @Test(arguments: 0..<8) func randomEditsMatchFullEvaluation(run: Int) throws {
    var edits = 0
    for seed in UInt64(run * 250 + 1)...UInt64(run * 250 + scaledCount(250)) {
      var random = SplitMix64(seed: seed)
      var reference = randomDocument(&random)
      let settings = EvaluationSettings(angleMode: seed % 7 == 0 ? .degrees : .radians)
      let document = try Document(text: reference, settings: settings)
      try expectSame(document, reference, settings: settings, seed: seed, step: 0)
      for step in 1...12 {
        if random.next(below: 5) == 0 {
          // Several edits at once, each in the positions the previous one left: one evaluation.
          var edits: [TextEdit] = []
          for _ in 0..<(2 + random.next(below: 3)) {
            let start = randomPosition(&random, in: reference)
            let end = random.next(below: 3) == 0 ? start : randomPosition(&random, in: reference)
            let newText = randomSnippet(&random)
            reference = ReferenceText.replace(reference, from: start, to: end, with: newText)
            edits.append(TextEdit(from: start, to: end, text: newText))
          }
          try document.apply(edits)
        } else if random.next(below: 3) == 0 {
          let first = random.next(below: document.lineCount + 1)
          let last = min(document.lineCount, first + random.next(below: 3))
          let replacement = (0..<random.next(below: 3)).map { _ in randomLine(&random) + randomBreak(&random) }
            .joined()
          reference = ReferenceText.replaceLines(reference, first..<last, with: replacement)
          try document.replaceLines(first..<last, with: replacement)
        } else {
          let start = randomPosition(&random, in: reference)
          let end = random.next(below: 4) == 0 ? start : randomPosition(&random, in: reference)
          let newText = randomSnippet(&random)
          reference = ReferenceText.replace(reference, from: start, to: end, with: newText)
          try document.replace(from: start, to: end, with: newText)
        }
        edits += 1
        try expectSame(document, reference, settings: settings, seed: seed, step: step)
      }
    }
    #expect(edits == scaledCount(250) * 12)
  }

  @Test func editStopsWhereTheStateSettles() throws {
    let text = (0..<1_000).map { $0 % 10 == 9 ? "clear" : "\($0) 2 *" }.joined(separator: "\n")
    let document = try Document(text: text)
    let result = try document.replace(
      from: TextPosition(line: 501, utf8Column: 0), to: TextPosition(line: 501, utf8Column: 3), with: "7")
    #expect(result.replacedLines == 501..<502)
    // Lines 501...509 see the change; `clear` on line 509 settles the stack.
    #expect(result.reevaluatedLines == 501..<510)
    #expect(document.stack(afterLine: 501).label() == "[1000 14]")
  }

  @Test func storeChangeSettlesWhenTheNameIsStoredAgain() throws {
    let text = "1 =a\n2 =b\na b +\n3 =a\na b +\n5"
    let document = try Document(text: text)
    let result = try document.replace(
      from: TextPosition(line: 0, utf8Column: 0), to: TextPosition(line: 0, utf8Column: 1), with: "9")
    // The store of `a` on line 3 hides the change again: the variables agree after it, but the
    // stack still holds 11 instead of 3 until the end.
    #expect(result.reevaluatedLines == 0..<6)
    #expect(document.stack(afterLine: 5).label() == "[9 2 11 3 5 5]")
    let local = try document.replace(
      from: TextPosition(line: 3, utf8Column: 0), to: TextPosition(line: 3, utf8Column: 1), with: "3")
    #expect(local.reevaluatedLines == 3..<4)
  }

  /// 200,000 numbers, one per line: the stack is 200,000 deep at the end, yet the document holds
  /// one stack node per line, not one per line per value below it.
  @Test func stacksShareStructure() throws {
    let lines = 200_000
    let text = (1...lines).map(String.init).joined(separator: "\n")
    let document = try Document(text: text)
    #expect(document.stackNodeCount == lines)
    #expect(document.stack(afterLine: lines - 1, keepingTop: 2) == StackPicture(depth: lines, top: [199_999, 200_000]))
    // A 56-byte line record (the work and room carried to the next line among it, `lastx` with
    // its unit) and a 24-byte node, plus the arrays' spare capacity.
    #expect(MemoryLayout<LineRecord>.stride == 56 && MemoryLayout<StackNode>.stride == 24)
    #expect(document.stateByteCount / lines <= 80)
    // A change at the top changes every label below, yet adds no node: the line's own node
    // takes the new value.
    let result = try document.replace(
      from: TextPosition(line: 0, utf8Column: 0), to: TextPosition(line: 0, utf8Column: 1), with: "5")
    #expect(result.reevaluatedLines == 0..<lines)
    #expect(document.stackNodeCount == lines)
    #expect(document.stack(afterLine: lines - 1, keepingTop: lines).top.prefix(2) == [5, 2])
    // A change of depth at the top: each line below gets one new node, no more.
    try document.replace(
      from: TextPosition(line: 0, utf8Column: 0), to: TextPosition(line: 0, utf8Column: 1), with: "5 6")
    #expect(document.stackNodeCount <= 2 * lines + 1)
    #expect(
      document.stack(afterLine: lines - 1, keepingTop: 3)
        == StackPicture(depth: lines + 1, top: [199_998, 199_999, 200_000]))
    #expect(document.stack(afterLine: lines - 1, keepingTop: lines + 1).top.prefix(3) == [5, 6, 2])
  }

  /// Typing for a long time must not grow memory without bound: garbage is collected.
  @Test func garbageIsCollected() throws {
    let document = try Document(text: (1...1_000).map { "\($0) 1 +" }.joined(separator: "\n"))
    for i in 0..<5_000 {
      try document.replace(
        from: TextPosition(line: 0, utf8Column: 0), to: TextPosition(line: 0, utf8Column: 1), with: "\(i % 10)")
    }
    #expect(document.stackNodeCount < 200_000)
    #expect(document.stack(afterLine: 999, keepingTop: 1).depth == 1_000)
  }

  private func expectSame(
    _ document: Document, _ reference: String, settings: EvaluationSettings, seed: UInt64, step: Int
  ) throws {
    let fresh = try Document(text: reference, settings: settings)
    let context = "seed \(seed), step \(step): \(reference.debugDescription)"
    guard document.text == reference, document.lineCount == fresh.lineCount else {
      Issue.record("text differs: \(document.text.debugDescription) — \(context)")
      return
    }
    // Stores read from the bindings are the stores a trace sees succeed.
    #expect(document.storedVariables() == fresh.storedVariables(), "\(context)")
    #expect(fresh.storedVariables() == tracedStores(fresh), "\(context)")
    #expect(document.documentSettings == fresh.documentSettings, "\(context)")
    // The size the limit is checked against is the text's, edit after edit.
    #expect(document.liveTextBytes == reference.utf8.count, "\(context)")
    #expect(document.settings == fresh.settings, "\(context)")
    // The whole-document questions agree with the edits they stand for.
    let lines = 0..<document.lineCount
    #expect(document.hasFailingCheck == !document.checkUpdates().isEmpty, "\(context)")
    #expect(document.hasAnyCheck == lines.contains { lexedHasCheck(document, $0) }, "\(context)")
    #expect(document.canAddCheck == !document.checkAdditions().isEmpty, "\(context)")
    // The count of lines with a radix literal, kept edit by edit, against reading every line.
    #expect(document.hasRadixLiteral == fresh.scansRadixLiteral, "\(context)")
    for line in 0..<fresh.lineCount {
      let same =
        document.stack(afterLine: line, keepingTop: 64) == fresh.stack(afterLine: line, keepingTop: 64)
        && document.diagnostics(inLine: line) == fresh.diagnostics(inLine: line)
        && document.hintOffset(ofLine: line) == fresh.hintOffset(ofLine: line)
        && document.reach(ofLine: line) == fresh.reach(ofLine: line)
        && document.terminator(ofLine: line) == fresh.terminator(ofLine: line)
        && document.hasCheck(line: line) == lexedHasCheck(fresh, line)
        && document.variables(afterLine: line).map { "\($0.name)=\($0.value)" }
          == fresh.variables(afterLine: line).map { "\($0.name)=\($0.value)" }
        && document.words(afterLine: line).map { "\($0.name)\($0.effect)" }
          == fresh.words(afterLine: line).map { "\($0.name)\($0.effect)" }
        && document.lines[line].lastX == fresh.lines[line].lastX
        && document.definedWords(inLine: line).map(\.word) == fresh.definedWords(inLine: line).map(\.word)
      if !same {
        Issue.record("line \(line) differs from a full evaluation — \(context)")
        return
      }
    }
  }
}

/// Every store that succeeded, as tracing each line sees it.
private func tracedStores(_ document: Document) -> [StoredVariable] {
  var result: [StoredVariable] = []
  for line in 0..<document.lineCount {
    let traces = document.trace(line: line, keepingTop: 1)
    document.withUTF8(ofLine: line) { bytes in
      let lexed = LexedLine(bytes)
      let bodies = Set(lexed.definitionTokens.map { lexed.tokens[$0].range.lowerBound })
      for trace in traces
      where trace.token.kind == .store && trace.diagnostic == nil && !bodies.contains(trace.token.range.lowerBound) {
        guard let value = trace.after.top.last else { continue }
        let nameRange = trace.token.nameRange
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameRange]), as: UTF8.self)
        result.append(
          StoredVariable(name: name, line: line, range: trace.token.range, nameRange: nameRange, value: value))
      }
    }
  }
  return result
}

/// Whether a line holds a check, as the lexer sees it.
private func lexedHasCheck(_ document: Document, _ line: Int) -> Bool {
  document.withUTF8(ofLine: line) { bytes in
    Lexer.tokens(of: bytes).tokens.contains { if case .check = $0.kind { true } else { false } }
  }
}

// MARK: Random documents

private let vocabulary = [
  "1", "2", "3", "0", "-1", "2.5", ".5", "1e3", "1_000", "−4", "1e308", "1e999", "+", "-", "−", "*", "×", "/", "÷", "^",
  "%", "mod", "min", "max", "neg", "abs", "inv", "sq", "sqrt", "√", "ln", "log", "sin", "cos", "tan", "asin", "floor",
  "round", "dup", "drop", "swap", "over", "rot", "clear", "depth", "sum", "avg", "pi", "π", "e", "=a", "=b", "=x",
  "=é", "a", "b", "x", "é", "X", "=dup", "=", "4+", "foo", "DUP", "Sqrt", "=3", "=2.5", "=1e3", "=0.33",
  // Words: definitions, redefinitions, uses, a store into a word's name, broken pieces, lastx.
  ": f dup * ;", ": f 2 ;", ": g f 1 + ;", ": h a b + ;", ": k clear 5 ;", ": d 0 / ;", ": a 7 ;", ": f f f ;",
  "f", "g", "h", "k", "d", "=f", ":", ";", ": ;", ": dup ;", ": q =a ;", "lastx", "pick", "roll", "3 roll",
  // Sections: headings come from the comments below, and from snippets that break lines.
  "subtotal", "subtotal", "\n## S\n", "##",
  // Units: quantities, attach and convert, checks with units, temperatures, bad units.
  "12_km", "500_m", "3_h", "2_mi", "20_°C", "5_Δ°C", "68_°F", "9.81_m/s^2", "1_kWh", "60_mph", "_km", ">mi", "->m",
  "→ft", ">°F", "_m/s", "uval", "ubase", "=12.5_km", "=3_h", "12_", "12_kmh", "12_m/s/s", "_", ">", "=_x", "30_°",
  // Times and angles: literals, formats, checks (`=2:15` passes after `1:30 0:45 +`), bad forms.
  "1:30", "0:45", "1:30:15.5", "-0:30", "4:35_min", "48:46_°", ">h:mm", ">h:mm:ss", ">min:ss", ">h", "=2:15",
  "=1:30:00", "1:75", ":30", "1:", ">h:m",
  // Integers in a radix (hover then shows the radixes): numbers, checks, in a word, malformed.
  "0x1F", "=0xFF", "-0b101", "0o17", ": r 0x10 ;", "0xG", "=0b2",
  // Currencies and rates, units of the tape's own: definitions, redefinitions, cycles, uses
  // above and below them (an edit of a rate line changes the conversions below it).
  ": _EUR 1.08_USD ;", ": _EUR 2_USD ;", ": _GBP 1.19_EUR ;", ": _EUR ;", ": _USD 0.5_EUR ;", "5_EUR", "3_USD",
  "2_£", "4_€", ">USD", ">EUR", "→GBP", "=5_EUR", ": _pace 0.75_m ;", ": _pace 0.8_m ;", "3_pace", ">pace", "_pace",
  ": _box ;", "2_box", ": _crate 24_box ;", "1_crate", ">box", ": _km 1000_m ;", ": _EUR 0_USD ;",
]

private func randomLine(_ random: inout SplitMix64) -> String {
  var parts: [String] = []
  for _ in 0..<random.next(below: 6) {
    parts.append(vocabulary[random.next(below: vocabulary.count)])
  }
  let separators = [" ", " ", "  ", "\t", "\u{2028}", "\u{A0}"]
  var line = parts.map { $0 + separators[random.next(below: separators.count)] }.joined()
  if random.next(below: 5) == 0 {
    line +=
      [
        "# note", "#😀 é", "#", "## S", "##", "# rpn: angleUnit=degrees", "# rpn: x", "#rpn: decimals=3 notation=fixed",
        "# RPN: angleunit=RADIANS",
      ][
        random.next(below: 9)]
  }
  return line
}

private func randomBreak(_ random: inout SplitMix64) -> String {
  ["\n", "\n", "\r\n", "\r"][random.next(below: 4)]
}

private func randomDocument(_ random: inout SplitMix64) -> String {
  let count = random.next(below: 25)
  var text = ""
  for i in 0..<count {
    text += randomLine(&random)
    if i + 1 < count || random.next(below: 2) == 0 { text += randomBreak(&random) }
  }
  return text
}

private func randomSnippet(_ random: inout SplitMix64) -> String {
  switch random.next(below: 6) {
  case 0: return ""
  case 1: return randomBreak(&random)
  case 2: return ["\r", "\n", "1\r", "\n2", "\r\n"][random.next(below: 5)]
  case 3: return randomLine(&random) + randomBreak(&random) + randomLine(&random)
  default: return vocabulary[random.next(below: vocabulary.count)] + [" ", "", "\n"][random.next(below: 3)]
  }
}

/// A position anywhere, sometimes past a line's end or the document's end (clamped by both
/// sides), and sometimes inside a multi-byte character.
private func randomPosition(_ random: inout SplitMix64, in text: String) -> TextPosition {
  let lines = ReferenceText.lines(text)
  let line = random.next(below: lines.count + 1)
  let length = line < lines.count ? lines[line].count : 0
  return TextPosition(line: line, utf8Column: random.next(below: length + 3))
}

/// The fast `%.Ng` path must agree with the C library digit for digit.
@Suite struct ValueFormatTests {
  @Test func fastPathAgreesWithTheCLibrary() {
    var random = SplitMix64(seed: 42)
    var checked = 0
    for _ in 0..<200_000 {
      let value: Double
      switch random.next(below: 5) {
      case 0: value = Double(bitPattern: random.next())  // any double, any exponent
      case 4: value = Double(bitPattern: random.next() % (1 << 53))  // subnormals and the smallest normals
      case 1: value = Double(Int(random.next() % 2_000_001) - 1_000_000) / Double(1 + random.next(below: 1000))
      case 2: value = Double(random.next(below: 100_000)) / 8  // exact ties in binary
      default:
        value =
          Double(random.next(below: 1_000_000))
          * [1e-9, 1e-5, 1e-3, 0.1, 1, 1e10, 1e15, 1e16, 1e21][random.next(below: 9)]
      }
      guard value.isFinite else { continue }
      let precision = 1 + random.next(below: 17)
      let expected = value == 0 ? "0" : ValueFormat.cFormat(value, precision: precision)
      if ValueFormat.format(value, precision: precision) != expected {
        Issue.record(
          "\(value.bitPattern) at precision \(precision): \(ValueFormat.format(value, precision: precision)) != \(expected)"
        )
        return
      }
      checked += 1
    }
    #expect(checked > 190_000)
    for (value, precision, expected) in [
      (0.125, 2, "0.12"), (0.375, 2, "0.38"), (2.5, 1, "2"), (9.9999999999999995, 15, "10"), (1e21, 15, "1e+21"),
      (123_456_789_012_345_680, 15, "1.23456789012346e+17"), (1e-5, 15, "1e-05"), (0.0001, 15, "0.0001"),
      (-2.5e-7, 3, "-2.5e-07"),
      (Double(bitPattern: 1), 15, "4.94065645841247e-324"), (-Double(bitPattern: 2024), 15, "-9.99988867182683e-321"),
      (2.2250738585072014e-308, 15, "2.2250738585072e-308"), (Double.leastNormalMagnitude.nextDown, 3, "2.23e-308"),
    ] as [(Double, Int, String)] {
      #expect(ValueFormat.format(value, precision: precision) == expected)
    }
  }
}

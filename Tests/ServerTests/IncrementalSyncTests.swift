import Foundation
import JSONRPC
import RPNEngine
import TestSupport
import Testing

/// the README's rules for documents and positions incremental sync: seeded random edit sequences sent as incremental `didChange`s
/// (UTF-16 ranges, positions past line ends and past the document, several changes per
/// notification, several notifications per write). After each sequence the server's last
/// published diagnostics and its inlay hints must equal a full evaluation of the text the test
/// kept itself.
@Suite struct IncrementalSyncTests {
  /// 4 servers × 250 sequences = 1000 sequences, each on a fresh URI.
  static let servers = 4
  static let sequencesPerServer = 250
  /// Added to a sequence's seed to seed its generator, as this test always has: the seeds that
  /// failures printed still replay.
  static let seedOffset: UInt64 = 0x1234_5678_9ABC_DEF0

  @Test(arguments: 0..<servers)
  func randomEditSequencesMatchAFullEvaluation(server: Int) throws {
    let client = try LSPClient.started()
    var failures = 0
    for sequence in 0..<Self.sequencesPerServer {
      let seed = UInt64(server * Self.sequencesPerServer + sequence)
      var random = SplitMix64(seed: seed &+ Self.seedOffset)
      if try !runSequence(client, uri: "file:///seq-\(seed).rpn", random: &random, seed: seed) {
        failures += 1
        if failures == 3 { break }  // Enough to debug; the rest would only repeat it.
      }
    }
    try client.finish()
  }

  /// One sequence; false (with an issue recorded) when the server disagrees with the oracle.
  private func runSequence(_ client: LSPClient, uri: String, random: inout SplitMix64, seed: UInt64) throws -> Bool {
    var model = TextModel(randomDocument(&random))
    let initial = model.text
    var version = 1
    client.open(uri, model.text, version: version)
    var log: [String] = []
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      // A burst: one or more notifications, written together or one by one.
      var burst: [JSONValue] = []
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        var changes: [JSONValue] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          if Int.random(in: 0..<40, using: &random) == 0 {
            let text = randomDocument(&random)
            model = TextModel(text)
            changes.append(["text": .string(text)])
            log.append("full \(text.debugDescription)")
            continue
          }
          let (start, end) = randomRange(model, &random)
          let text = randomInsertion(&random)
          model.replace(start, end, with: text)
          changes.append(edit(range(start.line, start.character, end.line, end.character), text))
          log.append("\(start.line):\(start.character)-\(end.line):\(end.character) \(text.debugDescription)")
        }
        version += 1
        burst.append(LSPClient.didChange(uri, version: version, changes))
      }
      if Bool.random(using: &random) {
        client.send(together: burst)
      } else {
        for message in burst { client.send(message) }
      }
    }
    let expected = try Oracle.evaluate(model.text)
    let id = client.sendRequest(
      "textDocument/inlayHint", ["textDocument": ["uri": .string(uri)], "range": range(0, 0, 1_000_000, 0)])
    let (response, index) = try client.waitForMessage(what: "inlay hints of \(uri)") {
      LSPClient.isResponse($0) && $0["id"] == id
    }
    let hints = compact(hints: try client.result(of: response))
    let published = client.messages[..<index].last {
      $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri
    }?["params"]
    let diagnostics = compact(diagnostics: published?["diagnostics"]?.arrayValue ?? [])
    let publishedVersion = published?["version"]?.intValue
    client.close(uri)
    guard hints == expected.hints, diagnostics == expected.diagnostics, publishedVersion == version else {
      Issue.record(
        """
        sequence \(seed) on \(uri): the server disagrees with a full evaluation
        initial text: \(initial.debugDescription)
        edits: \(log.joined(separator: "\n  "))
        final text: \(model.text.debugDescription)
        hints: \(hints)
        expected: \(expected.hints)
        diagnostics (version \(publishedVersion.map(String.init) ?? "none"), expected \(version)): \(diagnostics)
        expected: \(expected.diagnostics)
        """)
      return false
    }
    return true
  }

  // MARK: Deterministic edits

  /// Edits around line breaks, past line ends and past the document: the server's text must be
  /// the one LSP defines (checked through its hints and diagnostics).
  @Test(
    arguments: [
      ("1\n2\n", [(range(0, 1, 0, 1), "\r")], "1\r\n2\n"),  // "\r" before "\n": one break.
      ("1\r2", [(range(1, 0, 1, 0), "\n")], "1\r\n2"),  // "\n" after "\r": one break.
      ("1\r\n2\n3", [(range(0, 1, 1, 0), "")], "12\n3"),  // A whole "\r\n" deleted.
      ("1\r\n2", [(range(0, 1, 1, 0), "\r")], "1\r2"),
      ("1 2\n+", [(range(0, 99, 0, 99), " 3")], "1 2 3\n+"),  // Past the line's end.
      ("1 2\n+", [(range(7, 0, 9, 9), " *")], "1 2\n+ *"),  // Past the document's end.
      ("1 2\n+\n3", [(range(0, 1, 99, 0), "")], "1"),
      ("1 2\n+", [(range(0, 0, 0, 0), "5\n"), (range(2, 1, 2, 1), " +")], "5\n1 2\n+ +"),
      ("a\r\rb", [(range(1, 0, 1, 0), "\n")], "a\r\n\rb"),
      ("1\n\n2", [(range(0, 1, 0, 1), "\r")], "1\r\n\n2"),
      ("1\n\n2", [(range(1, 0, 2, 0), "\r")], "1\n\r2"),
      ("😀 1\n2", [(range(0, 2, 0, 2), " 3"), (range(0, 0, 0, 2), "4")], "4 3 1\n2"),
      ("1 😀 2", [(range(0, 5, 0, 99), "+ 5"), (range(0, 2, 0, 4), "")], "1  + 5"),
      ("1\n2\n3\n", [(range(1, 0, 2, 0), ""), (range(1, 0, 2, 0), "")], "1\n"),
      ("", [(range(0, 0, 0, 0), "1 2 +\r\n3")], "1 2 +\r\n3"),
    ] as [(String, [(JSONValue, String)], String)])
  func editsAroundLineBreaksAndEnds(initial: String, edits: [(JSONValue, String)], final: String) throws {
    // The test's own model agrees with the expected text.
    var model = TextModel(initial)
    for (range, text) in edits {
      model.replace(
        (range["start"]?["line"]?.intValue ?? 0, range["start"]?["character"]?.intValue ?? 0),
        (range["end"]?["line"]?.intValue ?? 0, range["end"]?["character"]?.intValue ?? 0), with: text)
    }
    #expect(model.text == final)
    let client = try LSPClient.started()
    client.open("file:///e.rpn", initial)
    client.change("file:///e.rpn", version: 2, edits.map { edit($0.0, $0.1) })
    let expected = try Oracle.evaluate(final)
    #expect(compact(hints: try client.allInlayHints("file:///e.rpn")) == expected.hints)
    let published = try client.publishedDiagnostics("file:///e.rpn")
    #expect(published.version == 2)
    #expect(compact(diagnostics: published.diagnostics) == expected.diagnostics)
    try client.finish()
  }

  /// A change near the top of a long document whose state settles again at once, and one that
  /// changes everything below it.
  @Test func editsAtTheTopOfALongDocument() throws {
    let lines = (0..<5000).map { $0 % 100 == 99 ? "sum =total" : "1 +" }
    var model = TextModel("0\n" + lines.joined(separator: "\n") + "\n")
    let client = try LSPClient.started()
    client.open("file:///long.rpn", model.text)
    var version = 1
    for (start, end, text) in [
      ((0, 0), (0, 1), "5"), ((0, 0), (0, 1), "5 5"), ((1, 0), (1, 0), "+ "), ((0, 0), (0, 3), ""),
    ] {
      model.replace(start, end, with: text)
      version += 1
      client.change("file:///long.rpn", version: version, [edit(range(start.0, start.1, end.0, end.1), text)])
      let expected = try Oracle.evaluate(model.text)
      #expect(
        compact(hints: try client.allInlayHints("file:///long.rpn", timeout: LSPClient.slowTimeout)) == expected.hints)
      let published = try client.publishedDiagnostics("file:///long.rpn")
      #expect(published.version == version)
      #expect(compact(diagnostics: published.diagnostics) == expected.diagnostics)
    }
    try client.finish()
  }

  // MARK: Random text

  static let words = [
    "1", "2", "3.5", "-4", "−2", "0", ".5", "1e3", "1_000", "1e999", "+", "-", "−", "*", "×", "/", "÷", "^", "%",
    "mod", "sqrt", "√", "dup", "drop", "swap", "over", "rot", "sum", "avg", "clear", "depth", "neg", "inv", "ln", "sin",
    "pi", "π", "e", "DUP", "=x", "x", "=y", "y", "=é", "é", "=", "=sin", "zzz", "4+", "😀", "dupp", "a😀b",
  ]
  static let separators = [" ", " ", " ", "  ", "\t", "\n", "\n", "\r\n", "\r", " # c😀 ", "#", "\u{2028}", "😀"]

  private func randomInsertion(_ random: inout SplitMix64) -> String {
    switch Int.random(in: 0..<10, using: &random) {
    case 0, 1: return ""
    case 2: return Self.separators.randomElement(using: &random)!
    default:
      var text = ""
      for _ in 0..<Int.random(in: 1...5, using: &random) {
        if Int.random(in: 0..<3, using: &random) == 0 { text += Self.separators.randomElement(using: &random)! }
        text += Self.words.randomElement(using: &random)!
        text += Self.separators.randomElement(using: &random)!
      }
      return text
    }
  }

  private func randomDocument(_ random: inout SplitMix64) -> String {
    var text = ""
    for _ in 0..<Int.random(in: 0...12, using: &random) {
      for _ in 0..<Int.random(in: 0...6, using: &random) {
        text += Self.words.randomElement(using: &random)! + " "
      }
      if Int.random(in: 0..<5, using: &random) == 0 { text += "# note 😀 ×" }
      text += ["\n", "\n", "\r\n", "\r"].randomElement(using: &random)!
    }
    return text
  }

  /// A random range: positions anywhere, past line ends and past the document sometimes, never
  /// between the two halves of a surrogate pair; start before end.
  private func randomRange(_ model: TextModel, _ random: inout SplitMix64) -> (
    (line: Int, character: Int), (line: Int, character: Int)
  ) {
    let lines = model.lines()
    /// Moves a position between the halves of a surrogate pair to the pair's start.
    func whole(_ position: (line: Int, character: Int)) -> (line: Int, character: Int) {
      let (line, character) = position
      guard line < lines.count, character > 0, character < lines[line].length,
        UTF16.isLeadSurrogate(model.units[lines[line].start + character - 1])
      else { return position }
      return (line, character - 1)
    }
    func randomPosition() -> (line: Int, character: Int) {
      let line = Int.random(
        in: 0...(lines.count + (Int.random(in: 0..<8, using: &random) == 0 ? 2 : -1)), using: &random)
      guard line < lines.count else { return (line, Int.random(in: 0...5, using: &random)) }
      return whole((line, Int.random(in: 0...(lines[line].length + 3), using: &random)))
    }
    var start = randomPosition()
    var end: (line: Int, character: Int)
    switch Int.random(in: 0..<6, using: &random) {
    case 0, 1: end = start  // An insertion.
    case 2, 3:  // A few units on the same line, or into the next.
      end = whole(
        (start.line + Int.random(in: 0...1, using: &random), Int.random(in: 0...(start.character + 6), using: &random)))
    default: end = randomPosition()
    }
    if model.offset(end) < model.offset(start)
      || (model.offset(end) == model.offset(start) && (end.line, end.character) < (start.line, start.character))
    {
      swap(&start, &end)
    }
    return (start, end)
  }
}

// MARK: The test's own text model and oracle

/// A text as UTF-16 code units with lines as LSP defines them (`\n`, `\r\n`, `\r`), edited with
/// LSP's clamping: a character past a line's end means its end, a line past the last means the
/// end of the document.
struct TextModel {
  var units: [UInt16]

  init(_ text: String) { units = Array(text.utf16) }

  var text: String { String(decoding: units, as: UTF16.self) }

  /// Each line's first unit and its length without the line break.
  func lines() -> [(start: Int, length: Int)] {
    var result: [(start: Int, length: Int)] = []
    var start = 0
    var i = 0
    while i < units.count {
      if units[i] == 0x0A || units[i] == 0x0D {
        result.append((start, i - start))
        i += units[i] == 0x0D && i + 1 < units.count && units[i + 1] == 0x0A ? 2 : 1
        start = i
      } else {
        i += 1
      }
    }
    result.append((start, units.count - start))
    return result
  }

  func offset(_ position: (line: Int, character: Int)) -> Int {
    let lines = lines()
    guard position.line < lines.count else { return units.count }
    return lines[position.line].start + min(position.character, lines[position.line].length)
  }

  mutating func replace(_ start: (line: Int, character: Int), _ end: (line: Int, character: Int), with text: String) {
    let from = offset(start)
    let to = max(from, offset(end))
    units.replaceSubrange(from..<to, with: Array(text.utf16))
  }
}

/// What a full evaluation of a text gives, in the server's compact forms, with UTF-16 columns
/// counted here (not by the server's converter).
enum Oracle {
  static func evaluate(_ text: String) throws -> (diagnostics: [String], hints: [String]) {
    let document = try Document(text: text)
    let model = TextModel(text)
    let lines = model.lines().map { String(decoding: model.units[$0.start..<$0.start + $0.length], as: UTF16.self) }
    guard document.lineCount == lines.count else {
      throw ClientFailure(
        "the engine counts \(document.lineCount) lines in \(text.debugDescription), LSP \(lines.count)")
    }
    let diagnostics = document.diagnostics().map { line, diagnostic in
      let start = utf16Column(diagnostic.range.lowerBound, in: lines[line])
      let end = utf16Column(diagnostic.range.upperBound, in: lines[line])
      let severity = diagnostic.severity.rawValue
      return "\(line):\(start)-\(line):\(end) \(severity) \(diagnostic.code.rawValue): \(diagnostic.message)"
    }
    var hints: [String] = []
    for line in 0..<document.lineCount {
      guard let offset = document.hintOffset(ofLine: line) else { continue }
      hints.append("\(line):\(utf16Column(offset, in: lines[line])) \(document.stack(afterLine: line).label())")
    }
    return (diagnostics, hints)
  }

  /// The UTF-16 column of a UTF-8 offset within a line.
  static func utf16Column(_ utf8Offset: Int, in line: String) -> Int {
    var bytes = 0
    var units = 0
    for scalar in line.unicodeScalars {
      if bytes >= utf8Offset { break }
      bytes += scalar.utf8.count
      units += scalar.utf16.count
    }
    return units
  }
}

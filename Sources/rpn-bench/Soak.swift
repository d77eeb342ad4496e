// The soak: random edits and requests against the release server, each answer checked against a full evaluation.

import Foundation
import JSONRPC
import RPNEngine

/// `rpn-bench --soak STEPS [SEED]`: drives the release binary over its pipes with random edits
/// and requests across several open documents, and after every edit compares the diagnostics it
/// publishes (and, every tenth step, its inlay hints) with a full evaluation of the text kept
/// here. Records the server's resident memory every 10,000 steps, and once more after closing
/// every document. Exits 1 on any mismatch.
func runSoak(binary: String, steps: Int, seed: UInt64) -> Int32 {
  guard let client = try? PipeClient(binary: binary) else {
    print("soak: cannot start \(binary)")
    return 1
  }
  client.initialize(utf8: false)
  var random = SoakRandom(state: seed)
  func rss() -> (total: Int, anonymous: Int) { memoryKB(pid: client.pid) }
  func row(_ label: String, _ memory: (total: Int, anonymous: Int), _ mismatches: Int) {
    print(
      "  " + label.padding(toLength: 10, withPad: " ", startingAt: 0)
        + String(memory.total).padding(toLength: 12, withPad: " ", startingAt: 0)
        + String(memory.anonymous).padding(toLength: 14, withPad: " ", startingAt: 0) + String(mismatches))
  }
  let startup = rss()
  print("soak: \(steps) steps, seed \(seed), 4 documents, utf-16 positions")
  print("  step      RSS (KB)    heap (KB)     mismatches")
  row("0", startup, 0)
  var texts = (0..<4).map { index in (0..<20).map { _ in randomLine(&random) }.joined(separator: "\n") + "\(index)" }
  var versions = [Int](repeating: 1, count: 4)
  let uris = (0..<4).map { "file:///soak/\($0).rpn" }
  for index in 0..<4 {
    client.notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(uris[index]), "languageId": "rpn", "version": 1, "text": .string(texts[index])]])
    _ = client.waitDiagnostics(uri: uris[index], version: 1)
  }
  var mismatches = 0
  var peak = startup.anonymous
  for step in 1...steps {
    let index = random.next(4)
    let uri = uris[index]
    if random.next(3) > 0 {
      // An edit: a random range of the current text, in UTF-16 positions, and random text.
      let lines = texts[index].components(separatedBy: "\n")
      let (startLine, startCharacter) = randomPosition(&random, lines)
      let (endLine, endCharacter) =
        random.next(3) == 0 ? (startLine, startCharacter) : randomPosition(&random, lines)
      let (from, to) =
        (startLine, startCharacter) <= (endLine, endCharacter)
        ? ((startLine, startCharacter), (endLine, endCharacter))
        : ((endLine, endCharacter), (startLine, startCharacter))
      // Documents stay between a few hundred bytes and ~2 KB, so memory can be flat: past 2 KB an
      // edit only deletes.
      let snippet = texts[index].utf8.count > 2_000 ? "" : randomSnippet(&random)
      texts[index] = replace(texts[index], lines, from: from, to: to, with: snippet)
      versions[index] += 1
      client.notify(
        "textDocument/didChange",
        [
          "textDocument": ["uri": .string(uri), "version": JSONValue(versions[index])],
          "contentChanges": [
            [
              "range": [
                "start": ["line": JSONValue(from.0), "character": JSONValue(from.1)],
                "end": ["line": JSONValue(to.0), "character": JSONValue(to.1)],
              ],
              "text": .string(snippet),
            ]
          ],
        ])
      let published = client.waitDiagnostics(uri: uri, version: versions[index])?["params"]?["diagnostics"]
      if published != .array(expectedDiagnostics(texts[index])) {
        mismatches += 1
        if mismatches <= 3 { print("  MISMATCH at step \(step) in \(uri): diagnostics differ") }
      }
    } else {
      // A request; every tenth step the whole document's inlay hints, checked.
      let line = random.next(22)
      let params: JSONValue = [
        "textDocument": ["uri": .string(uri)],
        "position": ["line": JSONValue(line), "character": JSONValue(random.next(30))],
      ]
      switch random.next(5) {
      case 0: _ = client.request("textDocument/hover", params)
      case 1: _ = client.request("textDocument/completion", params)
      case 2: _ = client.request("textDocument/definition", params)
      case 3: _ = client.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]])
      default: _ = client.request("textDocument/formatting", ["textDocument": ["uri": .string(uri)], "options": [:]])
      }
    }
    if step % 10 == 0 {
      let hints = client.request(
        "textDocument/inlayHint",
        [
          "textDocument": ["uri": .string(uri)],
          "range": ["start": ["line": 0, "character": 0], "end": ["line": 100_000, "character": 0]],
        ])
      if hints?["result"] != .array(expectedHints(texts[index])) {
        mismatches += 1
        if mismatches <= 3 { print("  MISMATCH at step \(step) in \(uri): inlay hints differ") }
      }
    }
    if step % 10_000 == 0 {
      let now = rss()
      peak = max(peak, now.anonymous)
      row(String(step), now, mismatches)
    }
  }
  for uri in uris {
    client.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
    _ = client.waitDiagnostics(uri: uri, version: nil)
  }
  _ = client.request(
    "textDocument/hover", ["textDocument": ["uri": "file:///none"], "position": ["line": 0, "character": 0]])
  let closed = rss()
  row("closed", closed, mismatches)
  let ratio = Double(closed.anonymous) / Double(max(startup.anonymous, 1))
  print(
    "soak: \(mismatches) mismatches in \(steps) steps; heap (RssAnon) after startup \(startup.anonymous) KB, "
      + "peak \(peak) KB, after closing \(closed.anonymous) KB (\(String(format: "%+.1f", (ratio - 1) * 100))% from "
      + "startup; limit +10%); RSS \(startup.total) → \(closed.total) KB")
  client.close()
  return mismatches == 0 && ratio <= 1.10 ? 0 : 1
}

/// The diagnostics a full evaluation gives, as the server must publish them (UTF-16 columns).
private func expectedDiagnostics(_ text: String) -> [JSONValue] {
  guard let document = try? Document(text: text) else { return [] }
  return document.diagnostics().map { line, diagnostic in
    let columns = utf16Columns(document.text(ofLine: line), diagnostic.range)
    return [
      "range": [
        "start": ["line": JSONValue(line), "character": JSONValue(columns.lowerBound)],
        "end": ["line": JSONValue(line), "character": JSONValue(columns.upperBound)],
      ],
      "severity": diagnostic.severity == .error ? 1 : 2,
      "code": .string(diagnostic.code.rawValue),
      "source": "rpn",
      "message": .string(diagnostic.message),
    ]
  }
}

/// The inlay hints a full evaluation gives (UTF-16 columns): the label, the tooltip of the top
/// 20 levels, and on lines that can take one, the check that accepting the hint writes.
private func expectedHints(_ text: String) -> [JSONValue] {
  guard let document = try? Document(text: text) else { return [] }
  return (0..<document.lineCount).compactMap { line in
    guard let offset = document.hintOffset(ofLine: line) else { return nil }
    let position: JSONValue = [
      "line": JSONValue(line),
      "character": JSONValue(utf16Columns(document.text(ofLine: line), offset..<offset).lowerBound),
    ]
    let stack = document.stack(afterLine: line, keepingTop: 20)
    var hint: JSONValue = [
      "position": position, "label": .string(stack.label()), "paddingLeft": true,
      "tooltip": .string(stack.levels(maxLevels: 20)),
    ]
    if let check = document.checkAddition(line: line), case .object(var members) = hint {
      members.append(("textEdits", [["range": ["start": position, "end": position], "newText": .string(check.text)]]))
      hint = .object(members)
    }
    return hint
  }
}

/// UTF-8 offsets within a line as UTF-16 columns, through Swift's own string views.
private func utf16Columns(_ line: String, _ range: Range<Int>) -> Range<Int> {
  let utf8 = Array(line.utf8)
  func column(_ offset: Int) -> Int { String(decoding: utf8[..<min(offset, utf8.count)], as: UTF8.self).utf16.count }
  return column(range.lowerBound)..<column(range.upperBound)
}

private func randomPosition(_ random: inout SoakRandom, _ lines: [String]) -> (Int, Int) {
  let line = random.next(lines.count)
  let scalars = Array(lines[line].unicodeScalars)
  let cut = random.next(scalars.count + 1)
  return (line, String(String.UnicodeScalarView(scalars[..<cut])).utf16.count)
}

private func replace(_ text: String, _ lines: [String], from: (Int, Int), to: (Int, Int), with snippet: String)
  -> String
{
  func offset(_ position: (Int, Int)) -> String.Index {
    var utf16Offset = 0
    for line in 0..<position.0 { utf16Offset += lines[line].utf16.count + 1 }
    return String.Index(utf16Offset: utf16Offset + position.1, in: text)
  }
  var result = text
  result.replaceSubrange(offset(from)..<offset(to), with: snippet)
  return result
}

private let soakWords = [
  "1", "2.5", "-3", "0", "1e308", ".5", "1_000", "−4", "+", "-", "*", "×", "/", "÷", "^", "%", "mod", "sqrt", "√", "ln",
  "dup", "drop", "swap", "rot", "clear", "sum", "avg", "pi", "π", "=a", "=b", "=é", "a", "b", "é", "=dup", "4+", "foo",
  "=2.5", "=1e1",
]

private func randomLine(_ random: inout SoakRandom) -> String {
  var parts = (0..<random.next(6)).map { _ in soakWords[random.next(soakWords.count)] }
  if random.next(6) == 0 { parts.append(["# note", "# 😀 ×"][random.next(2)]) }
  return parts.joined(separator: " ")
}

private func randomSnippet(_ random: inout SoakRandom) -> String {
  switch random.next(5) {
  case 0: return ""
  case 1: return "\n" + randomLine(&random)
  case 2: return " 😀 "
  default: return " " + soakWords[random.next(soakWords.count)]
  }
}

/// The server's resident memory from /proc: all of it, and the anonymous part (the heap and
/// stacks; the rest is code and libraries, paged in as features are first used).
private func memoryKB(pid: Int32) -> (total: Int, anonymous: Int) {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (0, 0) }
  func field(_ name: String) -> Int {
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
  }
  return (field("VmRSS:"), field("RssAnon:"))
}

struct SoakRandom {
  var state: UInt64
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return bound <= 0 ? 0 : Int((z ^ (z >> 31)) % UInt64(bound))
  }
}

// The soak: random edits, settings and requests to the release server, each answer checked by a full evaluation.

import Foundation
import JSONRPC
import RPNEngine

/// `rpn-bench --soak STEPS [SEED]`: drives the release binary over its pipes with random edits,
/// settings changes and requests across several open documents written in the whole language
/// (checks, definitions, sections, every number form, `# rpn:` lines at the top). After every
/// edit it compares the diagnostics the server publishes with a full evaluation of the text kept
/// here, after every change of the display or angle unit every document's, and every tenth step
/// its inlay hints and code lenses; every other request (outline, code actions and their
/// resolution, completion inside `# rpn:` lines, …) must be answered with a result. Records the
/// server's resident memory every 10,000 steps, after a warm-up (the first 1,000 steps, then every
/// document closed and opened again) and once more after closing every document at the end.
/// Exits 1 on any mismatch, when the heap after closing is more than `soakGrowthLimit` over its
/// size after the warm-up (memory the server keeps grows with the steps) plus `soakKBPerUnit` for
/// each unit the steps after the warm-up made (the units a session met stay known, by design), or
/// when the warm-up kept more than `soakFirstUseLimitKB` over the startup's (what first use
/// keeps, as the README says).
func runSoak(binary: String, steps: Int, seed: UInt64) -> Int32 {
  guard steps >= 1 else {
    printError("--soak takes a number of steps from 1 up: rpn-bench --soak 5000 7")
    return 2
  }
  // Without glibc's per-thread cache of freed blocks (its tcache: up to 7 of each size up to 1 KB),
  // the heap left resident after closing is what the server holds. With it, a page holding one
  // cached block stays through `malloc_trim`, and which pages those are drifts with the steps: the
  // heap after closing grew 3.5% (5,000 steps) to 9.8% (100,000) over the warm-up while the
  // blocks the server held (heaptrack) stayed the same to 120 bytes; without it, 0.0% to 0.4%.
  let tunables = ProcessInfo.processInfo.environment["GLIBC_TUNABLES"].map { $0 + ":" } ?? ""
  let environment = ["GLIBC_TUNABLES": tunables + "glibc.malloc.tcache_count=0"]
  guard let client = try? PipeClient(binary: binary, environment: environment) else {
    print("soak: cannot start \(binary)")
    return 1
  }
  client.initialize(
    utf8: false,
    textDocument: [
      "codeAction": [
        "codeActionLiteralSupport": ["codeActionKind": ["valueSet": ["quickfix", "refactor", "source"]]],
        "dataSupport": true, "resolveSupport": ["properties": ["edit"]],
      ]
    ])
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
  var versions = [Int](repeating: 1, count: 4)
  var texts = (0..<4).map { index in
    let top = random.next(2) == 0 ? [soakSettingsLines[random.next(soakSettingsLines.count)]] : []
    return (top + (0..<20).map { _ in randomLine(&random) }).joined(separator: "\n") + "\(index)"
  }
  let uris = (0..<4).map { "file:///soak/\($0).rpn" }
  var settings = SoakSettings()
  func openAll() {
    for index in 0..<4 {
      client.notify(
        "textDocument/didOpen",
        [
          "textDocument": [
            "uri": .string(uris[index]), "languageId": "rpn", "version": JSONValue(versions[index]),
            "text": .string(texts[index]),
          ]
        ])
      _ = client.waitDiagnostics(uri: uris[index], version: versions[index])
    }
  }
  /// Closes every document, and answers the heap once the server has done with them.
  func closeAll() -> (total: Int, anonymous: Int) {
    for uri in uris {
      client.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
      _ = client.waitDiagnostics(uri: uri, version: nil)
    }
    _ = client.request(
      "textDocument/hover", ["textDocument": ["uri": "file:///none"], "position": ["line": 0, "character": 0]])
    return rss()
  }
  openAll()
  // The heap after a warm-up: every feature used once, the documents closed (then opened again).
  // Growth from here on is the soak's; from startup, it includes what the first use of each
  // feature keeps (the builtins' completion items and suggestion index, the runtime's type
  // metadata).
  let warmUpSteps = max(min(1_000, steps / 10), 1)
  var warmedUp = startup
  // The units this process's registry knows after the warm-up: it evaluates every text the
  // server does, so the units it meets since are those the server's registry keeps since (a few
  // more: it also evaluates texts the server is only sent edits of).
  var unitsAtWarmUp = Units.shared.count
  var mismatches = 0
  var counts = (edits: 0, settings: 0, requests: 0)
  func mismatch(_ step: Int, _ what: String) {
    mismatches += 1
    if mismatches <= 5 { print("  MISMATCH at step \(step): \(what)") }
  }
  /// The code actions the server offered last, to resolve later (after edits, as an editor may).
  var offered: [JSONValue] = []
  var peak = startup.anonymous
  for step in 1...steps {
    let index = random.next(4)
    let uri = uris[index]
    let choice = random.next(100)
    if choice < 2 {
      // A settings change: the display, the angle unit. Every document is published again.
      counts.settings += 1
      let change = settings.randomChange(&random)
      client.notify("workspace/didChangeConfiguration", ["settings": ["rpn": change.json]])
      // The server publishes again only when something changed.
      var pending = change.changes ? Set(uris) : []
      var published: [String: JSONValue] = [:]
      while !pending.isEmpty {
        let message = client.wait { message in
          guard message["method"]?.stringValue == "textDocument/publishDiagnostics",
            let uri = message["params"]?["uri"]?.stringValue, pending.contains(uri)
          else { return false }
          published[uri] = message["params"]?["diagnostics"]
          pending.remove(uri)
          return true
        }
        if message == nil { break }  // the server is gone: the mismatches below say so
      }
      for (uri, text) in zip(uris, texts) where change.changes {
        if published[uri] != .array(expectedDiagnostics(text, settings)) {
          mismatch(step, "diagnostics of \(uri) differ after the settings change \(change.json)")
        }
      }
    } else if choice < 66 {
      // An edit: a random range of the current text, in UTF-16 positions, and random text; now
      // and then a `# rpn:` line written at the top, or the top line replaced by one.
      counts.edits += 1
      let lines = texts[index].components(separatedBy: "\n")
      var from: (Int, Int)
      var to: (Int, Int)
      var snippet: String
      // Documents stay under ~2 KB, so memory can be flat: past 2 KB an edit only deletes.
      let full = texts[index].utf8.count > 2_000
      if random.next(12) == 0 {
        snippet = soakSettingsLines[random.next(soakSettingsLines.count)]
        from = (0, 0)
        if lines[0].hasPrefix("#") || full {
          to = (0, lines[0].utf16.count)
        } else {
          to = (0, 0)
          snippet += "\n"
        }
      } else {
        // An insertion, a span within a line, a span of a few lines, or now and then a span
        // anywhere (which may delete most of the document): documents hover around a few
        // hundred bytes, a few dozen lines.
        from = randomPosition(&random, lines)
        switch random.next(50) {
        case 0..<20: to = from
        case 20..<40: to = (from.0, from.1 + random.next(lines[from.0].utf16.count - from.1 + 1))
        case 40..<49:
          let line = from.0 + random.next(min(3, lines.count - 1 - from.0) + 1)
          to = (line, randomPosition(&random, [lines[line]]).1)
        default: to = randomPosition(&random, lines)
        }
        if to < from { swap(&from, &to) }
        snippet = full ? "" : randomSnippet(&random)
      }
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
      if published != .array(expectedDiagnostics(texts[index], settings)) {
        mismatch(step, "diagnostics of \(uri) differ")
      }
    } else {
      // A request; each must be answered with a result.
      counts.requests += 1
      let document: JSONValue = ["uri": .string(uri)]
      let line = random.next(24)
      let at: JSONValue = [
        "textDocument": document, "position": ["line": JSONValue(line), "character": JSONValue(random.next(30))],
      ]
      let lineRange: JSONValue = [
        "start": ["line": JSONValue(line), "character": 0], "end": ["line": JSONValue(line), "character": 200],
      ]
      let (method, params): (String, JSONValue) =
        switch random.next(14) {
        case 0: ("textDocument/hover", at)
        case 1: ("textDocument/completion", at)
        case 2: ("textDocument/definition", at)
        case 3: ("textDocument/semanticTokens/full", ["textDocument": document])
        case 4: ("textDocument/formatting", ["textDocument": document, "options": [:]])
        case 5: ("textDocument/foldingRange", ["textDocument": document])
        case 6: ("textDocument/selectionRange", ["textDocument": document, "positions": [at["position"] ?? nil]])
        case 7: ("textDocument/documentSymbol", ["textDocument": document])
        case 8:
          ("workspace/symbol", ["query": .string(["", "gro", "hyp", "a", "rent", "😀"][random.next(6)])])
        case 9:
          // Inside the top line, a `# rpn:` line when there is one: its keys and values.
          (
            random.next(2) == 0 ? "textDocument/completion" : "textDocument/hover",
            ["textDocument": document, "position": ["line": 0, "character": JSONValue(random.next(60))]]
          )
        case 10, 11:
          (
            "textDocument/codeAction",
            [
              "textDocument": document, "range": lineRange,
              "context": ["diagnostics": [], "only": random.next(3) == 0 ? ["source"] : nil],
            ]
          )
        case 12 where !offered.isEmpty: ("codeAction/resolve", offered[random.next(offered.count)])
        default: ("textDocument/inlayHint", ["textDocument": document, "range": lineRange])
        }
      let answer = client.request(method, params)
      if answer?["result"] == nil {
        mismatch(step, "\(method) was answered \(answer.map { String(describing: $0) } ?? "nothing")")
      }
      if method == "textDocument/codeAction", let actions = answer?["result"]?.arrayValue {
        offered = actions.filter { $0["data"] != nil }
        if offered.isEmpty { offered = actions }
      }
    }
    if step % 10 == 0 {
      let whole: JSONValue = [
        "start": ["line": 0, "character": 0], "end": ["line": 100_000, "character": 0],
      ]
      let hints = client.request("textDocument/inlayHint", ["textDocument": ["uri": .string(uri)], "range": whole])
      if hints?["result"].map(withoutEffectTooltips) != .array(expectedHints(texts[index], settings)) {
        mismatch(step, "inlay hints of \(uri) differ")
      }
      let lenses = client.request("textDocument/codeLens", ["textDocument": ["uri": .string(uri)]])
      if lenses?["result"] != .array(expectedLenses(texts[index], settings)) {
        mismatch(step, "code lenses of \(uri) differ")
      }
    }
    if step == warmUpSteps {
      warmedUp = closeAll()
      unitsAtWarmUp = Units.shared.count
      row("warm-up", warmedUp, mismatches)
      openAll()
    }
    if step % 10_000 == 0 {
      let now = rss()
      peak = max(peak, now.anonymous)
      row(String(step), now, mismatches)
    }
  }
  let closed = closeAll()
  row("closed", closed, mismatches)
  let ratio = Double(closed.anonymous) / Double(max(startup.anonymous, 1))
  let sinceWarmUp = Double(closed.anonymous) / Double(max(warmedUp.anonymous, 1))
  let newUnits = Units.shared.count - unitsAtWarmUp
  let allowedKB = Double(warmedUp.anonymous) * soakGrowthLimit + Double(newUnits) * soakKBPerUnit
  let firstUse = warmedUp.anonymous - startup.anonymous
  func percent(_ ratio: Double) -> String { String(format: "%+.1f%%", (ratio - 1) * 100) }
  print(
    "soak: \(mismatches) mismatches in \(steps) steps (\(counts.edits) edits, \(counts.settings) settings changes, "
      + "\(counts.requests) other requests); heap (RssAnon, glibc's tcache off) after startup \(startup.anonymous) KB, "
      + "after the warm-up's \(warmUpSteps) steps (closed) \(warmedUp.anonymous) KB (first use keeps \(firstUse) KB, "
      + "limit \(soakFirstUseLimitKB) KB), peak \(peak) KB, after closing \(closed.anonymous) KB: "
      + "\(percent(sinceWarmUp)) from the warm-up (limit \(percent(soakGrowthLimit)) and \(soakKBPerUnit) KB for each of "
      + "the \(newUnits) units made since: \(Int(allowedKB)) KB), \(percent(ratio)) from startup; "
      + "RSS \(startup.total) → \(closed.total) KB")
  client.close()
  return mismatches == 0 && Double(closed.anonymous) <= allowedKB && firstUse <= soakFirstUseLimitKB ? 0 : 1
}

/// How much the heap after closing every document may exceed the warm-up's, besides the units
/// made since (`soakKBPerUnit`). Measured before units: +0.0% to +0.2% at 5,000 steps (seeds 1
/// to 10), +0.4% (8 KB) at 20,000 and 100,000; with units, and the registry emptied at the end,
/// +0.0% at 100,000 (seed 7). A server that kept each request's id, or each edit's URI, passed
/// it within 5,000 steps (+2.9%, +14.4%): the limit is below what those add over the units'
/// allowance there. 1.5% since times and their formats (stop 38): one seed's runs differ by up
/// to 16 KB (seed 7, 5,000 steps, the same binary: +28, +36 and +44 KB over the warm-up with 42
/// units made; the server of the stop before, on the same steps: +24 to +32 KB with 48), which
/// left 1% a kilobyte from failing on a good server.
private let soakGrowthLimit = 1.015

/// What each unit the registry keeps adds to the heap left after closing, in KB: 0.22 in use
/// (a document of 2,000 or 8,000 distinct units, `1_m^a*s^b`), 0.53 to 0.63 resident, as its
/// entries sit on pages the documents used (seed 7, 100,000 steps: 272 new units, +144 to +168
/// KB, and +0.0% with the registry emptied). The registry keeps at most `Units.capacity` units.
private let soakKBPerUnit = 0.6

/// How much the warm-up may keep over the heap after startup, in KB: measured 204 to 220 before
/// units (the heap about 120, of which the builtins' completion items 58 and their suggestion
/// index 28; the Swift runtime's type metadata 64; globals and stacks 28); 416 to 428 with units
/// (the unit table and its names, the catalog that completion and "Convert to …" offer, the
/// registry's first units and its two caches of 1,024 slots, the units' messages); 592 since
/// unknown units' suggestions are looked up in an index of the unit names (their spellings with
/// up to two characters deleted, and the names by their lowercased spelling), which made a
/// megabyte of unknown units 15 times faster (seed 7, 5,000 steps); 756 with the currencies (the
/// table's 170 more units, their names in that index and in the catalog), so 880.
private let soakFirstUseLimitKB = 880

/// The settings the soak has sent, as the server holds them.
private struct SoakSettings {
  var angleMode = AngleMode.radians
  var display = DisplaySettings()

  var evaluation: EvaluationSettings { EvaluationSettings(angleMode: angleMode) }

  /// A random partial update, as `{"rpn": …}`'s inner object, applied here too; whether it
  /// changes anything (the server publishes again only then).
  mutating func randomChange(_ random: inout SoakRandom) -> (json: JSONValue, changes: Bool) {
    let before = self
    var members: [(key: String, value: JSONValue)] = []
    var inner: [(key: String, value: JSONValue)] = []
    if random.next(2) == 0 {
      display.notation = Notation.allCases[random.next(Notation.allCases.count)]
      inner.append(("notation", .string(display.notation.rawValue)))
    }
    if random.next(2) == 0 {
      display.decimals = random.next(16)
      inner.append(("decimals", JSONValue(display.decimals)))
    }
    if random.next(2) == 0 {
      display.grouping = random.next(2) == 0
      // Dotted, the other form a client may send.
      members.append(("display.grouping", .bool(display.grouping)))
    }
    if random.next(3) == 0 {
      display.precision = 1 + random.next(17)
      members.append(("precision", JSONValue(display.precision)))
    }
    if random.next(4) == 0 {
      display.maxItems = 1 + random.next(12)
      members.append(("inlayHints", ["maxItems": JSONValue(display.maxItems)]))
    }
    if random.next(4) == 0 {
      angleMode = random.next(2) == 0 ? .radians : .degrees
      members.append(("angleUnit", .string(angleMode.rawValue)))
    }
    if !inner.isEmpty { members.append(("display", .object(inner))) }
    return (.object(members), before.angleMode != angleMode || before.display != display)
  }
}

/// The diagnostics a full evaluation gives, as the server must publish them (UTF-16 columns).
private func expectedDiagnostics(_ text: String, _ settings: SoakSettings) -> [JSONValue] {
  guard let document = try? Document(text: text, settings: settings.evaluation) else { return [] }
  let display = document.display(over: settings.display)
  return document.diagnostics().map { line, diagnostic in
    [
      "range": utf16Range(document.text(ofLine: line), line, diagnostic.range),
      "severity": diagnostic.severity == .error ? 1 : diagnostic.severity == .warning ? 2 : 3,
      "code": .string(diagnostic.code.rawValue),
      "source": "rpn",
      "message": .string(diagnostic.message(display: display)),
    ]
  }
}

/// The inlay hints a full evaluation gives (UTF-16 columns), line by line: a word's effect after
/// each `;` that defined one, and what a unit is after each `;` that defined one; the stack label after the last token, with the tooltip of the top
/// 20 levels and, on lines that can take one, the check that accepting the hint writes; on a
/// heading, its section's summary at the line's end.
private func expectedHints(_ text: String, _ settings: SoakSettings) -> [JSONValue] {
  guard let document = try? Document(text: text, settings: settings.evaluation) else { return [] }
  let display = document.display(over: settings.display)
  var hints: [JSONValue] = []
  for line in 0..<document.lineCount {
    let lineText = document.text(ofLine: line)
    func position(_ offset: Int) -> JSONValue {
      ["line": JSONValue(line), "character": JSONValue(utf16Columns(lineText, offset..<offset).lowerBound)]
    }
    for (end, word) in document.definedWords(inLine: line) {
      hints.append(["position": position(end), "label": .string(word.effect.description), "paddingLeft": true])
    }
    for (end, unit) in document.definedUnits(inLine: line) {
      let label = unit.value.map {
        "= " + ValueFormat.definition($0, display: display)
      }
      hints.append(["position": position(end), "label": .string(label ?? "new dimension"), "paddingLeft": true])
    }
    guard let offset = document.hintOffset(ofLine: line) else {
      if document.isHeading(line), let section = document.section(containingLine: line) {
        let summary = section.summary.text { ValueFormat.format($0, display: display) }
        hints.append(["position": position(lineText.utf8.count), "label": .string(summary), "paddingLeft": true])
      }
      continue
    }
    let shown = document.stack(afterLine: line, keepingTop: max(display.maxItems, 20)).labelAndLevels(
      display: display, maxLevels: 20)
    var hint: JSONValue = [
      "position": position(offset), "label": .string(shown.label), "paddingLeft": true,
      "tooltip": .string(shown.levels),
    ]
    if let check = document.checkAddition(line: line, display: display), case .object(var members) = hint {
      let at = position(offset)
      members.append(("textEdits", [["range": ["start": at, "end": at], "newText": .string(check.text)]]))
      hint = .object(members)
    }
    hints.append(hint)
  }
  return hints
}

/// The server's hints with the tooltips of words' effects and units' definitions left out: those
/// are the server's sentences about a word or a unit, not values an evaluation gives.
private func withoutEffectTooltips(_ hints: JSONValue) -> JSONValue {
  guard let hints = hints.arrayValue else { return hints }
  return .array(
    hints.map { hint in
      let label = hint["label"]?.stringValue ?? ""
      guard case .object(let members) = hint, label.hasPrefix("(") || label.hasPrefix("= ") || label == "new dimension"
      else { return hint }
      return .object(members.filter { $0.key != "tooltip" })
    })
}

/// The code lenses a full evaluation gives: on each heading, from its first `#` to the line's
/// end, the section's summary as the title, with an empty command.
private func expectedLenses(_ text: String, _ settings: SoakSettings) -> [JSONValue] {
  guard let document = try? Document(text: text, settings: settings.evaluation) else { return [] }
  let display = document.display(over: settings.display)
  return document.sections().map { section in
    let lineText = document.text(ofLine: section.headingLine)
    let marks = lineText.utf8.firstIndex(of: UInt8(ascii: "#")).map {
      lineText.utf8.distance(from: lineText.utf8.startIndex, to: $0)
    }
    let title = section.summary.text { ValueFormat.format($0, display: display) }
    return [
      "range": utf16Range(lineText, section.headingLine, (marks ?? 0)..<lineText.utf8.count),
      "command": ["title": .string(title), "command": ""],
    ]
  }
}

/// A range of UTF-8 offsets in a line as an LSP range in UTF-16 columns.
private func utf16Range(_ lineText: String, _ line: Int, _ range: Range<Int>) -> JSONValue {
  let columns = utf16Columns(lineText, range)
  return [
    "start": ["line": JSONValue(line), "character": JSONValue(columns.lowerBound)],
    "end": ["line": JSONValue(line), "character": JSONValue(columns.upperBound)],
  ]
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
  // The second edition: number forms, valid and not; the stack words; the words defined below.
  "1,234.50", "0x1F", "0o17", "0b1010_1010", "1,000", "1,5", "0xG", ",5", "1,000,00", "0b102", "lastx", "pick", "roll",
  "subtotal", "hyp", "two", "p", "bad", "w", "sin", "30",
  // The third edition: quantities, unit words, conversions, temperatures, malformed units.
  "12_km", "500_m", "3_h", "26.2_mi", "20_°C", "5_Δ°C", "9.81_m/s^2", "1_kWh", "60_mph", "_km", ">mi", "->ft", "→m",
  ">°F", "uval", "ubase", "12_", "12_kmh", "12_m/s/s", "_x", "30_°",
  // Times and angles in fields of sixty: literals good and bad, and the formats.
  "1:30", "0:45", "1:30:15.5", "-0:30", "4:35_min", "48:46:32_°", ">h:mm", ">h:mm:ss", ">min:ss", ">°:mm:ss", ">h",
  "1:75", "1:5", ":30", "1:30:15_min", ">h:m",
  // Currencies and the tape's own units: amounts, conversions by the rates the definitions set.
  "12.50_EUR", "3_USD", "2_£", ">USD", ">EUR", "3_pace", ">pace", "2_box",
]

/// Checks, written after a line's tokens: some pass now and then, most fail.
private let soakChecks = [
  "=20.5", "=1,234.50", "=0x1F", "=3", "=0", "=1.5e3", "=0.33", "=1,5", "=-3", "=12.5_km", "=3_h", "=20_°C",
  "=2:15", "=1:30:00", "=4:35_min", "=12.50_EUR",
]

private let soakDefinitions = [
  ": hyp sq swap sq + sqrt ;", ": two 1 2 ;", ": p 2 pick ;", ": bad 0 / ;", ": w hyp two + ;", ": r 3 roll ;",
  ": broken =x ;", ": sub subtotal ;", ": dup 2 ;", ": open 1", ": two two two ;", ": hyp 3 4 hyp ; 1 hyp",
  ": _EUR 1.08_USD ;", ": _EUR 1.10_USD ;", ": _GBP 1.19_EUR ;", ": _pace 0.75_m ;", ": _box ;", ": _USD 0.5_EUR ;",
]

private let soakHeadings = ["## Groceries", "## Rent", "### Fruit 😀", "##", "# Top", "## a"]

/// `# rpn:` lines, valid and not, for the top of a document.
private let soakSettingsLines = [
  "# rpn: notation=fixed decimals=2 grouping=true", "# rpn: angleUnit=degrees precision=10 maxItems=12",
  "# rpn: notation=engineering decimals=1", "#rpn: notation=scientific decimals=20 colour=red plain",
  "# RPN: NOTATION=Fixed GROUPING=yes maxItems=0", "# rpn: angleUnit=grad precision=18 =5", "# rpn: maxItems=3",
  "# rpn: notation=auto grouping=true decimals=0 angleUnit=radians",
]

private func randomLine(_ random: inout SoakRandom) -> String {
  switch random.next(8) {
  case 0: return soakHeadings[random.next(soakHeadings.count)]
  case 1, 2: return soakDefinitions[random.next(soakDefinitions.count)]
  default:
    var parts = (0..<random.next(6)).map { _ in soakWords[random.next(soakWords.count)] }
    if random.next(4) == 0 { parts.append(soakChecks[random.next(soakChecks.count)]) }
    if random.next(6) == 0 { parts.append(["# note", "# 😀 ×"][random.next(2)]) }
    return parts.joined(separator: " ")
  }
}

private func randomSnippet(_ random: inout SoakRandom) -> String {
  switch random.next(8) {
  case 0: return ""
  case 1, 2, 3: return "\n" + randomLine(&random)
  case 4: return " 😀 "
  case 5: return " " + soakChecks[random.next(soakChecks.count)]
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

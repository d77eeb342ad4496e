// Code lens refreshes: asked for when an edit changes a section's summary or its headings, and only then.
import JSONRPC
import TestSupport
import Testing

/// `workspace/codeLens/refresh`: a client that declares `workspace.codeLens.refreshSupport` is
/// asked to refresh its code lenses once per batch of edits that changed a section's summary, or
/// added, removed or moved a heading, and after a change of settings that changes how summaries
/// show; never after an edit that left every lens as it was. Its answer (null) is taken quietly.
@Suite(.inProcess) struct CodeLensRefreshTests {
  static let refreshing: JSONValue = ["workspace": ["codeLens": ["refreshSupport": true]]]

  /// How many code lens refreshes the server asked for, once everything sent so far was handled.
  static func refreshes(_ client: LSPClient) throws -> Int {
    try client.barrier()
    return client.serverRequests.filter { $0["method"] == "workspace/codeLens/refresh" }.count
  }

  /// Edits one at a time, each with whether it changes a lens; a client without refresh support
  /// is never asked.
  @Test(
    .overPipes,
    arguments: [
      (Self.refreshing, true),
      (["workspace": ["codeLens": ["refreshSupport": false]]] as JSONValue, false),
      ([:] as JSONValue, false),
      (["workspace": ["codeLens": ["refreshSupport": "yes"]]] as JSONValue, false),  // Ill-typed: ignored.
    ])
  func aRefreshIsAskedForWhenASummaryChanges(capabilities: JSONValue, refreshes: Bool) throws {
    let client = try LSPClient.started(capabilities: capabilities)
    let uri = "file:///refresh.rpn"
    client.open(uri, "## Café ☂\n1 2\n## B\n3\n")
    #expect(try Self.refreshes(client) == 0, "none for opening a document")
    var expected = 0
    var version = 1
    func step(_ what: String, _ change: JSONValue, changesALens: Bool) throws {
      version += 1
      client.change(uri, version: version, [change])
      if changesALens && refreshes { expected += 1 }
      let asked = try Self.refreshes(client)
      #expect(asked == expected, "\(what)")
    }
    try step("a value in a section", edit(range(1, 2, 1, 3), "5"), changesALens: true)  // 1 5
    try step("a comment", edit(range(3, 1, 3, 1), " # é"), changesALens: false)
    try step("a line that leaves the stack as it was", edit(range(1, 0, 1, 0), "4 drop\n"), changesALens: false)
    try step("a value above every heading: the bases move", edit(range(0, 0, 0, 0), "9\n"), changesALens: false)
    try step("a title", edit(range(4, 3, 4, 4), "Bé"), changesALens: false)
    // 9 / ## Café ☂ / 4 drop / 1 5 / ## Bé / 3 # é
    try step("a heading added", edit(range(5, 0, 5, 0), "## C\n"), changesALens: true)
    try step("a heading removed", edit(range(4, 0, 5, 0), ""), changesALens: true)
    // 9 / ## Café ☂ / 4 drop / 1 5 / ## C / 3 # é
    try step("a subtotal", edit(range(3, 3, 3, 3), " subtotal"), changesALens: true)
    try step("a heading made a comment", edit(range(1, 0, 1, 1), ""), changesALens: true)
    try step("nothing at all", edit(range(0, 0, 0, 0), ""), changesALens: false)
    SettingsTests.configure(client, ["rpn": ["precision": 3]])
    if refreshes { expected += 1 }
    #expect(try Self.refreshes(client) == expected, "a new precision")
    SettingsTests.configure(client, ["rpn": ["inlayHints": ["sections": false]]])
    #expect(try Self.refreshes(client) == expected, "a setting that lenses do not show")
    // Every refresh was a request with an id and no params; the client's null answers made no noise.
    for request in client.serverRequests where request["method"] == "workspace/codeLens/refresh" {
      #expect(request["id"] != nil && (request["params"] == nil || request["params"] == .null))
    }
    #expect(try SectionTests.lenses(client, uri: uri) == ["4:0-4:4 Σ 3 · 1 value · avg 3"])
    #expect(!client.messages.contains { $0["method"] == "window/logMessage" })
    try client.finish()
  }

  /// Several edits in one batch: one refresh.
  @Test func oneRefreshPerBatch() throws {
    let client = try LSPClient.started(capabilities: Self.refreshing)
    let uri = "file:///batch.rpn"
    client.open(uri, "## A\n1\n## B\n2\n")
    client.send(together: [
      LSPClient.didChange(uri, version: 2, [edit(range(1, 0, 1, 1), "5")]),
      LSPClient.didChange(uri, version: 3, [edit(range(3, 0, 3, 1), "6"), edit(range(0, 0, 0, 0), "## Z\n")]),
    ])
    #expect(try Self.refreshes(client) == 1)
    #expect(
      try SectionTests.lenses(client, uri: uri) == [
        "0:0-0:4 no values", "1:0-1:4 Σ 5 · 1 value · avg 5", "3:0-3:4 Σ 6 · 1 value · avg 6",
      ])
    try client.finish()
  }

  // MARK: Random edits

  static let insertions = [
    "1", "2", "7", "0", " ", " ", "+", "*", "dup", "drop", "swap", "clear", "subtotal", "## A", "## B", "#", "# c",
    "\n", "\n", "\n## S\n", "3 4\n", "",
  ]

  /// Seeded random tapes and edits (values, operators, `subtotal`, headings, comments, line
  /// breaks), one or two changes at a time: after each, a refresh was asked for whenever the
  /// lenses' titles changed, and never when every lens stayed as it was (same line, same title).
  /// When lenses only moved with the text, either is right. Values are whole and positive, so a
  /// summary that changed shows changed. (The server's debug build also checks, after every
  /// edit, that the outline it keeps edit by edit is the document's.)
  @Test(arguments: 0..<4)
  func refreshesFollowTheLensesUnderRandomEdits(server: Int) throws {
    let client = try LSPClient.started(capabilities: Self.refreshing)
    let sequences = 40
    for sequence in 0..<scaledCount(sequences) {
      let seed = UInt64(server * sequences + sequence)
      var random = SplitMix64(seed: seed &+ 0x5EC7_1035)
      var text = Self.randomTape(&random)
      let uri = "file:///random-\(seed).rpn"
      client.open(uri, text)
      var lenses = try SectionTests.lenses(client, uri: uri)
      var asked = try Self.refreshes(client)
      var log: [String] = []
      for version in 2..<22 {
        var changes: [JSONValue] = []
        for _ in 0..<Int.random(in: 1...2, using: &random) {
          let (start, end) = Self.randomRange(text, &random)
          let insertion = Self.insertions.randomElement(using: &random) ?? ""
          text = Self.replacing(text, start, end, with: insertion)
          changes.append(edit(range(start.line, start.character, end.line, end.character), insertion))
          log.append("\(start.line):\(start.character)-\(end.line):\(end.character) \(insertion.debugDescription)")
        }
        client.change(uri, version: version, changes)
        let now = try Self.refreshes(client)
        let after = try SectionTests.lenses(client, uri: uri)
        let titles = { (lenses: [String]) in lenses.map { $0.drop { $0 != " " } } }
        if titles(after) != titles(lenses) {
          #expect(now == asked + 1, "lenses changed: seed \(seed), edits \(log), \(lenses) → \(after)")
        } else if after == lenses {
          #expect(now == asked, "lenses did not change: seed \(seed), edits \(log), \(lenses)")
        } else {
          #expect(now <= asked + 1, "at most one refresh: seed \(seed), edits \(log)")
        }
        lenses = after
        asked = now
      }
      client.close(uri)
    }
    try client.finish()
  }

  static func randomTape(_ random: inout SplitMix64) -> String {
    var lines: [String] = []
    for _ in 0..<Int.random(in: 0...14, using: &random) {
      switch Int.random(in: 0..<8, using: &random) {
      case 0, 1: lines.append("## T\(lines.count)")
      case 2: lines.append("# note")
      default:
        let words = ["1", "2", "5", "+", "*", "dup", "drop", "subtotal", "clear"]
        lines.append(
          (0..<Int.random(in: 0...4, using: &random)).map { _ in words.randomElement(using: &random) ?? "1" }
            .joined(separator: " "))
      }
    }
    return lines.joined(separator: "\n")
  }

  /// A random range, start before end: positions past a line's end and past the document too.
  static func randomRange(_ text: String, _ random: inout SplitMix64) -> (
    (line: Int, character: Int), (line: Int, character: Int)
  ) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    func randomPosition() -> (line: Int, character: Int) {
      let line = Int.random(in: 0...lines.count, using: &random)
      let length = line < lines.count ? lines[line].count : 0
      return (line, Int.random(in: 0...(length + 2), using: &random))
    }
    let start = randomPosition()
    let end: (line: Int, character: Int)
    switch Int.random(in: 0..<4, using: &random) {
    case 0: end = start  // An insertion.
    case 1: end = (start.line, start.character + 3)
    default: end = randomPosition()
    }
    let (a, b) = (offset(text, start), offset(text, end))
    return a <= b ? (start, end) : (end, start)
  }

  /// The offset of a position in ASCII text, clamped as LSP clamps: past a line's end is its end,
  /// past the last line is the end of the text.
  static func offset(_ text: String, _ position: (line: Int, character: Int)) -> Int {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard position.line < lines.count else { return text.count }
    let before = lines[..<position.line].reduce(0) { $0 + $1.count + 1 }
    return before + min(position.character, lines[position.line].count)
  }

  static func replacing(
    _ text: String, _ start: (line: Int, character: Int), _ end: (line: Int, character: Int), with insertion: String
  ) -> String {
    let characters = Array(text)
    return String(characters[..<offset(text, start)]) + insertion + String(characters[offset(text, end)...])
  }
}

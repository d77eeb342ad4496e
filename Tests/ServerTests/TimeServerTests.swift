import JSONRPC
import TestSupport
import Testing

/// Times and angles in fields of sixty through the server, over the real binary's pipes: the
/// stacks of a timesheet as inlay hints, hover on a time, a format word and a check, the
/// malformed literals' diagnostics, "Show as h:mm" among the conversions, the formats completed
/// after `>`, semantic tokens, and checks written and updated in the top's fields. `°` (two bytes
/// in UTF-8, one unit in UTF-16) makes the two position encodings' columns differ.
@Suite struct TimeServerTests {
  static let uri = "file:///week.rpn"
  /// Two days worked out as end minus start (less a break on the second, checked), a run's time
  /// from its pace, the week's subtotal, and a bearing in degrees, minutes and seconds.
  static let timesheet = Marked(
    """
    ## Week1️⃣
    17:30 9:00 -2️⃣
    16:45 9:00 - 0:30 - =7:153️⃣
    4:35_min 10 *4️⃣ # a run
    subtotal5️⃣
    ## Bearing6️⃣
    48:46:32_° 0:30_° +7️⃣

    """)

  /// A client that negotiated `encoding` and takes code action literals, with `text` open.
  static func started(_ encoding: String, _ text: String) throws -> LSPClient {
    let client = try LSPClient.started(
      encoding: encoding,
      capabilities: [
        (
          "textDocument",
          [
            "codeAction": [
              "codeActionLiteralSupport": ["codeActionKind": ["valueSet": ["quickfix", "refactor", "source"]]]
            ],
            "hover": ["contentFormat": ["markdown", "plaintext"]],
          ]
        )
      ]
    ).client
    client.open(uri, text)
    return client
  }

  // MARK: Inlay hints

  /// Each line's stack in the fields its values carry: `h:mm` from end minus start, `min:ss` for
  /// the run, the subtotal in the lowest value's format, the bearing in `°:mm:ss`; the sections'
  /// summaries in the same fields. Accepting a hint writes its check in the top's fields; the
  /// line with a check gets none.
  @Test(arguments: encodings)
  func inlayHintsOnATimesheet(encoding: String) throws {
    let source = Self.timesheet
    let client = try Self.started(encoding, source.text)
    let hints = try client.allInlayHints(Self.uri)
    func at(_ n: Int) -> String { compact(position: source.at(n, encoding)) }
    #expect(
      compact(hints: hints) == [
        "\(at(1)) Σ 16:31 · 1 value · avg 16:31",
        "\(at(2)) [8:30]",
        "\(at(3)) [8:30 7:15]",
        "\(at(4)) [8:30 7:15 45:50_min]",
        "\(at(5)) [16:31]",
        "\(at(6)) Σ 49:16:32_° · 1 value · avg 49:16:32_°",
        "\(at(7)) [16:31 49:16:32_°]",
      ])
    #expect(at(7) == pick(encoding, "6:21", "6:19"))
    let lines = hints.arrayValue ?? []
    #expect(
      lines.map { $0["tooltip"]?.stringValue } == [
        nil, "1: 8:30", "2: 8:30\n1: 7:15", "3: 8:30\n2: 7:15\n1: 45:50_min", "1: 16:31", nil,
        "2: 16:31\n1: 49:16:32_°",
      ])
    #expect(
      lines.map { hint in hint["textEdits"].map { compact(edits: $0.arrayValue ?? []) } } == [
        nil, ["\(at(2))-\(at(2)) → \" =8:30\""], nil, ["\(at(4))-\(at(4)) → \" =45:50_min\""],
        ["\(at(5))-\(at(5)) → \" =16:31\""], nil, ["\(at(7))-\(at(7)) → \" =49:16:32_°\""],
      ])
    // Accepted, every check written passes.
    let checked = try applying(lines.flatMap { $0["textEdits"]?.arrayValue ?? [] }, to: source.text, encoding: encoding)
    #expect(checked.contains("17:30 9:00 - =8:30\n"))
    #expect(checked.contains("48:46:32_° 0:30_° + =49:16:32_°\n"))
    client.change(Self.uri, version: 2, [["text": .string(checked)]])
    #expect(try client.publishedDiagnostics(Self.uri).diagnostics == [])
    try client.finish()
  }

  // MARK: Hover

  /// On a time literal: its unit and format, the exact factor, the value in base units; on a
  /// format word: what it converts to; on a check in fields: how closely it compares. Markdown
  /// and plain text, each to the byte.
  @Test(arguments: [
    (
      "markdown", 1, "0:0-0:4",
      "quantity `1:30`: hour shown as h:mm, a time  \nexactly: `1 h = 3600 s`  \nin SI base units: `5400_s`\n\n"
        + "Stack before: `[]`  \nStack after: `[1:30]`"
    ),
    (
      "markdown", 2, "0:18-0:26",
      "unit `>h:mm:ss`: converts the top to hour shown as h:mm:ss (`h`), a time  \nexactly: `1 h = 3600 s`\n\n"
        + "Stack before: `[2:15]`  \nStack after: `[2:15:00]`"
    ),
    (
      "markdown", 3, "0:12-0:17",
      "check `=2:15`: the top must be `2:15` to the minute  \npasses: the top is `2:15` (`2:15` to the minute)\n\n"
        + "Stack before: `[2:15]`  \nStack after: `[2:15]`"
    ),
    (
      "markdown", 4, "1:7-1:12",
      "unit `>h:mm`: converts the top to hour shown as h:mm (`h`), a time  \nexactly: `1 h = 3600 s`\n\n"
        + "Stack before: `[2:15:00 90_min]`  \nStack after: `[2:15:00 1:30]`"
    ),
    (
      "plaintext", 1, "0:0-0:4",
      "quantity 1:30: hour shown as h:mm, a time\nexactly: 1 h = 3600 s\nin SI base units: 5400_s\n\n"
        + "Stack before: []\nStack after: [1:30]"
    ),
    (
      "plaintext", 3, "0:12-0:17",
      "check =2:15: the top must be 2:15 to the minute\npasses: the top is 2:15 (2:15 to the minute)\n\n"
        + "Stack before: [2:15]\nStack after: [2:15]"
    ),
  ])
  func hoverOnATimeAFormatAndACheck(kind: String, marker: Int, range: String, value: String) throws {
    let source = Marked("1:301️⃣ 0:45 + =2:153️⃣ >h:m2️⃣m:ss\n90_min >h:mm4️⃣")
    let client = try LSPClient.started(capabilities: ["textDocument": ["hover": ["contentFormat": [.string(kind)]]]])
    client.open(Self.uri, source.text)
    let hover = try client.hover(Self.uri, source.utf16(marker))
    #expect(hover["contents"]?["kind"] == .string(kind))
    #expect(compact(range: hover["range"]) == range)
    #expect(hover["contents"]?["value"] == .string(value))
    try client.finish()
  }

  // MARK: Diagnostics

  /// A minute past 59 and three fields in minutes are `invalid-number` errors on the literal,
  /// whose messages say what is wrong (and, for `1:75`, the reading meant); the stack goes on.
  @Test(arguments: encodings)
  func malformedTimesAreInvalidNumbers(encoding: String) throws {
    let source = Marked("48:46:32_° 1️⃣1:752️⃣ 3️⃣1:30:15_min4️⃣ 0:15_° +5️⃣")
    let client = try Self.started(encoding, source.text)
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    #expect(
      compact(diagnostics: diagnostics) == [
        "\(compact(range: source.range(1, 2, encoding))) error invalid-number: `1:75` is not a time or angle: "
          + "minutes and seconds go from 00 to 59; did you mean `2:15`?",
        "\(compact(range: source.range(3, 4, encoding))) error invalid-number: `1:30:15_min` is not a time or angle: "
          + "minutes take two fields, as in `4:35_min`; hours, minutes and seconds are written, like `1:30:15`",
      ])
    #expect(compact(range: source.range(1, 2, encoding)) == span(encoding, 0, (12, 16), (11, 15)))
    #expect(compact(range: source.range(3, 4, encoding)) == span(encoding, 0, (17, 28), (16, 27)))
    // Both skipped: `0:15_° +` adds a quarter of a degree to the bearing, in its format.
    #expect(
      compact(hints: try client.allInlayHints(Self.uri)) == [
        "\(compact(position: source.at(5, encoding))) [49:01:32_°]"
      ])
    try client.finish()
  }

  // MARK: Code actions

  /// On a token whose result is a time or an angle: "Show as …" for each format it may take but
  /// its own, first, then "Convert to …" (a unit conversion drops the format); each inserts its
  /// word after the token. Applied, the line's stack shows the new format.
  @Test(arguments: encodings)
  func showAsAFormatOnATimeAndAnAngle(encoding: String) throws {
    let source = Marked("1:30 0:45 +1️⃣ 2\n48:46:32_°2️⃣ 1\n")
    let client = try Self.started(encoding, source.text)
    let cursor = source.at(1, encoding)
    let time = try CodeActionTests.codeActions(client, ["start": cursor, "end": cursor], [], uri: Self.uri)
    #expect(
      time.compactMap { $0["title"]?.stringValue } == [
        "Show as h:mm:ss (hours, minutes and seconds)", "Show as min:ss (minutes and seconds)",
        "Convert to s (second)", "Convert to min (minute)", "Convert to h (hour)", "Convert to d (day)",
        "Convert to wk (week)", "Convert to yr (year (Julian, 365.25 days))", "Convert to ms (millisecond)",
        "Convert to µs (microsecond)",
      ])
    #expect(time.allSatisfy { $0["kind"] == "refactor.rewrite" })
    #expect(
      compact(actions: Array(time.prefix(2)), uri: Self.uri) == [
        "refactor.rewrite \"Show as h:mm:ss (hours, minutes and seconds)\": 0:11-0:11 → \" >h:mm:ss\"",
        "refactor.rewrite \"Show as min:ss (minutes and seconds)\": 0:11-0:11 → \" >min:ss\"",
      ])
    let angleCursor = source.at(2, encoding)
    let angle = try CodeActionTests.codeActions(client, ["start": angleCursor, "end": angleCursor], [], uri: Self.uri)
    #expect(
      angle.compactMap { $0["title"]?.stringValue } == [
        "Show as °:mm (degrees and minutes)", "Convert to rad (radian)", "Convert to ° (degree)",
        "Convert to ′ (minute of arc)", "Convert to ″ (second of arc)", "Convert to grad (gradian)",
        "Convert to turn (turn)",
      ])
    let degrees = span(encoding, 1, (11, 11), (10, 10))
    #expect(
      compact(actions: Array(angle.prefix(1)), uri: Self.uri) == [
        "refactor.rewrite \"Show as °:mm (degrees and minutes)\": \(degrees) → \" >°:mm\""
      ])
    var text = try applying(edits(of: time[0]["edit"] ?? .null, uri: Self.uri), to: source.text, encoding: encoding)
    text = try applying(edits(of: angle[0]["edit"] ?? .null, uri: Self.uri), to: text, encoding: encoding)
    #expect(text == "1:30 0:45 + >h:mm:ss 2\n48:46:32_° >°:mm 1\n")
    client.change(Self.uri, version: 2, [["text": .string(text)]])
    #expect(try client.publishedDiagnostics(Self.uri).diagnostics == [])
    #expect(
      compact(hints: try client.allInlayHints(Self.uri)) == [
        "0:22 [2:15:00 2]", "1:\(pick(encoding, 20, 18)) [2:15:00 2 48:47_° 1]",
      ])
    try client.finish()
  }

  // MARK: Completion

  /// After `>` on a line whose top is a time or an angle: first the formats it may be shown in,
  /// but the one it has, then the units it converts to; each a Unit (11) replacing what is typed
  /// after the mark (from 2️⃣ to 1️⃣).
  @Test(
    arguments: [
      ("1:30 0:45 + >2️⃣1️⃣", ["h:mm:ss", "min:ss"]),
      ("90_min >2️⃣1️⃣", ["h:mm", "h:mm:ss", "min:ss"]),
      ("4:35_min >2️⃣1️⃣", ["h:mm", "h:mm:ss"]),
      ("1:30 >2️⃣h:1️⃣", ["h:mm:ss"]),
      ("48:46:32_° >2️⃣°:1️⃣", ["°:mm"]),
      ("1_° ->2️⃣1️⃣", ["°:mm", "°:mm:ss"]),
    ], encodings)
  func formatsAreCompletedAfterTheMark(line: (source: String, formats: [String]), encoding: String) throws {
    let (source, formats) = line
    let text = Marked(source)
    let client = try Self.started(encoding, text.text)
    let items = CompletionTests.items(try client.completion(Self.uri, text.at(1, encoding)))
    let labels = CompletionTests.labels(items)
    #expect(Array(labels.prefix(formats.count)) == formats, "\(labels)")
    let everyFormat = ["h:mm", "h:mm:ss", "min:ss", "°:mm", "°:mm:ss"]
    #expect(labels.filter(everyFormat.contains) == formats)
    let range = compact(range: text.range(2, 1, encoding))
    for item in items {
      #expect(item["kind"] == 11)
      #expect(compact(range: item["textEdit"]?["range"]) == range, "\(item)")
      #expect(item["textEdit"]?["newText"] == item["label"])
    }
    let names = [
      "h:mm": "hours and minutes", "h:mm:ss": "hours, minutes and seconds", "min:ss": "minutes and seconds",
      "°:mm": "degrees and minutes", "°:mm:ss": "degrees, minutes and seconds",
    ]
    #expect(items.prefix(formats.count).map { $0["detail"]?.stringValue } == formats.map { names[$0] })
    try client.finish()
  }

  // MARK: Semantic tokens

  /// A time is one `number` (0), colons and all; a unit after it a `type` (6) with
  /// `defaultLibrary` (bit 2); a check's `=` an `operator` (1) and its value a `number`; a
  /// format word one `type`, its mark with it.
  @Test(arguments: encodings)
  func semanticTokensOfTimes(encoding: String) throws {
    let client = try Self.started(encoding, "1:30 4:35_min =2:15 >h:mm\n48:46:32_° >°:mm")
    let result = try client.request("textDocument/semanticTokens/full", ["textDocument": textDocument(Self.uri)])
    let data = result["data"]?.arrayValue?.compactMap(\.intValue) ?? []
    // (line delta, start delta, length, type, modifiers) per token.
    #expect(
      data == [
        0, 0, 4, 0, 0,  // 1:30
        0, 5, 4, 0, 0,  // 4:35
        0, 5, 3, 6, 4,  // min
        0, 4, 1, 1, 0,  // =
        0, 1, 4, 0, 0,  // 2:15
        0, 5, 5, 6, 4,  // >h:mm
        1, 0, 8, 0, 0,  // 48:46:32
        0, 9, pick(encoding, 2, 1), 6, 4,  // °
        0, pick(encoding, 3, 2), pick(encoding, 6, 5), 6, 4,  // >°:mm
      ])
    try client.finish()
  }

  // MARK: Checks written and updated

  /// Failing checks in fields are updated in their own fields (`=2:00` → `=2:15`, `=2:15:00` →
  /// `=2:15:10`); checks added are in the top's fields and format (` =9:10_min`,
  /// ` =49:16:32_°`); the quick fix, the line's action and the source actions all write them, and
  /// once applied nothing fails.
  @Test(arguments: encodings)
  func checksAreWrittenInTheTopsFields(encoding: String) throws {
    let source = Marked(
      """
      1:30 0:45 + 1️⃣=2:002️⃣
      4:35_min 2 *3️⃣
      2:15 10_s + 4️⃣=2:15:005️⃣
      48:46:32_° 0:30_° +6️⃣ # bearing

      """)
    let client = try Self.started(encoding, source.text)
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    #expect(
      compact(diagnostics: diagnostics) == [
        "0:12-0:17 warning check-failed: expected 2:00, the top is 2:15 to the minute",
        "2:12-2:20 warning check-failed: expected 2:15:00, the top is 2:15:10 to the second",
      ])
    let fix = try CodeActionTests.codeActions(
      client, diagnostics[0]["range"] ?? .null, [diagnostics[0]], only: ["quickfix"], uri: Self.uri)
    #expect(
      compact(actions: fix, uri: Self.uri) == [
        "quickfix preferred \"Update the check to =2:15\": 0:12-0:17 → \"=2:15\""
      ])
    let cursor = source.at(3, encoding)
    let line = try CodeActionTests.codeActions(
      client, ["start": cursor, "end": cursor], [], only: ["refactor"], uri: Self.uri)
    #expect(
      compact(actions: line, uri: Self.uri).first
        == "refactor.rewrite \"Write the result as a check: =9:10_min\": 1:12-1:12 → \" =9:10_min\"")
    let bearing = compact(range: source.range(6, 6, encoding))
    #expect(bearing == span(encoding, 3, (21, 21), (19, 19)))
    let sources = try CodeActionTests.codeActions(client, range(0, 0, 9, 0), [], only: ["source"], uri: Self.uri)
    #expect(
      compact(actions: sources, uri: Self.uri) == [
        "source.rpn.updateChecks \"Update every failing check\": 0:12-0:17 → \"=2:15\", 2:12-2:20 → \"=2:15:10\"",
        "source.rpn.addChecks \"Add a check to every line\": 1:12-1:12 → \" =9:10_min\", "
          + "\(bearing) → \" =49:16:32_°\"",
        "source.rpn.removeChecks \"Remove every check\": 0:11-0:17 → \"\", 2:11-2:20 → \"\"",
      ])
    var text = try applying(edits(of: sources[0]["edit"] ?? .null, uri: Self.uri), to: source.text, encoding: encoding)
    text = try applying(edits(of: sources[1]["edit"] ?? .null, uri: Self.uri), to: text, encoding: encoding)
    #expect(
      text == """
        1:30 0:45 + =2:15
        4:35_min 2 * =9:10_min
        2:15 10_s + =2:15:10
        48:46:32_° 0:30_° + =49:16:32_° # bearing

        """)
    client.change(Self.uri, version: 2, [["text": .string(text)]])
    #expect(try client.publishedDiagnostics(Self.uri).diagnostics == [])
    try client.finish()
  }

  /// A check written without fields against a time: its message says to write `=1:30`, in the
  /// top's fields, and a check written for you is in them. The quick fix writes `=1.5_h`
  /// instead: it passes, but in decimal hours. A known fault, left to the engine's owners; this
  /// test fails once it is mended, to be turned into a plain expectation.
  @Test func aPlainCheckOnATimeIsUpdatedInItsFields() throws {
    let client = try Self.started("utf-16", "1:30 =1.5\n")
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    #expect(
      compact(diagnostics: diagnostics) == [
        "0:5-0:9 warning check-failed: expected 1.5, the top is 1:30, a time, which this check cannot compare; "
          + "to check it, write `=1:30`"
      ])
    let fixes = try CodeActionTests.codeActions(
      client, diagnostics.first?["range"] ?? .null, diagnostics, only: ["quickfix"], uri: Self.uri)
    #expect(
      compact(actions: fixes, uri: Self.uri) == [
        "quickfix preferred \"Update the check to =1:30\": 0:5-0:9 → \"=1:30\""
      ])
    try client.finish()
  }

  /// A time written wrongly with one reading gets a fix that writes it (the message's "did you
  /// mean"); one with none gets no fix.
  @Test func aMalformedTimeIsFixedToItsReading() throws {
    let client = try Self.started("utf-16", "1:75 1:5 1:30:15_min\n")
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    #expect(diagnostics.count == 3)
    var found: [String] = []
    for diagnostic in diagnostics {
      let fixes = try CodeActionTests.codeActions(
        client, diagnostic["range"] ?? .null, [diagnostic], only: ["quickfix"], uri: Self.uri)
      found += compact(actions: fixes, uri: Self.uri)
    }
    #expect(
      found == [
        "quickfix preferred \"Replace with `2:15`\": 0:0-0:4 → \"2:15\"",
        "quickfix preferred \"Replace with `1:05`\": 0:5-0:8 → \"1:05\"",
      ])
    try client.finish()
  }
}

import JSONRPC
import TestSupport
import Testing

/// the README's table of server features `textDocument/inlayHint` and §1.2 stack labels: one hint per line with tokens,
/// right after its last token, `paddingLeft`, only inside the requested range (its end included).
@Suite(.inProcess) struct InlayHintTests {
  /// The lunch split, the language's worked example; also end to end, over the built binary's pipes.
  @Test(.overPipes) func theLunchSplitOfTheSpec() throws {
    let client = try LSPClient.started()
    let text = Marked("# lunch split\n12.50 =lunch1️⃣\n8 =coffee2️⃣\n+3️⃣\n3 /4️⃣\n")
    client.open("file:///lunch.rpn", text.text)
    let hints = try client.allInlayHints("file:///lunch.rpn")
    #expect(
      compact(hints: hints) == [
        "\(compact(position: text.utf16(1))) [12.5]", "\(compact(position: text.utf16(2))) [12.5 8]",
        "\(compact(position: text.utf16(3))) [20.5]", "\(compact(position: text.utf16(4))) [6.83333333333333]",
      ])
    #expect(compact(hints: hints) == ["1:12 [12.5]", "2:9 [12.5 8]", "3:1 [20.5]", "4:3 [6.83333333333333]"])
    // Each hint whole: its tooltip lists the stack, top last; accepting it writes the result as a check.
    // A line that ends on the number written there gets no check: it would only repeat it.
    func hint(_ line: Int, _ character: Int, _ label: String, _ tooltip: String, _ check: String?) -> JSONValue {
      var members: [(key: String, value: JSONValue)] = [
        ("position", position(line, character)), ("paddingLeft", true), ("label", .string(label)),
        ("tooltip", .string(tooltip)),
      ]
      if let check {
        members.append(("textEdits", [["range": range(line, character, line, character), "newText": .string(check)]]))
      }
      return .object(members)
    }
    #expect(
      hints == [
        hint(1, 12, "[12.5]", "1: 12.5", nil), hint(2, 9, "[12.5 8]", "2: 12.5\n1: 8", nil),
        hint(3, 1, "[20.5]", "1: 20.5", " =20.5"),
        hint(4, 3, "[6.83333333333333]", "1: 6.83333333333333", " =6.83333333333333"),
      ])
    try client.finish()
  }

  /// Before a trailing comment and trailing whitespace; none on blank, whitespace-only or
  /// comment-only lines; every kind of line break.
  @Test func hintsGoRightAfterTheLastTokenOfLinesWithTokens() throws {
    let client = try LSPClient.started()
    let text = "  # only a comment\r\n\r\n   1   2  # two\r\n \t \r3 *\t\t\n+ # no\n1 drop\n#\n"
    client.open("file:///h.rpn", text)
    #expect(
      compact(hints: try client.allInlayHints("file:///h.rpn")) == [
        "2:8 [1 2]", "4:3 [1 6]", "5:1 [7]", "6:6 [7]",
      ])
    try client.finish()
  }

  @Test func labelsShowValuesAsPrintfG() throws {
    let client = try LSPClient.started()
    let lines = [
      "0.1 0.2 +", "clear 1 3 /", "clear 1e21", "clear 0 neg", "clear 2 sqrt", "clear 1_000_000 .5 12.", "clear",
    ]
    client.open("file:///g.rpn", lines.joined(separator: "\n"))
    #expect(
      compact(hints: try client.allInlayHints("file:///g.rpn")) == [
        "0:9 [0.3]", "1:11 [0.333333333333333]", "2:10 [1e+21]", "3:11 [0]", "4:12 [1.4142135623731]",
        "5:22 [1000000 0.5 12]", "6:5 []",
      ])
    try client.finish()
  }

  @Test func moreThanEightValuesShowTheTopEightAfterAnEllipsis() throws {
    let client = try LSPClient.started()
    client.open("file:///m.rpn", "1 2 3 4 5 6 7 8\n9 10 11 12\nclear 1 2 3 4 5 6 7 8 9\n")
    #expect(
      compact(hints: try client.allInlayHints("file:///m.rpn")) == [
        "0:15 [1 2 3 4 5 6 7 8]", "1:10 [… 5 6 7 8 9 10 11 12]", "2:23 [… 2 3 4 5 6 7 8 9]",
      ])
    try client.finish()
  }

  // MARK: Tooltips and checks

  /// A hint's tooltip lists the stack after its line, one level per line, numbered from the top,
  /// the top last, each value as the label shows it; accepting the hint inserts ` =X` where it
  /// stands (X the top as the display shows it), on lines without a check or a diagnostic whose stack is not empty
  /// and does not end on the number written there.
  /// Columns in both encodings: `÷` and `×` come before the hints, emoji in the comments.
  @Test(.overPipes, arguments: encodings)
  func tooltipsListTheStackAndAcceptingAHintWritesTheCheck(encoding: String) throws {
    let (client, _) = try LSPClient.started(encoding: encoding)
    let source = Marked(
      """
      # 😀 lunch
      12.5 8 + =20.51️⃣ # 😀 checked
      3 ÷2️⃣ # 😀 each
      2 ×3️⃣
      clear4️⃣
      =15️⃣ # 😀 underflows
      -0.5 0.25 neg6️⃣ # 😀 two values

      """)
    client.open("file:///t.rpn", source.text)
    let hints = try client.allInlayHints("file:///t.rpn").arrayValue ?? []
    #expect(hints.map { $0["position"] } == (1...6).map { source.at($0, encoding) })
    #expect(
      hints.map { $0["tooltip"] } == [
        "1: 20.5", "1: 6.83333333333333", "1: 13.6666666666667", "empty stack", "empty stack", "2: -0.5\n1: -0.25",
      ])
    // Lines with a check, and lines after which the stack is empty, get none.
    #expect(
      hints.map { hint in hint["textEdits"].map { compact(edits: $0.arrayValue ?? []) } } == [
        nil, ["\(compact(range: source.range(2, 2, encoding))) → \" =6.83333333333333\""],
        ["\(compact(range: source.range(3, 3, encoding))) → \" =13.6666666666667\""], nil, nil,
        ["\(compact(range: source.range(6, 6, encoding))) → \" =-0.25\""],
      ])
    #expect(compact(range: source.range(3, 3, encoding)) == span(encoding, 3, (4, 4), (3, 3)))
    // Accepted, every hint's edit writes a check that passes.
    let edits = hints.flatMap { $0["textEdits"]?.arrayValue ?? [] }
    let checked = try applying(edits, to: source.text, encoding: encoding)
    #expect(checked.contains("3 ÷ =6.83333333333333 # 😀 each\n2 × =13.6666666666667\n"))
    client.change("file:///t.rpn", version: 2, [["text": .string(checked)]])
    #expect(
      compactWithoutMessage(diagnostics: try client.publishedDiagnostics("file:///t.rpn").diagnostics) == [
        "5:0-5:2 warning stack-underflow"
      ])
    #expect(try client.allInlayHints("file:///t.rpn").arrayValue?.allSatisfy { $0["textEdits"] == nil } == true)
    try client.finish()
  }

  /// Past 20 levels the tooltip says how many more there are, above the top 20; the label keeps
  /// to `maxItems`, and both show values with the precision setting (the check's value does not).
  @Test(.overPipes) func deepStacksShowTwentyLevelsInTheTooltip() throws {
    let client = try LSPClient.started(initializationOptions: ["rpn": ["precision": 3, "inlayHints": ["maxItems": 2]]])
    let values = (1...24).map(String.init).joined(separator: " ")
    let cleared = (1...20).map(String.init).joined(separator: " ") + " clear 1 2 3"
    client.open("file:///deep.rpn", "\(values)\n1 3 /\n\(cleared)\n")
    let hints = try client.allInlayHints("file:///deep.rpn").arrayValue ?? []
    #expect(
      compact(hints: .array(hints)) == [
        "0:\(values.utf8.count) [… 23 24]", "1:5 [… 24 0.333]", "2:\(cleared.utf8.count) [… 2 3]",
      ])
    #expect(
      hints.map { $0["tooltip"]?.stringValue } == [
        "… 4 more\n" + (5...24).map { "\(25 - $0): \($0)" }.joined(separator: "\n"),
        "… 5 more\n" + (6...24).map { "\(26 - $0): \($0)" }.joined(separator: "\n") + "\n1: 0.333",
        "3: 1\n2: 2\n1: 3",
      ])
    // Lines 0 and 2 end on a number written there: a check would only repeat it.
    #expect(hints.map { $0["textEdits"]?.arrayValue?.first?["newText"] } == [nil, " =0.333", nil])
    try client.finish()
  }

  // MARK: Range

  /// Hints at (0,1), (1,3) and (2,5). A range gets the hints of every line it touches, from its
  /// start line through its end line, but not the end line when the range spans lines and ends
  /// at its first character: clients ask for the visible lines, and some stop short of a hint.
  @Test(
    arguments: [
      (range(0, 0, 10, 0), ["0:1 [1]", "1:3 [1 2 3]", "2:5 [1 2 3 4 5 6]"]),
      (range(1, 0, 1, 3), ["1:3 [1 2 3]"]),
      (range(1, 3, 1, 3), ["1:3 [1 2 3]"]),  // An empty range exactly at a hint.
      (range(1, 0, 1, 2), ["1:3 [1 2 3]"]),  // Short of the hint: the line is touched.
      (range(1, 4, 2, 4), ["1:3 [1 2 3]", "2:5 [1 2 3 4 5 6]"]),
      (range(0, 1, 1, 2), ["0:1 [1]", "1:3 [1 2 3]"]),
      (range(0, 2, 2, 5), ["0:1 [1]", "1:3 [1 2 3]", "2:5 [1 2 3 4 5 6]"]),
      (range(2, 5, 2, 5), ["2:5 [1 2 3 4 5 6]"]),
      (range(2, 6, 3, 0), ["2:5 [1 2 3 4 5 6]"]),  // Ends at line 3's start: line 3 is not touched.
      (range(0, 0, 2, 0), ["0:1 [1]", "1:3 [1 2 3]"]),  // Likewise line 2.
      (range(1, 0, 1, 1000), ["1:3 [1 2 3]"]),
      (range(4, 0, 9, 0), []),  // Past the end of the document.
      (range(0, 0, 0, 0), ["0:1 [1]"]),  // An empty range on a line touches it.
    ] as [(JSONValue, [String])])
  func theHintsOfEveryLineTheRangeTouches(range: JSONValue, expected: [String]) throws {
    let client = try LSPClient.started()
    client.open("file:///r.rpn", "1\n2 3\n4 5 6\n")
    #expect(compact(hints: try client.inlayHints("file:///r.rpn", range)) == expected)
    try client.finish()
  }

  /// A range that starts past the end of its line starts at the line's end, as LSP prescribes for
  /// any position, so the hint at that line's end is inside it (it used to be dropped).
  @Test(arguments: encodings)
  func aRangeStartingPastTheEndOfItsLineIncludesTheHintAtThatEnd(encoding: String) throws {
    let (client, _) = try LSPClient.started(encoding: encoding)
    client.open("file:///c.rpn", "1 π\n2\n")
    let end = encoding == "utf-8" ? 4 : 3  // π is 2 UTF-8 bytes, 1 UTF-16 unit.
    #expect(
      compact(hints: try client.inlayHints("file:///c.rpn", range(0, 10, 1, 0))) == ["0:\(end) [1 3.14159265358979]"])
    try client.finish()
  }

  // MARK: Settings from initializationOptions

  @Test(arguments: [
    ["rpn": ["inlayHints": ["maxItems": 2]]] as JSONValue,
    ["inlayHints": ["maxItems": 2]],  // The inner object alone.
  ])
  func maxItemsFromInitializationOptions(options: JSONValue) throws {
    let client = try LSPClient.started(initializationOptions: options)
    client.open("file:///x.rpn", "1 2\n3\nclear 4\n")
    #expect(compact(hints: try client.allInlayHints("file:///x.rpn")) == ["0:3 [1 2]", "1:1 [… 2 3]", "2:7 [4]"])
    try client.finish()
  }

  @Test func maxItemsOfOneShowsOnlyTheTop() throws {
    let client = try LSPClient.started(initializationOptions: ["rpn": ["inlayHints": ["maxItems": 1]]])
    client.open("file:///x.rpn", "1 2 3\n")
    #expect(compact(hints: try client.allInlayHints("file:///x.rpn")) == ["0:5 [… 3]"])
    try client.finish()
  }

  @Test func precisionFromInitializationOptions() throws {
    let client = try LSPClient.started(initializationOptions: ["rpn": ["precision": 3]])
    client.open("file:///p.rpn", "1 3 /\n2 sqrt 1234.5\n")
    #expect(compact(hints: try client.allInlayHints("file:///p.rpn")) == ["0:5 [0.333]", "1:13 [0.333 1.41 1.23e+03]"])
    try client.finish()
  }

  @Test func precisionSeventeen() throws {
    let client = try LSPClient.started(initializationOptions: ["precision": 17])
    client.open("file:///p.rpn", "0.1 0.2 +")
    #expect(compact(hints: try client.allInlayHints("file:///p.rpn")) == ["0:9 [0.30000000000000004]"])
    try client.finish()
  }

  @Test func disabledFromInitializationOptions() throws {
    let client = try LSPClient.started(initializationOptions: ["rpn": ["inlayHints": ["enabled": false]]])
    client.open("file:///d.rpn", "1 2 +\n")
    #expect(try client.allInlayHints("file:///d.rpn") == [])
    // Diagnostics do not depend on hints.
    client.open("file:///e.rpn", "+")
    #expect(
      compactWithoutMessage(diagnostics: try client.publishedDiagnostics("file:///e.rpn").diagnostics) == [
        "0:0-0:1 warning stack-underflow"
      ])
    try client.finish()
  }

  /// Ill-typed or out-of-range settings are ignored and the defaults stay (the lifecycle and error rules of the README and the README's settings).
  @Test(arguments: [
    ["rpn": ["precision": "3", "inlayHints": ["maxItems": 0, "enabled": "no"]]] as JSONValue,
    ["rpn": ["precision": 0, "inlayHints": ["maxItems": -3]]],
    ["rpn": ["precision": 18, "inlayHints": ["maxItems": 2.5]]],
    ["rpn": ["precision": 3.5, "inlayHints": 7, "angleUnit": "gradians"]],
    ["rpn": 5],
    "rpn",
    [1, 2],
  ])
  func illTypedInitializationOptionsAreIgnored(options: JSONValue) throws {
    let client = try LSPClient.started(initializationOptions: options)
    client.open("file:///i.rpn", "1 3 / 2 3 4 5 6 7 8 9\n")
    #expect(compact(hints: try client.allInlayHints("file:///i.rpn")) == ["0:21 [… 2 3 4 5 6 7 8 9]"])
    client.open("file:///j.rpn", "1 3 /\n")
    #expect(compact(hints: try client.allInlayHints("file:///j.rpn")) == ["0:5 [0.333333333333333]"])
    try client.finish()
  }

  // MARK: Position

  /// A tape whose comments are aligned in a column; a definition's effect after its `;`; trailing
  /// blanks after a comment; emoji before the end of a line.
  static let aligned = "12.5 =lunch   # 😀 starter\n4 2 * =coffee # drink \t\n+\n: dbl 2 * ; dbl # twice\n"
  /// Where each hint goes, by `inlayHints.position`: after the tokens, or after the comment.
  static func alignedHints(endOfLine: Bool, _ encoding: String) -> [String] {
    let end = { (line: String) in
      encoding == "utf-8" ? line.utf8.count : line.utf16.count
    }
    return [
      "0:\(endOfLine ? end("12.5 =lunch   # 😀 starter") : 11) [12.5]", "1:\(endOfLine ? 21 : 13) [12.5 8]",
      "2:1 [20.5]",
      "3:11 ( a -- r )", "3:\(endOfLine ? 23 : 15) [41]",
    ]
  }

  /// `inlayHints.position` `endOfLine` puts each line's stack after its comment (before trailing
  /// blanks), so that aligned comments stay aligned; a word's effect stays after its `;`, and
  /// accepting a hint still writes the check after the tokens, before the comment.
  @Test(.overPipes, arguments: encodings)
  func endOfLinePutsTheStackAfterTheComment(encoding: String) throws {
    let (client, _) = try LSPClient.started(
      encoding: encoding, initializationOptions: ["rpn": ["inlayHints": ["position": "endOfLine"]]])
    client.open("file:///a.rpn", Self.aligned)
    let hints = try client.allInlayHints("file:///a.rpn")
    #expect(compact(hints: hints) == Self.alignedHints(endOfLine: true, encoding))
    #expect(compact(hints: hints) != Self.alignedHints(endOfLine: false, encoding))
    // (The first line's check would repeat its literal: whether it is offered is no matter here.)
    #expect(
      (hints.arrayValue ?? []).dropFirst().map { hint in hint["textEdits"].map { compact(edits: $0.arrayValue ?? []) } }
        == [["1:13-1:13 → \" =8\""], ["2:1-2:1 → \" =20.5\""], nil, ["3:15-3:15 → \" =41\""]])
    try client.finish()
  }

  /// The setting from `didChangeConfiguration` (nested or dotted), back to `afterTokens`; a value
  /// that is no position, or not a string, is ignored.
  @Test(.overPipes) func thePositionFollowsTheEditorsSetting() throws {
    let client = try LSPClient.started()
    client.open("file:///a.rpn", Self.aligned)
    let after = Self.alignedHints(endOfLine: false, "utf-16")
    let atEnd = Self.alignedHints(endOfLine: true, "utf-16")
    #expect(compact(hints: try client.allInlayHints("file:///a.rpn")) == after)
    let steps: [(settings: JSONValue, hints: [String])] = [
      (["rpn": ["inlayHints": ["position": "endOfLine"]]], atEnd),
      (["rpn": ["inlayHints": ["position": "end"]]], atEnd),
      (["inlayHints": ["position": 1]], atEnd),
      (["rpn": ["inlayHints.position": "afterTokens"]], after),
      (["rpn": ["inlayHints": ["position": "EndOfLine"]]], after),
      (["inlayHints.position": "endOfLine"], atEnd),
    ]
    for (settings, hints) in steps {
      SettingsTests.configure(client, settings)
      #expect(compact(hints: try client.allInlayHints("file:///a.rpn")) == hints, "\(settings)")
    }
    try client.finish()
  }

  /// A tape's `# rpn: hints=` wins over the editor's setting, either way; a bad value is an
  /// `invalid-setting` that names the values, and the editor's setting stays.
  @Test(.overPipes, arguments: ["afterTokens", "endOfLine"])
  func theTapesHintsKeyWins(editor: String) throws {
    let client = try LSPClient.started(initializationOptions: ["rpn": ["inlayHints": ["position": .string(editor)]]])
    let cases: [(line: String, hints: [String], diagnostics: [String])] = [
      ("# rpn: hints=endOfLine", ["1:16 [1 2]", "2:7 [3]"], []),
      ("# rpn: HINTS=afterTokens", ["1:3 [1 2]", "2:1 [3]"], []),
      (
        "# rpn: hints=end", editor == "endOfLine" ? ["1:16 [1 2]", "2:7 [3]"] : ["1:3 [1 2]", "2:1 [3]"],
        ["0:7-0:16 warning invalid-setting: `hints=end`: hints takes afterTokens or endOfLine"]
      ),
    ]
    for (index, (line, hints, diagnostics)) in cases.enumerated() {
      let uri = "file:///k\(index).rpn"
      client.open(uri, line + "\n1 2 # two values\n+ # sum\n")
      #expect(compact(hints: try client.allInlayHints(uri)) == hints, "\(line)")
      #expect(compact(diagnostics: try client.publishedDiagnostics(uri).diagnostics) == diagnostics, "\(line)")
    }
    try client.finish()
  }

  /// `maxItems` takes 1 to 1000: 1000 shows a thousand values; 1001 is ignored (the default, 8).
  @Test(arguments: [(1000, 1000), (1001, 8), (999_999, 8)])
  func maxItemsUpToAThousand(maxItems: Int, shown: Int) throws {
    let client = try LSPClient.started(initializationOptions: ["rpn": ["inlayHints": ["maxItems": JSONValue(maxItems)]]]
    )
    let text = String(repeating: "1 ", count: 1001)
    client.open("file:///w.rpn", text)
    let label = "[… " + Array(repeating: "1", count: shown).joined(separator: " ") + "]"
    #expect(compact(hints: try client.allInlayHints("file:///w.rpn")) == ["0:2001 \(label)"])
    try client.finish()
  }

  /// `maxItems` past the tooltip's 20 levels: the label shows that many of the top values, in
  /// their order (distinct values, so that a label of other levels would not pass), and the
  /// tooltip its 20 levels; a stack exactly that deep is shown whole, without `…`.
  @Test(arguments: [25, 40])
  func maxItemsPastTwentyShowsThatManyValues(maxItems: Int) throws {
    let client = try LSPClient.started(initializationOptions: ["rpn": ["inlayHints": ["maxItems": JSONValue(maxItems)]]]
    )
    let deep = (1...50).map(String.init).joined(separator: " ")
    let whole = "clear " + (1...maxItems).map(String.init).joined(separator: " ")
    client.open("file:///m.rpn", "\(deep)\n\(whole)\n")
    let hints = try client.allInlayHints("file:///m.rpn")
    let top = "[… " + (51 - maxItems...50).map(String.init).joined(separator: " ") + "]"
    let all = "[" + (1...maxItems).map(String.init).joined(separator: " ") + "]"
    #expect(compact(hints: hints) == ["0:\(deep.utf8.count) \(top)", "1:\(whole.utf8.count) \(all)"])
    #expect(
      hints.arrayValue?.first?["tooltip"]?.stringValue
        == "… 30 more\n" + (31...50).map { "\(51 - $0): \($0)" }.joined(separator: "\n"))
    try client.finish()
  }

  // MARK: Edits

  @Test func hintsFollowEdits() throws {
    let client = try LSPClient.started()
    let uri = "file:///e.rpn"
    client.open(uri, "1 2\n+\n")
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:3 [1 2]", "1:1 [3]"])
    client.change(uri, version: 2, [edit(range(0, 3, 0, 3), " 3")])  // "1 2 3"
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:5 [1 2 3]", "1:1 [1 5]"])
    client.change(uri, version: 3, [edit(range(1, 0, 1, 1), "# gone")])
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:5 [1 2 3]"])
    client.change(uri, version: 4, [edit(range(1, 0, 1, 0), "* ")])  // "* # gone"
    #expect(compact(hints: try client.allInlayHints(uri)) == ["0:5 [1 2 3]", "1:1 [1 6]"])
    try client.finish()
  }
}

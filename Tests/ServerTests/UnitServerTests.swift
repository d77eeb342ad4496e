import JSONRPC
import TestSupport
import Testing

/// Units through the server, over the real binary's pipes: completion of a unit, hover on a
/// quantity and a unit word, semantic tokens of units, and the units' diagnostics.
@Suite struct UnitServerTests {
  /// After `_`, `>`, `->`, `→` and a number's `_`: units, kind Unit (11), each replacing the
  /// factor being typed; after `>` only those the top converts to.
  @Test(arguments: [
    ("12_km 500_1️⃣", "0:10-0:10", ["m", "km", "cm", "h", "kg"], ["12_km"]),
    ("12_k1️⃣", "0:3-0:4", ["km", "kg", "kW", "kWh", "kn", "K", "KiB"], ["m", "Mm"]),
    ("26.2_mi >1️⃣", "0:9-0:9", ["km", "m", "ft", "nmi"], ["mi", "h", "kg"]),
    ("26.2_mi ->k1️⃣", "0:10-0:11", ["km"], ["kg", "kW"]),
    ("26.2_mi →f1️⃣", "0:9-0:10", ["ft"], ["floz"]),  // `→` is one UTF-16 unit
    ("3 _1️⃣", "0:3-0:3", ["m", "km", "h", "°C"], []),
    ("3 _km/1️⃣", "0:6-0:6", ["h", "s"], []),
    ("3 _km/h1️⃣", "0:6-0:7", ["h", "ha"], ["s"]),
    ("12_km =12.5_1️⃣", "0:12-0:12", ["km", "m"], []),
    ("5 >1️⃣", "0:3-0:3", [], ["km"]),
  ])
  func completesAUnit(source: String, range: String, present: [String], absent: [String]) throws {
    let text = Marked(source)
    let client = try LSPClient.started()
    client.open("file:///u.rpn", text.text)
    let items = CompletionTests.items(try client.completion("file:///u.rpn", text.utf16(1)))
    let labels = CompletionTests.labels(items)
    for label in present { #expect(labels.contains(label), "\(label) in \(labels.prefix(20))") }
    for label in absent { #expect(!labels.contains(label), "\(label)") }
    if present.isEmpty { #expect(labels.isEmpty, "\(labels.prefix(10))") }
    for item in items {
      #expect(item["kind"] == 11)
      #expect(compact(range: item["textEdit"]?["range"]) == range)
      #expect(item["filterText"] == item["label"])
    }
    try client.finish()
  }

  /// Units of the top's dimension come first: after `12_km 500_`, every length before any time.
  @Test func theTopsDimensionFirst() throws {
    let text = Marked("12_km 500_1️⃣")
    let client = try LSPClient.started()
    client.open("file:///u.rpn", text.text)
    let labels = CompletionTests.labels(CompletionTests.items(try client.completion("file:///u.rpn", text.utf16(1))))
    let lengths = ["m", "km", "mi", "ft", "in", "yd", "nmi"].compactMap { labels.firstIndex(of: $0) }
    let others = ["h", "kg", "L", "°C"].compactMap { labels.firstIndex(of: $0) }
    #expect(lengths.count == 7 && others.count == 4)
    #expect((lengths.max() ?? .max) < (others.min() ?? 0))
    try client.finish()
  }

  /// Hover on a quantity names its unit, dimension and value in base units; on a unit word,
  /// what it converts to.
  @Test func hoverOnAQuantityAndAUnitWord() throws {
    let client = try LSPClient.started()
    client.open("file:///h.rpn", "26.2_mi >km")
    let quantity = try client.hover("file:///h.rpn", position(0, 2))["contents"]?["value"]?.stringValue ?? ""
    #expect(quantity.contains("mile"), "\(quantity)")
    #expect(quantity.contains("length"), "\(quantity)")
    #expect(quantity.contains("1609.344"), "\(quantity)")
    let word = try client.hover("file:///h.rpn", position(0, 9))["contents"]?["value"]?.stringValue ?? ""
    #expect(word.contains("kilometre"), "\(word)")
    #expect(word.contains("42.1648128"), "\(word)")
    try client.finish()
  }

  /// A unit is a `type` (the legend's index 6) with `defaultLibrary`, its number a `number`; the
  /// `_` between them is neither; a unit word (`>mi`) is one `type`, its mark with it.
  @Test func semanticTokensOfUnits() throws {
    let client = try LSPClient.started()
    client.open("file:///s.rpn", "12_km >mi =7.46_mi")
    let result = try client.request(
      "textDocument/semanticTokens/full", ["textDocument": ["uri": .string("file:///s.rpn")]])
    let data = result["data"]?.arrayValue?.compactMap(\.intValue) ?? []
    // (line delta, start delta, length, type, modifiers) per token.
    #expect(
      data == [
        0, 0, 2, 0, 0,  // 12
        0, 3, 2, 6, 4,  // km
        0, 3, 3, 6, 4,  // >mi
        0, 4, 1, 1, 0,  // =
        0, 1, 4, 0, 0,  // 7.46
        0, 5, 2, 6, 4,  // mi
      ])
    try client.finish()
  }

  // MARK: Quick fixes and "Convert to …"

  /// Each units diagnostic's quick fix, applied, gives the text a user meant; its diagnostic
  /// goes.
  @Test(
    arguments: [
      ("12km 1 +", "12_km 1 +", "Replace `12km` with `12_km`"),
      ("12_km 3 +", "12_km 3_km +", "Write the number in km"),
      ("3 12_km +", "3_km 12_km +", "Write the number in km"),
      ("5_km _mi", "5_km >mi", "Convert with `>mi`"),
      ("5 >km", "5 _km", "Give it the unit with `_km`"),
      ("5 →km", "5 _km", "Give it the unit with `_km`"),
      ("20_°C 5_°C +", "20_°C 5_Δ°C +", "Write the change as Δ°C"),
      ("12_km =12", "12_km =12_km", "Update the check to =12_km"),
      ("1_mi =1.6_km", "1_mi =1.6_km", nil),
      ("5 =_x _x 1 +\n_x", "5 =x_ x_ 1 +\nx_", "Rename `_x` to `x_` everywhere"),
    ] as [(String, String, String?)])
  func quickFixes(source: String, fixed: String, title: String?) throws {
    let client = try LSPClient.started()
    client.open("file:///f.rpn", source)
    let diagnostics = try client.publishedDiagnostics("file:///f.rpn").diagnostics
    let whole = range(0, 0, 9, 0)
    let actions = try CodeActionTests.codeActions(client, whole, diagnostics, uri: "file:///f.rpn")
      .filter { $0["kind"] == "quickfix" }
    guard let title else {
      #expect(actions.isEmpty, "\(actions.map { JSONWriter.string($0) })")
      try client.finish()
      return
    }
    let action = try #require(actions.first, "no fix for \(source): \(diagnostics.map { JSONWriter.string($0) })")
    #expect(action["title"] == .string(title))
    let text = try applying(edits(of: action["edit"] ?? .null, uri: "file:///f.rpn"), to: source, encoding: "utf-16")
    #expect(text == fixed)
    client.change("file:///f.rpn", version: 2, [["text": .string(text)]])
    let after = try client.publishedDiagnostics("file:///f.rpn").diagnostics
    #expect(after.count < diagnostics.count, "\(after.map { JSONWriter.string($0) })")
    try client.finish()
  }

  /// On a token whose result is a quantity: "Convert to …", at most 8, each inserting ` >unit`.
  @Test func convertTo() throws {
    let client = try LSPClient.started()
    client.open("file:///c.rpn", "26.2_mi 3")
    let actions = try CodeActionTests.codeActions(client, range(0, 2, 0, 2), [], uri: "file:///c.rpn")
      .filter { $0["title"]?.stringValue?.hasPrefix("Convert to") == true }
    #expect(
      actions.compactMap { $0["title"]?.stringValue } == [
        "Convert to m (metre)", "Convert to ft (foot)", "Convert to in (inch)", "Convert to yd (yard)",
        "Convert to nmi (nautical mile)", "Convert to km (kilometre)", "Convert to cm (centimetre)",
        "Convert to mm (millimetre)",
      ])
    let km = try #require(actions.first { $0["title"] == "Convert to km (kilometre)" })
    #expect(
      try applying(edits(of: km["edit"] ?? .null, uri: "file:///c.rpn"), to: "26.2_mi 3", encoding: "utf-16")
        == "26.2_mi >km 3")
    // A plain number's result: none.
    let plain = try CodeActionTests.codeActions(client, range(0, 8, 0, 8), [], uri: "file:///c.rpn")
    #expect(!plain.contains { $0["title"]?.stringValue?.hasPrefix("Convert to") == true })
    try client.finish()
  }
}

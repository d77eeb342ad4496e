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
  /// `_` between them is neither, a unit word's `>` an `operator`.
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
        0, 3, 1, 1, 0,  // >
        0, 1, 2, 6, 4,  // mi
        0, 3, 1, 1, 0,  // =
        0, 1, 4, 0, 0,  // 7.46
        0, 5, 2, 6, 4,  // mi
      ])
    try client.finish()
  }
}

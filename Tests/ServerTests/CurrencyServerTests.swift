import JSONRPC
import TestSupport
import Testing

/// Currencies and rates through the server, over the real binary's pipes: hover on an amount and
/// on a conversion shows each rate in force and its line, down the chain; the stacks as inlay
/// hints in the currencies' minor units; `no-rate` as a warning.
@Suite struct CurrencyServerTests {
  static let uri = "file:///trip.rpn"
  static let trip = Marked(
    """
    : _EUR 1.08_USD ;
    100_EUR1️⃣ >USD
    : _GBP 1.19_EUR ;
    10_GBP >U2️⃣SD
    5_JPY 1_EUR +3️⃣

    """)

  @Test func hoverShowsEachRateInForceAndItsLine() throws {
    let client = try LSPClient.started(capabilities: ["textDocument": ["hover": ["contentFormat": ["markdown"]]]])
    client.open(Self.uri, Self.trip.text)
    let amount = try client.hover(Self.uri, Self.trip.utf16(1))
    #expect(
      amount["contents"]?["value"]
        == .string(
          "quantity `100.00_EUR`: euro, an amount of EUR  \nrate: `1 EUR = 1.08 USD`, line 1\n\n"
            + "Stack before: `[]`  \nStack after: `[100.00_EUR]`"))
    let conversion = try client.hover(Self.uri, Self.trip.utf16(2))
    #expect(
      conversion["contents"]?["value"]
        == .string(
          "unit `>USD`: converts the top to United States dollar (`USD`), an amount of USD  \n"
            + "rate: `1 GBP = 1.19 EUR`, line 3  \nrate: `1 EUR = 1.08 USD`, line 1\n\n"
            + "Stack before: `[108.00_USD 10.00_GBP]`  \nStack after: `[108.00_USD 12.85_USD]`"))
    try client.finish()
  }

  @Test func hintsShowMinorUnitsAndNoRateIsAWarning() throws {
    let client = try LSPClient.started()
    client.open(Self.uri, Self.trip.text)
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?["code"] == "no-rate")
    #expect(diagnostics.first?["severity"] == 2)
    #expect(compact(range: diagnostics.first?["range"]) == "4:12-4:13")
    let hints = try client.allInlayHints(Self.uri).arrayValue ?? []
    #expect(
      hints.compactMap { $0["label"]?.stringValue } == [
        "= 1.08_USD", "[]",
        "[108.00_USD]", "= 1.19_EUR", "[108.00_USD]", "[108.00_USD 12.85_USD]", "[108.00_USD 12.85_USD 5_JPY 1.00_EUR]",
      ])
    try client.finish()
  }
}

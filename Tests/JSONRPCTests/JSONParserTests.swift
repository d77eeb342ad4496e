import Testing

@testable import JSONRPC

@Suite struct JSONParserTests {
  @Test(arguments: [
    ("null", JSONValue.null), ("true", .bool(true)), ("false", .bool(false)), ("-12", .number(-12)),
    ("1.5e3", .number(1500)), ("\"a\\nb\\u00e9\\ud83d\\ude00\"", .string("a\nbé😀")), ("[]", .array([])),
    ("{\"a\": [1, {\"b\": null}]}", JSONValue.object([("a", .array([1, .object([("b", .null)])]))])),
    (" \t\n 0 ", .number(0)),
  ])
  func parses(_ text: String, _ expected: JSONValue) {
    #expect(JSONParser.parse(text) == .success(expected))
  }

  @Test(arguments: [
    "", "{", "[1,]", "{\"a\":}", "01", "1.", "-", "\"\\x\"", "\"\\ud800\"", "tru", "{\"a\" 1}", "[1] 2", "\"\u{1}\"",
    "nul", "[", "\"abc",
  ])
  func rejects(_ text: String) {
    guard case .failure = JSONParser.parse(text) else {
      Issue.record("\(text.debugDescription) parsed")
      return
    }
  }

  @Test func rejectsInvalidUTF8() {
    #expect((try? JSONParser.parse([0x22, 0xFF, 0x22]).get()) == nil)
  }

  @Test func boundsNesting() {
    let deep = String(repeating: "[", count: 100_000)
    guard case .failure(let error) = JSONParser.parse(deep) else {
      Issue.record("100,000 nested [ parsed")
      return
    }
    #expect(error.message.contains("nested deeper"))
    let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect((try? JSONParser.parse(fine).get()) != nil)
  }

  @Test func roundTripsThroughTheWriter() throws {
    let value: JSONValue = [
      "s": "quote \" backslash \\ newline \n tab \t bell \u{7} é😀", "n": [1, -2, 0.5, 1e21], "b": true,
    ]
    let encoded = JSONWriter.encode(value)
    #expect(JSONParser.parse(encoded) == .success(value))
    #expect(JSONWriter.string(["n": 3, "x": 0.25]) == "{\"n\":3,\"x\":0.25}")
  }
}

@Suite struct MessageTests {
  /// Clients send `"params": null` for `shutdown` and `exit`; it means no params.
  @Test func nullParamsAreAbsent() {
    let exit = JSONParser.parse(#"{"jsonrpc":"2.0","method":"exit","params":null}"#).map(Message.classify)
    #expect(exit == .success(.success(.notification(method: "exit", params: nil))))
    let shutdown = JSONParser.parse(#"{"jsonrpc":"2.0","id":7,"method":"shutdown","params":null}"#).map(
      Message.classify)
    #expect(shutdown == .success(.success(.request(id: 7, method: "shutdown", params: nil))))
    let number = JSONParser.parse(#"{"jsonrpc":"2.0","method":"exit","params":5}"#).map(Message.classify)
    #expect(number == .success(.failure(.invalidRequest("params must be an object or an array"))))
  }
}

import Foundation
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
    // After an escape (the string is then decoded into an array sized first): unterminated, a
    // backslash at the end, a control character, a short or broken `\u`.
    "\"\\n", "\"a\\", "\"\\n\u{1}\"", "\"\\u12\"", "\"\\ud83d\\u0041\"", "\"\\n\\q\"",
  ])
  func rejects(_ text: String) {
    guard case .failure = JSONParser.parse(text) else {
      Issue.record("\(text.debugDescription) parsed")
      return
    }
  }

  @Test func rejectsInvalidUTF8() {
    #expect((try? JSONParser.parse([0x22, 0xFF, 0x22]).get()) == nil)
    #expect((try? JSONParser.parse([0x22, 0x5C, 0x6E, 0xFF, 0x22]).get()) == nil)
  }

  /// Where a string fails is the same whether the failure comes before its first escape or after.
  @Test func failuresInAStringNameTheirOffset() {
    for (text, message, offset) in [
      ("\"ab\u{1}\"", "control character in a string", 3), ("\"\\nab\u{1}\"", "control character in a string", 5),
      ("\"abc", "unterminated string", 4), ("\"\\nabc", "unterminated string", 6),
      ("\"\\n\\x\"", "invalid escape", 5),
    ] {
      guard case .failure(let error) = JSONParser.parse(text) else {
        Issue.record("\(text.debugDescription) parsed")
        continue
      }
      #expect(error.message == message, "\(text.debugDescription)")
      #expect(error.offset == offset, "\(text.debugDescription)")
    }
  }

  /// Strings written with every kind of escape (`\/`, `\b`, `\f`, `\u` in the basic plane and as
  /// surrogate pairs, in either case of hex) decode as Foundation decodes them, long and short.
  @Test func escapedStringsDecodeAsFoundationDecodesThem() throws {
    var state: UInt64 = 7
    func next(below bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let pieces = [
      "a", "xyz", " ", "é", "😀", "\\n", "\\r", "\\t", "\\b", "\\f", "\\/", "\\\\", "\\\"", "\\u00e9", "\\u00E9",
      "\\u0041", "\\u20ac", "\\ud83d\\ude00", "\\uD83D\\uDE00", "\\u0000", "/", "12.5 8 +",
    ]
    for round in 0..<3_000 {
      let count = round % 100 == 0 ? 2_000 : next(below: 40)
      let body = (0..<count).map { _ in pieces[next(below: pieces.count)] }.joined()
      let json = "\"" + body + "\""
      let theirs = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String
      #expect(try JSONParser.parse(json).get() == .string(theirs ?? "?"), "\(json.debugDescription)")
    }
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

  /// JSON written ahead is written as it is, and equals the value it parses to.
  @Test func encodedValuesAreWrittenAsTheyAre() {
    let item = JSONValue.encoded(Array(#"{"label":"dup","kind":3}"#.utf8))
    #expect(JSONWriter.string(["items": [item, "x"]]) == #"{"items":[{"label":"dup","kind":3},"x"]}"#)
    #expect(item == ["label": "dup", "kind": 3])
    #expect(["kind": 3, "label": "dup"] == item)
    #expect(item != ["label": "drop", "kind": 3])
    #expect(JSONValue.encoded(Array("{".utf8)) != ["label": "dup"])
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

  /// A message's number id is answered with its text as written: kept as `.encoded` when the
  /// writer would write its value otherwise, a `.number` when it writes it back the same (a
  /// plain integer of up to 15 characters, the common case, which costs nothing more). Only the
  /// top-level `id` is kept so; `parse` keeps nothing.
  @Test(
    arguments: [
      ("7", false), ("-12", false), ("0", false), ("999999999999999", false), ("-99999999999999", false),
      ("9007199254740993", true), ("-9007199254740993", true), ("18446744073709551617", true),
      ("1000000000000000", true), ("1e3", true), ("1E+400", true), ("-0", true), ("1.0", true), ("1.5", true),
      ("0.10", true),
    ])
  func numberIDsKeepTheirText(id: String, kept: Bool) throws {
    let body = Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"x","params":{"id":\#(id)}}"#.utf8)
    let message = try JSONParser.parseMessage(body).get()
    let expected: JSONValue = kept ? .encoded(Array(id.utf8)) : .number(Double(id) ?? .nan)
    guard case .success(.request(let parsed, "x", let params)) = Message.classify(message) else {
      Issue.record("not a request: \(message)")
      return
    }
    #expect(JSONWriter.string(parsed) == id)
    if case .encoded(let text) = parsed { #expect(kept && text == Array(id.utf8)) } else { #expect(!kept) }
    #expect(parsed == expected)
    if case .encoded = params?["id"] { Issue.record("a nested id kept its text") }
    if case .encoded = try JSONParser.parse(body).get()["id"] { Issue.record("parse kept the id's text") }
    let answer = JSONWriter.string(Outgoing.response(id: parsed, result: .success(.null)))
    #expect(answer == #"{"jsonrpc":"2.0","id":\#(id),"result":null}"#)
  }

  /// Ids that are neither numbers nor strings are refused as before; a malformed number is not JSON.
  @Test func otherIDsAreRefused() {
    for id in ["null", "true", "[1]", #"{"a":1}"#] {
      let message = JSONParser.parseMessage(Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"x"}"#.utf8))
      #expect(
        message.map(Message.classify) == .success(.failure(.invalidRequest("id must be a number or a string"))), "\(id)"
      )
    }
    for id in ["01", "1.", "-", "1e", "+1", ".5"] {
      guard case .failure = JSONParser.parseMessage(Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"x"}"#.utf8)) else {
        Issue.record("\(id) parsed")
        continue
      }
    }
  }
}

/// Strings are scanned eight bytes at a time for `"`, `\` and control characters: every such byte
/// at every offset around a word's edges is found, and strings round-trip through the writer.
@Suite struct JSONStringScanTests {
  @Test func everySpecialByteAtEveryOffsetIsFound() {
    for length in 0..<40 {
      for position in 0..<max(length, 1) {
        for special: UInt8 in [0x22, 0x5C, 0x00, 0x0A, 0x1F, 0x7F, 0x80, 0xE2] {
          var text = [UInt8](repeating: 0x61, count: length)
          if length > 0 { text[position] = special }
          let found = text.withUnsafeBufferPointer { JSONParser.nextSpecialByte($0, from: 0) }
          let expected = text.firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 } ?? length
          #expect(found == expected, "\(length) bytes, \(special) at \(position)")
        }
      }
    }
  }

  @Test func stringsRoundTrip() throws {
    var state: UInt64 = 42
    func next(below bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let pieces = ["a", "\"", "\\", "\n", "\t", "\u{1}", "é", "😀", "xyzxyzxyz", " ", "\u{7F}", "/"]
    for _ in 0..<2_000 {
      let count = next(below: 30)
      let text = (0..<count).map { _ in pieces[next(below: pieces.count)] }.joined()
      let encoded = JSONWriter.encode(.string(text))
      #expect(try JSONParser.parse(encoded).get() == .string(text), "\(text.debugDescription)")
    }
  }
}

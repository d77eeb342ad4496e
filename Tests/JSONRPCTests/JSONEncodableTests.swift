import Testing

@testable import JSONRPC

/// A typed value as a response type writes itself: members in order, a nested object and array,
/// an absent optional left out.
private struct Sample: JSONEncodable {
  var name: String
  var count: Int
  var note: String?
  var flags: [Bool]
  var inner: Inner?

  struct Inner: JSONEncodable {
    var value: Double
    func encode(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.member("value", value)
      writer.endObject()
    }
  }

  func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("name", name)
    writer.member("note", note)
    writer.member("inner", inner)
    writer.member("flags", flags)
    writer.member("count", count)
    writer.endObject()
  }
}

@Suite struct JSONEncodableTests {
  @Test func typedValuesWriteTheirMembersInOrder() {
    let full = Sample(name: "a\"b", count: -3, note: "n", flags: [true, false], inner: .init(value: 0.5))
    #expect(
      String(decoding: JSONWriter.encode(full), as: UTF8.self)
        == #"{"name":"a\"b","note":"n","inner":{"value":0.5},"flags":[true,false],"count":-3}"#)
    let bare = Sample(name: "", count: 0, note: nil, flags: [], inner: nil)
    #expect(String(decoding: JSONWriter.encode(bare), as: UTF8.self) == #"{"name":"","flags":[],"count":0}"#)
    // An array of objects, each closed before the next comma.
    #expect(
      String(decoding: JSONWriter.encode([bare, bare]), as: UTF8.self)
        == #"[{"name":"","flags":[],"count":0},{"name":"","flags":[],"count":0}]"#)
    #expect(JSONValue(encoding: [bare]) == [["name": "", "flags": [], "count": 0]])
  }

  /// A key that is data (a document's URI) is escaped as a string is, and joins the members
  /// written with the protocol's own names.
  @Test func keysThatAreDataAreEscaped() {
    struct Changes: JSONEncodable {
      var keys: [String]
      func encode(into writer: inout JSONWriter) {
        writer.beginObject()
        for key in keys { writer.member(named: key, [key]) }
        writer.member("last", 1)
        writer.endObject()
      }
    }
    #expect(
      String(decoding: JSONWriter.encode(Changes(keys: ["file:///a\"b.rpn", "é\n"])), as: UTF8.self)
        == #"{"file:///a\"b.rpn":["file:///a\"b.rpn"],"é\n":["é\n"],"last":1}"#)
    #expect(String(decoding: JSONWriter.encode(Changes(keys: [])), as: UTF8.self) == #"{"last":1}"#)
  }

  /// Text kept as UTF-8 bytes writes as the writer writes the string.
  @Test(arguments: ["plain", "quote \" backslash \\", "new\nline\ttab\u{7}", "é😀 — ·", ""])
  func utf8TextWritesAsStrings(text: String) {
    let whole = JSONWriter.encode(JSONValue.string(text))
    #expect(JSONWriter.encode(UTF8Text(text)) == whole)
    #expect(JSONWriter.encode(UTF8Text(utf8: Array(text.utf8))) == whole)
  }

  /// Text kept as bytes equals the value it is the JSON of, written the writer's way or not.
  @Test func encodedTextComparesByValue() {
    let item = JSONValue.encoded(Array(#"{"label":"dup","kind":3}"#.utf8))
    #expect(item == JSONValue.encoded(Array(#"{"label":"dup","kind":3}"#.utf8)))
    #expect(item == JSONValue.encoded(Array(#"{ "kind": 3, "label": "dup" }"#.utf8)))
    #expect(item != JSONValue.encoded(Array(#"{"label":"dup","kind":4}"#.utf8)))
    #expect(JSONValue.encoded(Array("1e3".utf8)) == 1000)
    #expect(JSONValue.encoded(Array("1e3".utf8)) == .encoded(Array("1000".utf8)))
    #expect(1 == JSONValue.encoded(Array("1.0".utf8)))
    #expect(JSONValue.encoded(Array("1e3".utf8)) != 1001)
    #expect(JSONValue.encoded(Array(#""1000""#.utf8)) != 1000)
    #expect(JSONValue.encoded(Array(#""1000""#.utf8)) == "1000")
    #expect([JSONValue.encoded(Array("[1,2]".utf8))] == [[1, 2]])
  }
}

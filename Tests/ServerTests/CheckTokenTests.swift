import JSONRPC
import TestSupport
import Testing

/// A check `=VALUE` as the other features see it: hover gives the value expected, the places
/// compared and the verdict; semantic tokens colour its `=` as an operator and its value as a
/// number; completion offers nothing inside its number.
@Suite(.inProcess) struct CheckTokenTests {
  static let uri = "file:///check-token.rpn"
  static let source = Marked(
    """
    1 3 ÷ 1️⃣=0.3332️⃣ 3️⃣=0.3344️⃣
    clear 5️⃣=5
    1449 =1.5e3 # 😀 =0.5
    """)

  static func started(_ encoding: String) throws -> LSPClient {
    let client = try LSPClient.started(encoding: encoding, capabilities: []).client
    client.open(uri, source.text)
    return client
  }

  static func hover(_ client: LSPClient, _ at: JSONValue) throws -> (range: String, value: String) {
    let result = try client.hover(uri, at)
    return (compact(range: result["range"]), result["contents"]?["value"]?.stringValue ?? "none")
  }

  @Test(arguments: encodings)
  func hoverSaysWhatIsComparedAndTheVerdict(encoding: String) throws {
    let client = try Self.started(encoding)
    let source = Self.source
    let passing = try Self.hover(client, source.at(1, encoding))
    #expect(passing.range == compact(range: source.range(1, 2, encoding)))
    #expect(
      passing.value
        == "check =0.333: the top must be 0.333 to 3 decimals\n"
        + "passes: the top is 0.333333333333333 (0.333 to 3 decimals)\n\n"
        + "Stack before: [0.333333333333333]\nStack after: [0.333333333333333]")
    let failing = try Self.hover(client, source.at(4, encoding))
    #expect(failing.range == compact(range: source.range(3, 4, encoding)))
    #expect(
      failing.value
        == "check =0.334: the top must be 0.334 to 3 decimals\n"
        + "fails: the top is 0.333333333333333 (0.333 to 3 decimals)\n\n"
        + "Stack before: [0.333333333333333]\nStack after: [0.333333333333333]\n\n"
        + "warning [check-failed]: expected 0.334, the top is 0.333333333333333 (0.333 to 3 decimals)")
    let empty = try Self.hover(client, source.at(5, encoding))
    #expect(
      empty.value
        == "check =5: the top must be 5 to a whole number\n\n"
        + "Stack before: []\nStack after: []\n\n"
        + "warning [stack-underflow]: `=5` needs 1 value but the stack is empty")
    try client.finish()
  }

  @Test func semanticTokensSplitTheEqualsSignFromTheValue() throws {
    let client = try Self.started("utf-8")
    let tokens = try client.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(Self.uri)]])
    let data = tokens["data"]?.arrayValue?.compactMap(\.intValue) ?? []
    let legend = ["number", "operator", "function", "variable", "comment"]
    var line = 0
    var start = 0
    var decoded: [String] = []
    for index in stride(from: 0, to: data.count - 4, by: 5) {
      if data[index] > 0 { start = 0 }
      line += data[index]
      start += data[index + 1]
      decoded.append("\(line):\(start)+\(data[index + 2]) \(legend[data[index + 3]])")
    }
    #expect(
      decoded == [
        "0:0+1 number", "0:2+1 number", "0:4+2 operator", "0:7+1 operator", "0:8+5 number", "0:14+1 operator",
        "0:15+5 number", "1:0+5 function", "1:6+1 operator", "1:7+1 number", "2:0+4 number",
        "2:5+1 operator", "2:6+5 number", "2:12+11 comment",
      ])
    try client.finish()
  }

  /// Inside a check's number there is nothing to complete; on its `=` (a word could start
  /// there) the usual items come.
  @Test func noCompletionInsideACheck() throws {
    let client = try Self.started("utf-8")
    func items(_ line: Int, _ character: Int) throws -> Int {
      let result = try client.request(
        "textDocument/completion",
        ["textDocument": ["uri": .string(Self.uri)], "position": position(line, character)])
      return result["items"]?.arrayValue?.count ?? -1
    }
    #expect(try items(0, 10) == 0)
    #expect(try items(0, 13) == 0)
    #expect(try items(1, 8) == 0)
    #expect(try items(0, 7) > 40)
    try client.finish()
  }
}

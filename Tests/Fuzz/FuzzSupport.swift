import JSONRPC
import RPNLanguageServer

#if canImport(Glibc)
  import Glibc
#endif

/// A live server that writes into memory: the fuzz targets drive it and check its answers.
final class Harness {
  let server: Server
  private var nextID = 1_000_000

  init(encoding: String = "utf-16", text: String = "1 2 +\n=x x 3 *\n# note 😀\n4+ dup\n") {
    let sink = Sink()
    server = Server(send: { sink.messages.append($0) }, log: { _ in })
    self.sink = sink
    handle([
      .message(
        .request(
          id: 1, method: "initialize",
          params: [
            "capabilities": [
              "general": ["positionEncodings": .array([.string(encoding)])],
              "textDocument": [
                "hover": ["contentFormat": ["markdown"]],
                "codeAction": [
                  "codeActionLiteralSupport": ["codeActionKind": ["valueSet": ["quickfix", "refactor", "source"]]],
                  "dataSupport": true, "resolveSupport": ["properties": ["edit"]],
                ],
              ],
              "workspace": ["inlayHint": ["refreshSupport": true]],
            ]
          ])),
      .message(.notification(method: "initialized", params: [:])),
      .message(
        .notification(
          method: "textDocument/didOpen",
          params: ["textDocument": ["uri": "file:///f.rpn", "languageId": "rpn", "version": 1, "text": .string(text)]])),
    ])
  }

  private let sink: Sink
  final class Sink { var messages: [JSONValue] = [] }

  /// Hands a batch to the server and checks that it answered each request in it exactly once.
  func handle(_ batch: [Incoming]) {
    let before = sink.messages.count
    server.handle(batch)
    let requests = batch.filter {
      if case .message(.request) = $0 { return true }
      return false
    }.count
    let answers = sink.messages[before...].filter { $0["method"] == nil && $0["id"] != nil }.count
    let faults = batch.filter {
      if case .fault = $0 { return true }
      return false
    }.count
    if server.exitStatus == nil, answers != requests + faults {
      fatalError("\(requests) requests and \(faults) faults got \(answers) answers")
    }
    if server.receivedRequests != server.answeredRequests && server.exitStatus == nil {
      fatalError("server counted \(server.receivedRequests) requests, \(server.answeredRequests) answers")
    }
  }

  /// A request with a fresh id.
  func request(_ method: String, _ params: JSONValue) -> Incoming {
    nextID += 1
    return .message(.request(id: JSONValue(nextID), method: method, params: params))
  }

  func notification(_ method: String, _ params: JSONValue) -> Incoming {
    .message(.notification(method: method, params: params))
  }
}

/// Reads little-endian numbers and choices off the fuzzer's bytes, then zeros.
struct ByteStream {
  let bytes: UnsafeBufferPointer<UInt8>
  var offset = 0

  var isAtEnd: Bool { offset >= bytes.count }

  mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func int(below bound: Int) -> Int { bound <= 0 ? 0 : (Int(byte()) << 8 | Int(byte())) % bound }

  mutating func pick<T>(_ choices: [T]) -> T { choices[int(below: choices.count)] }

  mutating func take(_ count: Int) -> [UInt8] {
    let end = min(bytes.count, offset + count)
    defer { offset = end }
    return Array(bytes[offset..<end])
  }
}

let fuzzVocabulary = [
  "1", "2.5", "-3", "0", "1e308", "1e999", ".5", "1_000", "−4", "+", "-", "*", "×", "/", "÷", "^", "%", "mod", "sqrt",
  "√", "ln", "sin", "dup", "drop", "swap", "rot", "clear", "depth", "sum", "avg", "pi", "π", "e", "=a", "=b", "=é",
  "a", "b", "é", "=dup", "=", "4+", "foo", "# c", "#😀", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{2028}", "\u{A0}", "😀",
  "=3", "=2.5", "=0.333", "=1.5e3", "=-1", "=−0.5", "=1e999", "=5e-324", "=1_000", "=1.2.3",
  ":", ";", " : f dup * ; ", " : f 2 ; ", " : g f f + ; ", " : h a + ; ", "f", "g", "h", "=f", " : dup ; ",
  "lastx", "pick", "roll", " : s sum ; ", "s", " : z 0 / ; ", "z",
]

/// Code action kinds for `context.only` and resolve: the server's, their parents, and others.
let fuzzCodeActionKinds = [
  "quickfix", "refactor", "refactor.rewrite", "source", "source.rpn", "source.rpn.updateChecks",
  "source.rpn.addChecks", "source.rpn.removeChecks", "source.fixAll", "", "nonsense",
]

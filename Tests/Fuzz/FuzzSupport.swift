import JSONRPC
import RPNLanguageServer

#if canImport(Glibc)
  import Glibc
#endif

/// A live server that writes into memory: the fuzz targets drive it and check its answers.
final class Harness {
  let server: Server
  private var nextID = 1_000_000

  /// What the client declares at `initialize`, which changes what the server offers: the
  /// position encoding, code actions resolved later or not, diagnostics pulled or pushed,
  /// refreshes, hierarchical symbols; and the settings it starts with.
  struct Client {
    var encoding = "utf-16"
    var resolvesCodeActions = true
    var pullsDiagnostics = false
    var hierarchicalSymbols = false
    var initializationOptions: JSONValue = .null
  }

  init(client: Client = Client(), text: String = fuzzStartText) {
    let sink = Sink()
    server = Server(send: { sink.messages.append($0) }, log: { _ in })
    self.sink = sink
    var codeAction: [(key: String, value: JSONValue)] = [
      ("codeActionLiteralSupport", ["codeActionKind": ["valueSet": ["quickfix", "refactor", "source"]]])
    ]
    if client.resolvesCodeActions {
      codeAction += [("dataSupport", true), ("resolveSupport", ["properties": ["edit"]])]
    }
    var textDocument: [(key: String, value: JSONValue)] = [
      ("hover", ["contentFormat": ["markdown"]]),
      ("codeAction", .object(codeAction)),
      ("rename", ["prepareSupport": true]),
      ("documentSymbol", ["hierarchicalDocumentSymbolSupport": .bool(client.hierarchicalSymbols)]),
    ]
    if client.pullsDiagnostics { textDocument.append(("diagnostic", ["dynamicRegistration": false])) }
    handle([
      .message(
        .request(
          id: 1, method: "initialize",
          params: [
            "capabilities": [
              "general": ["positionEncodings": .array([.string(client.encoding)])],
              "textDocument": .object(textDocument),
              "workspace": [
                "inlayHint": ["refreshSupport": true], "codeLens": ["refreshSupport": true],
                "diagnostics": ["refreshSupport": true],
              ],
            ],
            "initializationOptions": client.initializationOptions,
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

  /// The answers to the last batch.
  private(set) var answers: [JSONValue] = []

  /// Hands a batch to the server and checks that it answered each request in it exactly once,
  /// and that every range in its answers is well formed.
  func handle(_ batch: [Incoming]) {
    sink.messages.removeAll(keepingCapacity: true)
    server.handle(batch)
    let requests = batch.filter {
      if case .message(.request) = $0 { return true }
      return false
    }.count
    answers = sink.messages.filter { $0["method"] == nil && $0["id"] != nil }
    let faults = batch.filter {
      if case .fault = $0 { return true }
      return false
    }.count
    if server.exitStatus == nil, answers.count != requests + faults {
      fatalError("\(requests) requests and \(faults) faults got \(answers.count) answers")
    }
    if server.receivedRequests != server.answeredRequests && server.exitStatus == nil {
      fatalError("server counted \(server.receivedRequests) requests, \(server.answeredRequests) answers")
    }
    for message in sink.messages { checkRanges(message) }
  }

  /// The answer to a request of the last batch.
  func answer(to request: Incoming) -> JSONValue? {
    guard case .message(.request(let id, _, _)) = request else { return nil }
    return answers.first { $0["id"] == id }
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

/// Every range the server sends, at any depth of a message, is well formed: `start` ≤ `end`,
/// lines and characters not negative; a folding range's `startLine` ≤ `endLine`; a selection
/// range lies within its `parent`.
func checkRanges(_ json: JSONValue) {
  func position(_ value: JSONValue?) -> (Int, Int)? {
    guard let line = value?["line"]?.intValue, let character = value?["character"]?.intValue else { return nil }
    return (line, character)
  }
  func range(_ value: JSONValue?) -> (start: (Int, Int), end: (Int, Int))? {
    guard let start = position(value?["start"]), let end = position(value?["end"]) else { return nil }
    return (start, end)
  }
  switch json {
  case .array(let elements):
    for element in elements { checkRanges(element) }
  case .object(let members):
    if let (start, end) = range(json) {
      guard start.0 >= 0, start.1 >= 0, start <= end else { fatalError("malformed range \(json)") }
    }
    if let start = json["startLine"]?.intValue, let end = json["endLine"]?.intValue, start > end || start < 0 {
      fatalError("malformed folding range \(json)")
    }
    if let inner = range(json["range"]), let outer = range(json["parent"]?["range"]),
      outer.start > inner.start || inner.end > outer.end
    {
      fatalError("a selection range outside its parent: \(json)")
    }
    for member in members { checkRanges(member.value) }
  default:
    break
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

/// The document the server starts with: a settings line, a heading, a definition, number forms, checks.
let fuzzStartText = """
  # rpn: notation=fixed decimals=2 grouping=true
  ## Lunch
  1 2 + =3
  =x x 3 * 0x1F +
  # note 😀
  : hyp sq swap sq + sqrt ;
  3 4 hyp lastx 1,234.50 4+ dup
  ## Rent
  900 subtotal 2 pick 3 roll
  """

let fuzzVocabulary = [
  "1", "2.5", "-3", "0", "1e308", "1e999", ".5", "1_000", "−4", "+", "-", "*", "×", "/", "÷", "^", "%", "mod", "sqrt",
  "√", "ln", "sin", "dup", "drop", "swap", "rot", "clear", "depth", "sum", "avg", "pi", "π", "e", "=a", "=b", "=é",
  "a", "b", "é", "=dup", "=", "4+", "foo", "# c", "#😀", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{2028}", "\u{A0}", "😀",
  "=3", "=2.5", "=0.333", "=1.5e3", "=-1", "=−0.5", "=1e999", "=5e-324", "=1_000", "=1.2.3",
  ":", ";", " : f dup * ; ", " : f 2 ; ", " : g f f + ; ", " : h a + ; ", "f", "g", "h", "=f", " : dup ; ",
  "lastx", "pick", "roll", " : s sum ; ", "s", " : z 0 / ; ", "z",
  // The third edition's staples and the suggestions of unknown words: each new word, its
  // failures (fact of a fraction, %ch of 0, sdev of one value, pick past the stack), and the
  // words a suggestion reads (`x`, `sqaure`, `1/2`, `//`, `deg`).
  "log10", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "fact", "sdev", "%ch", "%t", "%CH",
  "171 fact", "2.5 fact", "0 5 %ch", "0 %t", "1 sdev", "1e300 pick", "2147483648 roll", "x", "sqaure", "square",
  "1/2", "pi/2", "a*12", "//", "+=", "deg", "sine", "!", "sub",
  // Infix habits and a check written with a space, whole lines so that the shapes occur:
  // underflowing, running on values above, failing inside, and `= 7`.
  "\n3 + 4\n", "\n10 / 2\n", "\n0 / 2\n", "\n2 mod 3\n", "\n1 2 atan2\n", "= 7", "\n5 = 7\n", "=1,400.21",
  "=1_000_000",
  // The second edition: checks, definitions, sections, number forms, settings lines.
  "=20.5", "=1,234.50", "=0x1F", "=1,5", "=0.33", "=3.70e+03", "=333e-03",
  " : hyp sq swap sq + sqrt ; ", "hyp", " : two 1 2 ; ", "two", " : bad 0 / ; ", "bad", " : p 2 pick ; ", "p",
  "## Heading", "\n## Groceries\n", "# Title", "### Fruit 😀", "##", "## ", "\n##\n", "subtotal", "1 2 ## total",
  "1,234.50", "0x1F", "0o17", "0b1010_1010", "1,5", "0xG", ",5", "1,000,00", "0x", "0b102", "0XfF", "-0x10",
  "9007199254740993", "1,000", "12,345,678.9", "0o", "0b", "0x1_F",
  "# rpn: notation=fixed decimals=2 grouping=true angleUnit=degrees precision=10 maxItems=12",
  "\n# rpn: notation=fixed decimals=2 grouping=true\n", "# rpn: angleUnit=degrees\n", "#rpn: notation=scientific\n",
  "# RPN: NOTATION=Engineering GROUPING=False maxitems=3\n", "# rpn: decimals=20 notation=fancy colour=red plain\n",
  "# rpn: maxItems=0 precision=18 angleUnit=grad decimals= =5\n", "# rpn:", " notation=auto", " decimals=15",
  " grouping=yes", " precision=1", " angleUnit=radians", " maxItems=1", "=", "rpn:",
  // Units: quantities good and bad, unit words, conversions, temperatures, checks with units, and
  // fragments that glue into unit expressions (`12_` `km` `/` `h^2`).
  "12_km", "500_m", "3_h", "26.2_mi", "-40_°C", "20_°C", "5_Δ°C", "68_°F", "9.81_m/s^2", "1_J/(kg*K)", "5_m²",
  "0.2_s⁻¹", "1_kWh", "60_mph", "1_KiB", "1_µs", "3_Ω", "1_000_km", "1e308_km", "30_°", "1,250.50_kg", "_km", "_1/s",
  ">mi", "->km", "→ft", ">°F", ">Δ°C", ">m^3", ">mm", ">mi/gal", "uval", "ubase", "=12.5_km", "=0_Δ°C", "=12_",
  "12_", "12__km", "12_km/", "12_/s", "12_m/s/s", "12_m^", "12_m^1.5", "12_m^99999999999", "12_m^99", "12_(m)",
  "12_m/(s", "12_°C*m", "12_kmin", "12_J/kg*K", "0x1F_km", "12_kmh", "12_KB", "12_C", "=_x", "_x", "12km", "_", ">",
  "->", "→", "12_km\u{301}", "12_\u{200F}km", "_", "km", "/", "*", "·", "^2", "^-1", "(", ")", "°C", "Δ", "µ", "h",
  "kg", "s", "mi", "1_mi >ft", "15_km/h 30_min *", "600_mi 50_mph /", "1_ha 1_m *", "20_°C 15_°C -", "2_m 3 ^",
  "4_m^2 sqrt", "90_° cos", "12_km 3 +", "0 12_km +", "5_km _mi", "5 >km",
  // Times and angles in fields of sixty: literals good and bad, formats, checks, and fragments
  // that glue into them (`1` `:` `30`).
  "1:30", "0:45", "1:30:15", "1:30:15.5", "27:10", "-0:30", "4:35_min", "48:46:32_°", "48:46_deg", "1:30_h",
  "9999999999999999:00", "1e300_h", ">h:mm", ">h:mm:ss", ">min:ss", ">°:mm", ">°:mm:ss", "->h:mm", "→deg:mm:ss", ">h",
  ">min", "=2:15", "=2:15:00", "=4:35_min", "=1:30:15.5", "1:75", "1:5", "1:", ":30", "1:30:", "1::30", "1.5:30",
  "1:30:15_min", "1:30_km", "1:00:00:00", ">h:m", "=:30", ":", "30", "00", ".5", "1:30 0:45 +", "17:30 9:00 -",
  "1:30 2 *", "2 1:30 /", "1:30 1:30 *", "90_min >h:mm",
  // Currencies, rates and units of the tape's own: definitions good and bad, chains, cycles,
  // redefinitions, uses, and fragments that glue into them.
  ": _EUR 1.08_USD ;", ": _GBP 1.19_EUR ;", ": _EUR 1.10_USD ;", ": _EUR ;", ": _USD 0.5_GBP ;", ": _EUR 0_USD ;",
  ": _EUR -1_USD ;", ": _EUR 1e308_USD 10 * ;", ": _EUR 1 ;", ": _EUR 1_USD 2_USD ;", ": _EUR + ;", ": _km 1000_m ;",
  ": _EUR 1_EUR ;", "12.50_EUR", "3_USD", "2_£", "170_€", "1200_¥", "5_$", "1.2346_KWD", "2_XAU", ">USD", ">EUR",
  "→JPY", "=12.50_EUR", "5_EUR 3_USD +", "_EUR", "EUR", "_", "€", ": _pace 0.75_m ;", ": _pace 0.8_m ;", ": _box ;",
  ": _crate 24_box ;", "3_pace", ">pace", "_pace", "2_box", "1_crate >box", "=2_pace", "2_widget", ": _pace 1_pace ;",
]

/// Code action kinds for `context.only` and resolve: the server's, their parents, and others.
let fuzzCodeActionKinds = [
  "quickfix", "refactor", "refactor.rewrite", "source", "source.rpn", "source.rpn.updateChecks",
  "source.rpn.addChecks", "source.rpn.removeChecks", "source.fixAll", "", "nonsense",
]

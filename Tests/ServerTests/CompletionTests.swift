import Foundation
import JSONRPC
import TestSupport
import Testing

/// the README's table of server features `textDocument/completion`: every operator and constant spelling, the variables
/// stored above the cursor, satisfiable items first, a `textEdit` over the word being typed,
/// nothing inside a comment.
@Suite(.inProcess) struct CompletionTests {
  /// Every spelling of the README's operator table, aliases included, with how many values it needs.
  static let spellings: [(label: String, inputs: Int)] = [
    ("+", 2), ("-", 2), ("−", 2), ("*", 2), ("×", 2), ("/", 2), ("÷", 2), ("^", 2), ("**", 2), ("pow", 2),
    ("%", 2), ("mod", 2), ("min", 2), ("max", 2), ("neg", 1), ("chs", 1), ("abs", 1), ("inv", 1), ("sq", 1),
    ("sqrt", 1), ("√", 1), ("exp", 1), ("ln", 1), ("log", 1), ("log2", 1), ("sin", 1), ("cos", 1), ("tan", 1),
    ("asin", 1), ("acos", 1), ("atan", 1), ("floor", 1), ("ceil", 1), ("round", 1), ("trunc", 1), ("dup", 1),
    ("drop", 1), ("swap", 2), ("over", 2), ("rot", 3), ("clear", 0), ("depth", 0), ("pick", 1), ("roll", 1),
    ("lastx", 0), ("subtotal", 0),
    ("sum", 1), ("avg", 1),
    ("mean", 1), ("pi", 0), ("π", 0), ("e", 0),
    ("%ch", 2), ("%t", 2), ("log10", 1), ("atan2", 2), ("sinh", 1), ("cosh", 1), ("tanh", 1), ("asinh", 1),
    ("acosh", 1), ("atanh", 1), ("fact", 1), ("sdev", 2),
    ("uval", 1), ("ubase", 1),
  ]

  /// The items of a completion result (a list or a bare array), in the order a client shows
  /// them: by `sortText`, else by label.
  static func items(_ result: JSONValue) -> [JSONValue] {
    let items = result["items"]?.arrayValue ?? result.arrayValue ?? []
    return items.sorted { a, b in
      let keyA = a["sortText"]?.stringValue ?? a["label"]?.stringValue ?? ""
      let keyB = b["sortText"]?.stringValue ?? b["label"]?.stringValue ?? ""
      return keyA < keyB
    }
  }

  static func labels(_ items: [JSONValue]) -> [String] { items.compactMap { $0["label"]?.stringValue } }

  /// The spellings that the part of a word typed matches, written apart from the server's way:
  /// by characters, lowercased, a prefix or the characters in order (all when nothing is typed).
  static func matching(_ typed: String) -> [String] {
    let typed = Array(typed.lowercased())
    return spellings.map(\.label).filter { label in
      var rest = Substring(label.lowercased())
      for character in typed {
        guard let found = rest.firstIndex(of: character) else { return false }
        rest = rest[rest.index(after: found)...]
      }
      return true
    }
  }

  static func item(_ items: [JSONValue], _ label: String) -> JSONValue? {
    items.first { $0["label"]?.stringValue == label }
  }

  /// Also end to end, over the built binary's pipes.
  @Test(.overPipes) func everySpellingIsItsOwnItem() throws {
    let client = try LSPClient.started()
    client.open("file:///c.rpn", "")
    let items = Self.items(try client.completion("file:///c.rpn", position(0, 0)))
    #expect(Self.labels(items).sorted() == Self.spellings.map(\.label).sorted())
    #expect(
      Self.item(items, "+")?["documentation"] == "add" || Self.item(items, "+")?["documentation"]?["value"] == "add")
    #expect(Self.item(items, "+")?["detail"] == "( a b -- a+b ) — needs 2 values, the stack has 0")
    #expect(Self.item(items, "pi")?["detail"] == "( -- π )")
    #expect(Self.item(items, "clear")?["detail"] == "( … -- )")
    try client.finish()
  }

  /// With one value on the stack, what needs at most one sorts first; the rest follows with a
  /// detail that says what is missing. The stack is the one where the word being typed starts.
  @Test(arguments: [
    ("1 1️⃣", 1, ""), ("1 2 1️⃣", 2, ""), ("1️⃣", 0, ""), ("1 2\n3 1️⃣", 3, ""), ("1 2 3 clear 1️⃣", 0, ""),
    ("1 2 +1️⃣", 2, "+"), ("1 +1️⃣", 1, "+"), ("1 2 r1️⃣", 2, "r"), ("1 1️⃣ 2", 1, ""),
  ])
  func satisfiableItemsSortFirst(source: String, depth: Int, typed: String) throws {
    let text = Marked(source)
    let client = try LSPClient.started()
    client.open("file:///c.rpn", text.text)
    let items = Self.items(try client.completion("file:///c.rpn", text.utf16(1)))
    // `subtotal` needs something pushed in the section: before any heading, anything at all.
    let matching = Self.matching(typed)
    let satisfiable = Self.spellings.filter {
      $0.inputs <= depth && ($0.label != "subtotal" || depth > 0) && matching.contains($0.label)
    }.map(\.label)
    #expect(Set(Self.labels(items)) == Set(matching))
    // Within the prefix matches, what the stack can satisfy first.
    let prefixes = Self.labels(items).prefix { $0.lowercased().hasPrefix(typed.lowercased()) }
    #expect(
      Set(prefixes.prefix(satisfiable.count { $0.lowercased().hasPrefix(typed.lowercased()) }))
        == Set(satisfiable.filter { $0.lowercased().hasPrefix(typed.lowercased()) }))
    for (label, inputs) in Self.spellings where inputs > depth && matching.contains(label) {
      let needs = inputs == 1 ? "1 value" : "\(inputs) values"
      let effect = try #require(Self.item(items, label)?["detail"]?.stringValue?.components(separatedBy: " — ").first)
      #expect(Self.item(items, label)?["detail"] == .string("\(effect) — needs \(needs), the stack has \(depth)"))
    }
    if matching.contains("dup") {
      #expect(
        Self.item(items, "dup")?["detail"]
          == (depth >= 1 ? "( a -- a a )" : "( a -- a a ) — needs 1 value, the stack has 0"))
    }
    if matching.contains("rot") {
      #expect(
        Self.item(items, "rot")?["detail"]
          == (depth >= 3
            ? "( a b c -- b c a )" : .string("( a b c -- b c a ) — needs 3 values, the stack has \(depth)")))
    }
    try client.finish()
  }

  /// Variables stored above the cursor (and earlier on its line), with their values; not those
  /// stored below it or after it on the line.
  @Test func variablesStoredAboveTheCursor() throws {
    let text = Marked("3 =b 4 =a\n1 =a 7 =c 1️⃣ =later\n=after\n")
    let client = try LSPClient.started()
    client.open("file:///v.rpn", text.text)
    let items = Self.items(try client.completion("file:///v.rpn", text.utf16(1)))
    #expect(Self.labels(items).count == Self.spellings.count + 3)
    // Every variable needs nothing from the stack: all of them sort with the satisfiable items.
    let depth = 4  // 3 4 1 7.
    let satisfiableCount = Self.spellings.filter { $0.inputs <= depth }.count + 3
    #expect(Set(Self.labels(items).prefix(satisfiableCount)).isSuperset(of: ["a", "b", "c"]))
    #expect(Self.item(items, "a")?["detail"] == "1")
    #expect(Self.item(items, "b")?["detail"] == "3")
    #expect(Self.item(items, "c")?["detail"] == "7")
    #expect(Self.item(items, "later") == nil)
    #expect(Self.item(items, "after") == nil)
    try client.finish()
  }

  /// The item replaces the word being typed: the token under or just before the cursor, or an
  /// empty range at the cursor between tokens.
  @Test(arguments: [
    ("1 2 s1️⃣", "0:4-0:5", "s"), ("1 2 1️⃣", "0:4-0:4", ""), ("1 2 sq1️⃣rt", "0:4-0:8", "sq"),
    ("1 2 1️⃣  3", "0:4-0:4", ""), ("1\n  du1️⃣ # x", "1:2-1:4", "du"), ("1 +1️⃣", "0:2-0:3", "+"),
    ("😀 s1️⃣", "0:3-0:4", "s"), ("1 2 × su1️⃣ 3", "0:6-0:8", "su"),
  ])
  func theItemReplacesTheWordBeingTyped(source: String, range: String, typed: String) throws {
    let text = Marked(source)
    let client = try LSPClient.started()
    client.open("file:///t.rpn", text.text)
    let items = Self.items(try client.completion("file:///t.rpn", text.utf16(1)))
    #expect(Self.labels(items).sorted() == Self.matching(typed).sorted())
    for item in items {
      #expect(compact(range: item["textEdit"]?["range"]) == range, "\(item["label"]?.stringValue ?? "?")")
      #expect(item["textEdit"]?["newText"] == item["label"])
    }
    try client.finish()
  }

  /// When part of a word is typed (the token at the cursor, up to the cursor), only the items
  /// that match it, as a prefix or its characters in order, either case; the prefix matches
  /// first, each group ranked as when nothing is typed (satisfiable first: variables, words,
  /// builtins). Each item's `filterText` is its label: Neovim filters only items that have one.
  @Test(
    .overPipes,
    arguments: [
      ("9 sq1️⃣", ["sq", "sqrt"]), ("9 SQ1️⃣", ["sq", "sqrt"]), ("9 Sq1️⃣rt", ["sq", "sqrt"]), ("9 sqt1️⃣", ["sqrt"]),
      ("9 sqrtt1️⃣", []), ("9 √1️⃣", ["√"]), ("9 sw1️⃣", ["swap"]), ("9 1️⃣", nil), ("9 sq 1️⃣", nil),
      ("1 =rate 2 =rent re1️⃣", ["rent", "rate"]),
      ("1 =rate 2 =rent 3 ra1️⃣", ["rate"]),
      ("1 =rate 2 =rent 3 rt1️⃣", ["rate", "rent", "sqrt", "rot"]),
      (": sqsum sq swap sq + ;\n9 sq1️⃣", ["sq", "sqrt", "sqsum"]),
      ("9 lo1️⃣", ["log", "log10", "log2", "floor"]),
    ])
  func onlyTheItemsThatMatchWhatIsTyped(source: String, labels: [String]?) throws {
    let text = Marked(source)
    let client = try LSPClient.started()
    client.open("file:///f.rpn", text.text)
    let items = Self.items(try client.completion("file:///f.rpn", text.utf16(1)))
    if let labels {
      #expect(Self.labels(items) == labels)
    } else {
      #expect(Self.labels(items).sorted() == Self.spellings.map(\.label).sorted())
    }
    for item in items {
      #expect(item["filterText"] != nil && item["filterText"] == item["label"], "\(item)")
    }
    try client.finish()
  }

  /// Every letter is a trigger character (Neovim 0.11 completes as one types only on those), and
  /// so are the marks a unit follows: `_`, `>`, `→`.
  @Test(.overPipes) func everyLetterTriggersCompletion() throws {
    let client = try LSPClient()
    let result = try client.initialize()
    let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".map { String($0) }
    let triggers = result["capabilities"]?["completionProvider"]?["triggerCharacters"]?.arrayValue ?? []
    #expect(triggers.compactMap(\.stringValue).sorted() == (letters + ["_", ">", "→"]).sorted())
    try client.finish()
  }

  @Test(arguments: ["1 2 # su1️⃣", "1 2 #1️⃣", "# 1️⃣", "1 # a 😀 b1️⃣ c", "3 4 # dup1️⃣\n+"])
  func nothingInsideAComment(source: String) throws {
    let text = Marked(source)
    let client = try LSPClient.started()
    client.open("file:///k.rpn", text.text)
    let result = try client.completion("file:///k.rpn", text.utf16(1))
    #expect(Self.items(result).isEmpty)
    try client.finish()
  }

  @Test func nothingPastTheEndOfACommentLine() throws {
    let client = try LSPClient.started()
    client.open("file:///k.rpn", "1 2 # su\n")
    #expect(Self.items(try client.completion("file:///k.rpn", position(0, 99))).isEmpty)
    try client.finish()
  }
}

// `textDocument/completion`: builtins, visible variables and defined words, what the stack can satisfy first.

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// `textDocument/completion`: every operator and constant spelling, and the variables stored
  /// and words defined above the cursor. When part of a word is typed (the token at the cursor,
  /// from its start to the cursor), only the items that match it: case-insensitive prefix or
  /// subsequence, the prefix matches first (some clients, Neovim's, filter only items with a
  /// `filterText`, which each item carries). Each item replaces the word being typed. Items the
  /// stack at the cursor can satisfy sort first (variables, then words, then builtins in table
  /// order); the others stay listed, with a detail that says what is missing (words before
  /// builtins). A word whose effect depends on the stack counts as satisfiable: only running it
  /// can tell. `subtotal` counts as satisfiable when the stack is above the section's base (the
  /// depth after its heading; 0 before any heading): something was pushed in the section. Nothing
  /// inside a comment, except a `# rpn:` line that applies: its keys and values
  /// (`settingsCompletion`). In a unit (after `_`, `>`, `->`, `→`, a number's `_`): units
  /// (`unitCompletion`).
  func completion(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (open, position) = try documentAndPosition(params)
    let document = open.document
    let converter = converter(for: document)
    let cursor = converter.textPosition(position)
    let line = min(cursor.line, document.lineCount - 1)
    let column = cursor.line < document.lineCount ? cursor.utf8Column : document.withUTF8(ofLine: line) { $0.count }
    let (tokens, commentStart) = document.tokens(ofLine: line)
    if let commentStart, column > commentStart {
      let list = settingsCompletion(document, line: line, utf8Offset: column) ?? CompletionList.empty
      return JSONValue(encoding: list)
    }

    // The word being typed: the token at the cursor, else nothing. A check's number is a value
    // being written, not a word: nothing to complete there.
    let token = tokens.first { $0.isAtCursor(column) }
    // A unit being typed (`_k`, `>m`, `12_k`, `=12.5_k`): units, not words.
    if let token, let units = unitCompletion(document, line: line, token: token, column: column, converter: converter) {
      return units
    }
    if let token, token.isWritingValue(at: column) {
      return JSONValue(encoding: CompletionList.empty)
    }
    let word = token?.range ?? column..<column
    let editRange = converter.range(line: line, utf8Range: word)
    let typed = document.withUTF8(ofLine: line) {
      let end = min(column, $0.count)
      return Array($0[min(word.lowerBound, end)..<end])
    }
    let filter = CompletionFilter(typed: typed)

    // The stack and variables where the word starts.
    let scope = document.scope(atLine: line, utf8Offset: word.lowerBound)
    let depth = scope.depth

    // A request on every keystroke: the variables' and words' items are built, the builtins'
    // are prepared once (`BuiltinCompletion`), each with the end of its detail when the stack
    // cannot satisfy it (what is missing, escaped once for each count of values needed).
    let display = display(of: document)
    var items: [CompletionItem] = []
    for (index, variable) in scope.variables.enumerated() {
      guard let group = filter.group(of: variable.name) else { continue }
      items.append(
        CompletionItem(
          label: variable.name, filterText: variable.name, kind: .variable, documentation: "variable, stored above",
          newText: variable.name, detail: ValueFormat.format(variable.value, display: display),
          sortText: CompletionFilter.groupPrefix[group] + "0a" + Self.padded(index)))
    }
    for (index, word) in scope.words.enumerated() {
      guard let group = filter.group(of: word.name) else { continue }
      let effect = word.effect.description
      let inputs = word.effect.inputs ?? 0
      let satisfied = inputs <= depth
      items.append(
        CompletionItem(
          label: word.name, filterText: word.name, kind: .function,
          documentation: "word, defined above: it \(word.effect.sentence)", newText: word.name,
          detail: satisfied ? effect : "\(effect) — \(Self.missing(inputs, depth: depth))",
          sortText: CompletionFilter.groupPrefix[group] + (satisfied ? "0aw" : "1aw") + Self.padded(index)))
    }
    let base = scope.sectionBase
    let table = client.completionItemKindsDeclared ? BuiltinCompletion.table : BuiltinCompletion.firstProtocolTable
    var list = CompletionList(isIncomplete: false, editRange: editRange, items: items, table: table)
    // What is missing, by the count of values needed (-1 for `subtotal`, which needs a value
    // pushed in its section): the index of its detail end in the list.
    var missingTexts: [(inputs: Int, end: Int)] = []
    func missingText(_ entry: BuiltinCompletion) -> Int {
      let key = entry.isSubtotal ? -1 : entry.inputs
      if let known = missingTexts.first(where: { $0.inputs == key }) { return known.end }
      let end = list.addDetailEnd(
        entry.isSubtotal ? "nothing was pushed in this section" : Self.missing(entry.inputs, depth: depth))
      missingTexts.append((key, end))
      return end
    }
    let builtins = BuiltinCompletion.all
    list.prepared.reserveCapacity(builtins.count)
    /// The builtin's item that sorts in `group`, as the stack can satisfy it or not.
    func add(_ entry: BuiltinCompletion, group: Int) {
      if entry.isSubtotal ? depth > base : entry.inputs <= depth {
        list.prepared.append(.init(item: entry.item(group: group, satisfied: true), detailEnd: nil))
      } else {
        list.prepared.append(.init(item: entry.item(group: group, satisfied: false), detailEnd: missingText(entry)))
      }
    }
    // Nothing typed: every builtin, with no more work than that. Else only those that match, an
    // item that matches in order with the items that sort it after the prefix matches.
    if typed.isEmpty {
      for entry in builtins { add(entry, group: 0) }
    } else {
      for entry in builtins {
        guard let group = filter.group(ofUTF8: entry.spelling) else { continue }
        add(entry, group: group)
      }
    }
    // Room for every builtin's item (about 13 kB with their filterTexts) and a dozen or two
    // variables without growing.
    return JSONValue(encoding: list, capacity: 32 << 10)
  }

  /// What an item that needs more values than the stack holds is missing.
  private static func missing(_ inputs: Int, depth: Int) -> String {
    "needs \(inputs == 1 ? "1 value" : "\(inputs) values"), the stack has \(depth)"
  }

  private static func padded(_ index: Int) -> String {
    let digits = String(index)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// A builtin spelling's completion items, prepared once (`table`): four for each spelling, as it
/// sorts with the prefix matches or after them (group 1: it matches what is typed only in
/// order), and as the stack can satisfy it (the effect as detail) or not (the effect and a dash,
/// which a request ends with what is missing).
private struct BuiltinCompletion {
  let spelling: [UInt8]
  /// Its first item in `table`.
  let first: Int
  let inputs: Int
  /// `subtotal` needs values above its section's base, not a number of them.
  let isSubtotal: Bool

  func item(group: Int, satisfied: Bool) -> Int { first + 2 * group + (satisfied ? 0 : 1) }

  /// Every spelling, in table order.
  static let all: [BuiltinCompletion] = spellings.enumerated().map { index, pair in
    BuiltinCompletion(
      spelling: Array(pair.spelling.utf8), first: 4 * index, inputs: pair.builtin.inputs,
      isSubtotal: pair.builtin.operation == .subtotal)
  }

  static let table = prepared(firstProtocol: false)
  /// The same items for a client that knows only the first protocol's kinds
  /// (`CompletionItemKind.firstProtocolKind`); made only when such a client asks.
  static let firstProtocolTable = prepared(firstProtocol: true)

  private static func prepared(firstProtocol: Bool) -> PreparedCompletionItems {
    PreparedCompletionItems(
      spellings.enumerated().flatMap { index, pair in
        let (builtin, spelling) = pair
        let digits = String(index)
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        let fullKind = CompletionItemKind(builtin.kind(ofSpelling: spelling))
        let kind = firstProtocol ? fullKind.firstProtocolKind : fullKind
        let documentation =
          spelling == builtin.name ? builtin.meaning : "\(builtin.meaning) (same as `\(builtin.name)`)"
        func item(detail: String, sortText: String) -> CompletionItem {
          CompletionItem(
            label: spelling, filterText: spelling, kind: kind, documentation: documentation, newText: spelling,
            detail: detail, sortText: sortText)
        }
        return CompletionFilter.groupPrefix.flatMap { prefix in
          [
            item(detail: builtin.effect, sortText: prefix + "0b" + padded),
            item(detail: "\(builtin.effect) — ", sortText: prefix + "1b" + padded),
          ]
        }
      })
  }

  private static var spellings: [(builtin: Builtin, spelling: String)] {
    Builtin.table.flatMap { builtin in builtin.spellings.map { (builtin, $0) } }
  }
}

/// Which items match the part of a word typed, and in which group they sort: 0 when the label
/// starts with it (or nothing is typed), 1 when it holds its characters in order
/// (`sqt` → `sqrt`), nil otherwise. Letters match in either case (ASCII only: the language's
/// names and spellings); other characters match whole and exactly, so `√` never matches a
/// byte of `−`.
private struct CompletionFilter {
  /// What each group puts before an item's `sortText`: the prefix matches keep theirs, the
  /// others sort after every one of them (whose `sortText`s start with `0` or `1`).
  static let groupPrefix = ["", "2"]

  let typed: [UInt8]

  func group(of label: String) -> Int? {
    if typed.isEmpty { return 0 }
    var label = label
    return label.withUTF8 { group(ofUTF8: $0) }
  }

  func group(ofUTF8 label: some RandomAccessCollection<UInt8>) -> Int? {
    if typed.isEmpty { return 0 }
    if label.count >= typed.count, zip(label, typed).allSatisfy({ Self.folded($0) == Self.folded($1) }) { return 0 }
    // The typed characters one by one, each found at a character start of the label after
    // the previous one.
    var position = label.startIndex
    var next = 0
    while next < typed.count {
      let length = Self.length(ofCharacterStartingWith: typed[next])
      guard next + length <= typed.count else { return nil }
      var found = false
      while position != label.endIndex {
        if label[position] & 0xC0 != 0x80, label.distance(from: position, to: label.endIndex) >= length,
          (0..<length).allSatisfy({
            Self.folded(label[label.index(position, offsetBy: $0)]) == Self.folded(typed[next + $0])
          })
        {
          position = label.index(position, offsetBy: length)
          found = true
          break
        }
        position = label.index(after: position)
      }
      if !found { return nil }
      next += length
    }
    return 1
  }

  private static func folded(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

  /// The bytes of the UTF-8 character a byte starts (1 for a stray continuation byte).
  private static func length(ofCharacterStartingWith byte: UInt8) -> Int {
    byte < 0xC0 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
  }
}

extension CompletionItemKind {
  /// How a builtin of each kind is listed: stack words beside the named functions.
  fileprivate init(_ kind: Builtin.Kind) {
    switch kind {
    case .symbolicOperator: self = .operator
    case .namedFunction, .stackWord: self = .function
    case .constant: self = .constant
    }
  }
}

extension Server {
  /// The letters `a`–`z` and `A`–`Z`, one string each.
  static let completionTriggers: [JSONValue] =
    (UInt8(ascii: "a")...UInt8(ascii: "z")).flatMap {
      [JSONValue.string(String(UnicodeScalar($0))), .string(String(UnicodeScalar($0 - 0x20)))]
    } + ["_", ">", "→"].map { JSONValue.string($0) }
}

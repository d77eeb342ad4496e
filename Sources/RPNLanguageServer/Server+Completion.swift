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
  /// (`settingsCompletion`).
  func completion(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (open, position) = try documentAndPosition(params)
    let document = open.document
    let converter = converter(for: document)
    let cursor = converter.textPosition(position)
    let line = min(cursor.line, document.lineCount - 1)
    let column = cursor.line < document.lineCount ? cursor.utf8Column : document.withUTF8(ofLine: line) { $0.count }
    let (tokens, commentStart) = document.withUTF8(ofLine: line) { Lexer.tokens(of: $0) }
    if let commentStart, column > commentStart {
      let items = settingsCompletion(document, line: line, utf8Offset: column) ?? []
      return ["isIncomplete": false, "items": .array(items)]
    }

    // The word being typed: the token at the cursor, else nothing. A check's number is a value
    // being written, not a word: nothing to complete there.
    let token = tokens.first { $0.isAtCursor(column) }
    if let token, case .check = token.kind, column > token.range.lowerBound {
      return ["isIncomplete": false, "items": []]
    }
    let word = token?.range ?? column..<column
    let editRange = converter.range(line: line, utf8Range: word).json
    let typed = document.withUTF8(ofLine: line) {
      let end = min(column, $0.count)
      return Array($0[min(word.lowerBound, end)..<end])
    }
    let filter = CompletionFilter(typed: typed)

    // The stack and variables where the word starts.
    let scope = document.scope(atLine: line, utf8Offset: word.lowerBound)
    let depth = scope.depth

    // Written straight to JSON, as a request on every keystroke: the variables' and words' items
    // piece by piece, then each builtin's item from the bytes written once for it
    // (`BuiltinCompletion`), with the range of the word typed and, for those the stack cannot
    // satisfy, what is missing, written once for each count of values needed. Room for every
    // builtin (about 13 kB with their filterTexts) and a dozen or two variables without growing.
    var result = JSONWriter(capacity: 32 << 10)
    result.write(raw: #"{"isIncomplete":false,"items":["#)
    var first = true
    func separate() {
      if !first { result.write(raw: ",") }
      first = false
    }
    let display = display(of: document)
    let range = JSONWriter.encode(editRange)
    /// An item of a name bound above (a variable or a word), its members in the order of the
    /// builtins' items, written piece by piece as they are: a tape may bind many names.
    func writeName(_ name: String, kind: CompletionItemKind, detail: String, documentation: String, sortText: String) {
      separate()
      result.write(raw: #"{"label":"#)
      result.write(string: name)
      result.write(raw: #","filterText":"#)
      result.write(string: name)
      result.write(raw: #","kind":"#)
      result.write(integer: kind.rawValue)
      result.write(raw: #","detail":"#)
      result.write(string: detail)
      result.write(raw: #","documentation":"#)
      result.write(string: documentation)
      result.write(raw: #","sortText":"#)
      result.write(string: sortText)
      result.write(raw: #","textEdit":{"range":"#)
      result.write(raw: range)
      result.write(raw: #","newText":"#)
      result.write(string: name)
      result.write(raw: "}}")
    }
    for (index, variable) in scope.variables.enumerated() {
      guard let group = filter.group(of: variable.name) else { continue }
      writeName(
        variable.name, kind: .variable, detail: ValueFormat.format(variable.value, display: display),
        documentation: "variable, stored above",
        sortText: CompletionFilter.groupPrefix[group] + "0a" + Self.padded(index))
    }
    for (index, word) in scope.words.enumerated() {
      guard let group = filter.group(of: word.name) else { continue }
      let effect = word.effect.description
      let inputs = word.effect.inputs ?? 0
      let satisfied = inputs <= depth
      writeName(
        word.name, kind: .function,
        detail: satisfied ? effect : "\(effect) — \(Self.missing(inputs, depth: depth))",
        documentation: "word, defined above: it \(word.effect.sentence)",
        sortText: CompletionFilter.groupPrefix[group] + (satisfied ? "0aw" : "1aw") + Self.padded(index))
    }
    let base = scope.sectionBase
    // What is missing, escaped for inside a JSON string, by the count of values needed (-1 for
    // `subtotal`, which needs a value pushed in its section).
    var missingTexts: [(inputs: Int, text: [UInt8])] = []
    func missingText(_ entry: BuiltinCompletion) -> [UInt8] {
      let key = entry.isSubtotal ? -1 : entry.inputs
      if let known = missingTexts.first(where: { $0.inputs == key }) { return known.text }
      let text = BuiltinCompletion.insideString(
        entry.isSubtotal ? "nothing was pushed in this section" : Self.missing(entry.inputs, depth: depth))
      missingTexts.append((key, text))
      return text
    }
    func write(_ entry: BuiltinCompletion, _ satisfiedTail: [UInt8], _ unsatisfiedTail: [UInt8]) {
      separate()
      result.write(raw: entry.head)
      result.write(raw: range)
      if entry.isSubtotal ? depth > base : entry.inputs <= depth {
        result.write(raw: satisfiedTail)
      } else {
        result.write(raw: entry.unsatisfiedMiddle)
        result.write(raw: missingText(entry))
        result.write(raw: unsatisfiedTail)
      }
    }
    // Nothing typed: every builtin, with no more work than that. Else only those that match, an
    // item that matches in order with the tails that sort it after the prefix matches.
    let builtins = BuiltinCompletion.parts
    if typed.isEmpty {
      for entry in builtins.all { write(entry, entry.satisfiedTail, entry.unsatisfiedTail) }
    } else {
      for (entry, late) in zip(builtins.all, builtins.late) {
        switch filter.group(ofUTF8: late.spelling) {
        case 0: write(entry, entry.satisfiedTail, entry.unsatisfiedTail)
        case 1: write(entry, late.satisfiedTail, late.unsatisfiedTail)
        default: continue
        }
      }
    }
    result.write(raw: "]}")
    return .encoded(result.bytes)
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

/// The parts of a builtin's completion item that never change, written as JSON once. An item is
/// `head`, the range of the word being typed, then `satisfiedTail`, or `unsatisfiedMiddle` (which
/// opens the detail with the effect and a dash), what is missing (`insideString`) and
/// `unsatisfiedTail` (which closes it). An item that matches what is typed only in order ends
/// with its `Late` tails instead, kept apart so that a request with nothing typed touches none
/// of them.
private struct BuiltinCompletion {
  let head: [UInt8]
  let satisfiedTail: [UInt8]
  let unsatisfiedMiddle: [UInt8]
  let unsatisfiedTail: [UInt8]
  let inputs: Int
  /// `subtotal` needs values above its section's base, not a number of them.
  let isSubtotal: Bool

  /// The spelling's UTF-8, matched against the part of the word typed, and the tails whose
  /// `sortText` puts the item after every prefix match (`CompletionFilter.groupPrefix`).
  struct Late {
    let spelling: [UInt8]
    let satisfiedTail: [UInt8]
    let unsatisfiedTail: [UInt8]
  }

  /// Every spelling's parts, `all[i]` and `late[i]` for the same one.
  static let parts: (all: [BuiltinCompletion], late: [Late]) = {
    var entries: [BuiltinCompletion] = []
    var late: [Late] = []
    for builtin in Builtin.table {
      for spelling in builtin.spellings {
        let kind = CompletionItemKind(builtin.kind(ofSpelling: spelling))
        let documentation =
          spelling == builtin.name ? builtin.meaning : "\(builtin.meaning) (same as `\(builtin.name)`)"
        let index = String(entries.count)
        let padded = String(repeating: "0", count: max(0, 4 - index.count)) + index
        // The item's members in order, split where the range and the detail go.
        func json(_ text: String) -> [UInt8] { JSONWriter.encode(.string(text)) }
        func json(_ number: Int) -> [UInt8] { JSONWriter.encode(JSONValue(number)) }
        let newText = Array(#","newText":"#.utf8) + json(spelling) + Array(#"},"detail":"#.utf8)
        func satisfiedTail(_ group: Int) -> [UInt8] {
          let sortText = CompletionFilter.groupPrefix[group] + "0b" + padded
          return newText + json(builtin.effect) + Array(#","sortText":"#.utf8) + json(sortText) + [0x7D]
        }
        func unsatisfiedTail(_ group: Int) -> [UInt8] {
          Array(#"","sortText":"#.utf8) + json(CompletionFilter.groupPrefix[group] + "1b" + padded) + [0x7D]
        }
        entries.append(
          BuiltinCompletion(
            head: Array(#"{"label":"#.utf8) + json(spelling) + Array(#","filterText":"#.utf8) + json(spelling)
              + Array(#","kind":"#.utf8) + json(kind.rawValue) + Array(#","documentation":"#.utf8) + json(documentation)
              + Array(#","textEdit":{"range":"#.utf8),
            satisfiedTail: satisfiedTail(0), unsatisfiedMiddle: newText + [0x22] + insideString("\(builtin.effect) — "),
            unsatisfiedTail: unsatisfiedTail(0), inputs: builtin.inputs, isSubtotal: builtin.operation == .subtotal))
        late.append(
          Late(spelling: Array(spelling.utf8), satisfiedTail: satisfiedTail(1), unsatisfiedTail: unsatisfiedTail(1)))
      }
    }
    return (entries, late)
  }()

  /// Text escaped as it is inside a JSON string, without the quotes: escaping is character by
  /// character, so such pieces join into one string.
  static func insideString(_ text: String) -> [UInt8] {
    Array(JSONWriter.encode(.string(text)).dropFirst().dropLast())
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
  static let completionTriggers: [JSONValue] = (UInt8(ascii: "a")...UInt8(ascii: "z")).flatMap {
    [JSONValue.string(String(UnicodeScalar($0))), .string(String(UnicodeScalar($0 - 0x20)))]
  }
}

// `# rpn:` lines: hover on their pairs (or on one that sets nothing), and completion of their keys and values.

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// Hover inside a `# rpn:` comment: on a `key=value` pair of a line that applies, the key
  /// (its meaning, the values it takes, the value in effect for the document and where it comes
  /// from) and the pair's diagnostic; anywhere in a `# rpn:` comment that applies to nothing (after
  /// the first token, or after tokens on its line), that it is a plain comment, and why. Nil
  /// elsewhere: other comments, and an applying line's `# rpn:` and white space.
  func settingsHover(_ document: Document, line: Int, utf8Offset column: Int, code: (String) -> String) -> (
    lines: [String], range: Range<Int>
  )? {
    guard let (comment, applies) = document.settingsComment(inLine: line) else { return nil }
    guard applies else {
      let lexed = document.tokens(ofLine: line)
      let (hasTokens, commentStart) = (!lexed.tokens.isEmpty, lexed.commentStart ?? 0)
      let end = document.utf8Count(ofLine: line)
      guard column >= commentStart, column <= end else { return nil }
      let why: String
      if hasTokens {
        why = "Settings lines are comment-only lines before the first token; this comment follows tokens on its line."
      } else {
        let first = (0..<line).first { document.hintOffset(ofLine: $0) != nil } ?? 0
        why = "Settings lines must come before the first token, which is on line \(first + 1)."
      }
      return (["\(code("# rpn:")) here is a plain comment: it sets nothing.", "", why], commentStart..<end)
    }
    guard let pair = comment.pairs.first(where: { $0.range.lowerBound <= column && column <= $0.range.upperBound })
    else { return nil }
    var lines: [String]
    if let key = DocumentSettings.key(pair.key), pair.valueStart != nil {
      let (value, fromDocument) = settingInEffect(key, in: document)
      let source = fromDocument ? "set by this document's \(code("# rpn:")) lines" : "the editor's setting"
      lines = [
        "setting \(code(key)): \(DocumentSettings.meaning(key))", "takes \(DocumentSettings.allowed(key))",
        "in effect: \(code(value)), \(source)",
      ]
    } else {
      lines = ["\(code(pair.text)) sets nothing"]
    }
    if let diagnostic = document.diagnostics(inLine: line).first(where: { $0.range == pair.range }) {
      let markdown = client.hoverFormat == .markdown
      lines += ["", Self.describe(diagnostic, display: display(of: document), markdown: markdown)]
    }
    return (lines, pair.range)
  }

  /// The value of a `# rpn:` key in effect for a document, as a `# rpn:` line would write it, and
  /// whether the document's own lines set it (else it is the editor's).
  private func settingInEffect(_ key: String, in document: Document) -> (value: String, fromDocument: Bool) {
    let display = display(of: document)
    let set = document.documentSettings
    switch key {
    case "notation": return (display.notation.rawValue, set.notation != nil)
    case "decimals": return (String(display.decimals), set.decimals != nil)
    case "grouping": return (String(display.grouping), set.grouping != nil)
    case "precision": return (String(display.precision), set.precision != nil)
    case "angleUnit": return (document.settings.angleMode.rawValue, set.angleMode != nil)
    case "hints": return ((set.hints ?? settings.inlayHintsPosition).rawValue, set.hints != nil)
    default: return (String(display.maxItems), set.maxItems != nil)
    }
  }

  /// Completion inside a `# rpn:` line that applies, after its `rpn:`: where a key is being
  /// typed, every key (inserting `key=`, which replaces the key and its `=` if it has one);
  /// after a known key's `=`, the values it takes, replacing the value. Nil when the cursor is in
  /// no such place; an empty list where nothing completes (after an unknown key's `=`).
  func settingsCompletion(_ document: Document, line: Int, utf8Offset column: Int) -> CompletionList? {
    guard let (comment, applies) = document.settingsComment(inLine: line), applies, column >= comment.prefixEnd
    else { return nil }
    let converter = converter(for: document)
    let pair = comment.pairs.first { $0.range.lowerBound <= column && column <= $0.range.upperBound }
    if let pair, let valueStart = pair.valueStart, column >= valueStart {
      let range = converter.range(line: line, utf8Range: valueStart..<pair.range.upperBound)
      guard let key = DocumentSettings.key(pair.key) else { return CompletionList(editRange: range, items: []) }
      let items = DocumentSettings.values(key).enumerated().map { index, value in
        CompletionItem(label: value, kind: .value, newText: value, detail: key, sortText: Self.sortText(index))
      }
      return CompletionList(editRange: range, items: items)
    }
    // The key and its `=`, or the whole pair when it has no `=` yet, or nothing between pairs.
    let replaced = pair.map { $0.range.lowerBound..<($0.valueStart ?? $0.range.upperBound) } ?? column..<column
    let range = converter.range(line: line, utf8Range: replaced)
    let items = DocumentSettings.keys.enumerated().map { index, key in
      CompletionItem(
        label: key, kind: .property, documentation: DocumentSettings.meaning(key), newText: key + "=",
        detail: DocumentSettings.allowed(key), sortText: Self.sortText(index))
    }
    return CompletionList(editRange: range, items: items)
  }

  /// Keeps the items in the order they are listed.
  private static func sortText(_ index: Int) -> String {
    let digits = String(index)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

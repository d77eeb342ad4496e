// `textDocument/hover`: what the token is, the stack before and after it, and its diagnostic.

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// `textDocument/hover`: what the token is, the stack before and after it, and its
  /// diagnostic. Null on whitespace, comments and blank lines.
  func hover(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let (open, position) = try documentAndPosition(params)
    let document = open.document
    guard position.line < document.lineCount else { return .null }
    let column = converter(for: document).textPosition(position).utf8Column
    let display = settings.display
    let traces = document.trace(line: position.line, keepingTop: display.maxItems, near: column, includingStores: false)
    guard let trace = traces.first(where: { $0.token.isAtCursor(column) }) else { return .null }
    let text = document.withUTF8(ofLine: position.line) {
      String(decoding: UnsafeBufferPointer(rebasing: $0[trace.token.range]), as: UTF8.self)
    }
    let markdown = client.hoverFormat == .markdown
    let code = { (text: String) in markdown ? "`\(text)`" : text }
    var lines: [String] = []
    lines.append(contentsOf: describe(trace, text: text, line: position.line, document: document, code: code))
    lines.append("")
    lines.append("Stack before: " + code(trace.before.label(precision: display.precision, maxItems: display.maxItems)))
    lines.append("Stack after: " + code(trace.after.label(precision: display.precision, maxItems: display.maxItems)))
    if let diagnostic = trace.diagnostic {
      lines.append("")
      lines.append("\(diagnostic.severity.rawValue) [\(diagnostic.code.rawValue)]: \(diagnostic.message)")
    }
    // Markdown needs two trailing spaces for a line break; an empty line is a paragraph break.
    let value = lines.map { markdown && !$0.isEmpty ? $0 + "  " : $0 }.joined(separator: "\n")
      .replacingOccurrences(of: "  \n\n", with: "\n\n").trimmingTrailingSpaces()
    let range = converter(for: document).range(line: position.line, utf8Range: trace.token.range)
    return [
      "contents": ["kind": .string(markdown ? "markdown" : "plaintext"), "value": .string(value)],
      "range": range.json,
    ]
  }

  private func describe(
    _ trace: TokenTrace, text: String, line: Int, document: Document, code: (String) -> String
  ) -> [String] {
    let display = settings.display
    let show = { (value: Double) in ValueFormat.format(value, precision: display.precision) }
    switch trace.token.kind {
    case .number(let value):
      let shown = show(value)
      return [shown == text ? "number \(code(shown))" : "number \(code(text)) = \(code(shown))"]
    case .check:
      guard let check = CheckLiteral(text) else { return ["check \(code(text))"] }
      let written = String(text.dropFirst())
      var lines = ["check \(code(text)): the top must be \(code(written)) \(CheckLiteral.places(check.decimals))"]
      if let top = trace.before.top.last {
        let rounded = CheckLiteral.rounded(top, decimals: check.decimals)
        let verdict = check.passes(top) ? "passes" : "fails"
        lines.append(
          "\(verdict): the top is \(code(show(top))) (\(code(rounded)) \(CheckLiteral.places(check.decimals)))")
      }
      return lines
    case .invalidNumber:
      return ["number \(code(text)), out of the range of a double"]
    case .builtin(let id):
      let builtin = Builtin.table[Int(id)]
      let kind = builtin.kind(ofSpelling: text).noun
      let alias = text.lowercased() == builtin.name ? "" : " (\(code(builtin.name)))"
      return ["\(kind) \(code(text))\(alias): \(builtin.meaning)", code(builtin.effect)]
    case .name:
      guard trace.diagnostic == nil, let value = trace.after.top.last else { return ["unknown word \(code(text))"] }
      var description = "variable \(code(text)) = \(code(show(value)))"
      if let store = document.storeLocation(
        ofVariable: text, visibleAtLine: line, utf8Offset: trace.token.range.lowerBound)
      {
        description += ", stored on line \(store.line + 1)"
      }
      return [description]
    case .store:
      let name = String(text.dropFirst())
      guard trace.diagnostic == nil, let value = trace.after.top.last else { return ["store into \(code(name))"] }
      return ["store into \(code(name)): \(code(show(value)))"]
    case .invalidStore:
      return ["store \(code(text))"]
    case .unknown:
      return ["unknown word \(code(text))"]
    case .colon:
      return ["\(code(":")) starts a definition: \(code(": name body… ;"))"]
    case .semicolon:
      return ["\(code(";")) ends a definition"]
    }
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var result = self
    while result.hasSuffix(" ") { result.removeLast() }
    return result
  }

  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}

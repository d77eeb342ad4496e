// `textDocument/codeAction`, `codeAction/resolve`: quick fixes, a line's result as a check, actions on every check.

import JSONRPC
import LSPTypes
import RPNEngine

extension Server {
  /// `textDocument/codeAction`, in this order: quick fixes for the diagnostics in the range, the
  /// line's result written as a check for each line of the range, then the source actions on
  /// every check of the document that would change something, whatever the range (for clients
  /// that cannot resolve their edits, only when `context.only` asks for them). Only the kinds
  /// that `context.only` includes, when the client sends it.
  ///
  /// The quick fixes: an `unknown-word` gets the suggestion (`sqr` → `sq`) or a split (`4+` →
  /// `4 +`); a use before its store gets none (moving the store is the fix, and only the user
  /// knows where). A `check-failed` gets its value updated for the top, in the check's own form.
  /// An `invalid-number` with a comma out of place gets one fix per reading of it (`1,5` → `1.5`,
  /// `1 5`), the first preferred; a check (`=1,5`) only the readings that are one number. A
  /// line that reads as infix (`3 + 4`) gets the line in RPN (`3 4 +`); `= 7`, the check `=7`.
  ///
  /// Checks are written in the document's display (its notation and decimals, without grouping).
  func codeActions(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    let found = try openDocument(params)
    let range = try LSPRange.decode(params?["range"], field: "range")
    let only = params?["context"]?["only"]?.arrayValue?.compactMap(\.stringValue)
    func wanted(_ kind: CodeActionKind) -> Bool { only.map { kind.isIncluded(in: $0) } ?? true }
    let document = found.open.document
    let converter = converter(for: document)
    var actions: [CodeAction] = []
    if wanted(.quickFix) {
      actions += quickFixes(uri: found.uri, converter: converter, range: range)
    }
    if wanted(.refactorRewrite) {
      actions += checkAdditions(uri: found.uri, converter: converter, range: range)
      actions += conversions(uri: found.uri, converter: converter, range: range)
    }
    // A client that cannot resolve edits later would get every source action's whole-document
    // edit with each request, and editors ask on every cursor move: such a client gets them only
    // when it asks for source actions by kind (`context.only`), as a source-action menu does.
    let offersSourceActions = client.codeActionResolvesEdits || only != nil
    for action in CheckSourceAction.allCases
    where offersSourceActions && wanted(action.kind) && action.wouldChange(document) {
      // Every check of a long tape makes a long edit: a client that can resolve it later gets it
      // only for the action it runs.
      if client.codeActionResolvesEdits {
        actions.append(CodeAction(title: action.title, kind: action.kind, data: TextDocumentReference(uri: found.uri)))
      } else {
        let edit = workspaceEdit(found.uri, action.edits(document, display(of: document)), converter)
        actions.append(CodeAction(title: action.title, kind: action.kind, edit: edit))
      }
    }
    return JSONValue(encoding: actions, capacity: 1024)
  }

  /// `codeAction/resolve`: the edit of a source action on every check, computed for the document
  /// as it is now. An action that has its edit already is returned as it is.
  func resolveCodeAction(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    guard let params, case .object(var members) = params else { throw .invalidParams("params must be a code action") }
    if params["edit"] != nil { return params }
    guard let kind = params["kind"]?.stringValue.flatMap(CodeActionKind.init(rawValue:)),
      let action = CheckSourceAction(kind)
    else {
      throw .invalidParams("only the source actions on checks (source.rpn.…) have an edit to resolve")
    }
    guard let data = params["data"], data.isObject else {
      throw .invalidParams("data must be what textDocument/codeAction gave the action")
    }
    let found = try openDocument(data)
    let document = found.open.document
    let edits = action.edits(document, display(of: document))
    // The action is the client's own, returned with the members it sent and the edit.
    members.append(("edit", JSONValue(encoding: workspaceEdit(found.uri, edits, converter(for: document)))))
    return .object(members)
  }

  /// The quick fixes for the diagnostics that touch the range, in document order.
  private func quickFixes(uri: String, converter: PositionConverter, range: LSPRange) -> [CodeAction] {
    let document = converter.document
    let last = min(range.end.line, document.lineCount - 1)
    guard range.start.line <= last else { return [] }
    // A start past its line's end is that end (as LSP clamps positions), so a diagnostic that
    // ends there touches the range.
    let start = converter.clamped(range.start)
    let display = display(of: document)
    var actions: [CodeAction] = []
    for line in range.start.line...last {
      for diagnostic in document.diagnostics(inLine: line) {
        let diagnosticRange = converter.range(line: line, utf8Range: diagnostic.range)
        guard diagnosticRange.end >= start, diagnosticRange.start <= range.end else { continue }
        let fixed = [lspDiagnostic(diagnostic, line: line, converter: converter, display: display)]
        // An unknown word's fix is preferred only as its one clear reading (an editor may apply
        // it unasked); the other fixes' first is.
        var clear = true
        if case .unknownWord(_, let suggestions, _) = diagnostic.problem { clear = Suggestions.isClear(suggestions) }
        for (index, fix) in fixes(for: diagnostic, line: line, in: document).enumerated() {
          actions.append(
            CodeAction(
              title: fix.title, kind: .quickFix, diagnostics: fixed, isPreferred: index == 0 && clear,
              edit: workspaceEdit(uri, fix.edits, converter)))
        }
      }
    }
    return actions
  }

  /// The fixes of one diagnostic, the one most likely meant first.
  private func fixes(for diagnostic: Diagnostic, line: Int, in document: Document) -> [(
    title: String, edits: [LineEdit]
  )] {
    switch diagnostic.problem {
    case .unknownWord(let word, let suggestions, nil):
      // Each suggestion its own fix, best first (the first is the preferred one).
      return suggestions.map { suggestion in
        let title =
          switch suggestion {
          case .word(let replacement): "Replace `\(word)` with `\(replacement)`"
          case .split(let parts) where parts.joined() == word: "Split `\(word)` into `\(suggestion.replacement)`"
          case .split: "Replace `\(word)` with `\(suggestion.replacement)` (the operand first)"
          }
        return (title, [LineEdit(line: line, range: diagnostic.range, text: suggestion.replacement)])
      }
    case .infix(let reading, let span, _):
      return [("Rewrite in RPN: `\(reading)`", [LineEdit(line: line, range: span, text: reading)])]
    case .spacedCheck(let check, let span):
      return [("Join into the check `\(check)`", [LineEdit(line: line, range: span, text: check)])]
    case .checkFailed:
      guard let update = document.checkUpdate(line: line, for: diagnostic) else { return [] }
      return [("Update the check to \(update.text)", [update])]
    case .invalidNumber(_, .misplacedComma):
      return diagnostic.problem.misplacedCommaReplacements.map { text in
        ("Replace with `\(text)`", [LineEdit(line: line, range: diagnostic.range, text: text)])
      }
    case .invalidNumber(_, .sexagesimal):
      guard let text = diagnostic.problem.sexagesimalReplacement else { return [] }
      return [("Replace with `\(text)`", [LineEdit(line: line, range: diagnostic.range, text: text)])]
    case .unitMismatch, .invalidName(_, .underscore):
      return document.unitFixes(line: line, for: diagnostic).map { ($0.title, $0.edits) }
    default:
      return []
    }
  }

  /// "Write the result as a check" for each line of the range with tokens, no check, and a stack
  /// after it. A range that ends at the start of a line (a whole-line selection) leaves that
  /// line out.
  private func checkAdditions(uri: String, converter: PositionConverter, range: LSPRange) -> [CodeAction] {
    let document = converter.document
    var last = min(range.end.line, document.lineCount - 1)
    if range.end.line > range.start.line, range.end.character == 0 { last = min(last, range.end.line - 1) }
    guard range.start.line <= last else { return [] }
    let display = display(of: document)
    return (range.start.line...last).compactMap { line in
      guard let edit = document.checkAddition(line: line, display: display) else { return nil }
      return CodeAction(
        title: "Write the result as a check: \(edit.text.drop { $0 == " " })", kind: .refactorRewrite,
        edit: workspaceEdit(uri, [edit], converter))
    }
  }

  /// "Convert to …" on the token at the range's start when its result is a quantity: one action
  /// per unit it converts to (at most 8, the table's commonest first), each inserting ` >unit`
  /// right after the token. None on a token with a diagnostic, or inside a definition.
  private func conversions(uri: String, converter: PositionConverter, range: LSPRange) -> [CodeAction] {
    let document = converter.document
    let start = converter.textPosition(range.start)
    guard start.line < document.lineCount,
      let facts = document.tokenFacts(atLine: start.line, utf8Offset: start.utf8Column, keepingTop: 1),
      case .line = facts.place, facts.diagnostic == nil, let top = facts.after.top.last, top.unit != .none
    else { return [] }
    let end = facts.range.upperBound
    let choices = document.conversions(of: top, atLine: start.line, utf8Offset: end)
    return UnitCatalog.conversionMenu(from: choices).map { choice in
      CodeAction(
        title: choice.format == nil
          ? "Convert to \(choice.name) (\(choice.title))" : "Show as \(choice.name) (\(choice.title))",
        kind: .refactorRewrite,
        edit: workspaceEdit(uri, [LineEdit(line: start.line, range: end..<end, text: " >" + choice.name)], converter))
    }
  }

  /// A `WorkspaceEdit` of one document's `changes`.
  private func workspaceEdit(_ uri: String, _ edits: [LineEdit], _ converter: PositionConverter) -> WorkspaceEdit {
    WorkspaceEdit(uri: uri, edits: edits.map(converter.textEdit))
  }
}

/// The source actions on every check of a document, each its own kind under `source.rpn`.
private enum CheckSourceAction: CaseIterable {
  case updateFailing
  case addToEveryLine
  case removeAll

  init?(_ kind: CodeActionKind) {
    guard let action = Self.allCases.first(where: { $0.kind == kind }) else { return nil }
    self = action
  }

  var kind: CodeActionKind {
    switch self {
    case .updateFailing: .updateChecks
    case .addToEveryLine: .addChecks
    case .removeAll: .removeChecks
    }
  }

  var title: String {
    switch self {
    case .updateFailing: "Update every failing check"
    case .addToEveryLine: "Add a check to every line"
    case .removeAll: "Remove every check"
    }
  }

  /// Whether the action would change the document: at most one pass over its line records.
  func wouldChange(_ document: Document) -> Bool {
    switch self {
    case .updateFailing: document.hasFailingCheck
    case .addToEveryLine: document.canAddCheck
    case .removeAll: document.hasAnyCheck
    }
  }

  /// The edits of the whole document, top to bottom; new checks written as `display` shows values.
  func edits(_ document: Document, _ display: DisplaySettings) -> [LineEdit] {
    switch self {
    case .updateFailing: document.checkUpdates()
    case .addToEveryLine: document.checkAdditions(display: display)
    case .removeAll: document.checkRemovals()
    }
  }
}

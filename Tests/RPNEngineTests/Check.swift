import Testing

@testable import RPNEngine

/// Evaluates `source` and expects the stack label after its last line and all its diagnostics.
///
/// Diagnostics are written `code@line:start-end`: the code of the README's diagnostics table, the 0-based line, and
/// the token's range of UTF-8 offsets within that line, so that a case fits on one line:
///
///     check("1 +", stack: "[1]", diagnostics: ["stack-underflow@0:2-3"])
///
/// Returns the document for further expectations.
@discardableResult
func check(
  _ source: String, stack: String, diagnostics: [String] = [], angleMode: AngleMode = .radians,
  precision: Int = 15, maxItems: Int = 8, sourceLocation: SourceLocation = #_sourceLocation
) -> Document? {
  let document: Document
  do {
    document = try Document(text: source, settings: EvaluationSettings(angleMode: angleMode))
  } catch {
    Issue.record("cannot make a document of \(source.debugDescription): \(error)", sourceLocation: sourceLocation)
    return nil
  }
  let label = document.stack(afterLine: document.lineCount - 1, keepingTop: maxItems)
    .label(display: DisplaySettings(precision: precision, maxItems: maxItems))
  #expect(label == stack, "stack after \(source.debugDescription)", sourceLocation: sourceLocation)
  let found = document.diagnostics().map { compact($0.diagnostic, line: $0.line) }
  #expect(found == diagnostics, "diagnostics of \(source.debugDescription)", sourceLocation: sourceLocation)
  return document
}

/// A diagnostic as `code@line:start-end` (UTF-8 offsets within the line).
func compact(_ diagnostic: Diagnostic, line: Int) -> String {
  "\(diagnostic.code.rawValue)@\(line):\(diagnostic.range.lowerBound)-\(diagnostic.range.upperBound)"
}

/// A row of a table-driven test: a source, the stack after it, and its diagnostics
/// (`code@line:start-end`, UTF-8 offsets), for `check`.
struct EvaluationCase: Sendable, CustomTestStringConvertible {
  var source: String
  var stack: String
  var diagnostics: [String] = []
  var testDescription: String { source }
}

import JSONRPC
import TestSupport
import Testing

/// Infix habits and a check written with a space, through the real binary: the diagnostic as an
/// editor gets it, and the quick fix that rewrites the line, applied and sent back.
@Suite struct HabitActionTests {
  static let uri = "file:///habits.rpn"
  static let text = "3 + 4\n9 =x\n10 / 2\n7 = 7\n"

  static func started() throws -> LSPClient {
    let client = try LSPClient.started(
      capabilities: ["textDocument": ["codeAction": ["codeActionLiteralSupport": ["codeActionKind": ["valueSet": []]]]]]
    )
    client.open(uri, text)
    return client
  }

  @Test func diagnosticsSayHowTheLineReadsInRPN() throws {
    let client = try Self.started()
    defer { try? client.finish() }
    let published = try client.publishedDiagnostics(Self.uri).diagnostics
    #expect(
      compact(diagnostics: published) == [
        "0:2-0:3 warning stack-underflow: `+` needs 2 values but the stack holds only 1; in RPN the operands come "
          + "first: `3 4 +`",
        "2:3-2:4 info infix: this line reads as infix; in RPN the operands come first: `10 2 /`",
        "3:2-3:3 error invalid-name: `=` needs a name after it; a check is written without a space, like `=7`",
      ])
  }

  /// The quick fix of each: its title, that it is preferred, its edit; and once applied, the line
  /// has no diagnostic. A line with a diagnostic is offered no "Write the result as a check".
  @Test(arguments: [
    (0, "quickfix preferred \"Rewrite in RPN: `3 4 +`\": 0:0-0:5 → \"3 4 +\"", "3 4 +\n9 =x\n10 / 2\n7 = 7\n"),
    (2, "quickfix preferred \"Rewrite in RPN: `10 2 /`\": 2:0-2:6 → \"10 2 /\"", "3 + 4\n9 =x\n10 2 /\n7 = 7\n"),
    (3, "quickfix preferred \"Join into the check `=7`\": 3:2-3:5 → \"=7\"", "3 + 4\n9 =x\n10 / 2\n7 =7\n"),
  ])
  func quickFixes(line: Int, action: String, fixed: String) throws {
    let client = try Self.started()
    defer { try? client.finish() }
    let diagnostics = try client.publishedDiagnostics(Self.uri).diagnostics
    let actions = try CodeActionTests.codeActions(client, range(line, 0, line, 6), diagnostics, uri: Self.uri)
    // Only the fix: a line with a diagnostic is offered no "Write the result as a check".
    #expect(compact(actions: actions, uri: Self.uri) == [action])
    let fix = try #require(actions.first)
    let applied = try applying(try edits(of: fix["edit"] ?? .null, uri: Self.uri), to: Self.text, encoding: "utf-16")
    client.change(Self.uri, version: 2, [["text": .string(applied)]])
    let after = try client.publishedDiagnostics(Self.uri).diagnostics
    #expect(!after.contains { $0["range"]?["start"]?["line"]?.intValue == line }, "\(compact(diagnostics: after))")
  }

  /// Hover on the operator tells the habit too: the note (whose operator ran) and the underflow
  /// with its reading.
  @Test func hoverTellsTheHabit() throws {
    let client = try Self.started()
    defer { try? client.finish() }
    let note = try client.hover(Self.uri, position(2, 3))["contents"]?["value"]?.stringValue ?? ""
    #expect(
      note.hasSuffix("info [infix]: this line reads as infix; in RPN the operands come first: `10 2 /`"), "\(note)")
    let underflow = try client.hover(Self.uri, position(0, 2))["contents"]?["value"]?.stringValue ?? ""
    #expect(underflow.hasSuffix("in RPN the operands come first: `3 4 +`"), "\(underflow)")
  }
}

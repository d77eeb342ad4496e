import JSONRPC
import LSPTypes
import Testing

/// The response types whose encoding has more than one form: a completion item written whole or
/// from its prepared pieces, members left out when absent, keys that are data.
@Suite struct ResponseEncodingTests {
  private static let range = LSPRange(
    start: Position(line: 3, character: 1), end: Position(line: 3, character: 4))

  private static func text(_ value: some JSONEncodable) -> String {
    String(decoding: JSONWriter.encode(value), as: UTF8.self)
  }

  /// A prepared item, with or without the end of its detail, writes what the same item built
  /// whole writes, escapes included; items without a detail or optional members too.
  @Test func preparedItemsWriteAsItemsBuiltWhole() {
    let items = [
      CompletionItem(
        label: "dup", filterText: "dup", kind: .function, documentation: "copies \"x\"", newText: "dup",
        detail: "( a -- a a ) — ", sortText: "1b0003"),
      CompletionItem(label: "π", newText: "pi\\"),
      CompletionItem(label: "x", kind: .variable, newText: "x", detail: "tab\there"),
    ]
    let table = PreparedCompletionItems(items)
    #expect(table.count == 3)
    for (end, expectedDetail) in [(nil, items[0].detail), ("needs \"2\"\n", "( a -- a a ) — needs \"2\"\n")] {
      var prepared = CompletionList(isIncomplete: false, editRange: Self.range, items: [], table: table)
      let endIndex = end.map { prepared.addDetailEnd($0) }
      prepared.prepared = [
        .init(item: 0, detailEnd: endIndex), .init(item: 1, detailEnd: nil), .init(item: 2, detailEnd: nil),
      ]
      var whole = items
      whole[0].detail = expectedDetail
      #expect(
        Self.text(prepared) == Self.text(CompletionList(isIncomplete: false, editRange: Self.range, items: whole)))
    }
    // Built items first, then prepared ones, one comma between them.
    var mixed = CompletionList(isIncomplete: true, editRange: Self.range, items: [items[1]], table: table)
    mixed.prepared = [.init(item: 1, detailEnd: nil)]
    let one =
      #"{"label":"π","textEdit":{"range":{"start":{"line":3,"character":1},"end":{"line":3,"character":4}}"#
      + #","newText":"pi\\"}}"#
    #expect(Self.text(mixed) == #"{"isIncomplete":true,"items":["# + one + "," + one + "]}")
    #expect(
      Self.text(CompletionList(isIncomplete: false, editRange: Self.range, items: []))
        == #"{"isIncomplete":false,"items":[]}"#)
  }

  /// A section without symbols in it has no `children` member; a flat symbol outside any
  /// section no `containerName`; a code action only the members it has.
  @Test func absentMembersAreLeftOut() {
    let leaf = DocumentSymbol(name: "x", kind: .variable, detail: "3", range: Self.range, selectionRange: Self.range)
    #expect(!Self.text(leaf).contains("children"))
    #expect(
      Self.text(
        DocumentSymbol(
          name: "s", kind: .namespace, detail: nil, range: Self.range, selectionRange: Self.range, children: [leaf])
      ).contains(#""children":[{"name":"x""#))
    let flat = SymbolInformation(name: "x", kind: .variable, location: Location(uri: "file:///a", range: Self.range))
    #expect(!Self.text(flat).contains("containerName"))
    #expect(
      Self.text(CodeAction(title: "t", kind: .addChecks, data: TextDocumentReference(uri: "file:///a")))
        == #"{"title":"t","kind":"source.rpn.addChecks","data":{"textDocument":{"uri":"file:///a"}}}"#)
  }

  /// A workspace edit's keys are URIs: escaped, and an edit of no change keeps its document.
  @Test func workspaceEditKeysAreEscapedURIs() {
    #expect(
      Self.text(WorkspaceEdit(uri: #"file:///a "b".rpn"#, edits: []))
        == #"{"changes":{"file:///a \"b\".rpn":[]}}"#)
  }
}

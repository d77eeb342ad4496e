// The protocol's completions: `CompletionItem`, `CompletionList`, and items whose JSON is written once and reused.

import JSONRPC

/// LSP's `CompletionItem`, with the members `.rpn` sends. Its `textEdit` replaces the list's
/// `editRange` (the word being typed, the same for every item) with `newText`.
package struct CompletionItem: Sendable {
  package var label: String
  package var filterText: String?
  package var kind: CompletionItemKind?
  package var documentation: String?
  package var newText: String
  package var detail: String?
  package var sortText: String?

  package init(
    label: String, filterText: String? = nil, kind: CompletionItemKind? = nil, documentation: String? = nil,
    newText: String, detail: String? = nil, sortText: String? = nil
  ) {
    self.label = label
    self.filterText = filterText
    self.kind = kind
    self.documentation = documentation
    self.newText = newText
    self.detail = detail
    self.sortText = sortText
  }

  /// The one writer of an item: `range` is its edit's range, and `detailEnd`, when there is one
  /// and a detail, the end of the detail's text (escaped, inside its quotes). A prepared item is
  /// this, cut where those two go.
  @inline(__always)
  func encode<Range: JSONEncodable, End: JSONEncodable>(
    into writer: inout JSONWriter, range: Range, detailEnd: End?
  ) {
    writer.beginObject()
    writer.member("label", label)
    writer.member("filterText", filterText)
    writer.member("kind", kind)
    writer.member("documentation", documentation)
    writer.member("textEdit", Edit(range: range, newText: newText))
    if let detail, let detailEnd {
      writer.member("detail", Detail(text: detail, end: detailEnd))
    } else {
      writer.member("detail", detail)
    }
    writer.member("sortText", sortText)
    writer.endObject()
  }

  private struct Edit<Range: JSONEncodable>: JSONEncodable {
    var range: Range
    var newText: String

    func encode(into writer: inout JSONWriter) {
      writer.beginObject()
      writer.member("range", range)
      writer.member("newText", newText)
      writer.endObject()
    }
  }

  /// A detail's text, then its end, in one string.
  private struct Detail<End: JSONEncodable>: JSONEncodable {
    var text: String
    var end: End

    func encode(into writer: inout JSONWriter) {
      writer.write(raw: "\"")
      writer.write(escaped: text)
      end.encode(into: &writer)
      writer.write(raw: "\"")
    }
  }
}

/// JSON written ahead, written as it is.
private struct Raw: JSONEncodable {
  var bytes: [UInt8]

  func encode(into writer: inout JSONWriter) { writer.write(raw: bytes) }
}

/// Where a prepared item is cut: writes nothing, and notes how much was written before it.
private struct Cut: JSONEncodable {
  final class Notes {
    var offsets: [Int] = []
  }
  let notes: Notes

  func encode(into writer: inout JSONWriter) { notes.offsets.append(writer.byteCount) }
}

/// Completion items whose JSON is written once, into one buffer, to be written again as it is
/// in many lists: all but an item's edit range (the list's) and an end of its detail that a list
/// may add (what the stack at the cursor is missing). Completion is asked on every keystroke, and
/// most of a list is the same items every time.
package final class PreparedCompletionItems: Sendable {
  /// Every item's JSON, cut out.
  private let bytes: [UInt8]
  /// For item `i`, `cuts[2 * i]` and `cuts[2 * i + 1]` are where its edit's range and its detail's
  /// end go, in `bytes`; `starts[i]` and `starts[i + 1]` bound the item.
  private let cuts: [Int]
  private let starts: [Int]

  /// `items` written with the range and the detail's end cut out. An item without a detail takes
  /// no end (its second cut is at its end).
  package init(_ items: [CompletionItem]) {
    var writer = JSONWriter(capacity: 256 * items.count)
    let cut = Cut(notes: Cut.Notes())
    cut.notes.offsets.reserveCapacity(2 * items.count)
    var starts: [Int] = []
    starts.reserveCapacity(items.count + 1)
    for item in items {
      starts.append(writer.byteCount)
      item.encode(into: &writer, range: cut, detailEnd: item.detail == nil ? nil : cut)
      if item.detail == nil { cut.notes.offsets.append(writer.byteCount) }
    }
    starts.append(writer.byteCount)
    bytes = writer.bytes
    cuts = cut.notes.offsets
    self.starts = starts
  }

  package var count: Int { starts.count - 1 }

  /// A prepared item in a list: which one, and the index of its detail's end in the list's
  /// `detailEnds`, if it has one.
  package struct Use: Sendable {
    let item: Int32
    let detailEnd: Int32

    package init(item: Int, detailEnd: Int?) {
      self.item = Int32(truncatingIfNeeded: item)
      self.detailEnd = Int32(truncatingIfNeeded: detailEnd ?? -1)
    }
  }

  /// Writes the items used, separated by commas (`comma`: before the first one too).
  fileprivate func write(
    _ uses: [Use], range: [UInt8], detailEnds: [[UInt8]], comma: Bool, into writer: inout JSONWriter
  ) {
    bytes.withUnsafeBufferPointer { bytes in
      range.withUnsafeBufferPointer { range in
        var comma = comma
        for use in uses {
          let item = Int(use.item)
          guard item >= 0, item < count else { continue }
          let (start, rangeCut, detailCut, end) = (starts[item], cuts[2 * item], cuts[2 * item + 1], starts[item + 1])
          if comma { writer.write(raw: ",") }
          comma = true
          writer.write(raw: UnsafeBufferPointer(rebasing: bytes[start..<rangeCut]))
          writer.write(raw: range)
          writer.write(raw: UnsafeBufferPointer(rebasing: bytes[rangeCut..<detailCut]))
          if use.detailEnd >= 0, Int(use.detailEnd) < detailEnds.count {
            writer.write(raw: detailEnds[Int(use.detailEnd)])
          }
          writer.write(raw: UnsafeBufferPointer(rebasing: bytes[detailCut..<end]))
        }
      }
    }
  }
}

/// LSP's `CompletionList`: its items, then the prepared items it uses. Every item's edit
/// replaces `editRange`, written once for the list.
package struct CompletionList: JSONEncodable {
  package var isIncomplete: Bool
  package var editRange: LSPRange
  package var items: [CompletionItem]
  /// Where the items of `prepared` come from.
  package var table: PreparedCompletionItems?
  package var prepared: [PreparedCompletionItems.Use]
  /// The ends of prepared items' details, escaped once each (many items share one).
  private var detailEnds: [[UInt8]] = []

  /// A complete list with no items.
  package static let empty = CompletionList(
    editRange: LSPRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0)), items: [])

  package init(
    isIncomplete: Bool = false, editRange: LSPRange, items: [CompletionItem], table: PreparedCompletionItems? = nil,
    prepared: [PreparedCompletionItems.Use] = []
  ) {
    self.isIncomplete = isIncomplete
    self.editRange = editRange
    self.items = items
    self.table = table
    self.prepared = prepared
  }

  /// Takes a detail's end for prepared items (`Use.detailEnd`): its index.
  package mutating func addDetailEnd(_ text: String) -> Int {
    var writer = JSONWriter(capacity: 64)
    writer.write(escaped: text)
    detailEnds.append(writer.bytes)
    return detailEnds.count - 1
  }

  package func encode(into writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("isIncomplete", isIncomplete)
    writer.member("items", Items(list: self))
    writer.endObject()
  }

  private struct Items: JSONEncodable {
    var list: CompletionList

    func encode(into writer: inout JSONWriter) {
      let range = JSONWriter.encode(list.editRange, capacity: 64)
      writer.beginArray()
      for item in list.items { writer.element(Written(item: item, range: range)) }
      list.table?.write(
        list.prepared, range: range, detailEnds: list.detailEnds, comma: !list.items.isEmpty, into: &writer)
      writer.endArray()
    }
  }

  private struct Written: JSONEncodable {
    var item: CompletionItem
    var range: [UInt8]

    func encode(into writer: inout JSONWriter) {
      item.encode(into: &writer, range: Raw(bytes: range), detailEnd: Raw?.none)
    }
  }
}

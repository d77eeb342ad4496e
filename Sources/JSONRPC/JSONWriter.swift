// The JSON writer: values encoded as UTF-8 bytes into one buffer, and the protocol of typed values it writes.

/// A value that writes itself as JSON: the protocol's typed responses, member by member
/// (`JSONWriter.beginObject`, `member`, `endObject`), with no `JSONValue` tree built first.
@usableFromInline package protocol JSONEncodable {
  func encode(into writer: inout JSONWriter)
}

extension JSONValue: JSONEncodable {
  package func encode(into writer: inout JSONWriter) { writer.write(self) }
}

extension JSONValue {
  /// A typed value as the JSON it writes, kept as its bytes.
  package init(encoding value: some JSONEncodable, capacity: Int = 256) {
    self = .encoded(JSONWriter.encode(value, capacity: capacity))
  }
}

extension String: JSONEncodable {
  @inlinable
  package func encode(into writer: inout JSONWriter) { writer.write(string: self) }
}

extension Int: JSONEncodable {
  @inlinable
  package func encode(into writer: inout JSONWriter) { writer.write(integer: self) }
}

extension Double: JSONEncodable {
  @inlinable
  package func encode(into writer: inout JSONWriter) { writer.write(number: self) }
}

extension Bool: JSONEncodable {
  @inlinable
  package func encode(into writer: inout JSONWriter) { writer.write(raw: self ? "true" : "false") }
}

extension Array: JSONEncodable where Element: JSONEncodable {
  @inlinable
  package func encode(into writer: inout JSONWriter) {
    writer.beginArray()
    for element in self { writer.element(element) }
    writer.endArray()
  }
}

extension RawRepresentable where Self: JSONEncodable, RawValue: JSONEncodable {
  /// The protocol's named values are written as their numbers or strings.
  @inlinable
  package func encode(into writer: inout JSONWriter) { rawValue.encode(into: &writer) }
}

/// A string kept as its UTF-8 bytes, as the engine writes stack labels: written without being
/// made a `String` first.
@usableFromInline package struct UTF8Text: JSONEncodable, Equatable, Sendable {
  @usableFromInline package var utf8: [UInt8]

  package init(utf8: [UInt8]) { self.utf8 = utf8 }
  package init(_ text: String) { utf8 = Array(text.utf8) }

  @inlinable
  package func encode(into writer: inout JSONWriter) { utf8.withUnsafeBufferPointer { writer.write(utf8: $0) } }
}

/// Encodes JSON values as UTF-8 bytes, appending to a buffer.
///
/// The buffer is raw memory the writer owns (so it cannot be copied): writing a piece costs a
/// bounds check and a `memcpy`, where appending to an array costs a uniqueness check and a
/// generic call each time, and a response is thousands of small pieces.
///
/// Its byte stores and `member`/`element` are `@inlinable`, so that each response type's
/// `encode` is specialized in its own module: called across modules unspecialized, every
/// optional member cost a generic metadata look-up, and a list of typed items twice the work.
@usableFromInline package struct JSONWriter: ~Copyable {
  @usableFromInline var start: UnsafeMutablePointer<UInt8>
  @usableFromInline var count = 0
  @usableFromInline var capacity: Int
  /// Whether the next member or element of the open object or array needs a comma before it:
  /// every value written sets it, every container opened clears it, so one flag serves nesting.
  @usableFromInline var needsComma = false

  @usableFromInline package init(capacity: Int = 256) {
    self.capacity = max(capacity, 16)
    start = .allocate(capacity: self.capacity)
  }

  deinit { start.deallocate() }

  /// What was written.
  @usableFromInline package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

  package static func encode(_ value: JSONValue) -> [UInt8] {
    var writer = JSONWriter()
    writer.write(value)
    return writer.bytes
  }

  package static func string(_ value: JSONValue) -> String {
    String(decoding: encode(value), as: UTF8.self)
  }

  /// A typed value's JSON, with room for `capacity` bytes before the buffer grows.
  @inlinable
  package static func encode(_ value: some JSONEncodable, capacity: Int = 256) -> [UInt8] {
    var writer = JSONWriter(capacity: capacity)
    value.encode(into: &writer)
    return writer.bytes
  }

  // MARK: Objects and arrays, member by member

  /// Opens an object; its members follow (`member`), then `endObject`.
  @inlinable @inline(__always)
  package mutating func beginObject() {
    put(0x7B)
    needsComma = false
  }

  @inlinable @inline(__always)
  package mutating func endObject() {
    put(0x7D)
    needsComma = true
  }

  /// Opens an array; its elements follow (`element`), then `endArray`.
  @inlinable @inline(__always)
  package mutating func beginArray() {
    put(0x5B)
    needsComma = false
  }

  @inlinable @inline(__always)
  package mutating func endArray() {
    put(0x5D)
    needsComma = true
  }

  /// A member of the open object. Keys are the protocol's names, plain ASCII that needs no
  /// escape, so they are written as they are.
  @inlinable @inline(__always)
  package mutating func member(_ key: StaticString, _ value: some JSONEncodable) {
    write(key: key)
    value.encode(into: &self)
    needsComma = true
  }

  /// A member written only when there is a value: LSP's optional properties are left out, not
  /// written `null`.
  @inlinable @inline(__always)
  package mutating func member(_ key: StaticString, _ value: (some JSONEncodable)?) {
    guard let value else { return }
    member(key, value)
  }

  /// A member whose key is data, not one of the protocol's names (a `WorkspaceEdit`'s document
  /// URIs): written as a string is, escaped.
  @inlinable
  package mutating func member(named key: String, _ value: some JSONEncodable) {
    if needsComma { put(0x2C) }
    write(string: key)
    put(0x3A)
    value.encode(into: &self)
    needsComma = true
  }

  /// An element of the open array.
  @inlinable @inline(__always)
  package mutating func element(_ value: some JSONEncodable) {
    if needsComma { put(0x2C) }
    value.encode(into: &self)
    needsComma = true
  }

  /// `,"key":` with one check for room: a response is mostly keys.
  @inlinable @inline(__always)
  mutating func write(key: StaticString) {
    let length = key.utf8CodeUnitCount
    if count + length + 4 > capacity { grow(to: count + length + 4) }
    if needsComma {
      start[count] = 0x2C
      count += 1
    }
    start[count] = 0x22
    (start + count + 1).update(from: key.utf8Start, count: length)
    start[count + 1 + length] = 0x22
    start[count + 2 + length] = 0x3A
    count += length + 3
  }

  package mutating func write(_ value: JSONValue) {
    switch value {
    case .null: append("null")
    case .bool(let flag): append(flag ? "true" : "false")
    case .number(let number): write(number: number)
    case .string(let string): write(string: string)
    case .array(let elements):
      put(0x5B)
      for (index, element) in elements.enumerated() {
        if index > 0 { put(0x2C) }
        write(element)
      }
      put(0x5D)
    case .object(let members):
      put(0x7B)
      for (index, member) in members.enumerated() {
        if index > 0 { put(0x2C) }
        write(string: member.key)
        put(0x3A)
        write(member.value)
      }
      put(0x7D)
    case .encoded(let text):
      text.withUnsafeBufferPointer { put($0) }
    }
    needsComma = true
  }

  /// JSON text written as it is: the punctuation and keys of a value written piece by piece
  /// (`{"line":`), for a response too large and too regular to build as `JSONValue`s first.
  @inlinable @inline(__always)
  package mutating func write(raw text: StaticString) { append(text) }

  /// JSON text written ahead, as it is (pieces of items that never change).
  @inlinable @inline(__always)
  package mutating func write(raw bytes: [UInt8]) { bytes.withUnsafeBufferPointer { put($0) } }

  /// JSON text written ahead, as it is: a piece of a larger buffer.
  @inlinable @inline(__always)
  package mutating func write(raw bytes: UnsafeBufferPointer<UInt8>) { put(bytes) }

  /// How many bytes are written: where a piece cut from what is written starts or ends.
  package var byteCount: Int { count }

  @inlinable @inline(__always)
  mutating func append(_ text: StaticString) {
    put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Integers as integers; other finite numbers in Swift's shortest round-trip form; NaN and
  /// infinities (which JSON cannot hold) as null.
  @usableFromInline package mutating func write(number: Double) {
    if number.rounded() == number, abs(number) < 9_007_199_254_740_992 {
      write(integer: Int(number))
    } else if number.isFinite {
      var description = number.description
      description.withUTF8 { put($0) }
    } else {
      append("null")
    }
  }

  @usableFromInline package mutating func write(integer: Int) {
    if integer < 0 { put(0x2D) }
    var magnitude = integer.magnitude
    if magnitude < 10 {
      put(UInt8(magnitude) + 0x30)
      return
    }
    var digits = 1
    var rest = magnitude
    while rest >= 10 {
      rest /= 10
      digits += 1
    }
    if count + digits > capacity { grow(to: count + digits) }
    var position = count + digits
    repeat {
      position -= 1
      start[position] = UInt8(magnitude % 10) + 0x30
      magnitude /= 10
    } while magnitude > 0
    count += digits
  }

  @usableFromInline package mutating func write(string: String) {
    var string = string
    string.withUTF8 { write(utf8: $0) }
  }

  /// A string given as its UTF-8 bytes.
  @usableFromInline package mutating func write(utf8: UnsafeBufferPointer<UInt8>) {
    put(0x22)
    writeEscaped(utf8)
    put(0x22)
  }

  /// A string's characters escaped, without its quotes: a piece of a string written in pieces
  /// (JSON escapes character by character, so escaped pieces join into one string).
  package mutating func write(escaped text: String) {
    var text = text
    text.withUTF8 { writeEscaped($0) }
  }

  /// Most strings need no escape: the bytes that do are found eight at a time
  /// (`JSONParser.nextSpecialByte`), and everything between them is copied whole.
  @inline(__always)
  private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    let count = utf8.count
    while true {
      let index = JSONParser.nextSpecialByte(utf8, from: runStart)
      if index > runStart { put(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
      guard index < count else { break }
      let byte = utf8[index]
      switch byte {
      case 0x22: append("\\\"")
      case 0x5C: append("\\\\")
      case 0x0A: append("\\n")
      case 0x0D: append("\\r")
      case 0x09: append("\\t")
      default:
        append("\\u00")
        put(Self.hexDigit(byte >> 4))
        put(Self.hexDigit(byte & 0x0F))
      }
      runStart = index + 1
    }
  }

  @inlinable @inline(__always)
  mutating func put(_ byte: UInt8) {
    if count == capacity { grow(to: count + 1) }
    start[count] = byte
    count += 1
  }

  @inlinable @inline(__always)
  mutating func put(_ source: UnsafeBufferPointer<UInt8>) {
    guard let base = source.baseAddress, source.count > 0 else { return }
    if count + source.count > capacity { grow(to: count + source.count) }
    (start + count).update(from: base, count: source.count)
    count += source.count
  }

  /// At least doubles the buffer, to hold `needed` bytes.
  @usableFromInline @inline(never)
  mutating func grow(to needed: Int) {
    let larger = max(needed, 2 * capacity)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    moved.initialize(from: start, count: count)
    start.deallocate()
    start = moved
    capacity = larger
  }

  @inline(__always)
  private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? value + 0x30 : value - 10 + 0x61 }
}

// The JSON writer: values encoded as UTF-8 bytes into one buffer.

/// Encodes JSON values as UTF-8 bytes, appending to a buffer.
package struct JSONWriter {
  package private(set) var bytes: [UInt8] = []

  package init(capacity: Int = 256) {
    bytes.reserveCapacity(capacity)
  }

  package static func encode(_ value: JSONValue) -> [UInt8] {
    var writer = JSONWriter()
    writer.write(value)
    return writer.bytes
  }

  package static func string(_ value: JSONValue) -> String {
    String(decoding: encode(value), as: UTF8.self)
  }

  package mutating func write(_ value: JSONValue) {
    switch value {
    case .null: append("null")
    case .bool(let flag): append(flag ? "true" : "false")
    case .number(let number): write(number: number)
    case .string(let string): write(string: string)
    case .array(let elements):
      bytes.append(0x5B)
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(0x2C) }
        write(element)
      }
      bytes.append(0x5D)
    case .object(let members):
      bytes.append(0x7B)
      for (index, member) in members.enumerated() {
        if index > 0 { bytes.append(0x2C) }
        write(string: member.key)
        bytes.append(0x3A)
        write(member.value)
      }
      bytes.append(0x7D)
    case .encoded(let text):
      bytes.append(contentsOf: text)
    }
  }

  @inline(__always)
  private mutating func append(_ text: StaticString) {
    bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Integers as integers; other finite numbers in Swift's shortest round-trip form; NaN and
  /// infinities (which JSON cannot hold) as null.
  package mutating func write(number: Double) {
    if number.rounded() == number, abs(number) < 9_007_199_254_740_992 {
      write(integer: Int(number))
    } else if number.isFinite {
      bytes.append(contentsOf: number.description.utf8)
    } else {
      append("null")
    }
  }

  package mutating func write(integer: Int) {
    if integer < 0 { bytes.append(0x2D) }
    var magnitude = integer.magnitude
    if magnitude < 10 {
      bytes.append(UInt8(magnitude) + 0x30)
      return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &digits) { buffer in
      var count = 0
      repeat {
        buffer[23 - count] = UInt8(magnitude % 10) + 0x30
        magnitude /= 10
        count += 1
      } while magnitude > 0
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
    }
  }

  package mutating func write(string: String) {
    var string = string
    string.withUTF8 { write(utf8: $0) }
  }

  /// A string given as its UTF-8 bytes. Most strings need no escape: the bytes that do are found
  /// eight at a time (`JSONParser.nextSpecialByte`), and everything between them is copied whole.
  package mutating func write(utf8: UnsafeBufferPointer<UInt8>) {
    bytes.append(0x22)
    var runStart = 0
    let count = utf8.count
    while true {
      let index = JSONParser.nextSpecialByte(utf8, from: runStart)
      if index > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
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
        bytes.append(Self.hexDigit(byte >> 4))
        bytes.append(Self.hexDigit(byte & 0x0F))
      }
      runStart = index + 1
    }
    bytes.append(0x22)
  }

  @inline(__always)
  private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? value + 0x30 : value - 10 + 0x61 }
}

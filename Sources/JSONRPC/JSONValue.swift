// JSON values, with ordered object members and literal syntax.

/// A JSON value. Objects keep their members in order (they are small, so a linear lookup is
/// fast, and encoding is deterministic).
package enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])
  /// A value already written as JSON text (by `JSONWriter`), kept as its bytes and written as
  /// they are: a typed response is encoded once, straight to bytes. The parser produces it only
  /// for a message's number id, whose text `JSONParser.parseMessage` keeps to answer with. It
  /// compares equal to the value its bytes parse to.
  case encoded([UInt8])

  package static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.encoded(let x), .encoded(let y)): x == y || matches(x, b)
    case (.encoded(let x), _): matches(x, b)
    case (_, .encoded(let y)): matches(y, a)
    case (.null, .null): true
    case (.bool(let x), .bool(let y)): x == y
    case (.number(let x), .number(let y)): x == y
    case (.string(let x), .string(let y)): x == y
    case (.array(let x), .array(let y)): x == y
    case (.object(let x), .object(let y)):
      x.count == y.count && x.allSatisfy { member in y.contains { $0.key == member.key && $0.value == member.value } }
    default: false
    }
  }

  /// Whether JSON text is `value`, parsing it only when writing `value` does not give the same
  /// bytes: the writer's text (every response) is compared as it is, and a kept id's text
  /// (`1e3`) against a number is read as a number alone. Only text written otherwise (members
  /// in another order) is parsed, once.
  private static func matches(_ text: [UInt8], _ value: JSONValue) -> Bool {
    if case .encoded(let other) = value {
      if other == text { return true }
    } else if JSONWriter.encode(value) == text {
      return true
    }
    if case .number(let number) = value, let first = text.first, first == 0x2D || first &- 0x30 < 10 {
      return Double(String(decoding: text, as: UTF8.self)) == number
    }
    guard case .success(let parsed) = JSONParser.parse(text) else { return false }
    return parsed == value
  }

  /// The member named `key` of an object; nil for anything else or a missing member.
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  package var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  package var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  package var doubleValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The value as an integer, when it is a number with no fraction that fits.
  package var intValue: Int? {
    guard case .number(let value) = self, value.rounded() == value, abs(value) <= 9_007_199_254_740_992 else {
      return nil
    }
    return Int(value)
  }

  package var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  package var isObject: Bool {
    if case .object = self { return true }
    return false
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int) { self = .number(Double(value)) }
  package init(floatLiteral value: Double) { self = .number(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  package init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(elements.map { (key: $0.0, value: $0.1) })
  }
  package init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
  package init(_ value: Int) { self = .number(Double(value)) }
  package init(_ value: String) { self = .string(value) }
}

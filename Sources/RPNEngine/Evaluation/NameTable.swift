// Variable names interned as small integers, looked up by their UTF-8 bytes.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Variable names, interned so that the persistent structures hold small integers. Names are
/// compared byte by byte, which is scalar by scalar without normalization, as the language says: `Å`
/// (U+00C5) and `Å` (U+212B) are two names, though Swift's `String ==` would call them equal.
/// Lookups take the token's bytes directly: no `String` is made on the hot path.
struct NameTable {
  /// The name a heading binds its section's base under: negative, so no text spells it and no
  /// list of names by ID holds it.
  static let sectionBase: Int32 = -2

  private(set) var names: [String] = []
  /// Whether any heading bound a section's base: until one does, `subtotal` need not look.
  private(set) var hasSectionBase = false
  /// Every name's UTF-8 bytes, back to back; `spans[id]` locates one.
  private var bytes: [UInt8] = []
  private var spans: [(start: Int, count: Int)] = []
  /// Open addressing: each slot holds an ID + 1, or 0 when empty. Twice the names, at least.
  private var slots: [Int32] = Array(repeating: 0, count: 16)

  func id(_ name: String) -> Int32? {
    var name = name
    return name.withUTF8 { id($0) }
  }

  @inline(__always)
  func id(_ name: UnsafeBufferPointer<UInt8>) -> Int32? {
    let mask = slots.count - 1
    var slot = Self.hash(name) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return nil }
      if matches(Int(entry - 1), name) { return entry - 1 }
      slot = (slot + 1) & mask
    }
  }

  mutating func noteSectionBase() { hasSectionBase = true }

  mutating func intern(_ name: String) -> Int32 {
    var name = name
    return name.withUTF8 { intern($0) }
  }

  mutating func intern(_ name: UnsafeBufferPointer<UInt8>) -> Int32 {
    if let id = id(name) { return id }
    let id = Int32(names.count)
    names.append(String(decoding: name, as: UTF8.self))
    spans.append((bytes.count, name.count))
    bytes.append(contentsOf: name)
    if names.count * 2 > slots.count {
      slots = Array(repeating: 0, count: slots.count * 2)
      for existing in 0..<names.count { insert(Int32(existing)) }
    } else {
      insert(id)
    }
    return id
  }

  private mutating func insert(_ id: Int32) {
    let span = spans[Int(id)]
    let mask = slots.count - 1
    var slot =
      bytes.withUnsafeBufferPointer {
        Self.hash(UnsafeBufferPointer(rebasing: $0[span.start..<span.start + span.count]))
      } & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = id + 1
  }

  @inline(__always)
  private func matches(_ id: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let span = spans[id]
    guard span.count == name.count else { return false }
    if name.isEmpty { return true }
    return bytes.withUnsafeBufferPointer { stored in
      memcmp(stored.baseAddress! + span.start, name.baseAddress!, name.count) == 0
    }
  }

  /// FNV-1a: names are short, and this needs no per-process seed.
  @inline(__always)
  private static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in name { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return Int(truncatingIfNeeded: hash ^ (hash >> 29))
  }
}

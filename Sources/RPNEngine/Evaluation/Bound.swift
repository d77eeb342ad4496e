// What a name is bound to (a variable's value, a word, a section's base), and its 8-byte form.

/// What a binding binds: a variable's value, a defined word (its ID in the document's
/// `WordTable`), or the stack's depth where the current section began (bound under
/// `NameTable.sectionBase`, a name no text can spell).
enum Bound: Equatable {
  case variable(Value)
  case word(Int32)
  case sectionBase(Int)

  var isWord: Bool {
    if case .word = self { return true }
    return false
  }
}

/// A `Bound` in 8 bytes, as `Binding` and the machine's lookup cache hold it: a binding stays 24
/// bytes, and two bindings compare as bits. A variable's value is stored as itself (stack values
/// are always finite); a word, a section's base, and "bound to nothing" in the cache are NaNs no
/// value can be, each with its tag and its number. Only this type reads the bits.
struct PackedBound: Equatable {
  let bits: UInt64

  private static let special: UInt64 = 0x7FF0_0000_0000_0000
  private static let tagMask: UInt64 = 0xFFFF_FFFF_0000_0000
  private static let wordTag: UInt64 = 0x7FFC_0000_0000_0000
  private static let sectionBaseTag: UInt64 = 0x7FFD_0000_0000_0000
  private static let unboundTag: UInt64 = 0x7FFE_0000_0000_0000

  /// In the lookup cache: the name is bound nowhere visible.
  static let unbound = PackedBound(bits: unboundTag)

  private init(bits: UInt64) { self.bits = bits }

  init(_ bound: Bound) {
    switch bound {
    case .variable(let value): bits = value.bitPattern
    case .word(let id): bits = Self.wordTag | UInt64(UInt32(bitPattern: id))
    case .sectionBase(let depth): bits = Self.sectionBaseTag | UInt64(UInt32(truncatingIfNeeded: depth))
    }
  }

  /// What is bound; nil for `unbound`.
  @inline(__always)
  var bound: Bound? {
    // A finite value's exponent is never all ones: one test for the common case.
    if bits & Self.special != Self.special { return .variable(Value(bitPattern: bits)) }
    let low = UInt32(truncatingIfNeeded: bits)
    switch bits & Self.tagMask {
    case Self.wordTag: return .word(Int32(bitPattern: low))
    case Self.sectionBaseTag: return .sectionBase(Int(low))
    case Self.unboundTag: return nil
    default: return .variable(Value(bitPattern: bits))
    }
  }

  /// The word bound, or nil (a variable, a section's base, or nothing).
  @inline(__always)
  var word: Int32? {
    bits & Self.tagMask == Self.wordTag ? Int32(bitPattern: UInt32(truncatingIfNeeded: bits)) : nil
  }
}

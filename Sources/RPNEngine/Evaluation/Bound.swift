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

/// A `Bound` in 12 bytes, as `Binding` and the machine's lookup cache hold it: 8 of bits and 4 of
/// unit. A variable's value is stored as its number's bits and its unit (stack values are always
/// finite); a word, a section's base, and "bound to nothing" in the cache are NaNs no value can
/// be, each with its tag and its number, and no unit. Only this type (and `Value`) reads the bits.
struct PackedBound: Equatable {
  let bits: UInt64
  /// A variable's unit; `none` for anything else.
  let unit: UnitID

  private static let special: UInt64 = 0x7FF0_0000_0000_0000
  private static let tagMask: UInt64 = 0xFFFF_FFFF_0000_0000
  private static let wordTag: UInt64 = 0x7FFC_0000_0000_0000
  private static let sectionBaseTag: UInt64 = 0x7FFD_0000_0000_0000
  private static let unboundTag: UInt64 = 0x7FFE_0000_0000_0000

  /// In the lookup cache: the name is bound nowhere visible.
  static let unbound = PackedBound(bits: unboundTag)

  private init(bits: UInt64) {
    self.bits = bits
    unit = .none
  }

  init(_ bound: Bound) {
    switch bound {
    case .variable(let value):
      bits = value.storedBits
      unit = value.unit
    case .word(let id):
      bits = Self.wordTag | UInt64(UInt32(bitPattern: id))
      unit = .none
    case .sectionBase(let depth):
      bits = Self.sectionBaseTag | UInt64(UInt32(truncatingIfNeeded: depth))
      unit = .none
    }
  }

  /// Mixed into a binding's hash: every bit of what is bound, the unit's included.
  var fingerprint: UInt64 { bits ^ UInt64(unit.index) &* 0x9E37_79B9_7F4A_7C15 }

  /// What is bound; nil for `unbound`.
  @inline(__always)
  var bound: Bound? {
    // A finite value's exponent is never all ones: one test for the common case.
    if bits & Self.special != Self.special { return .variable(Value(storedBits: bits, unit: unit)) }
    let low = UInt32(truncatingIfNeeded: bits)
    switch bits & Self.tagMask {
    case Self.wordTag: return .word(Int32(bitPattern: low))
    case Self.sectionBaseTag: return .sectionBase(Int(low))
    case Self.unboundTag: return nil
    default: return .variable(Value(storedBits: bits, unit: unit))
    }
  }

  /// The word bound, or nil (a variable, a section's base, or nothing).
  @inline(__always)
  var word: Int32? {
    bits & Self.tagMask == Self.wordTag ? Int32(bitPattern: UInt32(truncatingIfNeeded: bits)) : nil
  }
}

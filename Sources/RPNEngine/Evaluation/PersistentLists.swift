// The persistent lists behind every line's state: stack nodes, variable stores, and their hashes.

/// One value of a persistent stack: 24 bytes (a value of 12, its unit's 4 included, and two
/// indices). Nodes live in one flat arena and point down to
/// the node below, so the stack after every line is one index, and lines share everything below
/// what they changed.
///
/// Every node belongs to the line whose evaluation pushed it (the top `LineRecord.pushed` nodes
/// of that line's stack), and every line's stack is built on the stack of the line above it, so
/// the lines below share a line's nodes for as long as they keep its values. That is what lets
/// an edit overwrite a node's value in place (see `Machine.commit(over:pushed:patched:)`).
struct StackNode {
  var value: Value
  var next: Int32
  var depth: Int32
}

/// One store, in a persistent list of stores like the stack's. `mapHash` hashes the whole map of
/// visible variables after this store, so that two lists with the same visible values compare
/// equal by hash even when they got there through different stores.
struct Binding {
  var bound: PackedBound
  var mapHash: UInt64
  var name: Int32
  var next: Int32
}

@inline(__always)
func mix(_ x: UInt64) -> UInt64 {
  var z = x &+ 0x9E37_79B9_7F4A_7C15
  z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
  z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
  return z ^ (z >> 31)
}

@inline(__always)
func bindingHash(name: Int32, bound: PackedBound) -> UInt64 {
  mix(bound.fingerprint ^ mix(UInt64(UInt32(bitPattern: name))))
}

/// A small seeded generator (Vigna's SplitMix64), so that a failing random case can be made again
/// from the seed its failure names.
///
/// The state starts at the seed itself; a test that has always offset its seeds keeps doing so at
/// its call site, so that the seeds it printed before still replay.
package struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` by the remainder (0 for an empty range): cheaper than
  /// `Int.random(in:using:)`, and a different sequence from it.
  package mutating func next(below bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}

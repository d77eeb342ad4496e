import TestSupport
import Testing

@testable import RPNEngine

/// The labels a viewport's hints write as bytes, through the cache of formatted values, are the
/// labels and levels drawn one by one: across displays, depths, values that share the cache's
/// slots, and enough values to make the cache start again.
@Suite struct StackPictureTests {
  @Test func labelsThroughTheCacheAreTheLabels() {
    var random = SplitMix64(seed: 7)
    let displays = [
      DisplaySettings(), DisplaySettings(maxItems: 1), DisplaySettings(precision: 3, maxItems: 30),
      DisplaySettings(notation: .fixed, decimals: 2, grouping: true), DisplaySettings(notation: .engineering),
    ]
    for display in displays {
      var cache = FormattedValues()
      for _ in 0..<3_000 {
        let count = random.next(below: 26)
        let top = (0..<count).map { _ in
          random.next(below: 4) == 0 ? Double(random.next(below: 10)) : Double(random.next()) / 1e9 - 9e9
        }
        let picture = StackPicture(
          depth: count + random.next(below: 3) * random.next(below: 1_000), top: top.map(Value.init(_:)))
        for levels in [1, 20] {
          let bytes = picture.labelAndLevelsUTF8(display: display, maxLevels: levels, cache: &cache)
          let expected = (picture.label(display: display), picture.levels(display: display, maxLevels: levels))
          #expect(String(decoding: bytes.label, as: UTF8.self) == expected.0)
          #expect(String(decoding: bytes.levels, as: UTF8.self) == expected.1)
        }
      }
    }
  }
}

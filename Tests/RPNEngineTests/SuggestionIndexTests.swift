import TestSupport
import Testing

@testable import RPNEngine

/// Suggestions looked at every visible name for every unknown word: 5,000 stores then 5,000
/// unknown words took 13.5 s to open. The names are indexed by their spellings with up to two
/// characters deleted, and only those that share one with the word are compared.
@Suite struct SuggestionIndexTests {
  /// Every name within the distance is a candidate (so suggestions are those of comparing every
  /// name), and few others are.
  @Test func candidatesHoldEveryCloseName() {
    var generator = SplitMix64(seed: 22)
    let alphabet = Array("abcxyz_1é".unicodeScalars)
    func random(_ length: Int) -> [Unicode.Scalar] {
      (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
    }
    let names = (0..<400).map { _ in String(String.UnicodeScalarView(random(1 + Int(generator.next() % 8)))) }
    let index = NameIndex(names.map { VisibleName($0, isWord: false) })
    for _ in 0..<400 {
      let word = random(1 + Int(generator.next() % 8))
      for limit in 1...2 {
        let found = Set(index.candidates(near: word, limit: limit))
        for name in Set(names) where Suggestions.distance(word, Array(name.unicodeScalars), limit: limit) <= limit {
          #expect(found.contains(name), "\(String(String.UnicodeScalarView(word))) → \(name) within \(limit)")
        }
      }
    }
  }

  /// Among 5,000 names `v0` … `v4999`, a word is compared with the names two edits away at most
  /// (some hundred at most), not with all 5,000.
  @Test func candidatesAreFewAmongManyNames() {
    let index = NameIndex((0..<5_000).map { VisibleName("v\($0)", isWord: false) })
    #expect(index.candidates(near: Array("zebra".unicodeScalars), limit: 1).isEmpty)
    let near = index.candidates(near: Array("v1234".unicodeScalars), limit: 1)
    #expect(near.contains("v1234") && near.contains("v123"))
    #expect(near.count <= 200)
  }

  /// A document of many stores and many unknown words gives each word the suggestions it had:
  /// the nearest stored names, the index added to as the stores are evaluated.
  @Test func suggestionsAfterManyStoresAreUnchanged() throws {
    let stores = (0..<2_000).map { "\($0) =rate\($0)" }.joined(separator: "\n")
    let document = try Document(text: stores + "\nclear rat1999 rtae1 zzzz\n3 =rate7x rate7xx")
    let messages = document.diagnostics().map(\.diagnostic.message)
    #expect(
      messages == [
        "unknown word `rat1999`; did you mean `rate1999`, `rate1099`, `rate1199` or `rate1299`?",
        "unknown word `rtae1`; did you mean `rate1`?",
        "unknown word `zzzz`",
        "unknown word `rate7xx`; did you mean `rate7x`, `rate7`, `rate70` or `rate700`?",
      ])
  }
}

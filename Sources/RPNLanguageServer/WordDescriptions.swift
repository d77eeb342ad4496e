// How the server words a defined word: its definition as written, and its effect in a sentence.

import RPNEngine

extension WordInfo {
  /// The definition as written, its tokens separated by one space: `: hyp sq swap sq + sqrt ;`.
  var definitionText: String { body.isEmpty ? ": \(name) ;" : ": \(name) \(body) ;" }
}

extension WordEffect {
  /// The effect as the end of a sentence about the word: `takes 2 values and leaves 1 value`.
  var sentence: String {
    guard let inputs, let outputs else { return "takes and leaves values depending on the stack" }
    return "takes \(Self.values(inputs)) and leaves \(Self.values(outputs))"
  }

  /// `no values`, `1 value`, `2 values`.
  private static func values(_ count: Int) -> String {
    switch count {
    case 0: "no values"
    case 1: "1 value"
    default: "\(count) values"
    }
  }
}

import Foundation
import Testing

@testable import RPNEngine

/// The editor grammars under `EditorConfigs/` spell out the builtins' names, since no editor can
/// ask the table: each list must hold exactly the table's spellings, so that a builtin added to
/// the table and forgotten in a grammar fails here, not in a user's editor.
@Suite struct EditorGrammarTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The table's spellings as a grammar colours them: lettered operators and functions (`dup`,
  /// `pow`), symbols (`+`, `√`, `%ch`) and constants (`pi`, `π`, `e`).
  static let named = Set(
    Builtin.table.filter { !$0.isConstant }.flatMap(\.spellings).filter { !Builtin.isSymbolic($0) })
  static let symbolic = Set(
    Builtin.table.filter { !$0.isConstant }.flatMap(\.spellings).filter { Builtin.isSymbolic($0) })
  static let constants = Set(Builtin.table.filter(\.isConstant).flatMap(\.spellings))

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The first line holding `marker`, from the marker on.
  static func line(_ marker: String, in text: String) -> Substring? {
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if let range = line.range(of: marker) { return line[range.lowerBound...] }
    }
    return nil
  }

  /// The words of the first group `(a|b|…)`, `(?:a|b|…)` or `(?i:a|b|…)` with more than two
  /// branches and no group inside.
  static func alternatives(_ regex: Substring) -> Set<String> {
    for match in regex.matches(of: #/\((?:\?i?:)?([^()]*\|[^()]*)\)/#) {
      let words = match.output.1.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
      if words.count > 2 { return Set(words) }
    }
    return []
  }

  /// The operator symbols a pattern spells out: `**` (escaped), each character of a class that
  /// starts with `-`, and the `%` words whose letters are classes of both cases (`%([cC][hH]|[tT])`
  /// is `%ch` and `%t`).
  static func symbols(_ regex: Substring) -> Set<String> {
    var found = Set<String>()
    if regex.contains(#"\*\*"#) { found.insert("**") }
    if let klass = regex.firstMatch(of: #/\[(-[^\]]*)\]/#) { found.formUnion(klass.output.1.map(String.init)) }
    for group in regex.matches(of: #/%\((?:\?:)?((?:\[\w\w\]|\|)+)\)/#) {
      for alternative in group.output.1.split(separator: "|") {
        let letters = alternative.matches(of: #/\[(\w)\w\]/#).map { $0.output.1.lowercased() }
        found.insert("%" + letters.joined())
      }
    }
    return found
  }

  /// The strings of an Emacs Lisp `(defconst NAME '("a" "b" …)`.
  static func lispStrings(_ name: String, in text: String) -> Set<String> {
    guard let start = text.range(of: "(defconst \(name)"),
      let end = text[start.upperBound...].range(of: ")")
    else { return [] }
    return Set(text[start.upperBound..<end.lowerBound].matches(of: #/"([^"]*)"/#).map { String($0.output.1) })
  }

  /// The constants of a pattern `(?i:pi|e)|π`: the letters, in any case, then π on its own
  /// (ASCII case-insensitivity would not fold it).
  static func caseFreeLettersThenPi(_ regex: Substring) -> Set<String>? {
    regex.firstMatch(of: #/\(\?i:([^()]*)\)\|π/#).map {
      Set($0.output.1.split(separator: "|").map(String.init) + ["π"])
    }
  }

  @Test func tableSetsAreWhatTheGrammarsColour() {
    #expect(Self.named.isSuperset(of: ["dup", "pow", "sqrt", "atan2", "subtotal"]))
    #expect(Self.symbolic.isSuperset(of: ["+", "−", "**", "√", "%ch", "%t"]))
    #expect(Self.constants == ["pi", "π", "e"])
    #expect(Self.named.isDisjoint(with: Self.symbolic))
  }

  @Test func vim() throws {
    let text = try Self.text("EditorConfigs/vim/syntax/rpn.vim")
    #expect(Self.line("syntax match rpnFunction", in: text).map(Self.alternatives) == Self.named)
    #expect(Self.line("syntax match rpnConstant", in: text).map(Self.alternatives) == Self.constants)
    #expect(Self.line("syntax match rpnOperator", in: text).map(Self.symbols) == Self.symbolic)
  }

  @Test func emacs() throws {
    let text = try Self.text("EditorConfigs/emacs/rpn-mode.el")
    #expect(Self.lispStrings("rpn-named-operators", in: text) == Self.named)
    #expect(Self.lispStrings("rpn-symbolic-operators", in: text) == Self.symbolic)
    #expect(Self.lispStrings("rpn-constants", in: text) == Self.constants)
  }

  @Test func kakoune() throws {
    let text = try Self.text("EditorConfigs/kakoune/rpn.kak")
    #expect(Self.line("shared/rpn/code/function regex", in: text).map(Self.alternatives) == Self.named)
    #expect(Self.line("shared/rpn/code/constant regex", in: text).map(Self.alternatives) == Self.constants)
    #expect(Self.line("shared/rpn/code/operator regex", in: text).map(Self.symbols) == Self.symbolic)
  }

  @Test func sublime() throws {
    let text = try Self.text("EditorConfigs/sublime/RPN.sublime-syntax")
    // The builtin variable's value is the line after `builtin: >-`.
    let lines = text.split(separator: "\n")
    let builtin = lines.firstIndex { $0.hasSuffix("builtin: >-") }.map { lines[$0 + 1] }
    #expect(builtin.map(Self.alternatives) == Self.named)
    #expect(Self.line("constant: '", in: text).flatMap(Self.caseFreeLettersThenPi) == Self.constants)
    let operatorRule = lines.firstIndex { $0.contains("scope: keyword.operator.arithmetic.rpn") }.map { lines[$0 - 1] }
    #expect(operatorRule.map(Self.symbols) == Self.symbolic)
  }

  @Test func vsCode() throws {
    let data = try Data(
      contentsOf: Self.root.appendingPathComponent("EditorConfigs/vscode/syntaxes/rpn.tmLanguage.json"))
    let grammar = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let repository = try #require(grammar["repository"] as? [String: Any])
    func match(_ rule: String) -> Substring? {
      ((repository[rule] as? [String: Any])?["match"] as? String).map { $0[...] }
    }
    #expect(match("named-operator").map(Self.alternatives) == Self.named)
    #expect(match("operator").map(Self.symbols) == Self.symbolic)
    #expect(match("constant").flatMap(Self.caseFreeLettersThenPi) == Self.constants)
    // The names a store or a definition may not take: the named builtins and the constants.
    let lettered = Self.constants.subtracting(["π"])
    for rule in ["store-reserved", "definition"] {
      #expect(match(rule).map(Self.alternatives) == Self.named.union(lettered), "\(rule)")
      #expect(match(rule)?.contains(")|π)") == true, "\(rule)")
    }
  }
}

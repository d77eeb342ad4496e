// Settings kept in the tape: `# rpn: key=value …` comments before the first token.

/// Where a line's stack hint goes (setting `inlayHints.position`, `# rpn:` key `hints`).
package enum HintPosition: String, Sendable, CaseIterable {
  /// Right after the line's last token, before any trailing comment.
  case afterTokens
  /// At the end of the line, after any trailing comment: comments aligned in a column stay so.
  case endOfLine
}

/// The settings a document's `# rpn:` lines set, each nil when no line sets it. They override the
/// editor's settings; the command line's flags override them.
package struct DocumentSettings: Equatable, Sendable {
  package var notation: Notation?
  package var decimals: Int?
  package var grouping: Bool?
  package var precision: Int?
  package var angleMode: AngleMode?
  package var maxItems: Int?
  /// Where stack hints go; only the server reads it (the command line aligns stacks in a column).
  package var hints: HintPosition?

  package init() {}

  /// The keys, as written in a `# rpn:` line.
  package static let keys = ["notation", "decimals", "grouping", "precision", "angleUnit", "maxItems", "hints"]

  /// The values `maxItems` takes, wherever it is set: a label of more values than that is no
  /// longer read at a glance, and a hover or hint that shows a huge stack costs time for nothing.
  package static let maxItemsRange = 1...1000

  /// What each key takes, in words (for messages, hover and completion).
  package static func allowed(_ key: String) -> String {
    switch key {
    case "notation": "auto, fixed, scientific or engineering"
    case "decimals": "a whole number from 0 to 15"
    case "grouping": "true or false"
    case "precision": "a whole number from 1 to 17"
    case "angleUnit": "radians or degrees"
    case "hints": "afterTokens or endOfLine"
    default: "a whole number from 1 to 1000"
    }
  }

  /// The values a key takes that completion offers: every one for the named choices, the
  /// defaults' neighbours for numbers.
  package static func values(_ key: String) -> [String] {
    switch key {
    case "notation": Notation.allCases.map(\.rawValue)
    case "grouping": ["true", "false"]
    case "angleUnit": ["radians", "degrees"]
    case "hints": HintPosition.allCases.map(\.rawValue)
    case "decimals": (0...15).map(String.init)
    case "precision": (1...17).map(String.init)
    default: ["4", "8", "12", "16"]
    }
  }

  /// The canonical spelling of a key written in any case; nil when it is none of the keys.
  package static func key(_ written: some StringProtocol) -> String? {
    keys.first { $0.lowercased() == written.lowercased() }
  }

  /// What each key does, for hover.
  package static func meaning(_ key: String) -> String {
    switch key {
    case "notation":
      "how numbers are written: auto (%g, `precision` digits), fixed (`decimals` after the point), "
        + "scientific, or engineering (exponents in threes)"
    case "decimals": "digits after the point in fixed and scientific notation (default 2)"
    case "grouping": "commas between thousands in auto and fixed notation (default false)"
    case "precision": "significant digits in auto notation (default 15)"
    case "angleUnit": "the unit of angles for trigonometry (default radians)"
    case "hints":
      "where each line's stack hint goes: afterTokens (right after the last token) or endOfLine (after the "
        + "line's comment, so that aligned comments stay aligned; default afterTokens)"
    default: "how many values a stack label shows before it starts with … (default 8)"
    }
  }

  /// The evaluation settings with this document's overrides.
  package func applied(to settings: EvaluationSettings) -> EvaluationSettings {
    var result = settings
    if let angleMode { result.angleMode = angleMode }
    return result
  }

  /// The display settings with this document's overrides.
  package func applied(to display: DisplaySettings) -> DisplaySettings {
    DisplaySettings(
      precision: precision ?? display.precision, maxItems: maxItems ?? display.maxItems,
      notation: notation ?? display.notation, decimals: decimals ?? display.decimals,
      grouping: grouping ?? display.grouping)
  }

  /// Sets one key from its text; the problem when the key or the value is wrong.
  mutating func set(_ key: String, _ value: String) -> SettingProblem? {
    guard let canonical = Self.key(key) else { return .unknownKey }
    let lowered = value.lowercased()
    switch canonical {
    case "notation":
      guard let notation = Notation(rawValue: lowered) else { return .badValue(key: canonical) }
      self.notation = notation
    case "decimals":
      guard let number = Int(value), (0...15).contains(number) else { return .badValue(key: canonical) }
      decimals = number
    case "grouping":
      guard lowered == "true" || lowered == "false" else { return .badValue(key: canonical) }
      grouping = lowered == "true"
    case "precision":
      guard let number = Int(value), (1...17).contains(number) else { return .badValue(key: canonical) }
      precision = number
    case "angleUnit":
      guard let unit = AngleMode(rawValue: lowered) else { return .badValue(key: canonical) }
      angleMode = unit
    case "hints":
      // Read in any case, like the other named values.
      guard let position = HintPosition.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else {
        return .badValue(key: canonical)
      }
      hints = position
    default:
      guard let number = Int(value), Self.maxItemsRange.contains(number) else { return .badValue(key: canonical) }
      maxItems = number
    }
    return nil
  }
}

/// Why a `key=value` of a `# rpn:` line does not apply.
package enum SettingProblem: Equatable, Sendable {
  /// No `=`, or nothing before it.
  case notAPair
  case unknownKey
  /// The key's canonical spelling; the value is out of range or not one it takes.
  case badValue(key: String)
}

/// A `# rpn:` line's pairs: each `key=value` with its range of UTF-8 offsets in the line.
package struct SettingsLine: Equatable, Sendable {
  package struct Pair: Equatable, Sendable {
    package var text: String
    package var range: Range<Int>

    /// What stands before the first `=` (all of it when there is none).
    package var key: Substring { text.prefix { $0 != "=" } }
    /// Where the value starts: after the first `=`; nil when there is none.
    package var valueStart: Int? {
      text.utf8.firstIndex(of: UInt8(ascii: "=")).map {
        range.lowerBound + text.utf8.distance(from: text.utf8.startIndex, to: $0) + 1
      }
    }
  }

  /// Where `rpn:` ends: the pairs follow.
  package var prefixEnd: Int
  package var pairs: [Pair]

  /// The settings line in a comment-only line's bytes, or nil when the line is no `# rpn:` line.
  package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SettingsLine? {
    // White space is what the lexer skips (any Unicode White_Space): a line it reads as a
    // comment-only `# rpn:` line sets what it shows, and formatting, which only moves white
    // space, cannot turn a plain comment into settings or back.
    let space = { (i: Int) in Lexer.whitespaceLength(bytes, at: i) }
    var i = Lexer.byteOrderMarkLength(bytes)
    while i < bytes.count, case let n = space(i), n > 0 { i += n }
    guard i < bytes.count, bytes[i] == 0x23 else { return nil }  // "#"
    i += 1
    while i < bytes.count, case let n = space(i), n > 0 { i += n }
    let prefix: [UInt8] = Array("rpn:".utf8)
    guard i + prefix.count <= bytes.count,
      zip(bytes[i..<i + prefix.count], prefix).allSatisfy({ ($0 | 0x20) == $1 || $0 == $1 })
    else { return nil }
    i += prefix.count
    var line = SettingsLine(prefixEnd: i, pairs: [])
    while i < bytes.count {
      while i < bytes.count, case let n = space(i), n > 0 { i += n }
      let start = i
      while i < bytes.count, space(i) == 0 { i += Lexer.decode(bytes, at: i).length }
      if i > start {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        line.pairs.append(Pair(text: text, range: start..<i))
      }
    }
    return line
  }
}

extension Document {
  /// The `# rpn:` comment of a line, if it has one, its ranges in the line's UTF-8 offsets, and
  /// whether it sets anything: only comment-only lines above the first token do; any other is
  /// a plain comment.
  package func settingsComment(inLine line: Int) -> (comment: SettingsLine, applies: Bool)? {
    guard line >= 0, line < lineCount else { return nil }
    return withUTF8(ofLine: line) { bytes -> (comment: SettingsLine, applies: Bool)? in
      let lexed = LexedLine(bytes)
      guard let start = lexed.commentStart,
        var comment = SettingsLine.parse(UnsafeBufferPointer(rebasing: bytes[start...]))
      else { return nil }
      comment.prefixEnd += start
      for k in comment.pairs.indices {
        comment.pairs[k].range = comment.pairs[k].range.lowerBound + start..<comment.pairs[k].range.upperBound + start
      }
      return (comment, lexed.tokens.isEmpty && line < settingsRegionEnd)
    }
  }

  /// The `# rpn:` lines before the first token, top to bottom, with each line's settings
  /// (later pairs win) and a diagnostic for each pair that does not apply.
  func readDocumentSettings() -> (
    settings: DocumentSettings, diagnostics: [(line: Int, diagnostic: Diagnostic)], firstTokenLine: Int
  ) {
    var settings = DocumentSettings()
    var diagnostics: [(line: Int, diagnostic: Diagnostic)] = []
    var firstTokenLine = lines.count
    for line in lines.indices {
      let found = withUTF8(ofLine: line) { bytes -> (tokens: Bool, line: SettingsLine?) in
        let lexed = LexedLine(bytes)
        guard lexed.tokens.isEmpty else { return (true, nil) }
        return (false, lexed.commentStart == nil ? nil : SettingsLine.parse(bytes))
      }
      if found.tokens {
        firstTokenLine = line
        break
      }
      guard let settingsLine = found.line else { continue }
      for pair in settingsLine.pairs {
        let parts = pair.text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let problem: SettingProblem?
        if parts.count == 2, !parts[0].isEmpty {
          problem = settings.set(String(parts[0]), String(parts[1]))
        } else {
          problem = .notAPair
        }
        if let problem {
          diagnostics.append(
            (line, Diagnostic(range: pair.range, problem: .invalidSetting(pair: pair.text, problem: problem))))
        }
      }
    }
    return (settings, diagnostics, firstTokenLine)
  }

  /// Reads the `# rpn:` lines again; true when what evaluation computes changed with them (their
  /// `angleUnit`). Display settings need no evaluation: they are read when values are shown.
  @discardableResult
  func refreshDocumentSettings() -> Bool {
    let read = readDocumentSettings()
    settingsDiagnostics = read.diagnostics
    settingsRegionEnd = read.firstTokenLine
    guard read.settings != documentSettings else { return false }
    documentSettings = read.settings
    let effective = overridingSettings.applied(to: read.settings.applied(to: editorSettings))
    guard effective != settings else { return false }
    settings = effective
    return true
  }

  /// How this document's values are shown: `editor` (the editor's display settings) under the
  /// document's `# rpn:` lines, under the overriding settings.
  package func display(over editor: DisplaySettings) -> DisplaySettings {
    overridingSettings.applied(to: documentSettings.applied(to: editor))
  }
}

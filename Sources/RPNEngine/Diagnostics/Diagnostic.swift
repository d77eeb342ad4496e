// Diagnostics: codes, severities, the problems found at tokens and their messages, suggestions.

/// A problem found at one token: the token's range of UTF-8 offsets within its line, and what
/// went wrong. The code, severity and message all follow from the problem.
package struct Diagnostic: Equatable, Sendable {
  package var range: Range<Int>
  package var problem: Problem
  /// How many uses after this one on its line failed with the same problem: they are counted
  /// here, not listed (a line of 1,000 uses past the line's budget is one diagnostic, not 1,000).
  package var repeats: Int

  package init(range: Range<Int>, problem: Problem, repeats: Int = 0) {
    self.range = range
    self.problem = problem
    self.repeats = repeats
  }

  package var code: DiagnosticCode { problem.code }
  package var severity: Severity { code.severity }
  package var message: String { message(display: DisplaySettings()) }

  /// The message with its values shown in `display`.
  package func message(display: DisplaySettings) -> String {
    let message = problem.message(display: display)
    switch repeats {
    case 0: return message
    case 1: return message + "; 1 more use after it on this line fails the same way"
    default: return message + "; \(repeats) more uses after it on this line fail the same way"
    }
  }
}

/// Errors mean the text is not valid RPN; warnings mean valid RPN whose evaluation fails there;
/// information marks valid RPN that is likely not what was meant (an infix habit).
package enum Severity: String, Sendable {
  case error
  case warning
  case information = "info"
}

/// The diagnostic codes, spelled as users see them (`stack-underflow`).
package enum DiagnosticCode: String, CaseIterable, Sendable {
  case stackUnderflow = "stack-underflow"
  case divisionByZero = "division-by-zero"
  case domainError = "domain-error"
  case overflow = "overflow"
  case unknownWord = "unknown-word"
  case invalidNumber = "invalid-number"
  case invalidName = "invalid-name"
  case checkFailed = "check-failed"
  case invalidDefinition = "invalid-definition"
  case unterminatedDefinition = "unterminated-definition"
  case tooComplex = "too-complex"
  case invalidSetting = "invalid-setting"
  case infix = "infix"
  case unknownUnit = "unknown-unit"
  case invalidUnit = "invalid-unit"
  case unitMismatch = "unit-mismatch"
  case noRate = "no-rate"

  package var severity: Severity {
    switch self {
    case .infix: .information
    case .stackUnderflow, .divisionByZero, .domainError, .overflow, .checkFailed, .invalidSetting, .unitMismatch,
      .noRate:
      .warning
    case .unknownWord, .invalidNumber, .invalidName, .invalidDefinition, .unterminatedDefinition, .tooComplex,
      .unknownUnit, .invalidUnit:
      .error
    }
  }
}

/// Which computation divided by zero: each says so in its own words.
package enum ZeroDivision: Equatable, Sendable {
  /// `/`: a by zero.
  case division
  /// `mod`: a modulo zero.
  case modulo
  /// `^`: zero to a negative power.
  case power
  /// `1/x` of zero.
  case inverse
  /// A percent of zero (`%ch`, `%t`), whose operands are not named: they would read as a power's.
  case percentOfZero
}

/// What went wrong at a token, with what a message needs to say.
package indirect enum Problem: Equatable, Sendable {
  /// `word` needs `needs` values and the stack had `has`.
  case stackUnderflow(word: String, needs: Int, has: Int)
  /// `by` says which division it was, for the message; `operands` are named when they help.
  case divisionByZero(word: String, operands: [Value], by: ZeroDivision)
  /// The result was NaN, or the operand is outside the operation's domain.
  case domainError(word: String, operands: [Value], requirement: String?)
  /// The result was infinite.
  case overflow(word: String, operands: [Value])
  /// `storedLaterOnLine` (0-based) is filled in by the document, which alone sees lines below.
  /// `suggestions` best first.
  case unknownWord(word: String, suggestions: [Suggestion], storedLaterOnLine: Int?)
  case invalidNumber(literal: String, problem: NumberProblem)
  case invalidName(token: String, reason: InvalidName)
  /// A check `=written` whose value is not the top's to the `decimals` places it was written to.
  case checkFailed(written: String, top: Value, decimals: Int, unitFits: Bool)
  /// The token after `:` cannot name a word (`token` is `:` itself when the name is missing).
  case invalidWordName(token: String, reason: InvalidName)
  /// A `key=value` of a `# rpn:` line that does not apply.
  case invalidSetting(pair: String, problem: SettingProblem)
  /// `subtotal` with no value above its section's base.
  case nothingInSection(word: String)
  /// `lastx` before any operator consumed a value.
  case noLastX(word: String)
  /// A token a definition cannot hold where it stands (or a `;` that ends nothing).
  case invalidDefinition(token: String, reason: DefinitionError)
  /// A `:` whose line has no `;` after it; `name` is the word it would have defined.
  case unterminatedDefinition(name: String?)
  /// A definition whose expansion is `expansion` steps (or more), past `limit`.
  case tooComplex(word: String, expansion: Int, limit: Int)
  /// A body naming the word being defined, which is not bound yet.
  case selfReference(word: String)
  /// A use of a word defined further down, on `line` (0-based; filled in when read).
  case definedLater(word: String, line: Int)
  /// A use of a name whose only definition above, on `line` (0-based), is broken.
  case brokenDefinition(word: String, line: Int)
  /// A use of `word` would make the stack deeper than `limit` values.
  case stackTooDeep(word: String, limit: Int)
  /// A use of `word` (or a `pick`, `roll`, `sum`…) would pass its line's budget: `limit` steps
  /// of work, or, when `values`, `limit` values pushed through words and `roll`.
  case overBudget(word: String, limit: Int, values: Bool)
  /// A use of `word` failed inside: `inner` happened in the body of `path.last` (the word used,
  /// then the words it called down to the failing step), defined on `line` (0-based, filled in
  /// when read; nil until then). The stack is as it was before the use.
  case wordFailed(word: String, path: [String], line: Int?, inner: Problem)
  /// A line that reads `NUMBER OPERATOR NUMBER` (`3 + 4`): an infix habit. `reading` is the line
  /// in RPN (`3 4 +`), `span` the UTF-8 range of its three tokens. `inner` is what went wrong at
  /// the operator, if anything (`+` with one value on the stack); nil when it ran.
  case infix(reading: String, span: Range<Int>, inner: Problem?)
  /// `=` alone, followed by a number (`= 7`): a check written with a space. `span` covers both
  /// tokens, `check` is the check meant (`=7`).
  case spacedCheck(check: String, span: Range<Int>)
  /// A unit name that is no unit: the token, the name, and the units it may have meant.
  case unknownUnit(token: String, name: String, suggestions: [String])
  /// A unit written wrongly: the token, why, and the part at fault.
  case invalidUnit(token: String, error: UnitSyntaxError, part: String)
  /// An operation or conversion whose operands' units do not fit.
  case unitMismatch(word: String, operands: [Value], failure: UnitFailure)

  /// Whether the same problem at later uses on a line is counted on the first diagnostic rather
  /// than listed: uses of a word that fail inside it, and uses past the line's budget or the
  /// stack's limit, which repeat by the thousand on a line of uses.
  var foldsRepeats: Bool {
    switch self {
    case .wordFailed, .overBudget, .stackTooDeep: true
    default: false
    }
  }

  package var code: DiagnosticCode {
    switch self {
    case .stackUnderflow: .stackUnderflow
    case .divisionByZero: .divisionByZero
    case .domainError: .domainError
    case .overflow: .overflow
    case .unknownWord: .unknownWord
    case .invalidNumber: .invalidNumber
    case .invalidName: .invalidName
    case .checkFailed: .checkFailed
    case .invalidWordName: .invalidName
    case .invalidSetting: .invalidSetting
    case .noLastX, .nothingInSection: .stackUnderflow
    case .invalidDefinition: .invalidDefinition
    case .unterminatedDefinition: .unterminatedDefinition
    case .tooComplex, .stackTooDeep, .overBudget: .tooComplex
    case .selfReference, .definedLater, .brokenDefinition: .unknownWord
    case .wordFailed(_, _, _, let inner): inner.code
    case .infix(_, _, let inner): inner?.code ?? .infix
    case .spacedCheck: .invalidName
    case .unknownUnit: .unknownUnit
    case .invalidUnit: .invalidUnit
    case .unitMismatch(_, _, .noRate): .noRate
    case .unitMismatch: .unitMismatch
    }
  }

  /// Why a time or angle written with `:` is not one, and how to write it (`1:75` is `2:15`).
  private static func sexagesimalMessage(shown: String, literal: String, _ problem: SexagesimalProblem) -> String {
    let (why, example): (String, String) =
      switch problem {
      case .fieldPast59: ("minutes and seconds go from 00 to 59", "`1:59`")
      case .notTwoDigits: ("each field after `:` has two digits", "`1:05`")
      case .missingField: ("each `:` is followed by two digits", "`1:00`")
      case .missingFirstField: ("the hours (or minutes, or degrees) come before the first `:`", "`0:30`")
      case .doubleColon: ("fields are separated by one `:`", "`1:30` or `1:00:30`")
      case .fractionNotLast: ("only the last field may have a fraction", "`1:30.5`")
      case .tooManyFields: ("a time or angle has at most three fields", "`1:30:15`")
      case .threeFieldsInMinutes:
        ("minutes take two fields, as in `4:35_min`; hours, minutes and seconds are written", "`1:30:15`")
      case .unitNotTimeOrAngle:
        ("a time or angle written with `:` is in hours, minutes or degrees", "`1:30`, `4:35_min` or `48:46:32_°`")
      case .malformed: ("write digits, then `:` and two digits for each further field", "`1:30` or `1:30:15`")
      }
    if let meant = Problem.invalidNumber(literal: literal, problem: .sexagesimal(problem)).sexagesimalReplacement {
      return "`\(shown)` is not a time or angle: \(why); did you mean `\(meant)`?"
    }
    return "`\(shown)` is not a time or angle: \(why), like \(example)"
  }

  /// A sentence that names the thing and says what would fix it, values in the default display.
  package var message: String { message(display: DisplaySettings()) }

  /// A sentence that names the thing and says what would fix it, values shown in `display`. Text
  /// from the tape in it has its control characters escaped (`\x1b`).
  package func message(display: DisplaySettings) -> String {
    ControlCharacters.escaped(unescapedMessage(display: display))
  }

  private func unescapedMessage(display: DisplaySettings) -> String {
    // A value that the display rounds to zero is shown in full: "`ln` of 0" would blame the
    // wrong value.
    let show = { (value: Value, display: DisplaySettings) -> String in
      let text = ValueFormat.format(value, display: display)
      guard !value.isZero, text.utf8.allSatisfy({ $0 == 0x30 || $0 == 0x2E || $0 == 0x2C }) else { return text }
      return ValueFormat.format(value, precision: display.precision)
    }
    let showValue = { (value: Value) in show(value, display) }
    switch self {
    case .stackUnderflow(let word, let needs, let has):
      let values = needs == 1 ? "1 value" : "\(needs) values"
      let held = has == 0 ? "the stack is empty" : "the stack holds only \(has)"
      return "`\(word)` needs \(values) but \(held)"
    case .divisionByZero(let word, let operands, let division):
      switch (division, operands.count) {
      case (.inverse, 1): return "`\(word)` of 0 divides by zero"
      case (.modulo, 2): return "`\(showValue(operands[0])) \(showValue(operands[1])) \(word)`: modulo by zero"
      case (.power, 2): return "`\(word)`: 0 to a negative power (\(showValue(operands[1]))) divides by zero"
      default: return "`\(word)` divides by zero"
      }
    case .domainError(let word, let operands, let requirement):
      if operands.isEmpty { return "`\(word)` has no real result" }
      let of = operands.map(showValue).joined(separator: " and ")
      if let requirement { return "`\(word)` of \(of) is undefined: \(requirement)" }
      return "`\(word)` of \(of) is not a real number"
    case .overflow(let word, let operands):
      let of = operands.isEmpty ? "" : " of " + operands.map(showValue).joined(separator: " and ")
      return "`\(word)`\(of) overflows: the result is beyond ±1.7976931348623157e+308, the largest double"
    case .unknownWord(let word, let suggestions, let storedLaterOnLine):
      var message = "unknown word `\(Self.shorten(word))`"
      if let line = storedLaterOnLine {
        message +=
          ": `\(Self.shorten(word))` is stored later, on line \(line + 1); a variable can be used only below its store"
      } else if !suggestions.isEmpty {
        let quoted = suggestions.map { "`\($0.replacement)`" }
        let listed =
          quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
        message += "; did you mean \(listed)?"
      }
      return message
    case .invalidNumber(let literal, let problem):
      let shown = Self.shorten(literal)
      switch problem {
      case .outOfRange:
        return "number `\(shown)` is out of the range of a double (±1.7976931348623157e+308)"
      case .misplacedComma:
        let body = literal.hasPrefix("=") ? String(literal.dropFirst()) : literal
        let readings = NumberLiteral.readings(ofMisplacedComma: body).map { "`\($0)`" }
        let meant = readings.isEmpty ? "" : "; did you mean \(readings.joined(separator: " or "))?"
        return "`\(shown)` is not a number: a comma only separates groups of three digits, as in `1,234,567.89`"
          + meant
      case .noDigits(let radix):
        return "`\(shown)` needs \(Self.radixName(radix)) digits after its prefix, like `\(Self.radixExample(radix))`"
      case .badDigit(let radix, let digit):
        return "`\(shown)`: `\(digit)` is not \(Self.radixName(radix, article: true)) digit "
          + "(\(Self.radixDigits(radix)))"
      case .misplacedUnderscore:
        return "`\(shown)`: `_` may only stand between two digits, like `0xFF_FF`"
      case .beyondExactIntegers:
        return "`\(shown)` is beyond 2^53 (9007199254740992), past which integers are not exact in a double"
      case .sexagesimal(let problem):
        return Self.sexagesimalMessage(shown: shown, literal: literal, problem)
      }
    case .checkFailed(let written, let top, _, false):
      // A unit that does not fit the top's (or one on one side only): no rounding to speak of.
      return "expected \(Self.shorten(written)), the top is \(show(top, display)), \(top.unit.dimension.inWords), "
        + "which this check cannot compare; to check it, write `=\(show(top, display))`"
    case .checkFailed(let written, let top, _, true) where top.unit.isFormatted:
      // A check in fields of sixty compares to its last field: `=2:15` to the minute.
      guard let check = CheckLiteral("=" + written) else {
        return "expected \(Self.shorten(written)), the top is \(show(top, display))"
      }
      return "expected \(Self.shorten(written)), the top is \(check.rounded(top)) \(check.places)"
    case .checkFailed(let written, let top, let decimals, true):
      // One style in the message: the check's own grouping (`1,400.21`), not the display's.
      let separator = CheckLiteral.separator(in: written)
      var plain = display
      plain.grouping = false
      let shownTop = CheckLiteral.grouped(show(top, plain), by: separator)
      let rounded = CheckLiteral.grouped(CheckLiteral.rounded(top, decimals: decimals), by: separator)
      return "expected \(Self.shorten(written)), the top is \(shownTop) "
        + "(\(rounded) \(CheckLiteral.places(decimals)))"
    case .invalidName(let token, let reason):
      switch reason {
      case .missing:
        return "`=` needs a name after it, like `=total`"
      case .malformed, .underscore:
        return reason.explanation(for: Self.shorten(token))
      case .reserved(let builtin):
        let kind = Builtin.table[Int(builtin)].kind.withArticle
        return "`\(token)` cannot store into `\(token.dropFirst())`: that is \(kind); choose another name"
      }
    case .invalidWordName(let token, let reason):
      switch reason {
      case .missing:
        return "`:` needs a name after it, like `: hyp sq swap sq + sqrt ;`"
      case .malformed, .underscore:
        return "a word cannot be named this way: " + reason.explanation(for: Self.shorten(token))
      case .reserved(let builtin):
        let kind = Builtin.table[Int(builtin)].kind.withArticle
        return "`\(token)` cannot be defined: that is \(kind); choose another name"
      }
    case .invalidSetting(let pair, let problem):
      let shown = Self.shorten(pair)
      switch problem {
      case .notAPair:
        return "`\(shown)` is not a setting: write `key=value`, like `decimals=2`"
      case .unknownKey:
        let key = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? pair
        return "unknown setting `\(Self.shorten(key))`: the settings are "
          + DocumentSettings.keys.map { "`\($0)`" }.joined(separator: ", ")
      case .badValue(let key):
        return "`\(shown)`: \(key) takes \(DocumentSettings.allowed(key))"
      }
    case .nothingInSection(let word):
      return "`\(word)` has nothing to add: nothing was pushed in this section (since its heading)"
    case .noLastX(let word):
      return "`\(word)` has nothing to recall yet: no operator or function above it has consumed a value"
    case .invalidDefinition(let token, let reason):
      return reason.message(for: Self.shorten(token))
    case .unterminatedDefinition(let name):
      let what = name.map { "the definition of `\(Self.shorten($0))`" } ?? "this definition"
      return "\(what) has no `;`: a definition ends with `;` on the same line, like `: hyp sq swap sq + sqrt ;`"
    case .tooComplex(let word, let expansion, let limit):
      let size = expansion > limit ? "more than \(limit) steps" : "\(expansion) steps"
      return "`\(Self.shorten(word))` is too complex: a use would run \(size) (its words expanded), "
        + "and a word may run at most \(limit); split the work over several lines"
    case .stackTooDeep(let word, let limit):
      return "`\(Self.shorten(word))` would make the stack deeper than \(limit) values, the most that uses of words "
        + "may build; the stack is as it was before it"
    case .overBudget(let word, let limit, let values):
      if values {
        return "`\(Self.shorten(word))` would push more than \(limit) values on this line, the most it may push "
          + "through words and `roll` (4 per byte of its text, and what the lines above left unused, up to 65536); "
          + "the stack is as it was before it"
      }
      return "`\(Self.shorten(word))` would run more than \(limit) steps on this line, the most it may run (16 "
        + "per byte of its text, what the lines above left unused, up to 1048576, and one read of the stack it "
        + "starts with; each value `pick`, `roll`, `sum`, `avg` or `sdev` reads counts as 4 steps); the stack is as "
        + "it was before it. Split the work over several lines"
    case .selfReference(let word):
      return "`\(Self.shorten(word))` cannot use itself: a body can use only names bound above its definition"
    case .definedLater(let word, let line):
      return "unknown word `\(Self.shorten(word))`: `\(Self.shorten(word))` is defined later, on line \(line + 1); "
        + "a word can be used only below its definition"
    case .brokenDefinition(let word, let line):
      return "`\(Self.shorten(word))` is not defined: its definition on line \(line + 1) has an error, so it defined "
        + "nothing"
    case .infix(let reading, _, let inner):
      let rpn = "in RPN the operands come first: `\(Self.shorten(reading))`"
      guard let inner else { return "this line reads as infix; \(rpn)" }
      return "\(inner.unescapedMessage(display: display)); \(rpn)"
    case .spacedCheck(let check, _):
      return "`=` needs a name after it; a check is written without a space, like `\(Self.shorten(check))`"
    case .unknownUnit(let token, let name, let suggestions):
      var message = "unknown unit `\(Self.shorten(name))`"
      if token != name { message += " in `\(Self.shorten(token))`" }
      if !suggestions.isEmpty {
        let quoted = suggestions.map { "`\($0)`" }
        let listed =
          quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
        message += "; did you mean \(listed)?"
      }
      return message
    case .invalidUnit(let token, let error, let part):
      return "`\(Self.shorten(token))`: " + error.explanation(part: Self.shorten(part), token: token)
    case .unitMismatch(let word, let operands, let failure):
      return failure.message(word: Self.shorten(word), operands: operands, show: showValue)
    case .wordFailed(let word, let path, let line, let inner):
      var place = path.count > 1 ? "in `\(path[path.count - 1])`" : "in its definition"
      if let line { place += " (line \(line + 1))" }
      return
        "`\(Self.shorten(word))` failed: \(place), \(inner.unescapedMessage(display: display)); the stack is as it was before "
        + "`\(Self.shorten(word))`"
    }
  }

  private static func radixName(_ radix: Int, article: Bool = false) -> String {
    let name = radix == 16 ? "hexadecimal" : radix == 8 ? "octal" : "binary"
    return article ? (radix == 8 ? "an " : "a ") + name : name
  }

  private static func radixExample(_ radix: Int) -> String { radix == 16 ? "0x1F" : radix == 8 ? "0o17" : "0b1010" }

  private static func radixDigits(_ radix: Int) -> String {
    radix == 16 ? "0-9 and A-F" : radix == 8 ? "0-7" : "0 or 1"
  }

  /// A token as quoted in a message: past 64 characters, its start and an ellipsis.
  private static func shorten(_ text: String) -> String {
    text.count <= 64 ? text : String(text.prefix(60)) + "…"
  }
}

/// A correction for an unknown word.
package enum Suggestion: Equatable, Sendable {
  /// A close operator, constant, visible variable or word (edit distance ≤ 2).
  case word(String)
  /// The token as two valid tokens: `4+` → `4 +`, or operand first, `ln2` → `2 ln`.
  case split([String])

  /// The text that would replace the unknown word.
  package var replacement: String {
    switch self {
    case .word(let word): word
    case .split(let parts): parts.joined(separator: " ")
    }
  }
}

/// Why a token cannot stand where it is in a definition.
package enum DefinitionError: Equatable, Sendable {
  /// `;` with no `:` before it on the line.
  case endWithoutStart
  /// A store `=name` in a body.
  case store
  /// A check `=20.5` in a body.
  case check
  /// A second `:` before the first definition's `;`.
  case nestedStart
  /// `subtotal` in a body: a section's base belongs to the tape, not to a word.
  case subtotal
  /// A unit's definition (`: _EUR 1.08_USD ;`) that defines nothing, and why.
  case unit(UnitDefinitionError)

  func message(for token: String) -> String {
    switch self {
    case .endWithoutStart:
      return "`;` ends a definition, but no `:` starts one before it on this line"
    case .store:
      return "`\(token)`: a definition cannot store; store before or after it, on its own"
    case .check:
      return "`\(token)`: a definition cannot hold a check; check the result after a use"
    case .nestedStart:
      return "`:` inside a definition: definitions cannot nest; end the first one with `;`"
    case .subtotal:
      return "`\(token)` cannot be in a definition: it adds up the current section, which belongs to the tape"
    case .unit(let error): return error.message(for: token)
    }
  }
}

extension InvalidName {
  /// Why `name` cannot be a variable's name, as a sentence: shared by the `invalid-name`
  /// diagnostic and by rename's refusals, so both say it the same way.
  package func explanation(for name: String) -> String {
    switch self {
    case .missing:
      return "a name is needed, like `total`"
    case .malformed:
      return "`\(name)` is not a valid name: a name starts with a letter, followed by letters, digits 0-9 or `_`"
    case .underscore:
      return "`\(name)` is not a valid name: `_` now starts a unit (`12 _km`), and a name starts with a letter; "
        + "rename it `\(name.drop { $0 == "=" || $0 == "_" })_`"
    case .reserved(let builtin):
      return "`\(name)` is \(Builtin.table[Int(builtin)].kind.withArticle)"
    }
  }
}

/// Why a unit's definition (`: _name body… ;`) defines nothing: its body must compute one
/// quantity, from literals and names above, in other units than the one defined.
package enum UnitDefinitionError: Equatable, Sendable {
  /// `: _km 1000_m ;`: a built-in unit of measure keeps its meaning.
  case builtIn
  /// The body leaves a plain number (`: _dozen 12 ;`).
  case plainNumber(Value)
  /// The body leaves no value or several, or needs values from the stack.
  case values(leaves: Int, needs: Int)
  /// The body reads the whole stack (`sum`, `depth`), which a definition starts empty.
  case readsStack
  /// The body's quantity is 0, negative or not finite: no rate.
  case notPositive(Value)
  /// The unit would be defined through itself, directly or by a chain of definitions above.
  case cycle(through: [String])
  /// The body failed as it ran (`: _EUR 1_USD 0 / ;`).
  case failed(String)
  /// The name reads as a prefix on a built-in unit that takes none (`: _kd 2_m ;`).
  case prefixed
  /// The session keeps as many units of tapes' own as it can (`TapeUnits.capacity`).
  case noRoom

  func message(for token: String) -> String {
    let unit = token.hasPrefix("_") ? String(token.dropFirst()) : token
    switch self {
    case .builtIn:
      return "`\(unit)` is a built-in unit and keeps its meaning; give a unit of your own another name"
    case .plainNumber(let value):
      return "the body of `\(token)` leaves the plain number \(ValueFormat.format(value)); a unit is defined as a "
        + "quantity, like `: _\(unit) 1.08_USD ;`, or with an empty body as a new dimension, `: _\(unit) ;`"
    case .values(let leaves, let needs):
      if needs > 0 {
        return
          "the body of `\(token)` needs \(needs) value\(needs == 1 ? "" : "s") from the stack; a unit's definition "
          + "starts from an empty stack and leaves one quantity, like `: _\(unit) 1.08_USD ;`"
      }
      return "the body of `\(token)` leaves \(leaves) values; a unit's definition leaves exactly one quantity, like "
        + "`: _\(unit) 1.08_USD ;` (or nothing at all, for a new dimension: `: _\(unit) ;`)"
    case .readsStack:
      return "the body of `\(token)` reads the whole stack, which a unit's definition starts empty"
    case .notPositive(let value):
      return "`\(token)` would be \(ValueFormat.format(value)): a unit is a positive, finite quantity of others"
    case .cycle(let through):
      return "`\(token)` would be defined through itself (" + (through + [unit]).joined(separator: " → ")
        + "); define it in a unit that does not lead back to it"
    case .failed(let reason):
      return "the body of `\(token)` fails: \(reason)"
    case .prefixed:
      return "`\(unit)` reads as a prefix on a built-in unit; give a unit of your own a name the unit table "
        + "does not read"
    case .noRoom:
      let count = ValueFormat.format(.count(Units.tapeUnitCapacity), display: DisplaySettings(grouping: true))
      return "`\(unit)` cannot be a unit of your own: this session already keeps \(count) names of units the "
        + "table lacks, the most it can; use one of the units already defined"
    }
  }
}

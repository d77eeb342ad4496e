// The texts that may replace a token a problem is about, whole, for the fixes the server offers.

extension Problem {
  /// The texts that may replace a number written with a comma out of place, the one most likely
  /// meant first: each reading of it (`1,5` → `1.5`, `1 5`), whole. A check (`=1,5`) is one
  /// number, so it gets only the readings that are one (`=1 5` would be a check of 1, then 5
  /// pushed), each with its `=`. Empty for any other problem.
  package var misplacedCommaReplacements: [String] {
    guard case .invalidNumber(let literal, .misplacedComma) = self else { return [] }
    let isCheck = literal.hasPrefix("=")
    let written = isCheck ? String(literal.dropFirst()) : literal
    return NumberLiteral.readings(ofMisplacedComma: written).compactMap { reading in
      if isCheck && reading.contains(" ") { return nil }
      return isCheck ? "=" + reading : reading
    }
  }

  /// The text that may replace a time or angle written wrongly (`1:75` → `2:15`, `1:5` → `1:05`,
  /// `=1:` → `=1:00`), whole, when it has one reading; nil for any other problem.
  package var sexagesimalReplacement: String? {
    guard case .invalidNumber(let literal, .sexagesimal(let problem)) = self else { return nil }
    switch problem {
    case .fieldPast59, .notTwoDigits, .missingField, .missingFirstField, .doubleColon:
      guard let reading = NumberLiteral.sexagesimalReading(of: literal), reading != literal else { return nil }
      return reading
    case .fractionNotLast, .tooManyFields, .threeFieldsInMinutes, .unitNotTimeOrAngle, .malformed:
      return nil
    }
  }
}

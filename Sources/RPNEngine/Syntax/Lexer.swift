// The lexer: tokens of one line, their kinds, the name rules, and where the comment starts.

/// A token of one line: its kind and its exact range of UTF-8 offsets within the line.
package struct Token: Equatable, Sendable {
  package var range: Range<Int>
  package var kind: TokenKind

  package init(range: Range<Int>, kind: TokenKind) {
    self.range = range
    self.kind = kind
  }

  /// The range of the name a store or a use refers to: for a store `=name`, the token without
  /// its `=`; for any other token, the whole token.
  @inline(__always)
  package var nameRange: Range<Int> {
    if case .store = kind { return (range.lowerBound + 1)..<range.upperBound }
    return range
  }

  /// Whether a cursor at a UTF-8 offset is on this token: inside it, or right after its end
  /// (so that the cursor just after a word still means that word). This is the one rule for
  /// "the token at the cursor": hover, completion, definition and rename all use it. Tokens
  /// never touch (white space parts them), so at most one token of a line is at any offset.
  package func isAtCursor(_ offset: Int) -> Bool {
    range.lowerBound <= offset && offset <= range.upperBound
  }
}

/// What a token is, decided from its text alone (the checks in the order the language defines).
package enum TokenKind: Equatable, Sendable {
  /// A number literal in the double range: its value, as the one reader of literals made it.
  case number(Value)
  /// A quantity: a number, `_` and a unit (`12_km`, `9.81_m/s^2`): the value with its unit.
  case quantity(Value)
  /// `_unit` alone (`_km`): gives the top, a plain number, a unit.
  case attach(UnitID)
  /// `>unit`, `->unit` or `→unit` (`>mi`): converts the top to another unit of its dimension.
  case convert(UnitID)
  /// A unit that is unknown or malformed, in a quantity, a check or a unit word (`12_kmh`, `>`,
  /// `12_m/s/s`).
  case invalidUnit(UnitProblem)
  /// A number written wrongly: outside the double range (`1e999`, or a check `=1e999`), a comma
  /// out of place (`1,5`), a bad integer literal (`0b102`).
  case invalidNumber(NumberProblem)
  /// A check: `=` and a number literal in the double range (`=20.5`) or a quantity
  /// (`=12.5_km`), the value written.
  case check(Value)
  /// `=name` with a valid name that is no builtin; the name starts one byte after the token.
  case store
  /// A token starting with `=` whose name is missing, malformed or reserved.
  case invalidStore(InvalidName)
  /// An operator or constant.
  case builtin(Builtin.ID)
  /// A valid name that is no builtin: a variable use.
  case name
  /// `:`, which starts a definition: `: name body… ;`.
  case colon
  /// `;`, which ends a definition.
  case semicolon
  /// Anything else (`4+`, `$`, `1.2.3`).
  case unknown
}

/// Why a `=name` token is not a valid store.
package enum InvalidName: Equatable, Sendable {
  /// `=` alone.
  case missing
  /// The text after `=` is not a name.
  case malformed
  /// The name is an operator or constant.
  case reserved(Builtin.ID)
  /// The name starts with `_`, which starts a unit (`=_x`: a name until the third edition).
  case underscore
}

/// Splits one line's UTF-8 bytes into tokens and finds its comment.
///
/// The bytes never contain a line terminator: the document splits lines first.
package struct Lexer {
  /// The tokens of a line and where its comment starts, if it has one.
  package static func tokens(of line: String) -> (tokens: [Token], commentStart: Int?) {
    var line = line
    return line.withUTF8 { tokens(of: $0) }
  }

  /// The tokens of a line's UTF-8 bytes and where its comment starts, if it has one.
  package static func tokens(of bytes: UnsafeBufferPointer<UInt8>) -> (tokens: [Token], commentStart: Int?) {
    var scanner = TokenScanner(bytes, builtins: BuiltinIndex.shared)
    var tokens: [Token] = []
    while let token = scanner.next() { tokens.append(token) }
    return (tokens, scanner.commentStart)
  }

  /// Whether a scalar can start a name: a letter (general category L) or `_`.
  package static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      let v = scalar.value
      return (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
    }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
    default: return false
    }
  }

  /// Why a string cannot name a variable (malformed, or an operator's or constant's name), or
  /// nil when it can: the rule a store `=name` follows, for callers such as rename. The empty
  /// string is malformed (`.missing` is for a store token with nothing after `=`).
  package static func nameProblem(_ name: String) -> InvalidName? {
    let (tokens, commentStart) = tokens(of: "=" + name)
    guard !name.isEmpty, tokens.count == 1, commentStart == nil else { return .malformed }
    switch tokens[0].kind {
    case .store: return nil
    case .invalidStore(let reason): return reason
    default: return .malformed  // `=1:30`, a check: no name
    }
  }

  /// Whether a scalar has the Unicode White_Space property. The set is fixed by Unicode and
  /// spelled out so that the hot loop needs no property lookup.
  @inline(__always)
  package static func isWhitespace(_ v: UInt32) -> Bool {
    switch v {
    case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
    default: return false
    }
  }

  /// The length in bytes of the white space scalar at `i` (Unicode White_Space, as `isWhitespace`),
  /// or 0 when the scalar there is none: the one rule the `# rpn:` line reads pairs by, so that
  /// a line the lexer sees as a comment-only line is read as the settings it shows.
  @inline(__always)
  package static func whitespaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
    let byte = bytes[i]
    if byte < 0x80 { return byte == 0x20 || byte &- 0x09 < 5 ? 1 : 0 }
    let (value, length) = decode(bytes, at: i)
    return isWhitespace(value) ? length : 0
  }

  /// The length of a byte order mark (U+FEFF, EF BB BF) that starts a line, or 0. Editors and
  /// Windows tools write one at the start of a file; it is no text, so the lexer passes over it
  /// there as over white space (and so does a tape pasted after another, where it starts a line
  /// in the middle). Anywhere else U+FEFF is part of a token, as any other character.
  @inline(__always)
  package static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
  }

  /// Decodes the scalar starting at `i`: its value and its length in bytes. A malformed
  /// sequence counts as one byte whose value can never be whitespace or a letter.
  @inline(__always)
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (value: UInt32, length: Int) {
    let lead = bytes[i]
    if lead < 0x80 { return (UInt32(lead), 1) }
    let length: Int
    var value: UInt32
    switch lead {
    case 0xC2...0xDF:
      length = 2
      value = UInt32(lead & 0x1F)
    case 0xE0...0xEF:
      length = 3
      value = UInt32(lead & 0x0F)
    case 0xF0...0xF4:
      length = 4
      value = UInt32(lead & 0x07)
    default: return (0xFFFD, 1)
    }
    guard i + length <= bytes.count else { return (0xFFFD, 1) }
    for k in 1..<length {
      let byte = bytes[i + k]
      guard byte & 0xC0 == 0x80 else { return (0xFFFD, 1) }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    return (value, length)
  }

  /// Classifies the bytes of one token (no whitespace, no `#`) in the order the language
  /// defines: number, check, store, definition marker, word.
  static func classify(_ token: UnsafeBufferPointer<UInt8>, builtins: BuiltinIndex) -> TokenKind {
    classify(token, 0..<token.count, builtins: builtins)
  }

  /// Classifies the token at `range` of a line's bytes: as `classify(_:builtins:)`, but a
  /// builtin's key may be read from the line around the token, eight bytes at once.
  @inline(__always)
  static func classify(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, builtins: BuiltinIndex) -> TokenKind {
    let token = UnsafeBufferPointer(rebasing: line[range])
    let first = token[0]
    if NumberLiteral.canStart(first) {
      // `->h:mm` and `→h:mm` start like a number, and are conversions.
      if token.contains(0x3A), unitWordStart(token) == nil, let time = sexagesimal(token, from: 0) { return time }
      // A quantity has an `_` (and a number that reads whole has none where a quantity's unit
      // starts): one reading of its number, not a failed parse first.
      if token.contains(0x5F), let quantity = quantity(token, from: 0) { return quantity }
      switch NumberLiteral.parse(token) {
      case .value(let value): return .number(Value(literal: value))
      case .outOfRange: return .invalidNumber(.outOfRange)
      case .malformed(let problem): return .invalidNumber(problem)
      case .notANumber: break
      }
    }
    if first == 0x3D {  // "="
      let name = UnsafeBufferPointer(rebasing: token[1...])
      if name.isEmpty { return .invalidStore(.missing) }
      if NumberLiteral.canStart(name[0]) || name[0] == 0x3A && name.count > 1 && NumberLiteral.isDigit(name[1]) {
        if name.contains(0x3A), let time = sexagesimal(token, from: 1) {
          if case .quantity(let value) = time { return .check(value) }
          return time
        }
        if name.contains(0x5F), let quantity = quantity(token, from: 1) {
          if case .quantity(let value) = quantity { return .check(value) }
          return quantity
        }
        switch NumberLiteral.parse(name) {
        case .value(let value): return .check(Value(literal: value))
        case .outOfRange: return .invalidNumber(.outOfRange)
        case .malformed(let problem): return .invalidNumber(problem)
        case .notANumber: break
        }
      }
      guard isName(name) else {
        if name[0] == 0x5F, name.count > 1, isName(UnsafeBufferPointer(rebasing: name[1...])) {
          return .invalidStore(.underscore)
        }
        return .invalidStore(.malformed)
      }
      if let key = Builtin.packedKey(name), let builtin = builtins.find(key) {
        return .invalidStore(.reserved(builtin))
      }
      return .store
    }
    if let key = Builtin.packedKey(line, range), let builtin = builtins.find(key) { return .builtin(builtin) }
    if let unitStart = unitWordStart(token) {
      if first != 0x5F, token[unitStart...].contains(0x3A) {
        // `>h:mm`: a format, which converts to its unit and sets it.
        let name = String(decoding: UnsafeBufferPointer(rebasing: token[unitStart...]), as: UTF8.self)
        if let format = SexagesimalFormat(name: name), let unit = Units.unit(of: format) { return .convert(unit) }
        return .invalidUnit(.malformed(.unknownFormat, UnitSpan(unitStart..<token.count)))
      }
      switch Units.read(token, unitStart..<token.count) {
      case .success(let unit): return first == 0x5F ? .attach(unit) : .convert(unit)
      case .failure(let problem): return .invalidUnit(problem)
      }
    }
    if isName(token) { return .name }
    // `:30`: a time with no hours written.
    if first == 0x3A, token.count > 1, NumberLiteral.isDigit(token[1]), let time = sexagesimal(token, from: 0) {
      return time
    }
    // `:` and `;` are no number, check, store, builtin or name: asked last, off the common path.
    if token.count == 1 && (first == 0x3A || first == 0x3B) { return first == 0x3A ? .colon : .semicolon }
    return .unknown
  }

  /// Where the `_` before a quantity's unit is, in a quantity or check token at `range` of a
  /// line's bytes (`12_km`: 2): where its number ends. The token's end when it has none.
  package static func unitSeparator(in line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    let token = UnsafeBufferPointer(rebasing: line[range])
    let start = token.first == 0x3D ? 1 : 0
    // A time or angle (`4:35_min`): its fields run to the `_`.
    if token[start...].contains(0x3A) {
      return range.lowerBound + (token[start...].firstIndex(of: 0x5F) ?? token.count)
    }
    let end = NumberLiteral.read(token, from: start).end
    return range.lowerBound + (end < token.count && token[end] == 0x5F ? end : token.count)
  }

  /// Where the unit of a unit word starts: after `_` (attach), `>`, `->` or `→` (convert); nil
  /// for a token that is no unit word.
  @inline(__always)
  package static func unitWordStart(_ token: UnsafeBufferPointer<UInt8>) -> Int? {
    switch token[0] {
    case 0x5F, 0x3E: return 1  // "_", ">"
    case 0x2D where token.count >= 2 && token[1] == 0x3E: return 2  // "->"
    case 0xE2 where token.count >= 3 && token[1] == 0x86 && token[2] == 0x92: return 3  // "→"
    default: return nil
    }
  }

  /// A word that is a decimal number glued to a unit with no `_` (`12km`, `9.81m/s^2`), written
  /// as the quantity it was meant to be (`12_km`); nil for any other word.
  package static func quantityReading(of word: String) -> String? {
    var word = word
    return word.withUTF8 { bytes -> String? in
      let reading = NumberLiteral.read(bytes, from: 0)
      guard reading.digits > 0, reading.radix == 10, reading.end < bytes.count, bytes[reading.end] != 0x5F,
        case .value = NumberLiteral.parse(UnsafeBufferPointer(rebasing: bytes[0..<reading.end])),
        case .success = Units.read(bytes, reading.end..<bytes.count)
      else { return nil }
      let number = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<reading.end]), as: UTF8.self)
      let unit = String(decoding: UnsafeBufferPointer(rebasing: bytes[reading.end...]), as: UTF8.self)
      return number + "_" + unit
    }
  }

  /// A quantity written at `start` of a token (`12_km`; `=12_km` from 1): its value with its
  /// unit, or the kind of token a malformed one is (`invalidUnit`, `invalidNumber`); nil when the
  /// token is no quantity (no `_` ends its number). The number is the longest number before an
  /// `_` that a non-digit follows (`1_000_km` is 1000 km); an integer literal takes no unit.
  static func quantity(_ token: UnsafeBufferPointer<UInt8>, from start: Int, tapeUnits: Bool = false) -> TokenKind? {
    let reading = NumberLiteral.read(token, from: start)
    guard reading.digits > 0 else { return nil }
    guard reading.radix == 10 else {
      // An integer literal read whole (`0xff_ff`: its `_` between two hexadecimal digits) is no
      // quantity.
      if case .value = NumberLiteral.parse(UnsafeBufferPointer(rebasing: token[start...])) { return nil }
      // `0x1F_km`, and `0x1F_deg`, whose `_DE` the hexadecimal digits took: a valid integer
      // literal before an `_`.
      for i in (start + 1)..<token.count where token[i] == 0x5F {
        // A digit or `_` next, or nothing, is a digit separator (`0x1_F`, `0x1__2`), no unit.
        guard i + 1 < token.count, token[i + 1] != 0x5F, !NumberLiteral.isDigit(token[i + 1]) else { continue }
        let before = UnsafeBufferPointer(rebasing: token[start..<i])
        if case .value = NumberLiteral.parse(before) {
          return .invalidUnit(.malformed(.integerLiteral, UnitSpan(i..<token.count)))
        }
      }
      return nil
    }
    guard reading.end < token.count, token[reading.end] == 0x5F else { return nil }
    // An `_` before a digit is a digit separator, out of place here (`1._5`, `1e1_0`): no unit.
    if reading.end + 1 < token.count, NumberLiteral.isDigit(token[reading.end + 1]) { return nil }
    let number: Double
    // The reading is the number's: its value needs no second reading, but a comma out of place
    // is for `parse` to word.
    let parsed =
      reading.misplacedComma == nil
      ? NumberLiteral.value(of: reading, in: token)
      : NumberLiteral.parse(UnsafeBufferPointer(rebasing: token[start..<reading.end]))
    switch parsed {
    case .value(let value): number = value
    case .outOfRange: return .invalidNumber(.outOfRange)
    case .malformed(let problem): return .invalidNumber(problem)
    case .notANumber: return nil
    }
    let unitRange = (reading.end + 1)..<token.count
    switch tapeUnits ? Units.read(tapeUnitsIn: token, unitRange) : Units.read(token, unitRange) {
    case .success(let unit): return .quantity(Value(literal: number, unit: unit))
    case .failure(let problem): return .invalidUnit(problem)
    }
  }

  /// A token the lexer read as an unknown unit (`3_pace`, `_box`, `>pace`, `=2_pace`) read
  /// again with the names the table does not hold taken as the tape's own units: a quantity, a
  /// unit word or a check, which evaluation keeps when the tape defines those units above; nil
  /// for any other token.
  package static func classifyWithTapeUnits(_ token: UnsafeBufferPointer<UInt8>) -> TokenKind? {
    guard let first = token.first, !token.contains(0x3A) else { return nil }
    if let unitStart = unitWordStart(token) {
      switch Units.read(tapeUnitsIn: token, unitStart..<token.count) {
      case .success(let unit): return first == 0x5F ? .attach(unit) : .convert(unit)
      case .failure: return nil
      }
    }
    if first == 0x3D, token.count > 1, NumberLiteral.canStart(token[1]),
      case .quantity(let value)? = quantity(token, from: 1, tapeUnits: true)
    {
      return .check(value)
    }
    if NumberLiteral.canStart(first), case .quantity(let value)? = quantity(token, from: 0, tapeUnits: true) {
      return .quantity(value)
    }
    return nil
  }

  /// A time or angle written with `:` at `start` of a token (`1:30`, `4:35_min`; `=2:15` from
  /// 1): a quantity in its format's unit, or the `invalid-number` a malformed one is; nil when
  /// the token has no `:` before a unit's `_`.
  static func sexagesimal(_ token: UnsafeBufferPointer<UInt8>, from start: Int) -> TokenKind? {
    switch NumberLiteral.sexagesimal(token, from: start) {
    case .value(let literal):
      guard let unit = Units.unit(of: literal.format) else {
        return .invalidUnit(.malformed(.tooLong, UnitSpan(0..<0)))
      }
      return .quantity(Value(literal: literal.number, unit: unit))
    case .outOfRange: return .invalidNumber(.outOfRange)
    case .malformed(let problem): return .invalidNumber(.sexagesimal(problem))
    case .notSexagesimal: return nil
    }
  }

  /// Whether the bytes are a valid name: a letter, then letters, digits 0–9 or `_` (a name
  /// starts with no `_`, which starts a unit).
  @inline(__always)
  package static func isName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    var first = true
    while i < bytes.count {
      let byte = bytes[i]
      if byte < 0x80 {
        let isLetter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
        let ok = isLetter || (!first && (byte == 0x5F || NumberLiteral.isDigit(byte)))
        if !ok { return false }
        i += 1
      } else {
        let (value, length) = decode(bytes, at: i)
        guard let scalar = Unicode.Scalar(value), isNameStart(scalar) else { return false }
        i += length
      }
      first = false
    }
    return !first
  }
}

/// Walks one line's bytes token by token; `commentStart` is known once `next()` returned nil.
///
/// Each token is classified while it is scanned where that is cheap: a plain decimal (`12`,
/// `-3.25`, `.5`) is parsed as its digits go by, a check `=12.5` likewise, and a one-byte token
/// (`+`, `*`, `e`) is read from a table. Everything else is scanned to its end and handed to
/// `Lexer.classify`, which stays the one definition of what a token is: the shortcuts only take
/// tokens it would classify the same way, with the same value to the bit.
struct TokenScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  let builtins: BuiltinIndex
  var position = 0
  private(set) var commentStart: Int?
  /// Whether a token scanned so far is an integer written in a radix (`0x1F`, `=0b101`): noted
  /// on the general path only, which every such token takes, so plain lines pay nothing for it.
  private(set) var sawRadixLiteral = false

  /// The unit text read last and its unit: a tape writes one unit again and again.
  var unitMemo: UnitMemo

  init(_ bytes: UnsafeBufferPointer<UInt8>, builtins: BuiltinIndex, unitMemo: UnitMemo = UnitMemo()) {
    self.bytes = bytes
    self.builtins = builtins
    self.unitMemo = unitMemo
    position = Lexer.byteOrderMarkLength(bytes)
  }

  /// Whether an ASCII byte ends a token: ASCII white space or `#`. The usual answer, no, for a
  /// byte inside a token, takes one compare: all of them are at most `#` (0x23).
  @inline(__always)
  static func endsToken(_ byte: UInt8) -> Bool {
    byte <= 0x23 && (byte == 0x20 || byte == 0x23 || byte &- 0x09 < 5)
  }

  @inline(__always)
  mutating func next() -> Token? {
    let count = bytes.count
    var i = position
    // Skip whitespace.
    var first: UInt8 = 0
    while i < count {
      first = bytes[i]
      if first == 0x20 || first &- 0x09 < 5 {
        i += 1
      } else if first < 0x80 {
        break
      } else {
        let (value, length) = Lexer.decode(bytes, at: i)
        guard Lexer.isWhitespace(value) else { break }
        i += length
      }
    }
    guard i < count, first != 0x23 else {  // "#"
      if i < count { commentStart = i }
      position = count
      return nil
    }
    let start = i
    // A token of one ASCII byte: its kind is in a table (built by `Lexer.classify`).
    if first < 0x80, start + 1 == count || Self.endsToken(bytes[start + 1]) {
      position = past(start + 1)
      return Token(range: start..<start + 1, kind: builtins.kind(ofByte: first))
    }
    // A plain decimal, parsed in the same pass; or a plain decimal, `_` and a unit (`12.5_km`):
    // the number parsed in the same pass, the unit read (the last one the tape read remembered,
    // then the units' cache of texts read). Anything else, a malformed unit too, is for
    // `classify`, which takes these the same way.
    if NumberLiteral.mayStartPlainDecimal(first) {
      let scan = NumberLiteral.plainDecimal(bytes, from: start)
      if case .number(let value, let end) = scan {
        position = past(end)
        return Token(range: start..<end, kind: .number(Value(literal: value)))
      }
      if case .beforeUnit(let value, let underscore) = scan,
        let token = quantity(value, from: start, unit: underscore + 1)
      {
        return token
      }
    }
    // A word of two to seven ASCII bytes that starts no number and no store (`clear`, `dup`,
    // `x1`, `**`): its end and its builtin key from one 8-byte load. Classify would find it a
    // builtin if the key is one's, else a name if it is one, else unknown (`:` and `;` are
    // one byte): the same is decided here.
    if first < 0x80, first != 0x3D, !NumberLiteral.canStart(first), let (key, end) = shortWord(at: start) {
      position = past(end)
      if let id = builtins.find(key) { return Token(range: start..<end, kind: .builtin(id)) }
      if Lexer.isName(UnsafeBufferPointer(rebasing: bytes[start..<end])) {
        return Token(range: start..<end, kind: .name)
      }
      // Not a name: a unit word (`_km`, `>mi`) or unknown.
      return otherShortWord(from: start, to: end)
    }
    // `=` and a plain decimal: a check. (One with a unit, `=12.50_EUR`, is for `classify`: reading
    // it here through the memo cost the plain tapes 1.2%, more than it saved the budget's 7%.)
    if first == 0x3D, start + 1 < count, NumberLiteral.mayStartPlainDecimal(bytes[start + 1]),
      case .number(let value, let end) = NumberLiteral.plainDecimal(bytes, from: start + 1)
    {
      position = past(end)
      return Token(range: start..<end, kind: .check(Value(literal: value)))
    }
    i = tokenEnd(from: i)
    position = i
    let kind = Lexer.classify(bytes, start..<i, builtins: builtins)
    if case .number = kind, RadixLiteral.isRadixLiteral(UnsafeBufferPointer(rebasing: bytes[start..<i])) {
      sawRadixLiteral = true
    } else if case .check = kind, RadixLiteral.isRadixLiteral(UnsafeBufferPointer(rebasing: bytes[start + 1..<i])) {
      sawRadixLiteral = true
    }
    return Token(range: start..<i, kind: kind)
  }

  /// A quantity whose number `value` starts at `start` and whose unit at `unitStart`, when its
  /// unit reads (nil for `classify` to tell what is wrong). Out of line: `next()` stays small
  /// enough to be inlined into the evaluator's loop.
  @inline(never)
  mutating func quantity(_ value: Double, from start: Int, unit unitStart: Int) -> Token? {
    // The unit's end and its memo key in one pass over its printable ASCII (`km`, `m/s^2`);
    // any other byte, to `tokenEnd`, and no key.
    let count = bytes.count
    var end = unitStart
    var key: UInt64 = 0
    var shift: UInt64 = 0
    while end < count {
      let byte = bytes[end]
      guard byte > 0x23 && byte < 0x80 else { break }
      key |= UInt64(byte) &<< shift
      shift &+= 8
      end += 1
    }
    let length = end - unitStart
    if end < count && !Self.endsToken(bytes[end]) {
      end = tokenEnd(from: end)
      key = 0
    } else {
      key = length <= 7 ? key | UInt64(length) << 56 : 0
    }
    guard case .success(let unit) = Units.read(bytes, unitStart..<end, key: key, memo: &unitMemo) else { return nil }
    position = past(end)
    return Token(range: start..<end, kind: .quantity(Value(literal: value, unit: unit)))
  }

  /// A short ASCII word that is no builtin and no name: a unit word (`>EUR`, `_km`), its unit
  /// read through the memo as a quantity's is (a tape that converts on every other line writes
  /// the same units in its quantities), or what `classify` tells. Out of line, as `quantity`.
  @inline(never)
  mutating func otherShortWord(from start: Int, to end: Int) -> Token {
    let first = bytes[start]
    if first == 0x3E || first == 0x5F, let word = unitWord(from: start, to: end, converts: first == 0x3E) {
      return word
    }
    return Token(range: start..<end, kind: Lexer.classify(bytes, start..<end, builtins: builtins))
  }

  /// A unit word of a short ASCII token (`>EUR`, `_km`, its mark at `start`; `next()` has moved
  /// past it), its unit read through the memo; nil (for `classify` to tell) when it has a `:` (a
  /// format) or does not read.
  private mutating func unitWord(from start: Int, to end: Int, converts: Bool) -> Token? {
    var key: UInt64 = 0
    var shift: UInt64 = 0
    for i in (start + 1)..<end {
      let byte = bytes[i]
      if byte == 0x3A { return nil }  // ":"
      key |= UInt64(byte) &<< shift
      shift &+= 8
    }
    key |= UInt64(end - start - 1) << 56
    guard case .success(let unit) = Units.read(bytes, (start + 1)..<end, key: key, memo: &unitMemo) else { return nil }
    return Token(range: start..<end, kind: converts ? .convert(unit) : .attach(unit))
  }

  /// Where the token that runs through `start` ends: at white space, `#` or the line's end.
  @inline(__always)
  func tokenEnd(from start: Int) -> Int {
    var i = start
    let count = bytes.count
    while i < count {
      let byte = bytes[i]
      // Printable ASCII past "#" (0x23) is part of the token: the common case, one compare.
      if byte > 0x23 && byte < 0x80 {
        i += 1
      } else if byte >= 0x80 {
        let (value, length) = Lexer.decode(bytes, at: i)
        if Lexer.isWhitespace(value) { break }
        i += length
      } else if byte == 0x20 || byte == 0x23 || (byte >= 0x09 && byte <= 0x0D) {
        break
      } else {
        i += 1
      }
    }
    return i
  }

  /// Where to go on after a token that ends at `end`: past the space that usually follows it, so
  /// that the next call starts on the next token without a turn of the white-space loop.
  @inline(__always)
  func past(_ end: Int) -> Int {
    end < bytes.count && bytes[end] == 0x20 ? end + 1 : end
  }

  /// The end and builtin key of a token of two to seven ASCII bytes at `start`, from one 8-byte
  /// load at the token (or, near the end of the line, one ending at the line's end, shifted so
  /// that the token starts the word); nil for a longer token, one holding other bytes than
  /// printable ASCII past `#`, one ended by anything but ASCII white space, `#` or the line's end,
  /// or a line shorter than eight bytes. A byte is printable ASCII past `#` (0x24…0x7F) when its
  /// top bit is clear and adding 0x5C to its low seven bits sets it.
  @inline(__always)
  func shortWord(at start: Int) -> (key: UInt64, end: Int)? {
    let count = bytes.count
    guard let base = bytes.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    let word: UInt64
    if start + 8 <= count {
      word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
    } else if count >= 8 {
      let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
      word = last >> UInt64(8 * (start + 8 - count))
    } else {
      return nil
    }
    let continues = ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x5C5C_5C5C_5C5C_5C5C) & ~word & 0x8080_8080_8080_8080
    let stops = ~continues & 0x8080_8080_8080_8080
    guard stops != 0 else { return nil }
    let length = stops.trailingZeroBitCount / 8
    let end = start + length
    guard length >= 2, end == count || Self.endsToken(bytes[end]) else { return nil }
    return (Builtin.packedKey(word: word, length: length), end)
  }
}

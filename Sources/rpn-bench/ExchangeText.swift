// The exchange's documents: the client's copy of a text (positions in any encoding, edits), and the rich tape.

import JSONRPC
import RPNEngine

/// The unit an LSP position's `character` counts, as negotiated at `initialize`.
enum PositionUnits: String {
  case utf8 = "utf-8"
  case utf16 = "utf-16"
  case utf32 = "utf-32"

  func width(_ scalar: Unicode.Scalar) -> Int {
    switch self {
    case .utf8: scalar.utf8.count
    case .utf16: scalar.utf16.count
    case .utf32: 1
    }
  }
}

/// A document's text as the client holds it: its scalars, its lines, LSP positions in the
/// session's units, and edits applied as an editor applies them.
struct ClientText {
  let uri: String
  let units: PositionUnits
  private(set) var scalars: [Unicode.Scalar]
  /// Each line's scalars, without its line break (`\n`, `\r\n` or `\r`), as indices into `scalars`.
  private(set) var lines: [Range<Int>] = []

  init(uri: String, text: String, units: PositionUnits) {
    self.uri = uri
    self.units = units
    scalars = Array(text.unicodeScalars)
    reindex()
  }

  var text: String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    return String(view)
  }

  private mutating func reindex() {
    lines = []
    var start = 0
    var index = 0
    while index < scalars.count {
      switch scalars[index] {
      case "\n":
        lines.append(start..<index)
        start = index + 1
      case "\r":
        lines.append(start..<index)
        if index + 1 < scalars.count && scalars[index + 1] == "\n" { index += 1 }
        start = index + 1
      default:
        break
      }
      index += 1
    }
    lines.append(start..<scalars.count)
  }

  /// The LSP position of a scalar index of the whole text.
  func position(_ offset: Int) -> JSONValue {
    let line = lines.lastIndex { $0.lowerBound <= offset } ?? 0
    let before = scalars[lines[line].lowerBound..<min(offset, lines[line].upperBound)]
    return Self.position(line, before.reduce(0) { $0 + units.width($1) })
  }

  static func position(_ line: Int, _ character: Int) -> JSONValue {
    ["line": JSONValue(line), "character": JSONValue(character)]
  }

  func range(_ offsets: Range<Int>) -> JSONValue {
    ["start": position(offsets.lowerBound), "end": position(offsets.upperBound)]
  }

  /// The whole text, from its start to its end.
  var wholeRange: JSONValue { range(0..<scalars.count) }

  /// Every place a request about a token can name: each token's start and end (tokens are runs
  /// without white space, comments' words too), and inside a scalar that takes more than one
  /// unit (half an emoji in UTF-16, a byte inside a character in UTF-8).
  var tokenBounds: [(offset: Int, isStart: Bool)] {
    var bounds: [(Int, Bool)] = []
    for line in lines {
      var inToken = false
      for index in line {
        let space = scalars[index].properties.isWhitespace
        if !space && !inToken { bounds.append((index, true)) }
        if space && inToken { bounds.append((index, false)) }
        inToken = !space
      }
      if inToken { bounds.append((line.upperBound, false)) }
    }
    return bounds
  }

  /// Positions inside a scalar, between its units: the server must not split it.
  var splitScalarPositions: [JSONValue] {
    lines.indices.flatMap { line in
      var column = 0
      var inside: [JSONValue] = []
      for index in lines[line] {
        let width = units.width(scalars[index])
        if width > 1 { inside.append(Self.position(line, column + 1)) }
        column += width
      }
      return inside
    }
  }

  /// Replaces the scalars in `offsets` with `text`.
  mutating func replace(_ offsets: Range<Int>, with text: String) {
    scalars.replaceSubrange(offsets, with: text.unicodeScalars)
    reindex()
  }
}

/// The exchange's own tape: every number form, check, habit, builtin, store, word, heading and
/// settings line the language has, with tabs and text beyond ASCII; `header` is its `# rpn:` lines.
func exchangeTape(header: String) -> String {
  var text = header + richTapeBody
  text += "## Every builtin, given operands and given none\n"
  for builtin in Builtin.table {
    for spelling in builtin.spellings {
      text += "clear 9 4 2 \(spelling)\nclear \(spelling)\n"
    }
  }
  text += "clear 3 2 1 PI Sqrt DUP Max\n"
  return text
}

private let richTapeBody = """
  # A tape for the exchange: every literal, check, habit and word.
  ## Numbers
  12 12.5 .5 12. -3 +3 −3 1e3 2.5E-4 1_000 1_000_000
  1,234.5 1,234,567.89 0x1F 0b101 0o17 0XfF -0x10 0b1_0 0O7_7 0x1f_ff
  1,5 ,5 1,000,00 12,34 1e999 -1e999 0x 0xG 0b102 9007199254740993 0x20000000000001 1__0 _1 1.2.3
  clear
  ## Checks
  12.5 =12.5
  0x1F =0x1F =31 =0b11111 =0o37
  1 3 / =0.333 =0.3 =0.334 =1
  1480 =1.5e3 =1,480 =1_480 =1.4e3
  2 = 7
  =
  7 =7.0 =-7 =1e999 =1,5 =+7 =−7
  1234567.891 =1,234,567.89
  2000 =1,0_00 251 =−0xF_A 251 =-0xF_A
  clear =3
  ## Habits
  3 + 4
  10 / 2
  3 4 +
  2 x 3
  pi/2 4+ sqr square ln2 1/2 // swpa
  clear
  ## Errors
  1 0 /
  -1 sqrt
  -1 ln 0 ln 0 log
  2 acosh 0.5 acosh 2 atanh 1 atanh 2 asin
  171 fact -1 fact 2.5 fact 5 fact
  1e308 10 *
  1e308 dup * 2 1e308 ^
  7 0 mod -7 3 mod 7 -3 mod 7.5 2 mod
  clear 5 sdev 1 2 3 4 sdev 1e308 1e308 sdev
  clear 1 2 3 4 2 pick 3 roll 0 pick 2.5 roll 99 pick 1e300 roll -1 pick
  clear lastx 9 sqrt lastx
  clear 0.1 0.2 + 1 3 / 2 3 / 1e-20 -0 0 neg
  clear
  ## Stores
  2450 =income 1200 =rent
  income rent - =left
  left 2 / =half half
  =2x =dup = =_ok =Ünïcødé
  Ünïcødé income
  later_name
  3 =later_name later_name
  clear
  ## Words
  : sq2 dup * ;
  : hyp sq swap sq + sqrt ;
  : bad 0 / ;
  : fx =x ;
  : inc 1 + ; ; : : dup ;
  : nothing ;
  : broken 1 +
  : dup 2 * ;
  : half2 income 2 / ;
  : whole clear depth sum ;
  : chk =5 ;
  : sub subtotal ;
  3 sq2 4 sq2 + sqrt =5
  3 4 hyp =5 lastx
  1 bad
  inc
  defined_later
  : defined_later 1 ;
  : sq2 3 * ;
  2 sq2 =6 half2 whole nothing
  ##
  ## Unicode and tabs
  1\t2\t+\t# tabs between
  3 4 × 😀 é # ünïcødé comment 😀
  12 ÷ 2 √ π e
  1\u{00A0}2 + \u{FEFF}5 6 +
  # rpn: decimals=1 (a plain comment now)
  1 2 # rpn: notation=fixed after tokens
  ## Sections
  12.50 =bread
  8 3.20
  subtotal
  ## Empty section
  ## Last
  900 45.50
  subtotal subtotal

  """

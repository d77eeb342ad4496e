// Times and angles shown in fields of sixty (`2:15`, `4:35_min`, `48:46:32_°`): the formats and their text.

/// How a time or an angle is shown, in fields of sixty: the format a sexagesimal literal carries
/// (by the fields written), that `>h:mm` and the like set, and that travels with the value as
/// its unit does. A formatted value is a unit of its own in the registry (`Units.formatted`):
/// the same factors as `h`, `min` or `°`, so it converts and computes as they do, and a rule that
/// keeps the unit keeps the format.
package enum SexagesimalFormat: UInt8, CaseIterable, Sendable {
  case hoursMinutes = 1
  case hoursMinutesSeconds
  case minutesSeconds
  case degreesMinutes
  case degreesMinutesSeconds

  /// As `>` writes it: `h:mm`.
  package var name: String {
    switch self {
    case .hoursMinutes: "h:mm"
    case .hoursMinutesSeconds: "h:mm:ss"
    case .minutesSeconds: "min:ss"
    case .degreesMinutes: "°:mm"
    case .degreesMinutesSeconds: "°:mm:ss"
    }
  }

  /// What it shows, in words: "hours and minutes".
  package var title: String {
    switch self {
    case .hoursMinutes: "hours and minutes"
    case .hoursMinutesSeconds: "hours, minutes and seconds"
    case .minutesSeconds: "minutes and seconds"
    case .degreesMinutes: "degrees and minutes"
    case .degreesMinutesSeconds: "degrees, minutes and seconds"
    }
  }

  /// The format `>` names (`h:mm`, `deg:mm:ss`), or nil.
  package init?(name: some StringProtocol) {
    switch name {
    case "h:mm": self = .hoursMinutes
    case "h:mm:ss": self = .hoursMinutesSeconds
    case "min:ss": self = .minutesSeconds
    case "°:mm", "deg:mm": self = .degreesMinutes
    case "°:mm:ss", "deg:mm:ss": self = .degreesMinutesSeconds
    default: return nil
    }
  }

  /// The format of a literal of `fields` fields (2 or 3) in `unit` (`h`, `min`, `°`).
  package init?(fields: Int, unit: SexagesimalUnit) {
    switch (unit, fields) {
    case (.hour, 2): self = .hoursMinutes
    case (.hour, 3): self = .hoursMinutesSeconds
    case (.minute, 2): self = .minutesSeconds
    case (.degree, 2): self = .degreesMinutes
    case (.degree, 3): self = .degreesMinutesSeconds
    default: return nil
    }
  }

  /// How many fields it shows: 2 or 3.
  package var fields: Int {
    switch self {
    case .hoursMinutes, .minutesSeconds, .degreesMinutes: 2
    case .hoursMinutesSeconds, .degreesMinutesSeconds: 3
    }
  }

  /// The unit its first field counts.
  package var unit: SexagesimalUnit {
    switch self {
    case .hoursMinutes, .hoursMinutesSeconds: .hour
    case .minutesSeconds: .minute
    case .degreesMinutes, .degreesMinutesSeconds: .degree
    }
  }

  /// How many of the last field one of the first field is: 60 or 3600.
  package var scale: Double { fields == 2 ? 60 : 3600 }

  /// The last field in words, for a check's places: "the minute", "the second".
  package var lastField: String {
    switch self {
    case .hoursMinutes: "minute"
    case .hoursMinutesSeconds, .minutesSeconds: "second"
    case .degreesMinutes: "minute of arc"
    case .degreesMinutesSeconds: "second of arc"
    }
  }

  /// `number` (in the format's unit) as the display shows it: rounded to the last field (to
  /// `fractionDigits` places of it), then split, with one sign in front and the unit after it
  /// when it is not hours, so that it reads back (`2:15`, `-0:30`, `9:10_min`, `48:46:32_°`).
  /// Nil when the last field would count past 2^53, where its digits are no longer exact: the
  /// caller shows the number in its unit instead.
  package func text(_ number: Double, fractionDigits: Int = 0) -> String? {
    guard number.isFinite else { return nil }
    let places = Swift.min(Swift.max(fractionDigits, 0), 9)
    var step = 1.0
    for _ in 0..<places { step *= 10 }
    let scaled = (Swift.abs(number) * scale * step).rounded(.toNearestOrAwayFromZero)
    guard scaled < 9_007_199_254_740_992 else { return nil }
    let total = UInt64(scaled)
    let unitsPerField = UInt64(step)
    let last = total % (60 * unitsPerField)
    var rest = total / (60 * unitsPerField)
    var text = ""
    if fields == 3 {
      let middle = rest % 60
      rest /= 60
      text = Self.twoDigits(middle) + ":"
    }
    text = String(rest) + ":" + text + Self.twoDigits(last / unitsPerField)
    if places > 0 {
      let fraction = String(last % unitsPerField)
      text += "." + String(repeating: "0", count: places - fraction.count) + fraction
    }
    let sign = number < 0 && total > 0 ? "-" : ""
    return sign + text + unit.suffix
  }

  private static func twoDigits(_ n: UInt64) -> String { n < 10 ? "0" + String(n) : String(n) }
}

/// The unit a sexagesimal literal counts in its first field.
package enum SexagesimalUnit: Sendable {
  case hour, minute, degree

  /// The table unit's name: `h`, `min`, `°`.
  package var tableName: String {
    switch self {
    case .hour: "h"
    case .minute: "min"
    case .degree: "°"
    }
  }

  /// What a value in it writes after its fields so that it reads back: nothing for hours.
  package var suffix: String {
    switch self {
    case .hour: ""
    case .minute: "_min"
    case .degree: "_°"
    }
  }

  /// The unit a literal's `_` names (`min`, `°`, `deg`, `h`), or nil for any other.
  package init?(unitText: some StringProtocol) {
    switch unitText {
    case "h": self = .hour
    case "min": self = .minute
    case "°", "deg": self = .degree
    default: return nil
    }
  }
}

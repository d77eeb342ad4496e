import TestSupport
import Testing

@testable import RPNEngine

/// The display notations: `fixed` and `scientific` exactly as C's `%.Nf` and `%.Ne` (their fast
/// paths checked against the C library), `engineering` as HP's ENG, grouping, and `-0` as `0`.
@Suite struct NotationTests {
  /// Random values of every kind, each at a random number of decimals.
  private static func randomValues(_ count: Int, seed: UInt64) -> [(value: Double, decimals: Int)] {
    var random = SplitMix64(seed: seed)
    var result: [(Double, Int)] = []
    while result.count < count {
      let value: Double
      switch random.next(below: 6) {
      case 0: value = Double(bitPattern: random.next())
      case 1: value = Double(Int(random.next() % 2_000_001) - 1_000_000) / Double(1 + random.next(below: 1000))
      case 2: value = Double(random.next(below: 100_000)) / 8  // exact binary ties
      case 3: value = Double(random.next(below: 1_000_000)) / 1000  // decimal-looking amounts
      case 4: value = Double(bitPattern: random.next() % (1 << 53))  // subnormals
      default:
        value =
          Double(random.next(below: 1_000_000))
          * [1e-9, 1e-5, 1e-3, 0.1, 1, 1e10, 1e15, 1e16, 1e21][random.next(below: 9)]
      }
      guard value.isFinite else { continue }
      result.append((random.next(below: 2) == 0 ? value : -value, random.next(below: 16)))
    }
    return result
  }

  /// C's text with the sign of a zero result dropped, as the display does.
  private static func c(_ value: Double, _ decimals: Int, _ conversion: StaticString) -> String {
    let text = ValueFormat.cFormat(value, precision: decimals, conversion: conversion)
    let mantissa = text.prefix { $0 != "e" }
    let isZero = mantissa.allSatisfy { $0 == "-" || $0 == "0" || $0 == "." }
    return isZero && text.hasPrefix("-") ? String(text.dropFirst()) : text
  }

  @Test func fixedAgreesWithTheCLibrary() {
    for (value, decimals) in Self.randomValues(200_000, seed: 7) {
      let shown = ValueFormat.format(value, display: DisplaySettings(notation: .fixed, decimals: decimals))
      let expected = Self.c(value, decimals, "%.*f")
      if shown != expected {
        Issue.record("\(value) (bits \(value.bitPattern)) to \(decimals) decimals: \(shown) != \(expected)")
        return
      }
    }
  }

  @Test func scientificAgreesWithTheCLibrary() {
    for (value, decimals) in Self.randomValues(200_000, seed: 8) {
      let shown = ValueFormat.format(value, display: DisplaySettings(notation: .scientific, decimals: decimals))
      let expected = Self.c(value, decimals, "%.*e")
      if shown != expected {
        Issue.record("\(value) (bits \(value.bitPattern)) to \(decimals) decimals: \(shown) != \(expected)")
        return
      }
    }
  }

  @Test(arguments: [
    (12345.0, 2, "12.3e+03"), (12345.0, 0, "10e+03"), (1234.5, 3, "1.234e+03"), (1234.6, 3, "1.235e+03"),
    (0.123, 2, "123e-03"),
    (0.0123, 2, "12.3e-03"), (999.96, 3, "1.000e+03"), (999.94, 3, "999.9e+00"), (1.0, 2, "1.00e+00"),
    (-4.5e-7, 1, "-450e-09"), (6.02214076e23, 4, "602.21e+21"), (0.0, 2, "0.00e+00"), (-0.0, 0, "0e+00"),
    (1e-300, 0, "1e-300"), (Double.leastNonzeroMagnitude, 2, "4.94e-324"), (1.7976931348623157e308, 2, "180e+306"),
    (-1e-20, 1, "-10e-21"),
  ])
  func engineering(value: Double, decimals: Int, expected: String) {
    #expect(ValueFormat.format(value, display: DisplaySettings(notation: .engineering, decimals: decimals)) == expected)
  }

  @Test(arguments: [
    (1234567.891, Notation.auto, 2, "1,234,567.891"), (1234567.891, .fixed, 2, "1,234,567.89"),
    (-1234.5, .fixed, 1, "-1,234.5"), (999.0, .fixed, 0, "999"), (1000.0, .fixed, 0, "1,000"),
    (-999999.5, .fixed, 0, "-1,000,000"), (1e21, .auto, 2, "1e+21"), (123456.0, .scientific, 2, "1.23e+05"),
    (123456.0, .engineering, 2, "123e+03"), (0.5, .auto, 2, "0.5"), (12.0, .auto, 2, "12"),
  ])
  func grouping(value: Double, notation: Notation, decimals: Int, expected: String) {
    let display = DisplaySettings(notation: notation, decimals: decimals, grouping: true)
    #expect(ValueFormat.format(value, display: display) == expected)
  }

  /// `-0`, and values that round to zero, show no sign in any notation.
  @Test func negativeZeroHasNoSign() {
    for notation in Notation.allCases {
      let display = DisplaySettings(notation: notation, decimals: 2)
      #expect(!ValueFormat.format(-0.0, display: display).hasPrefix("-"), "\(notation)")
    }
    #expect(ValueFormat.format(-0.001, display: DisplaySettings(notation: .fixed, decimals: 2)) == "0.00")
    #expect(ValueFormat.format(-0.006, display: DisplaySettings(notation: .fixed, decimals: 2)) == "-0.01")
    #expect(ValueFormat.format(-1e-300, display: DisplaySettings(notation: .scientific, decimals: 2)) == "-1.00e-300")
  }

  /// Decimals and precision are clamped to what they can be.
  @Test func settingsAreClamped() {
    #expect(DisplaySettings(decimals: 40).decimals == 15)
    #expect(DisplaySettings(decimals: -1).decimals == 0)
    #expect(DisplaySettings().notation == .auto && DisplaySettings().decimals == 2 && !DisplaySettings().grouping)
  }
}

// The command line with units: `eval` prints quantities, `check` their diagnostics, `update`
// writes checks in the top's unit.

import Foundation
import Testing

/// Units through the real binary's command line.
@Suite struct UnitCommandTests {
  static let tape = """
    ## road trip
    26.2_mi >km
    12_km +
    20_°C 68_°F - =0_Δ°C
    12_kmh
    5_km 3_h +

    """

  @Test func evalPrintsQuantities() throws {
    let result = try run(["eval", "-"], input: Self.tape)
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        ## road trip            4 values, mixed units
        26.2_mi >km             [42.1648128_km]
        12_km +                 [54.1648128_km]
        20_°C 68_°F - =0_Δ°C    [54.1648128_km 0_Δ°C]
        12_kmh                ! [54.1648128_km 0_Δ°C]
        5_km 3_h +            ! [54.1648128_km 0_Δ°C 5_km 3_h]

        """)
  }

  @Test func checkPrintsTheUnitsDiagnostics() throws {
    let result = try run(["check", "-"], input: Self.tape)
    #expect(result.status == 1)
    #expect(
      result.stdout + result.stderr == """
        -:5:1: error: unknown unit `kmh` in `12_kmh`; did you mean `km/h`? [unknown-unit]
        -:6:10: warning: `+` needs one dimension: 5 km is a length, 3 h is a time [unit-mismatch]

        """)
  }

  @Test func updateWritesChecksInTheTopsUnit() throws {
    let result = try run(["update", "--add", "-"], input: "26.2_mi >km =42.0_km\n12_km =12\n1_mi >ft\n")
    #expect(result.status == 0)
    #expect(result.stdout == "26.2_mi >km =42.2_km\n12_km =12_km\n1_mi >ft =5280_ft\n")
  }
}

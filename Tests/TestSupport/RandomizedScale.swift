import Foundation

/// How many of `full` seeded cases a long randomized test runs: all of them, unless
/// `RPN_TEST_SCALE` (a fraction from 0 to 1) says fewer, as CI's AddressSanitizer run does (it
/// looks for memory errors, which the first cases find as well as all of them, at several times
/// the plain run's cost). Never fewer than one.
package func scaledCount(_ full: Int) -> Int {
  guard let text = ProcessInfo.processInfo.environment["RPN_TEST_SCALE"], let scale = Double(text),
    scale >= 0, scale < 1
  else { return full }
  return max(1, Int((Double(full) * scale).rounded(.up)))
}

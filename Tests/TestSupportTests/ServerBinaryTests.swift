import Foundation
import TestSupport
import Testing

@Suite struct ServerBinaryTests {
  /// The last resort of the lookup, `.build/debug` under the package root, is found from where
  /// this target's sources are.
  @Test func thePackageRootIsFoundAboveTheSupportSources() throws {
    let root = try #require(packageRoot())
    #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path))
    #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Tests/TestSupport").path))
  }
}

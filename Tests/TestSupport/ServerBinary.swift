import Foundation

/// The built `rpn-lsp`: `RPN_LSP_BINARY` when set; else the one next to the test bundle, which
/// the same `swift test` built (whatever the configuration or build path); else
/// `.build/debug/rpn-lsp` under the package root.
package func serverBinary() throws -> URL {
  let fileManager = FileManager.default
  if let path = ProcessInfo.processInfo.environment["RPN_LSP_BINARY"], !path.isEmpty {
    return URL(fileURLWithPath: path)
  }
  var directories: [URL] = Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
    .map { $0.deletingLastPathComponent() }
  if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
  directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
  if let root = packageRoot() { directories.append(root.appendingPathComponent(".build/debug")) }
  for directory in directories {
    let candidate = directory.appendingPathComponent("rpn-lsp")
    if fileManager.isExecutableFile(atPath: candidate.path) { return candidate }
  }
  throw BinaryNotFound(searched: directories.map(\.path))
}

/// The package's root folder: the first folder above this source file (`#filePath`, where the
/// sources were compiled) that holds a `Package.swift`; nil when the sources are gone.
package func packageRoot() -> URL? {
  var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  while directory.pathComponents.count > 1 {
    if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
      return directory
    }
    directory.deleteLastPathComponent()
  }
  return nil
}

/// No `rpn-lsp` was found: where the lookup searched.
package struct BinaryNotFound: Error, CustomStringConvertible {
  package var searched: [String]
  package var description: String { "no rpn-lsp binary in \(searched); set RPN_LSP_BINARY" }
}

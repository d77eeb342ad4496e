import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Collects what a pipe delivers until its end, on its own thread.
private final class Collector: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var data = Data()

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  func text(until deadline: DispatchTime) -> String? {
    guard done.wait(timeout: deadline) == .success else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}

private struct TimedOut: Error, CustomStringConvertible {
  var description: String
}

/// Runs `rpn-lsp` as CommandLineTests' `run` does, but kills it and throws when it has not finished within `timeout`.
private func runTimed(
  _ arguments: [String], in directory: URL? = nil, input: String = "", timeout: TimeInterval = 20
) throws -> Run {
  let process = Process()
  process.executableURL = try binary()
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = directory }
  let stdin = Pipe()
  let stdout = Pipe()
  let stderr = Pipe()
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  let exited = DispatchSemaphore(value: 0)
  process.terminationHandler = { _ in exited.signal() }
  signal(SIGPIPE, SIG_IGN)
  try process.run()
  let out = Collector(stdout.fileHandleForReading)
  let err = Collector(stderr.fileHandleForReading)
  let writer = stdin.fileHandleForWriting
  let bytes = Data(input.utf8)
  Thread.detachNewThread {
    try? writer.write(contentsOf: bytes)
    try? writer.close()
  }
  let deadline = DispatchTime.now() + timeout
  guard exited.wait(timeout: deadline) == .success else {
    kill(process.processIdentifier, SIGKILL)
    throw TimedOut(description: "rpn-lsp \(arguments) did not finish within \(timeout) s; it was killed")
  }
  guard let output = out.text(until: deadline), let errors = err.text(until: deadline) else {
    throw TimedOut(description: "rpn-lsp \(arguments) exited but its output did not end within \(timeout) s")
  }
  return Run(status: process.terminationStatus, stdout: output, stderr: errors)
}

/// `rpn-lsp format FILE|-` prints the document formatted as SPEC §2.3's `textDocument/formatting`
/// formats it; `--check` prints nothing on standard output, says on standard error that the file
/// would change and exits 1, or exits 0 silently when it is formatted; 2 on usage or I/O errors.
@Suite struct FormatCommandTests {
  /// Messy lines with every kind of line ending and whitespace, and their formatted text.
  static let messy =
    "  1   2\t+  \n# comment  kept   as is  \r\n   \r\r\n3 =x    # total ×\u{A0} \n\u{A0}x\u{2028}x\u{3000}*\r\n"
    + "   # indented note\n1 2 +\n😀  √   4\r\t\u{C}\r\n  π"
  static let formatted =
    "1 2 +\n# comment  kept   as is\r\n\r\r\n3 =x # total ×\nx x *\r\n# indented note\n1 2 +\n😀 √ 4\r\r\nπ"

  @Test func formatPrintsTheFormattedDocument() throws {
    let dir = try directory(with: ["messy.rpn": Self.messy])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try runTimed(["format", "messy.rpn"], in: dir)
    #expect(result.status == 0)
    #expect(Array(result.stdout.utf8) == Array(Self.formatted.utf8))
    #expect(result.stderr == "")
    // The file itself is left alone.
    let file = try Data(contentsOf: dir.appendingPathComponent("messy.rpn"))
    #expect(Array(file) == Array(Self.messy.utf8))
  }

  @Test func formatReadsStandardInput() throws {
    let result = try runTimed(["format", "-"], input: Self.messy)
    #expect(result.status == 0)
    #expect(Array(result.stdout.utf8) == Array(Self.formatted.utf8))
    #expect(result.stderr == "")
    let empty = try runTimed(["format", "-"], input: "")
    #expect(empty.status == 0)
    #expect(empty.stdout == "")
  }

  /// Formatting the output again changes nothing.
  @Test func formatIsIdempotent() throws {
    let once = try runTimed(["format", "-"], input: Self.messy)
    let twice = try runTimed(["format", "-"], input: once.stdout)
    #expect(twice.status == 0)
    #expect(Array(twice.stdout.utf8) == Array(once.stdout.utf8))
  }

  @Test func checkFailsWhenTheFileWouldChange() throws {
    let dir = try directory(with: ["messy.rpn": Self.messy, "clean.rpn": Self.formatted])
    defer { try? FileManager.default.removeItem(at: dir) }
    for arguments in [["format", "--check", "messy.rpn"], ["format", "messy.rpn", "--check"]] {
      let result = try runTimed(arguments, in: dir)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.stdout == "", "\(arguments)")
      #expect(result.stderr.contains("messy.rpn"), "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasSuffix("\n"), "\(arguments): \(result.stderr)")
    }
    let stdin = try runTimed(["format", "--check", "-"], input: "1  2\n")
    #expect(stdin.status == 1)
    #expect(stdin.stdout == "")
    #expect(!stdin.stderr.isEmpty)
    // One space too many, only inside a line: still a change.
    let inner = try runTimed(["format", "--check", "-"], input: "1 2 +\n3  4\n")
    #expect(inner.status == 1)
  }

  @Test func checkIsSilentWhenTheFileIsFormatted() throws {
    let dir = try directory(with: ["clean.rpn": Self.formatted, "empty.rpn": ""])
    defer { try? FileManager.default.removeItem(at: dir) }
    for arguments in [["format", "--check", "clean.rpn"], ["format", "--check", "empty.rpn"]] {
      let result = try runTimed(arguments, in: dir)
      #expect(result.status == 0, "\(arguments)")
      #expect(result.stdout == "", "\(arguments)")
      #expect(result.stderr == "", "\(arguments)")
    }
    let stdin = try runTimed(["format", "--check", "-"], input: "# fine\n1 2 + # sum\r\n\r=x x *")
    #expect(stdin.status == 0)
    #expect(stdin.stdout == "")
    #expect(stdin.stderr == "")
  }

  @Test func formatFailsOnUsageAndIOErrors() throws {
    let dir = try directory(with: ["a.rpn": "1", "b.rpn": "2"])
    defer { try? FileManager.default.removeItem(at: dir) }
    for arguments in [["format", "missing.rpn"], ["format", "--check", "missing.rpn"]] {
      let missing = try runTimed(arguments, in: dir)
      #expect(missing.status == 2, "\(arguments)")
      #expect(missing.stdout == "", "\(arguments)")
      #expect(missing.stderr.contains("missing.rpn"), "\(arguments): \(missing.stderr)")
    }
    #expect(try runTimed(["format"], in: dir).status == 2)
    #expect(try runTimed(["format", "--check"], in: dir).status == 2)
    #expect(try runTimed(["format", "a.rpn", "b.rpn"], in: dir).status == 2)
    #expect(try runTimed(["format", "--bogus", "a.rpn"], in: dir).status == 2)
    let help = try runTimed(["--help"])
    #expect(help.stdout.contains("rpn-lsp format FILE"))
  }
}

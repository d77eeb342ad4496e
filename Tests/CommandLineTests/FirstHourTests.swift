import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What a new user meets first on the command line: no silent server, safe output for any file.
@Suite struct FirstHourTests {
  /// Run bare in a terminal, the server says what it is doing and how to get help, on standard
  /// error; standard output stays for protocol bytes.
  @Test func aTerminalIsToldTheServerIsServing() throws {
    var controller: Int32 = -1
    var terminal: Int32 = -1
    try #require(openpty(&controller, &terminal, nil, nil, nil) == 0)
    defer { close(controller) }
    let process = Process()
    process.executableURL = try serverBinary()
    process.standardInput = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // The message comes before any input; then end of input (Ctrl-D on an empty line) ends it.
    let line = try readLine(stderr.fileHandleForReading)
    #expect(line.hasPrefix("rpn-lsp: serving LSP on standard input and output"), "\(line)")
    #expect(line.contains("rpn-lsp --help"))
    _ = write(controller, [0x04], 1)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1, "end of input without shutdown")
    #expect(stdout.fileHandleForReading.readDataToEndOfFile().isEmpty)
  }

  /// Not a terminal (an editor's pipes): nothing is said, and the server serves as always.
  @Test func pipesGetNoMessage() throws {
    let result = try run([], input: "")
    #expect(result.stderr == "")
    #expect(result.status == 1)
  }

  /// A mistyped flag gets a note on standard error; it still serves, since editors pass flags.
  @Test func anUnknownFlagIsNotedAndTheServerStillServes() throws {
    let result = try run(["--verison"], input: "")
    #expect(result.stderr == "rpn-lsp: ignoring unknown option '--verison' and serving LSP (see rpn-lsp --help)\n")
    #expect(result.stdout == "")
    let stdio = try run(["--stdio", "--stdio"], input: "")
    #expect(stdio.stderr == "")
  }

  private func readLine(_ handle: FileHandle) throws -> String {
    var bytes: [UInt8] = []
    while bytes.last != 0x0A, let byte = try handle.read(upToCount: 1)?.first { bytes.append(byte) }
    return String(decoding: bytes, as: UTF8.self)
  }
}

import Foundation
import TestSupport
import Testing

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

  /// A file with a NUL byte is a binary, not a tape: every command refuses it, and goes on with
  /// the other files.
  @Test func binaryFilesAreRefused() throws {
    let dir = try directory(with: ["tape.rpn": "1 2 +\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x00, 0x31, 0x0A]).write(to: dir.appendingPathComponent("a.out"))
    let message =
      "rpn-lsp: a.out is not a text file (it holds a NUL byte, at byte 6): rpn-lsp reads .rpn tapes, "
      + "which are text; name the tape instead\n"
    for command in [["eval"], ["format"], ["update"], ["check"], ["format", "--check"], ["update", "--write"]] {
      let result = try run(command + ["a.out"], in: dir)
      #expect(result.status == 2, "\(command)")
      #expect(result.stdout == "", "\(command)")
      #expect(result.stderr == message, "\(command)")
    }
    let both = try run(["check", "a.out", "tape.rpn"], in: dir)
    #expect(both.status == 2)
    #expect(both.stderr == message)
    let piped = try run(["eval", "-"], input: "1\u{0}2\n")
    #expect(piped.status == 2)
    #expect(piped.stderr.contains("- is not a text file"))
  }

  /// A tape's control characters are printed escaped, in the tape and in messages: a tape cannot
  /// recolour the terminal, move its cursor or retitle its window.
  @Test func controlCharactersArePrintedEscaped() throws {
    let tape = "1 2 +\u{1B}[31m\n\u{1B}]0;pwned\u{7} 3 # \u{9B}2J\n\t4\n"
    let eval = try run(["eval", "-"], input: tape)
    #expect(eval.status == 0)
    #expect(
      eval.stdout
        == "1 2 +\\x1b[31m" + String(repeating: " ", count: 16) + "! [1 2]\n\\x1b]0;pwned\\x07 3 # \\x9b2J  ! [1 2 3]\n"
        + "\t4" + String(repeating: " ", count: 24) + "  [1 2 3 4]\n")
    #expect(!eval.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    let check = try run(["check", "-"], input: tape)
    #expect(
      check.stdout
        == "-:1:5: error: unknown word `+\\x1b[31m` [unknown-word]\n"
        + "-:2:1: error: unknown word `\\x1b]0;pwned\\x07` [unknown-word]\n")
  }

  /// Several files, and folders (their `.rpn` files, subfolders included, hidden ones not), for
  /// every command; `eval` heads each tape with its name.
  @Test func foldersAndSeveralFiles() throws {
    let dir = try directory(with: ["a.rpn": "1 2 +\n", "notes.txt": "zz\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    for folder in ["sub", "sub/deep", ".hidden"] {
      try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    try Data("zz\n".utf8).write(to: dir.appendingPathComponent("sub/deep/b.rpn"))
    try Data("4  5\n".utf8).write(to: dir.appendingPathComponent("sub/c.rpn"))
    try Data("yy\n".utf8).write(to: dir.appendingPathComponent(".hidden/d.rpn"))
    let check = try run(["check", "."], in: dir)
    #expect(check.status == 1)
    #expect(check.stdout == "./sub/deep/b.rpn:1:1: error: unknown word `zz` [unknown-word]\n")
    let eval = try run(["eval", "a.rpn", "sub"], in: dir)
    #expect(eval.status == 0)
    #expect(
      eval.stdout
        == "==> a.rpn <==\n1 2 +  [3]\n\n==> sub/c.rpn <==\n4  5  [4 5]\n\n==> sub/deep/b.rpn <==\nzz  ! []\n")
    let format = try run(["format", "--check", "sub/"], in: dir)
    #expect(format.status == 1)
    #expect(format.stderr == "sub/c.rpn: would be reformatted\n")
    let printed = try run(["format", "sub"], in: dir)
    #expect(printed.status == 2)
    #expect(printed.stderr.contains("format prints one tape, and sub names 2: add --write"))
    try Data().write(to: dir.appendingPathComponent("empty.rpn"))
    let empty = try run(["check", ".hidden", "sub/deep"], in: dir)
    #expect(empty.status == 1, "a folder named on its own is searched, even a hidden one")
    #expect(empty.stdout.hasPrefix(".hidden/d.rpn:1:1: error: unknown word `yy`"))
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("none"), withIntermediateDirectories: true)
    let none = try run(["eval", "none"], in: dir)
    #expect(none.status == 2)
    #expect(
      none.stderr
        == "rpn-lsp: none is a folder with no .rpn file in it (or in its subfolders); name the tapes instead\n")
  }

  /// `format tape.rpn > tape.rpn`: the shell empties the file before the command runs. The
  /// command says so instead of printing nothing into it as if all were well.
  @Test func printingIntoTheTapeItselfIsCaught() throws {
    let dir = try directory(with: ["t.rpn": "1  2\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    for command in ["format", "eval", "update"] {
      let result = try runInShell("rpn-lsp \(command) t.rpn > t.rpn", in: dir)
      #expect(result.status == 2, "\(command)")
      #expect(result.stderr.contains("standard output is t.rpn itself: the shell emptied the file"), "\(command)")
      #expect(result.stderr.contains("--write"), "\(command)")
      try Data("1  2\n".utf8).write(to: dir.appendingPathComponent("t.rpn"))
    }
    let other = try runInShell("rpn-lsp format t.rpn > u.rpn && cat u.rpn", in: dir)
    #expect(other.status == 0)
    #expect(other.stdout == "1 2\n")
  }

  /// Lines with diagnostics are marked `! ` before their label, and labels stay in one column.
  @Test func evalMarksLinesWithDiagnostics() throws {
    let result = try run(["eval", "-"], input: "# rpn: decimals=x\n1 2 +\n1 0 /\n\n3\n")
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "# rpn: decimals=x  !\n1 2 +                [3]\n1 0 /              ! [3 1 0]\n\n3                    [3 1 0 3]\n"
    )
    let clean = try run(["eval", "-"], input: "1 2 +\n")
    #expect(clean.stdout == "1 2 +  [3]\n", "no gutter when nothing is wrong")
  }

  /// The largest double, as the overflow messages cite it, is itself a number the tool reads.
  @Test func theOverflowLimitCitedIsANumber() throws {
    let result = try run(["check", "-"], input: "1e308 10 *\n1e999\n")
    #expect(
      result.stdout
        == "-:1:10: warning: `*` of 1e+308 and 10 overflows: the result is beyond ±1.7976931348623157e+308, "
        + "the largest double [overflow]\n"
        + "-:2:1: error: number `1e999` is out of the range of a double (±1.7976931348623157e+308) [invalid-number]\n")
    let limit = try run(["check", "-"], input: "1.7976931348623157e+308 -1.7976931348623157e+308\n")
    #expect(limit.status == 0, "\(limit.stdout)")
  }

  /// Runs a shell command line with the binary's folder first on the PATH.
  private func runInShell(_ command: String, in dir: URL) throws -> Run {
    let binaryFolder = try serverBinary().deletingLastPathComponent().path
    return try run(
      ["sh", "-c", "PATH=\"\(binaryFolder):$PATH\" \(command)"], in: dir,
      executable: URL(fileURLWithPath: "/usr/bin/env"))
  }

  private func readLine(_ handle: FileHandle) throws -> String {
    var bytes: [UInt8] = []
    while bytes.last != 0x0A, let byte = try handle.read(upToCount: 1)?.first { bytes.append(byte) }
    return String(decoding: bytes, as: UTF8.self)
  }
}

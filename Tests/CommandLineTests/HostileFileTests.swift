// Files that are not what they seem: links out of a folder, devices, FIFOs, sockets, huge sparse
// files, names that would drive the terminal or are not UTF-8, and output that is the input.

import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A tape that someone else made, in a folder of the tests' own: it is read by name, or under a
/// folder, by every command, and none of them may leave the folder, hang, or eat the machine.
@Suite struct HostileFileTests {
  /// Under a folder only regular files are read. A link out of it (to a secret, to `/dev/zero`, to
  /// a folder named `x.rpn`), a link inside it, a FIFO and a socket are skipped and named, and the
  /// run goes on with the other tapes; a skipped entry alone does not make the status 2.
  @Test func aFolderTakesOnlyTheRegularFilesInIt() throws {
    let dir = try directory(with: [:])
    defer { try? FileManager.default.removeItem(at: dir) }
    for folder in ["secret", "notes/sub"] {
      try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    let files = ["secret/credentials": "password hunter2\n", "notes/a.rpn": "zz\n", "notes/b.rpn": "1  2 +\n"]
    for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
    let links = [
      "notes/x.rpn": "../secret/credentials", "notes/zero.rpn": "/dev/zero", "notes/sub/random.rpn": "/dev/urandom",
      "notes/dir.rpn": "../secret", "notes/inside.rpn": "a.rpn",
    ]
    for (link, target) in links {
      try FileManager.default.createSymbolicLink(
        atPath: dir.appendingPathComponent(link).path, withDestinationPath: target)
    }
    #expect(mkfifo(dir.appendingPathComponent("notes/fifo.rpn").path, 0o644) == 0)
    try makeSocket(at: dir.appendingPathComponent("notes/sub/socket.rpn"))
    let skipped = """
      rpn-lsp: skipped notes/dir.rpn: it is a symbolic link, which is not followed under a folder; name the file it \
      points to instead
      rpn-lsp: skipped notes/fifo.rpn: it is a FIFO (named pipe), not a file
      rpn-lsp: skipped notes/inside.rpn: it is a symbolic link, which is not followed under a folder; name the file \
      it points to instead
      rpn-lsp: skipped notes/sub/random.rpn: it is a symbolic link, which is not followed under a folder; name the \
      file it points to instead
      rpn-lsp: skipped notes/sub/socket.rpn: it is a socket, not a file
      rpn-lsp: skipped notes/x.rpn: it is a symbolic link, which is not followed under a folder; name the file it \
      points to instead
      rpn-lsp: skipped notes/zero.rpn: it is a symbolic link, which is not followed under a folder; name the file \
      it points to instead

      """

    let check = try run(["check", "notes"], in: dir, timeout: 10)
    #expect(check.status == 1, "\(check.stderr)")
    #expect(check.stdout == "notes/a.rpn:1:1: error: unknown word `zz` [unknown-word]\n")
    #expect(check.stderr == skipped)
    let formatCheck = try run(["format", "--check", "notes"], in: dir, timeout: 10)
    #expect(formatCheck.status == 1)
    #expect(formatCheck.stderr == skipped + "notes/b.rpn: would be reformatted\n")
    let eval = try run(["eval", "notes/"], in: dir, timeout: 10)
    #expect(eval.status == 0)
    #expect(eval.stdout == "==> notes/a.rpn <==\nzz  ! []\n\n==> notes/b.rpn <==\n1  2 +  [3]\n")
    let write = try run(["update", "--add", "--write", "notes"], in: dir, timeout: 10)
    #expect(write.status == 0)
    #expect(write.stderr == skipped + "notes/b.rpn: added 1 check\n")
    let format = try run(["format", "--write", "notes"], in: dir, timeout: 10)
    #expect(format.status == 0)
    #expect(format.stderr == skipped + "notes/b.rpn: reformatted\n")
    #expect(
      try String(contentsOf: dir.appendingPathComponent("secret/credentials"), encoding: .utf8)
        == "password hunter2\n")
    #expect(try String(contentsOf: dir.appendingPathComponent("notes/b.rpn"), encoding: .utf8) == "1 2 + =3\n")
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("notes/x.rpn").path)
        == "../secret/credentials")

    // A folder whose only .rpn entries are skipped holds no tape: that is an error, which says why.
    let none = try run(["check", "notes/sub"], in: dir, timeout: 10)
    #expect(none.status == 2)
    #expect(
      none.stderr
        == "rpn-lsp: skipped notes/sub/random.rpn: it is a symbolic link, which is not followed under a folder; "
        + "name the file it points to instead\n"
        + "rpn-lsp: skipped notes/sub/socket.rpn: it is a socket, not a file\n"
        + "rpn-lsp: notes/sub is a folder with no .rpn file that can be read in it (or in its subfolders): the 2 "
        + "named above were skipped\n")
  }

  /// A device named on the command line is refused before it is opened: `/dev/zero` and
  /// `/dev/urandom` never end. Standard input that is a device is read only up to its first NUL.
  @Test func devicesNamedAreRefused() throws {
    let dir = try directory(with: [:])
    defer { try? FileManager.default.removeItem(at: dir) }
    for device in ["/dev/zero", "/dev/urandom"] {
      for command in [["check"], ["eval"], ["format", "--check"], ["update", "--write"]] {
        let result = try run(command + [device], in: dir, timeout: 10)
        #expect(result.status == 2, "\(command) \(device)")
        #expect(result.stdout == "")
        let message =
          command.last == "--write"
          ? "rpn-lsp: cannot rewrite \(device): it is a device, not a regular file; it is left as it was\n"
          : "rpn-lsp: cannot read \(device): it is a device, not a file: rpn-lsp reads .rpn tapes from files "
            + "(or standard input, -); name the tape instead\n"
        #expect(result.stderr == message, "\(command) \(device)")
      }
    }
    let zero = try runInShell("rpn-lsp check - < /dev/zero", in: dir)
    #expect(zero.status == 2)
    #expect(
      zero.stderr
        == "rpn-lsp: - is not a text file (it holds a NUL byte, at byte 0): rpn-lsp reads .rpn tapes, which are "
        + "text; name the tape instead\n")
  }

  /// A FIFO named is read like any stream (`check <(…)` passes a tape through one), but never
  /// rewritten: `update --write` refuses it at once instead of waiting for a writer in `open`.
  @Test func aFIFOIsReadButNotRewritten() throws {
    let dir = try directory(with: [:])
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("fifo.rpn").path
    #expect(mkfifo(fifo, 0o644) == 0)
    for command in ["update", "format"] {
      let write = try run([command, "--write", "fifo.rpn"], in: dir, timeout: 10)
      #expect(write.status == 2)
      #expect(
        write.stderr
          == "rpn-lsp: cannot rewrite fifo.rpn: it is a FIFO (named pipe), not a regular file; it is left as it was\n")
    }
    Thread.detachNewThread {
      let fd = open(fifo, O_WRONLY)
      guard fd >= 0 else { return }
      _ = "1 2 + =4\n".withCString { write(fd, $0, 9) }
      close(fd)
    }
    let check = try run(["check", "fifo.rpn"], in: dir, timeout: 10)
    #expect(check.status == 1)
    #expect(check.stdout == "fifo.rpn:1:7: warning: expected 4, the top is 3 (3 to a whole number) [check-failed]\n")
    let substituted = try runInShell("rpn-lsp check <(printf '1 2 + =3\\n') && echo clean", in: dir, shell: "bash")
    #expect(substituted.stdout == "clean\n", "\(substituted.stderr)")
  }

  /// The size limit is asked of a regular file before it is read: a sparse 4 GiB file is refused
  /// at once, not allocated whole.
  @Test func aHugeFileIsRefusedByItsSize() throws {
    let dir = try directory(with: ["big.rpn": ""])
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(truncate(dir.appendingPathComponent("big.rpn").path, 4 << 30) == 0)
    for command in [["check"], ["format", "--write"]] {
      let result = try run(command + ["big.rpn"], in: dir, timeout: 10)
      #expect(result.status == 2)
      #expect(result.stderr == "rpn-lsp: big.rpn is too large: the limit is 268435456 bytes\n")
    }
  }

  /// Every message that names a file prints its control characters escaped, and its bytes that
  /// are not UTF-8 as `\xNN`: a name cannot retitle the window or clear the screen.
  @Test func namesArePrintedEscaped() throws {
    let name = "\u{1B}]0;PWNED\u{7}\u{1B}[2J.rpn"
    let shown = "\\x1b]0;PWNED\\x07\\x1b[2J.rpn"
    let dir = try directory(with: [name: "1  2 =4\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let cases: [(arguments: [String], stderr: String)] = [
      (["format", "--check", "."], "./\(shown): would be reformatted\n"),
      (["update", "--check", "."], "./\(shown): 1 failing check would be updated\n"),
      (["update", "--write", "."], "./\(shown): updated 1 failing check\n"),
      (["update", "--write", "."], "nothing changed: ./\(shown) is up to date\n"),
      (["format", "--write", name], "\(shown): reformatted\n"),
      (["format", "--write", name], "nothing changed: \(shown) is formatted already\n"),
    ]
    for (arguments, stderr) in cases {
      let result = try run(arguments, in: dir)
      #expect(result.stderr == stderr, "\(arguments)")
    }
    #expect(try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8) == "1 2 =2\n")
    let missing = try run(["check", "\u{1B}[2Jgone.rpn"], in: dir)
    #expect(missing.stderr == "rpn-lsp: cannot read \\x1b[2Jgone.rpn: there is no such file\n")
  }

  /// A name that is not UTF-8 is found, under a folder and named, and printed with `\xNN`.
  /// Characters that reorder text (U+202E) in a file's name are printed escaped in every message.
  @Test func bidiControlsInNamesArePrintedEscaped() throws {
    let dir = try directory(with: ["ab\u{202E}cd.rpn": "1  2 =4\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(
      try run(["update", "--check", "."], in: dir).stderr == "./ab\\u{202e}cd.rpn: 1 failing check would be updated\n")
    #expect(try run(["format", "--write", "."], in: dir).stderr == "./ab\\u{202e}cd.rpn: reformatted\n")
    #expect(
      try run(["format", "--write", "."], in: dir).stderr
        == "nothing changed: ./ab\\u{202e}cd.rpn is formatted already\n")
  }

  @Test func namesThatAreNotUTF8AreFound() throws {
    let dir = try directory(with: [:])
    defer { try? FileManager.default.removeItem(at: dir) }
    // Latin-1 `é` (0xE9): `caf\xe9.rpn`.
    let path = Array(dir.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".rpn\0".utf8)
    let fd = path.withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
    }
    #expect(fd >= 0)
    _ = "zz  1\n".withCString { write(fd, $0, 6) }
    close(fd)
    let check = try run(["check", "."], in: dir)
    #expect(check.status == 1)
    #expect(check.stdout == "./caf\\xe9.rpn:1:1: error: unknown word `zz` [unknown-word]\n")
    let named = try runInShell("rpn-lsp format --write \"$(printf 'caf\\351.rpn')\"", in: dir)
    #expect(named.status == 0, "\(named.stderr)")
    #expect(named.stderr == "caf\\xe9.rpn: reformatted\n")
    let again = try runInShell("rpn-lsp check \"$(printf 'caf\\351.rpn')\"", in: dir)
    #expect(again.stdout == "caf\\xe9.rpn:1:1: error: unknown word `zz` [unknown-word]\n")
  }

  /// `check t.rpn >> t.rpn` would add its diagnostics to the tape, `check t.rpn > t.rpn` would
  /// report the file the shell emptied as clean, and `check t.rpn 1<> t.rpn` would write its lines
  /// over the tape: all are refused, as for `format`. The message says what the shell did: `>`
  /// emptied the file, `>>` and `1<>` left it as it was.
  @Test func outputIntoTheTapeItselfIsRefused() throws {
    let tape = "1 2 + =4\n"
    let dir = try directory(with: ["t.rpn": tape])
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("t.rpn")
    let instead = "print to another file, or rewrite a tape in place with format --write or update --write"
    for command in ["check", "format", "eval", "update"] {
      let appended = try runInShell("rpn-lsp \(command) t.rpn >> t.rpn", in: dir)
      #expect(appended.status == 2, "\(command)")
      #expect(
        appended.stderr
          == "rpn-lsp: standard output is t.rpn itself, opened with >>: what rpn-lsp prints would be added to the "
          + "tape; \(instead); the file is unchanged\n", "\(command)")
      #expect(try String(contentsOf: file, encoding: .utf8) == tape, "\(command)")
      // Read and write, neither emptied nor appended to: the file is whole, so not "emptied".
      let overwritten = try runInShell("rpn-lsp \(command) t.rpn 1<> t.rpn", in: dir)
      #expect(overwritten.status == 2, "\(command)")
      #expect(
        overwritten.stderr
          == "rpn-lsp: standard output is t.rpn itself, opened for writing without emptying it (as 1<> does): what "
          + "rpn-lsp prints would be written over the tape; \(instead); the file is unchanged\n", "\(command)")
      #expect(try String(contentsOf: file, encoding: .utf8) == tape, "\(command)")
      let emptied = try runInShell("rpn-lsp \(command) t.rpn > t.rpn", in: dir)
      #expect(emptied.status == 2, "\(command)")
      #expect(
        emptied.stderr
          == "rpn-lsp: standard output is t.rpn itself: the shell emptied the file before rpn-lsp could read it. "
          + "Restore it (from a backup or version control); then \(instead)\n", "\(command)")
      try Data(tape.utf8).write(to: file)
    }
  }

  #if os(Linux)
    /// A folder on the way to a tape swapped for a link out after the folder was listed
    /// (`notes/sub -> ../outside`) leads to another file: the tape found is not that one, and the
    /// file outside is not read.
    @Test func aFolderSwappedForALinkMeanwhileIsNotFollowed() throws {
      let dir = try directory(with: [:])
      defer { try? FileManager.default.removeItem(at: dir) }
      for folder in ["notes/sub", "outside"] {
        try FileManager.default.createDirectory(
          at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
      }
      // Slow enough to evaluate (50,000 passing checks, no output) for the swap to come before b.rpn is read.
      let slow = String(repeating: "1 2 + =3\n", count: 50_000)
      let files = ["notes/a.rpn": slow, "notes/sub/b.rpn": "1 2 +\n", "outside/b.rpn": "password hunter2\n"]
      for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
      let result = try runPausing(["check", "notes"], in: dir, afterReading: slow.utf8.count) {
        try FileManager.default.moveItem(
          at: dir.appendingPathComponent("notes/sub"), to: dir.appendingPathComponent("notes/old"))
        try FileManager.default.createSymbolicLink(
          atPath: dir.appendingPathComponent("notes/sub").path, withDestinationPath: "../outside")
      }
      #expect(result.status == 2)
      #expect(result.stdout == "")
      #expect(
        result.stderr
          == "rpn-lsp: cannot read notes/sub/b.rpn: it is another file than when rpn-lsp listed its folder (the file "
          + "or a folder on its way was replaced meanwhile); run the command again\n")
    }
  #endif

  /// Runs a shell command line with the binary's folder first on the PATH.
  private func runInShell(_ command: String, in dir: URL, shell: String = "sh") throws -> Run {
    let binaryFolder = try serverBinary().deletingLastPathComponent().path
    return try run(
      [shell, "-c", "PATH=\"\(binaryFolder):$PATH\" \(command)"], in: dir, timeout: 10,
      executable: URL(fileURLWithPath: "/usr/bin/env"))
  }

  /// A Unix socket bound at `url`, left in place when its descriptor is closed.
  private func makeSocket(at url: URL) throws {
    #if canImport(Glibc)
      let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let path = Array(url.path.utf8)
    try #require(path.count < MemoryLayout.size(ofValue: address.sun_path))
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    try #require(bound == 0)
  }
}

#if os(Linux)
  /// Runs `rpn-lsp` with `arguments` in `dir` and calls `meanwhile` as soon as the command has
  /// read `size` bytes (its count of bytes read, in /proc, reaches it): a file read in one go
  /// has been read, and the command still works on it when the file is large enough. Standard
  /// output is collected only at the end: the command must print little.
  func runPausing(
    _ arguments: [String], in dir: URL, afterReading size: Int, meanwhile: () throws -> Void
  ) throws -> Run {
    let process = Process()
    process.executableURL = try serverBinary()
    process.arguments = arguments
    process.currentDirectoryURL = dir
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let deadline = Date() + 20
    while Date() < deadline {
      let io = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/io", encoding: .utf8)) ?? ""
      let read = io.split(separator: "\n").first { $0.hasPrefix("rchar: ") }.flatMap { Int($0.dropFirst(7)) }
      if let read, read >= size { break }
      usleep(200)
    }
    #expect(process.isRunning, "rpn-lsp ended before the change: the test shows nothing")
    try meanwhile()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
      stderr: String(decoding: errors, as: UTF8.self))
  }
#endif

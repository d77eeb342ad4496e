// `--write` of `update` and `format`: files rewritten in place atomically, or left byte for byte as they were.

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

/// What tells whether a file was touched: its bytes, permission bits, inode (a rename gives a new
/// one) and modification time.
private struct FileState: Equatable, CustomStringConvertible {
  var bytes: [UInt8]
  var mode: UInt32
  var inode: UInt64
  var modified: Int

  init(_ url: URL) throws {
    bytes = Array(try Data(contentsOf: url))
    var info = stat()
    guard lstat(url.path, &info) == 0 else { throw CocoaError(.fileReadNoSuchFile) }
    mode = UInt32(info.st_mode & 0o7777)
    inode = UInt64(info.st_ino)
    #if canImport(Darwin)
      modified = Int(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int(info.st_mtimespec.tv_nsec)
    #else
      modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
    #endif
  }

  var description: String { "\(bytes.count) bytes, mode \(String(mode, radix: 8)), inode \(inode), mtime \(modified)" }
}

/// Sets a file's modification time to 2001, so that a rewrite, which makes it now, shows.
private func age(_ url: URL) throws {
  try FileManager.default.setAttributes(
    [.modificationDate: Date(timeIntervalSinceReferenceDate: 0)], ofItemAtPath: url.path)
}

/// The names in a folder, to see that no temporary file is left behind.
private func names(in dir: URL) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
}

private func chmod(_ url: URL, _ mode: Int) throws {
  try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
}

/// `update --write` and `format --write` replace a file through a temporary file renamed over
/// it, keeping its permissions, and only when it changes; on any error the file stays byte for
/// byte as it was and no temporary file is left. The tests run as root here, whom permission
/// bits do not stop: the command refuses a file, or a folder, that has no write bit for anyone
/// by looking at the bits, so these cases mean the same for root as for anyone.
@Suite struct WriteInPlaceTests {
  @Test func updateWriteRewritesTheFileAndKeepsItsPermissions() throws {
    let dir = try directory(with: ["tape.rpn": UpdateCommandTests.tape])
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("tape.rpn")
    try chmod(file, 0o640)
    let result = try run(["update", "--write", "tape.rpn"], in: dir)
    #expect(result.status == 0)
    #expect(result.stdout == "")
    #expect(result.stderr == "tape.rpn: updated 3 failing checks\n")
    let after = try FileState(file)
    #expect(after.bytes == Array(UpdateCommandTests.updated.utf8))
    #expect(after.mode == 0o640)
    #expect(try names(in: dir) == ["tape.rpn"])

    let added = try run(["update", "--write", "--add", "tape.rpn"], in: dir)
    #expect(added.status == 0)
    #expect(added.stderr == "tape.rpn: added 2 checks\n")
    #expect(try FileState(file).bytes == Array(UpdateCommandTests.added.utf8))
  }

  /// A second `--write` finds nothing to do: it says so and does not touch the file.
  @Test(arguments: [["update", "--write"], ["update", "--write", "--add"], ["format", "--write"]])
  func writingAgainLeavesTheFileAlone(_ command: [String]) throws {
    let dir = try directory(with: ["tape.rpn": UpdateCommandTests.tape])
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("tape.rpn")
    #expect(try run(command + ["tape.rpn"], in: dir).status == 0)
    try age(file)
    let before = try FileState(file)
    let again = try run(command + ["tape.rpn"], in: dir)
    #expect(again.status == 0)
    #expect(again.stdout == "")
    let settled = command[0] == "format" ? "formatted already" : "up to date"
    #expect(again.stderr == "nothing changed: tape.rpn is \(settled)\n")
    #expect(try FileState(file) == before)
  }

  @Test func writeTakesSeveralFilesAndNamesThoseItChanged() throws {
    let dir = try directory(with: ["a.rpn": "1 2 + =4\n", "b.rpn": "1 2 + =3\n", "c.rpn": "10 3 / =3.3 # third\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["update", "--write", "a.rpn", "b.rpn", "c.rpn"], in: dir)
    #expect(result.status == 0)
    #expect(result.stderr == "a.rpn: updated 1 failing check\n")
    #expect(try String(contentsOf: dir.appendingPathComponent("a.rpn"), encoding: .utf8) == "1 2 + =3\n")
    let unchanged = try run(["update", "--write", "a.rpn", "b.rpn", "c.rpn"], in: dir)
    #expect(unchanged.stderr == "nothing changed: the 3 files are up to date\n")
  }

  @Test func formatWriteRewritesTheFiles() throws {
    let dir = try directory(with: ["messy.rpn": FormatCommandTests.messy, "clean.rpn": "1 2 +\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let clean = dir.appendingPathComponent("clean.rpn")
    try chmod(dir.appendingPathComponent("messy.rpn"), 0o604)
    try age(clean)
    let cleanBefore = try FileState(clean)
    let result = try run(["format", "--write", "messy.rpn", "clean.rpn"], in: dir)
    #expect(result.status == 0)
    #expect(result.stdout == "")
    #expect(result.stderr == "messy.rpn: reformatted\n")
    let messy = try FileState(dir.appendingPathComponent("messy.rpn"))
    #expect(messy.bytes == Array(FormatCommandTests.formatted.utf8))
    #expect(messy.mode == 0o604)
    #expect(try FileState(clean) == cleanBefore)
    #expect(try run(["format", "--check", "messy.rpn", "clean.rpn"], in: dir).status == 0)
    #expect(try names(in: dir) == ["clean.rpn", "messy.rpn"])
  }

  /// A symbolic link stays a link: the file it points to gets the new text.
  @Test func writeThroughALinkReplacesTheFileItPointsTo() throws {
    let dir = try directory(with: ["tape.rpn": "1   2 +\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let link = dir.appendingPathComponent("link.rpn").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "tape.rpn")
    let result = try run(["format", "--write", "link.rpn"], in: dir)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "link.rpn: reformatted\n")
    #expect(try String(contentsOf: dir.appendingPathComponent("tape.rpn"), encoding: .utf8) == "1 2 +\n")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "tape.rpn")
    #expect(try names(in: dir) == ["link.rpn", "tape.rpn"])
  }

  // MARK: Failures leave the file as it was

  /// Runs `arguments` in `dir` and expects a refusal: status 2, nothing on standard output, a
  /// message naming `file` and saying `why`, the file byte for byte (and mode and inode and
  /// time) as it was, and no temporary file left in `dir`.
  private func expectRefusal(
    _ arguments: [String], in dir: URL, file: String, saying why: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let url = dir.appendingPathComponent(file)
    let before = try? FileState(url)
    let namesBefore = try names(in: dir)
    let result = try run(arguments, in: dir)
    #expect(result.status == 2, "\(arguments)", sourceLocation: sourceLocation)
    #expect(result.stdout == "", "\(arguments)", sourceLocation: sourceLocation)
    #expect(result.stderr.hasPrefix("rpn-lsp: "), "\(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.contains(file), "\(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.contains(why), "\(result.stderr)", sourceLocation: sourceLocation)
    #expect((try? FileState(url)) == before, "\(arguments)", sourceLocation: sourceLocation)
    #expect(try names(in: dir) == namesBefore, "a temporary file was left", sourceLocation: sourceLocation)
  }

  @Test(arguments: ["update", "format"])
  func aReadOnlyFileIsRefused(_ command: String) throws {
    let dir = try directory(with: ["tape.rpn": "1   =2\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    try chmod(dir.appendingPathComponent("tape.rpn"), 0o444)
    try expectRefusal([command, "--write", "tape.rpn"], in: dir, file: "tape.rpn", saying: "the file is read-only")
    // Reading it is fine.
    #expect(try run([command, "tape.rpn"], in: dir).status == 0)
    // A read-only file that would not change is not written, so not refused either.
    let settled = try run([command, "tape.rpn"], in: dir).stdout
    try chmod(dir.appendingPathComponent("tape.rpn"), 0o644)
    try Data(settled.utf8).write(to: dir.appendingPathComponent("tape.rpn"))
    try chmod(dir.appendingPathComponent("tape.rpn"), 0o444)
    let unchanged = try run([command, "--write", "tape.rpn"], in: dir)
    #expect(unchanged.status == 0)
    #expect(unchanged.stderr.hasPrefix("nothing changed: tape.rpn is "))
  }

  @Test(arguments: ["update", "format"])
  func aFolderIsRefused(_ command: String) throws {
    let dir = try directory(with: [:])
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("sub.rpn"), withIntermediateDirectories: false)
    let result = try run([command, "--write", "sub.rpn"], in: dir)
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "rpn-lsp: sub.rpn is a folder with no .rpn file in it (or in its subfolders); name the tapes instead\n")
    #expect(try names(in: dir.appendingPathComponent("sub.rpn")) == [])
  }

  @Test(arguments: ["update", "format"])
  func aMissingFileIsReportedAndNotCreated(_ command: String) throws {
    let dir = try directory(with: [:])
    defer { try? FileManager.default.removeItem(at: dir) }
    for path in ["missing.rpn", "no-such-folder/tape.rpn"] {
      let result = try run([command, "--write", path], in: dir)
      #expect(result.status == 2)
      #expect(result.stderr == "rpn-lsp: cannot read \(path): there is no such file\n")
      #expect(try names(in: dir) == [])
    }
  }

  /// Written back, invalid UTF-8 would come out as U+FFFD: the file is refused, whatever the change.
  @Test(arguments: ["update", "format"])
  func aFileThatIsNotUTF8IsRefused(_ command: String) throws {
    let dir = try directory(with: [:])
    defer { try? FileManager.default.removeItem(at: dir) }
    // Latin-1 `é` (0xE9) on the second line, third character; a check that fails, spaces to format.
    let bytes: [UInt8] = Array("1 =2\n".utf8) + [0x31, 0x20, 0xE9, 0x20, 0x20, 0x32, 0x0A]
    try Data(bytes).write(to: dir.appendingPathComponent("latin1.rpn"))
    try expectRefusal(
      [command, "--write", "latin1.rpn"], in: dir, file: "latin1.rpn", saying: "is not valid UTF-8 (line 2, column 3)")
  }

  /// The temporary file goes beside the original: a folder that no one may write stops it
  /// before anything is written.
  @Test(arguments: ["update", "format"])
  func aReadOnlyFolderIsRefused(_ command: String) throws {
    let dir = try directory(with: [:])
    let folder = dir.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    try Data("1   =2\n".utf8).write(to: folder.appendingPathComponent("tape.rpn"))
    try chmod(folder, 0o555)
    defer {
      try? chmod(folder, 0o755)
      try? FileManager.default.removeItem(at: dir)
    }
    try expectRefusal(
      [command, "--write", "tape.rpn"], in: folder, file: "tape.rpn", saying: "the current folder is read-only")
    let nested = try run([command, "--write", "locked/tape.rpn"], in: dir)
    #expect(nested.status == 2)
    #expect(nested.stderr.contains("cannot write locked/tape.rpn: the folder locked is read-only"), "\(nested.stderr)")
  }

  /// One file that cannot be written does not stop the others; the status says something failed.
  @Test func aFailureAmongSeveralFilesStopsOnlyThatFile() throws {
    let dir = try directory(with: ["a.rpn": "1  2\n", "locked.rpn": "1  2\n", "c.rpn": "3  4\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    try chmod(dir.appendingPathComponent("locked.rpn"), 0o444)
    let result = try run(["format", "--write", "a.rpn", "locked.rpn", "missing.rpn", "c.rpn"], in: dir)
    #expect(result.status == 2)
    #expect(
      result.stderr.split(separator: "\n").map { $0.split(separator: ":").prefix(2).joined(separator: ":") } == [
        "a.rpn: reformatted", "rpn-lsp: cannot write locked.rpn", "rpn-lsp: cannot read missing.rpn",
        "c.rpn: reformatted",
      ])
    #expect(try String(contentsOf: dir.appendingPathComponent("a.rpn"), encoding: .utf8) == "1 2\n")
    #expect(try String(contentsOf: dir.appendingPathComponent("locked.rpn"), encoding: .utf8) == "1  2\n")
    #expect(try String(contentsOf: dir.appendingPathComponent("c.rpn"), encoding: .utf8) == "3 4\n")
  }

  @Test func usageErrorsSayWhatToChange() throws {
    let dir = try directory(with: ["a.rpn": "1  2\n", "b.rpn": "2\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let cases: [(arguments: [String], message: String)] = [
      (["format", "--write", "-"], "--write cannot rewrite standard input"),
      (["format", "-", "a.rpn"], "- (standard input) must be the only file"),
      (["format", "a.rpn", "b.rpn"], "add --write to rewrite each in place, or --check"),
      (["format", "--check", "--write", "a.rpn"], "--check and --write exclude each other"),
      (["format", "--precision", "3", "a.rpn"], "format does not take --precision"),
      (["eval", "--write", "a.rpn"], "eval does not take --write"),
      (["check", "--write", "a.rpn"], "check does not take --write"),
    ]
    try expectUsageErrors(cases, in: dir)
    #expect(try Data(contentsOf: dir.appendingPathComponent("a.rpn")) == Data("1  2\n".utf8))
  }

  // MARK: Changed behind our back

  #if os(Linux)
    /// A `chmod` while `update --write` works changes only the status-change time: the file is
    /// left as it is, with its new mode, not replaced by a file with the old one.
    @Test func aChmodMeanwhileIsNotUndone() throws {
      let (dir, file) = try largeTape()
      defer { try? FileManager.default.removeItem(at: dir) }
      try chmod(file, 0o644)
      let before = try FileState(file)
      let result = try updateWrite(file, in: dir) { try chmod(file, 0o600) }
      #expect(result.status == 2)
      #expect(
        result.stderr
          == "rpn-lsp: cannot write tape.rpn: it changed while rpn-lsp was working on it; run the command again; "
          + "the file is as the other program left it\n")
      let after = try FileState(file)
      #expect(after.mode == 0o600)
      #expect(after.bytes == before.bytes)
      #expect(after.inode == before.inode)
      #expect(try names(in: dir) == ["tape.rpn"])
    }

    /// An edit of the same size whose modification time is set back (`touch -d`, a copy that keeps
    /// times) is seen by the status-change time, which no one can set back: the edit stays.
    @Test func aSameSizeEditWithItsTimeSetBackIsKept() throws {
      let (dir, file) = try largeTape()
      defer { try? FileManager.default.removeItem(at: dir) }
      var times = stat()
      #expect(lstat(file.path, &times) == 0)
      let edit = Array("9 9 + =18".utf8)
      let result = try updateWrite(file, in: dir) {
        let fd = open(file.path, O_WRONLY)
        #expect(fd >= 0)
        #expect(write(fd, edit, edit.count) == edit.count)
        close(fd)
        var restored = [times.st_atim, times.st_mtim]
        #expect(utimensat(AT_FDCWD, file.path, &restored, 0) == 0)
      }
      #expect(result.status == 2)
      #expect(result.stderr.contains("cannot write tape.rpn: it changed while rpn-lsp was working on it"))
      let after = try FileState(file)
      #expect(after.bytes.prefix(edit.count).elementsEqual(edit), "the edit was overwritten")
      #expect(try names(in: dir) == ["tape.rpn"])
    }

    /// A tape of 50,000 failing checks (450 KB): evaluating it takes long enough for another
    /// program to change the file between the read and the rename.
    private func largeTape() throws -> (URL, URL) {
      let dir = try directory(with: ["tape.rpn": String(repeating: "1 2 + =4\n", count: 50_000)])
      return (dir, dir.appendingPathComponent("tape.rpn"))
    }

    /// Runs `update --write` on `file` and calls `meanwhile` once the command has read it, while
    /// it still works (see `runPausing`).
    private func updateWrite(_ file: URL, in dir: URL, meanwhile: () throws -> Void) throws -> Run {
      try runPausing(
        ["update", "--write", file.lastPathComponent], in: dir, afterReading: try FileState(file).bytes.count,
        meanwhile: meanwhile)
    }
  #endif
}

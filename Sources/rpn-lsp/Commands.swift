// The commands `eval`, `check`, `format` and `update`: reading tapes, printing, rewriting them in place.

import JSONRPC
import RPNEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes all of `text` to a file descriptor (standard output or standard error).
func emit(_ text: String, to fd: Int32) {
  writeAll(Array(text.utf8), to: fd)
}

/// Text gathered into blocks of 64 KiB before it is written: a report of many lines is a few
/// writes, not one per line. `flush()` writes what is left.
struct BufferedOutput {
  private static let blockSize = 1 << 16
  let fd: Int32
  private var bytes: [UInt8] = []

  init(fd: Int32) {
    self.fd = fd
    bytes.reserveCapacity(Self.blockSize)
  }

  mutating func write(_ text: String) {
    bytes.append(contentsOf: text.utf8)
    if bytes.count >= Self.blockSize { flush() }
  }

  mutating func flush() {
    writeAll(bytes, to: fd)
    bytes.removeAll(keepingCapacity: true)
  }
}

/// Ends the program on a usage or I/O error: the message on standard error, exit status 2.
func fail(_ message: String) -> Never {
  emit("rpn-lsp: \(ControlCharacters.escaped(message))\n", to: STDERR_FILENO)
  exit(2)
}

/// Reads and evaluates a tape; invalid UTF-8 is read as U+FFFD (see `readFile`).
func loadDocument(_ path: TapePath, _ options: Options) throws(FileError) -> Document {
  try evaluate(readFile(path), path: path, options)
}

/// Evaluates a file's contents with the options' settings.
func evaluate(_ contents: FileContents, path: TapePath, _ options: Options) throws(FileError) -> Document {
  do {
    return try Document(utf8: contents.bytes, overriding: options.settings)
  } catch {
    throw .tooLarge(path: path.shown, limit: Document.maximumUTF8Count)
  }
}

/// The command line's files, folders expanded to the tapes in them; a usage error when there are
/// none. `-` (standard input) must be the only one. What a folder holds that is not taken (see
/// `expandFolders`) is named on standard error, and the run goes on without it.
func tapeFiles(_ options: Options, for command: Command) -> [TapePath] {
  guard !options.files.isEmpty else { fail("\(command.rawValue) takes a file, a folder or - (standard input)") }
  if options.files.contains("-") && options.files.count > 1 { fail("- (standard input) must be the only file") }
  var skipped: [(TapePath, String)] = []
  let result = Result { () throws(FileError) in try expandFolders(tapePaths(options.files), skipped: &skipped) }
  for (path, reason) in skipped {
    emit("rpn-lsp: skipped \(path.shown): \(ControlCharacters.escaped(reason))\n", to: STDERR_FILENO)
  }
  switch result {
  case .success(let tapes): return tapes
  case .failure(let error): fail(error.message)
  }
}

/// `eval FILE…`: each tape with its stack labels on standard output (under a `==> FILE <==`
/// line when there are several), diagnostics on standard error.
func runEval(_ arguments: ArraySlice<String>) -> Int32 {
  let options: Options
  do { options = try parseOptions(arguments, for: .eval) } catch { fail(error.message) }
  let files = tapeFiles(options, for: .eval)
  var failed = false
  for (index, path) in files.enumerated() {
    do throws(FileError) {
      if let how = standardOutputIs(path) { throw .outputIsInput(path: path.shown, how: how) }
      let document = try loadDocument(path, options)
      let display = document.display(over: DisplaySettings())
      let header = files.count > 1 ? (index > 0 ? "\n" : "") + "==> \(path.shown) <==\n" : ""
      emit(header + TapeReport.annotated(document, display: display), to: STDOUT_FILENO)
      var output = BufferedOutput(fd: STDERR_FILENO)
      TapeReport.forEachDiagnosticLine(document, fileName: path.shown, display: display) { output.write($0 + "\n") }
      output.flush()
    } catch {
      emit("rpn-lsp: \(ControlCharacters.escaped(error.message))\n", to: STDERR_FILENO)
      failed = true
    }
  }
  return failed ? 2 : 0
}

/// `check FILE…`: one line per diagnostic on standard output; 1 when there are any. A file that
/// is standard output itself is refused: `>` emptied it, `>>` would add the lines to it, and `1<>`
/// would write them over it.
func runCheck(_ arguments: ArraySlice<String>) -> Int32 {
  let options: Options
  do { options = try parseOptions(arguments, for: .check) } catch { fail(error.message) }
  var status: Int32 = 0
  var unreadable = false
  for path in tapeFiles(options, for: .check) {
    do throws(FileError) {
      if let how = standardOutputIs(path) { throw .outputIsInput(path: path.shown, how: how) }
      let document = try loadDocument(path, options)
      var output = BufferedOutput(fd: STDOUT_FILENO)
      var any = false
      TapeReport.forEachDiagnosticLine(
        document, fileName: path.shown, display: document.display(over: DisplaySettings())
      ) { line in
        output.write(line + "\n")
        any = true
      }
      output.flush()
      if any { status = 1 }
    } catch {
      emit("rpn-lsp: \(ControlCharacters.escaped(error.message))\n", to: STDERR_FILENO)
      unreadable = true
    }
  }
  return unreadable ? 2 : status
}

/// What a rewriting command (`format`, `update`) makes of one tape.
struct Rewrite {
  /// The tape's new text.
  var text: String
  /// What was done, for `--write`: "reformatted", "updated 2 failing checks".
  var done: String
  /// What would be done, for `--check`: "would be reformatted", "2 failing checks would be updated".
  var wouldBeDone: String
}

/// `format FILE|-`: the formatted tape (the server's formatter).
func runFormat(_ arguments: ArraySlice<String>) -> Int32 {
  runRewriting(.format, arguments, settled: "formatted already") { document, _ in
    Rewrite(text: Formatter.format(document), done: "reformatted", wouldBeDone: "would be reformatted")
  }
}

/// `update FILE|-`: the tape with every failing check updated to the current value and, with
/// `--add`, a check added to every line with tokens that has none.
func runUpdate(_ arguments: ArraySlice<String>) -> Int32 {
  runRewriting(.update, arguments, settled: "up to date") { document, options in
    let updates = document.checkUpdates()
    let additions = options.add ? document.checkAdditions(display: document.display(over: DisplaySettings())) : []
    var done: [String] = []
    var wouldBeDone: [String] = []
    if !updates.isEmpty {
      done.append("updated " + counted(updates.count, "failing check"))
      wouldBeDone.append(counted(updates.count, "failing check") + " would be updated")
    }
    if !additions.isEmpty {
      done.append("added " + counted(additions.count, "check"))
      wouldBeDone.append(counted(additions.count, "check") + " would be added")
    }
    return Rewrite(
      text: document.applying(updates + additions), done: done.joined(separator: ", "),
      wouldBeDone: wouldBeDone.joined(separator: ", "))
  }
}

/// `n` things, singular or plural: "1 check", "2 checks".
private func counted(_ n: Int, _ thing: String) -> String {
  "\(n) \(thing)\(n == 1 ? "" : "s")"
}

/// Runs a command that rewrites tapes: it prints the new text of one file (or standard input);
/// with `--check` it prints nothing, names on standard error each file that would change, and
/// exits 1 if one would; with `--write` it replaces each file that changes (`replaceContents`)
/// and names it on standard error, or says that nothing changed. `settled` says how a file that
/// would not change is ("formatted already", "up to date"). Files that cannot be read or written
/// are reported and the others still done; the status is then 2.
private func runRewriting(
  _ command: Command, _ arguments: ArraySlice<String>, settled: String,
  rewrite: (Document, Options) -> Rewrite
) -> Int32 {
  let options: Options
  do { options = try parseOptions(arguments, for: command) } catch { fail(error.message) }
  let name = command.rawValue
  if options.checkOnly && options.write {
    fail("--check and --write exclude each other: --check only reports the files --write would change")
  }
  if options.write && options.files.contains("-") {
    fail("--write cannot rewrite standard input: leave it out to print the result")
  }
  let files = tapeFiles(options, for: command)
  guard files.count == 1 || options.checkOnly || options.write else {
    // `fail` escapes the message, names included.
    fail(
      "\(name) prints one tape, and \(options.files.joined(separator: " ")) names \(files.count): add --write to "
        + "rewrite each in place, or --check to list those that would change")
  }
  var status: Int32 = 0
  var failed = false
  var rewritten = 0
  for path in files {
    do throws(FileError) {
      if !options.checkOnly && !options.write, let how = standardOutputIs(path) {
        throw .outputIsInput(path: path.shown, how: how)
      }
      // Only a file that is written back must be valid UTF-8: printing shows U+FFFD for bad bytes.
      let contents = try readFile(path, forRewriting: options.write)
      let result = rewrite(try evaluate(contents, path: path, options), options)
      // Compared with the text as read, so that U+FFFD read for a bad byte is no change: that
      // file is printed or checked like any other (with --write, bad bytes were refused above).
      // Byte for byte: `==` on strings would take `é` and `e\u{301}` for the same.
      let changed = !result.text.utf8.elementsEqual(contents.text.utf8)
      if options.checkOnly {
        guard changed else { continue }
        emit("\(path.shown): \(result.wouldBeDone)\n", to: STDERR_FILENO)
        status = 1
      } else if options.write {
        guard changed, let original = contents.status else { continue }
        try replaceContents(of: path, with: Array(result.text.utf8), original: original)
        emit("\(path.shown): \(result.done)\n", to: STDERR_FILENO)
        rewritten += 1
      } else {
        emit(result.text, to: STDOUT_FILENO)
      }
    } catch {
      emit("rpn-lsp: \(ControlCharacters.escaped(error.message))\n", to: STDERR_FILENO)
      failed = true
    }
  }
  if options.write && rewritten == 0 && !failed {
    let subject = files.count == 1 ? "\(files[0].shown) is" : "the \(files.count) files are"
    emit("nothing changed: \(subject) \(settled)\n", to: STDERR_FILENO)
  }
  return failed ? 2 : status
}

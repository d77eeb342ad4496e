// The commands `eval`, `check` and `format`: reading tapes and printing what they ask for.

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

/// Ends the program on a usage or I/O error: the message on standard error, exit status 2.
func fail(_ message: String) -> Never {
  emit("rpn-lsp: \(message)\n", to: STDERR_FILENO)
  exit(2)
}

/// Reads and evaluates a tape.
func loadDocument(_ path: String, _ options: Options) -> Result<Document, UsageError> {
  switch readText(path) {
  case .failure(let error): return .failure(error)
  case .success(let text):
    do {
      return .success(try Document(text: text, settings: options.evaluation))
    } catch {
      return .failure(UsageError(message: "\(path) is too large: the limit is \(Document.maximumUTF8Count) bytes"))
    }
  }
}

/// `eval FILE|-`: the tape with its stack labels on standard output, diagnostics on standard error.
func runEval(_ arguments: ArraySlice<String>) -> Int32 {
  let options: Options
  do { options = try parseOptions(arguments) } catch { fail(error.message) }
  guard options.files.count == 1, let path = options.files.first else {
    fail("eval takes one file (or - for standard input)")
  }
  switch loadDocument(path, options) {
  case .failure(let error): fail(error.message)
  case .success(let document):
    emit(TapeReport.annotated(document, display: options.display), to: STDOUT_FILENO)
    for line in TapeReport.diagnosticLines(document, fileName: path) { emit(line + "\n", to: STDERR_FILENO) }
    return 0
  }
}

/// `check FILE…`: one line per diagnostic on standard output; 1 when there are any.
func runCheck(_ arguments: ArraySlice<String>) -> Int32 {
  let options: Options
  do { options = try parseOptions(arguments) } catch { fail(error.message) }
  guard !options.files.isEmpty else { fail("check takes at least one file (or - for standard input)") }
  var status: Int32 = 0
  var unreadable = false
  for path in options.files {
    switch loadDocument(path, options) {
    case .failure(let error):
      emit("rpn-lsp: \(error.message)\n", to: STDERR_FILENO)
      unreadable = true
    case .success(let document):
      let lines = TapeReport.diagnosticLines(document, fileName: path)
      for line in lines { emit(line + "\n", to: STDOUT_FILENO) }
      if !lines.isEmpty { status = 1 }
    }
  }
  return unreadable ? 2 : status
}

/// `format FILE|-`: the formatted tape on standard output (the server's formatter); with
/// `--check`, nothing printed there, a note on standard error, and exit 1 when it would change.
func runFormat(_ arguments: ArraySlice<String>) -> Int32 {
  let options: Options
  do { options = try parseOptions(arguments) } catch { fail(error.message) }
  guard options.files.count == 1, let path = options.files.first else {
    fail("format takes one file (or - for standard input)")
  }
  switch loadDocument(path, options) {
  case .failure(let error): fail(error.message)
  case .success(let document):
    let formatted = Formatter.format(document)
    if options.checkOnly {
      guard formatted != document.text else { return 0 }
      emit("\(path): would be reformatted\n", to: STDERR_FILENO)
      return 1
    }
    emit(formatted, to: STDOUT_FILENO)
    return 0
  }
}

// The executable: the command line (`eval`, `check`, `format`, `--version`, `--help`) and serving LSP on stdio.

import JSONRPC
import RPNEngine
import RPNLanguageServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

let version = Server.version

let usage = """
  usage: rpn-lsp [--stdio]               serve LSP on standard input and output
         rpn-lsp eval FILE|- [OPTIONS]   print the tape with the stack after each line
         rpn-lsp check FILE… [OPTIONS]   print diagnostics; exit 1 when there are any
         rpn-lsp format FILE|- [--check] print the tape formatted; --check: exit 1 if it would change
         rpn-lsp --version | --help

  options of eval and check:
    --precision N            significant digits shown, 1 to 17 (default 15)
    --max-items N            values shown per stack label before "…" (default 8)
    --angle-unit radians|degrees
                             unit of sin, cos, tan and their inverses (default radians)

  exit status: 0 fine; 1 check found diagnostics (or format --check found changes);
  2 usage or I/O error.
  eval prints diagnostics on standard error and exits 0 once the file was read.

  """

/// A command line that cannot be acted on; the message says what to change.
struct UsageError: Error {
  var message: String
}

struct Options {
  var display = DisplaySettings()
  var evaluation = EvaluationSettings()
  var files: [String] = []
  var checkOnly = false
}

func parseOptions(_ arguments: ArraySlice<String>) throws(UsageError) -> Options {
  var options = Options()
  var arguments = arguments
  func value(of flag: String) throws(UsageError) -> String {
    guard let value = arguments.popFirst() else { throw UsageError(message: "\(flag) needs a value") }
    return value
  }
  var onlyFiles = false
  while let argument = arguments.popFirst() {
    if onlyFiles || argument == "-" || !argument.hasPrefix("-") {
      options.files.append(argument)
      continue
    }
    switch argument {
    case "--":
      onlyFiles = true
    case "--check":
      options.checkOnly = true
    case "--precision":
      let text = try value(of: argument)
      guard let n = Int(text), (1...17).contains(n) else {
        throw UsageError(message: "--precision takes a whole number from 1 to 17, not '\(text)'")
      }
      options.display.precision = n
    case "--max-items":
      let text = try value(of: argument)
      guard let n = Int(text), n >= 1 else {
        throw UsageError(message: "--max-items takes a whole number of at least 1, not '\(text)'")
      }
      options.display.maxItems = n
    case "--angle-unit":
      let text = try value(of: argument)
      guard let unit = AngleUnit(rawValue: text) else {
        throw UsageError(message: "--angle-unit takes 'radians' or 'degrees', not '\(text)'")
      }
      options.evaluation.angleUnit = unit
    default:
      throw UsageError(message: "unknown option '\(argument)' (see rpn-lsp --help)")
    }
  }
  return options
}

/// Reads a whole file, or standard input for `-`. Invalid UTF-8 becomes U+FFFD.
func readText(_ path: String) -> Result<String, UsageError> {
  let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY)
  guard fd >= 0 else {
    return .failure(UsageError(message: "cannot read \(path): \(String(cString: strerror(errno)))"))
  }
  defer { if fd != STDIN_FILENO { close(fd) } }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if n == 0 { break }
    if n < 0 {
      if errno == EINTR { continue }
      return .failure(UsageError(message: "cannot read \(path): \(String(cString: strerror(errno)))"))
    }
    bytes.append(contentsOf: chunk[..<n])
  }
  return .success(String(decoding: bytes, as: UTF8.self))
}

/// Writes all of `text` to a file descriptor (standard output or standard error).
func emit(_ text: String, to fd: Int32) {
  writeAll(Array(text.utf8), to: fd)
}

func fail(_ message: String) -> Never {
  emit("rpn-lsp: \(message)\n", to: STDERR_FILENO)
  exit(2)
}

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

/// Serves LSP on standard input and output until `exit` or the end of input.
func serve() -> Int32 {
  // A client that goes away must end us through end of input, not a signal on the next write.
  signal(SIGPIPE, SIG_IGN)
  let transport = StdioTransport()
  let server = Server(send: { transport.send($0) }, log: { emit("rpn-lsp: \($0)\n", to: STDERR_FILENO) })
  transport.start()
  while let batch = transport.nextBatch() {
    server.handle(batch)
    if let status = server.exitStatus { return status }
  }
  server.inputEnded()
  return server.exitStatus ?? 1
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

let arguments = CommandLine.arguments.dropFirst()
let status: Int32
switch arguments.first {
case "eval": status = runEval(arguments.dropFirst())
case "check": status = runCheck(arguments.dropFirst())
case "format": status = runFormat(arguments.dropFirst())
case "--version":
  emit("rpn-lsp \(version)\n", to: STDOUT_FILENO)
  status = 0
case "--help", "-h", "help":
  emit(usage, to: STDOUT_FILENO)
  status = 0
default:
  // No arguments, `--stdio` (some clients add it twice), or flags an editor adds: serve LSP.
  if let first = arguments.first, !first.hasPrefix("-") {
    fail("unknown command '\(first)' (see rpn-lsp --help)")
  }
  status = serve()
}
exit(status)

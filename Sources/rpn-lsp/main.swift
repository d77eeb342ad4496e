// The executable's entry: the usage text, choosing a command, and serving LSP on stdio.

import JSONRPC
import RPNLanguageServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = """
  usage: rpn-lsp [--stdio]               serve LSP on standard input and output
         rpn-lsp eval FILE…|- [OPTIONS]  print the tape with the stack after each line
         rpn-lsp check FILE…|- [OPTIONS] print diagnostics; exit 1 when there are any
         rpn-lsp format FILE|- [--check | --write]
                                         print the tape formatted
         rpn-lsp update FILE|- [--add] [--angle-unit U] [DISPLAY] [--check | --write]
                                         print the tape with every failing check =VALUE updated
                                         to the value the tape computes now
         rpn-lsp --version | --help

  options of eval and check (a value follows its flag, or joins it: --precision=4):
    --precision N            significant digits shown in auto notation, 1 to 17 (default 15)
    --max-items N            values shown per stack label before "…", 1 to 1000 (default 8)
    --angle-unit radians|degrees
                             unit of sin, cos, tan and their inverses (default radians)
  and the display options (eval, check and update):
    --notation auto|fixed|scientific|engineering
                             how values are written (default auto: like %.15g); fixed: N
                             decimals; scientific: one digit, N decimals, an exponent;
                             engineering: an exponent that is a multiple of 3
    --decimals N             the N of fixed, scientific and engineering, 0 to 15 (default 2)
    --grouping, --no-grouping
                             commas between thousands in auto and fixed notation (default off)
  These override the tape's own settings line (# rpn: notation=fixed decimals=2 …), which
  overrides the defaults. update writes a check it adds in the notation (auto: in full).

  options of format and update (with --check or --write they take several files):
    --check                  print nothing; name each file that would change on standard error
                             and exit 1 if one would (update: a check fails or, with --add, a
                             line has no check)
    --write                  rewrite each file that changes in place, and name it on standard
                             error (or say that nothing changed); not with - (standard input).
                             Atomic: a temporary file beside it, synced, renamed over it, with the
                             file's permissions; on any error the file is left as it was
    --add                    update: also add a check =VALUE after the last token of every line
                             that has tokens, no check and a value on the stack
    --angle-unit radians|degrees
                             update: as for eval (the values checked depend on it)

  exit status: 0 fine; 1 check found diagnostics, or format/update --check found a file that
  would change; 2 usage or I/O error (a file that cannot be read, or cannot be written back:
  read-only, a folder, not valid UTF-8).
  eval prints diagnostics on standard error and exits 0 once the file was read.

  """

/// Serves LSP on standard input and output until `exit` or the end of input.
func serve() -> Int32 {
  // A client that goes away must end us through end of input, not a signal on the next write.
  signal(SIGPIPE, SIG_IGN)
  let transport = StdioTransport()
  let cancels = ArrivedCancels()
  let server = Server(
    send: { transport.send($0) }, log: { emit("rpn-lsp: \($0)\n", to: STDERR_FILENO) }, cancels: cancels)
  transport.start(noticing: cancels.notice)
  while let batch = transport.nextBatch() {
    server.handle(batch)
    if let status = server.exitStatus { return status }
  }
  server.inputEnded()
  return server.exitStatus ?? 1
}

/// An argument as a shell reads it back: as it is when it has only characters no shell treats
/// specially, else in single quotes (a `'` in it as `'\''`), so that the command shown can be
/// pasted as it is.
func shellWord(_ argument: String) -> String {
  let plain = argument.unicodeScalars.allSatisfy { scalar in
    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-/+,:@".unicodeScalars.contains(scalar)
  }
  if plain && !argument.isEmpty { return argument }
  return "'" + argument.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
}

let arguments = CommandLine.arguments.dropFirst()
let status: Int32
switch arguments.first {
case "eval": status = runEval(arguments.dropFirst())
case "check": status = runCheck(arguments.dropFirst())
case "format": status = runFormat(arguments.dropFirst())
case "update": status = runUpdate(arguments.dropFirst())
case "--version":
  emit("rpn-lsp \(Server.version)\n", to: STDOUT_FILENO)
  status = 0
case "--help", "-h", "help":
  emit(usage, to: STDOUT_FILENO)
  status = 0
default:
  // No arguments, `--stdio` (some clients add it twice), or flags an editor adds: serve LSP.
  if let first = arguments.first, !first.hasPrefix("-") {
    // A tape given without a command is what a newcomer types first: say the command it needs.
    if first.lowercased().hasSuffix(".rpn") || access(first, F_OK) == 0 {
      fail("unknown command '\(first)'; to evaluate a tape: rpn-lsp eval \(shellWord(first))")
    }
    fail("unknown command '\(first)' (see rpn-lsp --help)")
  }
  // Editors pass flags of their own, so an unknown one does not stop the server; but a person who
  // mistyped one (`--verison`) should not wait on a silent server.
  for flag in arguments where flag != "--stdio" {
    emit("rpn-lsp: ignoring unknown option '\(flag)' and serving LSP (see rpn-lsp --help)\n", to: STDERR_FILENO)
  }
  if isatty(STDIN_FILENO) == 1 {
    emit(
      "rpn-lsp: serving LSP on standard input and output, as an editor starts it; "
        + "press Ctrl-D to stop. To try a tape: rpn-lsp eval FILE; for more: rpn-lsp --help\n",
      to: STDERR_FILENO)
  }
  status = serve()
}
exit(status)

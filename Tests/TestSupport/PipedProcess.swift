import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process started with its standard input, output and error on pipes: the one way the
/// tests start a binary, whether they speak LSP to it (`ServerProcess`) or run a command to its
/// end.
package struct PipedProcess {
  package let process: Process
  /// Where the child's standard input is written.
  package let input: FileHandle
  /// Where the child's standard output and standard error are read.
  package let output: FileHandle
  package let errors: FileHandle
  /// Signalled once when the child has exited.
  package let exited = DispatchSemaphore(value: 0)

  /// Starts `executable` with `arguments`, in `directory` if one is given.
  package init(executable: URL, arguments: [String], directory: URL? = nil) throws {
    // A child that exits without reading its input must not kill the tests with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    let exited = self.exited
    process.terminationHandler = { _ in exited.signal() }
    input = stdin.fileHandleForWriting
    output = stdout.fileHandleForReading
    errors = stderr.fileHandleForReading
    try process.run()
  }
}

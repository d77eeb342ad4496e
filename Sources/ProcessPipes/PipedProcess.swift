import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process started with its standard input, output and error on pipes: the one way the
/// tests and the bench start a binary, whether they speak LSP to it (the tests' `ServerProcess`,
/// the bench's `PipeClient`) or run a command to its end.
package struct PipedProcess {
  package let process: Process
  /// Where the child's standard input is written.
  package let input: FileHandle
  /// Where the child's standard output is read.
  package let output: FileHandle
  /// Where the child's standard error is read; nil when it goes to /dev/null.
  package let errors: FileHandle?
  /// Signalled once when the child has exited.
  package let exited = DispatchSemaphore(value: 0)

  /// Starts `executable` with `arguments`, in `directory` if one is given, with this process's
  /// environment and `environment` set over it. With `discardErrors` its standard error goes to
  /// /dev/null: for a caller that never reads it, a pipe would fill and stop the child.
  package init(
    executable: URL, arguments: [String], directory: URL? = nil, environment: [String: String] = [:],
    discardErrors: Bool = false
  ) throws {
    // A child that exits without reading its input must not kill the tests with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, set in set }
    }
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = discardErrors ? nil : Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr ?? FileHandle.nullDevice
    let exited = self.exited
    // Foundation on Linux keeps a `Process` and its run-loop source in a cycle until
    // `waitUntilExit()` clears the source, so a process never waited that way leaked itself, its
    // pipes and this closure. The child has exited when the handler runs, so it returns at once
    // (without the 50 ms polls it takes while the child runs).
    process.terminationHandler = { process in
      process.waitUntilExit()
      exited.signal()
    }
    input = stdin.fileHandleForWriting
    output = stdout.fileHandleForReading
    errors = stderr?.fileHandleForReading
    try process.run()
  }
}

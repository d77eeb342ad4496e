import Testing

/// How a test client reaches the language server.
package enum ServerTransport: String, Sendable, CustomStringConvertible {
  /// The built `rpn-lsp`, started with pipes: everything that crosses the process boundary
  /// (framing, the reader thread, batches as they happen to arrive, exit statuses, standard
  /// output and standard error) is tested too.
  case pipes
  /// A `Server` in the test process, given each send as one batch. Messages are still written
  /// as JSON and parsed back both ways, as the binary's transport does; only framing and the
  /// process are left out. No process to start, and no thread: a test runs in a few milliseconds.
  case inProcess

  /// The transport of clients made without naming one: `.pipes`, unless a suite or a test chose
  /// another with the `.inProcess` or `.overPipes` trait.
  @TaskLocal package static var current = ServerTransport.pipes

  package var description: String { rawValue }
}

/// Chooses the transport of the clients that a suite's or a test's body makes, so that a suite
/// switches with one line: `@Suite(.inProcess)`, and `@Test(.overPipes)` for a test in it that
/// must run end to end. The innermost choice wins.
package struct ServerTransportTrait: SuiteTrait, TestTrait, TestScoping {
  package var transport: ServerTransport

  package func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await ServerTransport.$current.withValue(transport) { try await function() }
  }
}

extension Trait where Self == ServerTransportTrait {
  /// Clients drive a `Server` in the test process.
  package static var inProcess: Self { Self(transport: .inProcess) }
  /// Clients drive the built binary over pipes.
  package static var overPipes: Self { Self(transport: .pipes) }
}

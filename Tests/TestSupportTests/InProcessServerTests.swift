import JSONRPC
import TestSupport
import Testing

/// The in-process transport behaves as the binary's loop does: one batch per send, exit statuses
/// from `exit` and from the end of input, nothing taken after the end; and it never waits.
@Suite(.inProcess) struct InProcessServerTests {
  @Test func aSessionEndsWithExitStatusZero() throws {
    let client = try LSPClient.started()
    client.open("file:///a.rpn", "1 2 +")
    #expect(compact(try client.allInlayHints("file:///a.rpn")) == ["0:5 [3]"])
    try client.finish()
    #expect(!client.isRunning)
  }

  @Test func exitWithoutShutdownExitsOne() throws {
    let client = try LSPClient.started()
    client.notify("exit", nil)
    #expect(try client.waitForExit() == 1)
    try client.waitForEndOfOutput()
  }

  @Test(arguments: [false, true])
  func theEndOfInputEndsTheServer(afterShutdown: Bool) throws {
    let client = try LSPClient.started()
    if afterShutdown { try client.request("shutdown", nil) }
    client.closeInput()
    #expect(try client.waitForExit() == (afterShutdown ? 0 : 1))
  }

  /// After `exit` the server takes nothing more, even from the same batch.
  @Test func nothingIsTakenAfterExit() throws {
    let client = try LSPClient.started()
    try client.request("shutdown", nil)
    let before = client.messageCount
    client.send(together: [
      LSPClient.notificationMessage("exit", nil), LSPClient.requestMessage(id: 5, "textDocument/hover", nil),
    ])
    client.sendRequest("shutdown", nil)
    #expect(try client.waitForExit() == 0)
    #expect(client.messageCount == before)
  }

  /// A wait for what the server did not send fails at once instead of at the timeout.
  @Test func aWaitForWhatWasNotSentFailsAtOnce() throws {
    let client = try LSPClient.started()
    let start = ContinuousClock.now
    #expect(throws: ClientFailure.self) { try client.waitForNotification("textDocument/publishDiagnostics") }
    #expect(throws: ClientFailure.self) { try client.waitForExit() }
    #expect(throws: ClientFailure.self) { try client.waitForEndOfOutput() }
    #expect(ContinuousClock.now - start < .seconds(1))
    try client.finish()
  }

  /// The server's requests are recorded and answered, as over pipes.
  @Test func serverRequestsAreRecordedAndAnswered() throws {
    let client = try LSPClient.started(capabilities: ["workspace": ["inlayHint": ["refreshSupport": true]]])
    client.notify("workspace/didChangeConfiguration", ["settings": ["rpn": ["precision": 3]]])
    client.notify("workspace/didChangeConfiguration", ["settings": ["rpn": ["precision": 4]]])
    #expect(client.serverRequests.map { $0["id"] } == [1, 2])
    #expect(
      client.serverRequests.map { $0["method"] } == ["workspace/inlayHint/refresh", "workspace/inlayHint/refresh"])
    try client.finish()
  }

  @Test func rawBytesNeedThePipes() throws {
    let client = try LSPClient.started()
    withKnownIssue { client.sendRaw("Content-Length: 2\r\n\r\n{}") }
    try client.finish()
  }

  private func compact(_ hints: JSONValue) -> [String] {
    (hints.arrayValue ?? []).map { hint in
      let position = hint["position"] ?? .null
      return "\(position["line"]?.intValue ?? -1):\(position["character"]?.intValue ?? -1) "
        + (hint["label"]?.stringValue ?? "")
    }
  }
}

import TestSupport
import Testing

/// The traits choose the transport of the clients a test makes; the innermost choice wins.
@Suite(.inProcess) struct ServerTransportTraitTests {
  @Test func aSuiteChoosesForItsTests() {
    #expect(ServerTransport.current == .inProcess)
  }

  @Test(.overPipes) func aTestChoosesForItself() {
    #expect(ServerTransport.current == .pipes)
  }

  @Test(.overPipes, arguments: [1, 2])
  func aParameterizedTestChoosesForEachCase(_ argument: Int) {
    #expect(ServerTransport.current == .pipes)
  }

  @Test func aClientTakesTheChosenTransport() throws {
    #expect(try LSPClient().transport == .inProcess)
  }
}

@Suite struct DefaultServerTransportTests {
  @Test func withoutATraitClientsUsePipes() {
    #expect(ServerTransport.current == .pipes)
  }
}

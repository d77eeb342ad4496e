// The server: lifecycle state, the handler table (the only dispatch), batches and the answer to every request.

import JSONRPC
import LSPTypes
import RPNEngine

/// The language server: lifecycle state, the handler table, and the open documents.
///
/// It is driven by batches of incoming messages (all that arrived while it was busy), which it
/// answers through `send`. Within a batch, consecutive `didChange`s are staged and evaluated once,
/// before the next request or at the end of the batch. A request whose `$/cancelRequest` has
/// arrived by the time the server gets to it (in its batch, or read while the server was busy
/// with the batch: `ArrivedCancels`) is answered `-32800` without running its handler.
///
/// Every method is one registration in the handler table (`registerHandlers`), the only dispatch:
/// it names the handler, says whether a notification is staged, and declares the capability that
/// `initialize` announces for it. A new feature is a file of handlers plus one registration.
///
/// Every request gets exactly one response: handlers return their result or throw a
/// `ResponseError`, and `respond` is the only place that answers, with one or the other;
/// `answeredRequests` counts its answers, and `handle(_:)` checks them against `receivedRequests`.
package final class Server {
  package enum State: Equatable {
    case uninitialized
    case running
    case shutDown
  }

  /// A request handler: a method of `Server`, referred to unapplied (`Server.hover`), that returns
  /// the result or throws the error to answer. (A closure literal would infer an untyped throw.)
  private typealias RequestHandler = (Server) -> (JSONValue?) throws(ResponseError) -> JSONValue
  /// A notification handler: a method of `Server`, referred to unapplied (`Server.didOpen`).
  private typealias NotificationHandler = (Server) -> (JSONValue?) -> Void

  /// What the handler table holds for a method.
  private enum Handler {
    case request(RequestHandler)
    /// A staged notification does not evaluate the staged changes before it runs: it adds to
    /// them. Any other notification evaluates them first.
    case notification(NotificationHandler, staged: Bool)
  }

  /// A capability that the table declares: its key in `initialize`'s `capabilities`, and its
  /// value for what the client declared (nil: not announced to that client).
  private typealias Capability = (key: String, value: (ClientCapabilities) -> JSONValue?)

  package private(set) var state = State.uninitialized
  /// Set once the server should end: 0 after `shutdown` then `exit`, 1 otherwise.
  package private(set) var exitStatus: Int32?

  let send: (JSONValue) -> Void
  /// Writes a line to the server's log (standard error); never standard output.
  private let writeLog: (String) -> Void
  var client = ClientCapabilities()
  var encoding = PositionEncodingKind.utf16
  var settings = Settings()
  var documents: [String: OpenDocument] = [:]

  private var handlers: [String: Handler] = [:]
  /// In the order of the registrations, which is the order `initialize` lists them in.
  private var capabilities: [Capability] = []
  private var nextOutgoingID = 1
  private var resultCounter = 0
  package private(set) var receivedRequests = 0
  package private(set) var answeredRequests = 0
  /// The cancels read and not yet handled, filled by the transport's reader as it reads them.
  private let cancels: ArrivedCancels

  /// `cancels` is the one the transport's reader fills (`StdioTransport.start(noticing:)`); a
  /// server driven by batches alone (tests, the fuzzer) sees the cancels of each batch.
  package init(
    send: @escaping (JSONValue) -> Void, log: @escaping (String) -> Void, cancels: ArrivedCancels = ArrivedCancels()
  ) {
    self.send = send
    self.writeLog = log
    self.cancels = cancels
    registerHandlers()
  }

  // MARK: The handler table

  /// The handler table, and the only dispatch: one registration per method, saying what handles
  /// it and which capability announces it. `initialize` lists the capabilities in the order of
  /// the registrations; those that declare the same key are merged (`merged(_:_:)`).
  private func registerHandlers() {
    register(Method.initialize, Server.initialize)
    register(notification: Method.initialized, Server.initialized)
    register(Method.shutdown, Server.shutdown)
    register(notification: Method.exit, Server.exit)
    register(notification: Method.didChangeConfiguration, Server.didChangeConfiguration)
    register(notification: Method.didOpen, Server.didOpen, capability: "textDocumentSync", ["openClose": true])
    // Staged: consecutive edits are evaluated once, before the next request or at the end of the batch.
    register(
      notification: Method.didChange, Server.didChange, staged: true,
      capability: "textDocumentSync", ["change": JSONValue(TextDocumentSyncKind.incremental.rawValue)])
    register(notification: Method.didClose, Server.didClose, capability: "textDocumentSync", ["openClose": true])
    register(Method.hover, Server.hover, capability: "hoverProvider", true)
    // Every letter triggers: a client that completes as one types (Neovim 0.11's autotrigger)
    // asks only on these, and every word and name starts with a letter.
    register(
      Method.completion, Server.completion, capability: "completionProvider",
      ["resolveProvider": false, "triggerCharacters": .array(Self.completionTriggers)])
    register(Method.inlayHint, Server.inlayHints, capability: "inlayHintProvider", ["resolveProvider": false])
    // Only for clients that resolve a hint's tooltip or edit: their hints come without them.
    register(Method.inlayHintResolve, Server.resolveInlayHint, capability: "inlayHintProvider") {
      $0.inlayHintResolvesTooltip || $0.inlayHintResolvesTextEdits ? ["resolveProvider": true] : nil
    }
    register(Method.definition, Server.definition, capability: "definitionProvider", true)
    register(Method.references, Server.references, capability: "referencesProvider", true)
    register(Method.documentHighlight, Server.documentHighlight, capability: "documentHighlightProvider", true)
    register(Method.rename, Server.rename, capability: "renameProvider", true)
    // Options may be sent only to clients that declared support for them (LSP 3.17).
    register(Method.prepareRename, Server.prepareRename, capability: "renameProvider") {
      $0.prepareRename ? ["prepareProvider": true] : nil
    }
    register(Method.documentSymbol, Server.documentSymbols, capability: "documentSymbolProvider", true)
    register(Method.workspaceSymbol, Server.workspaceSymbols, capability: "workspaceSymbolProvider", true)
    register(Method.codeLens, Server.codeLenses, capability: "codeLensProvider", ["resolveProvider": false])
    register(Method.foldingRange, Server.foldingRanges, capability: "foldingRangeProvider", true)
    register(Method.selectionRange, Server.selectionRanges, capability: "selectionRangeProvider", true)
    register(
      Method.semanticTokensFull, Server.semanticTokensFull, capability: "semanticTokensProvider",
      ["legend": SemanticTokensLegend.json, "full": true])
    register(
      Method.semanticTokensRange, Server.semanticTokensRange, capability: "semanticTokensProvider", ["range": true])
    register(Method.codeAction, Server.codeActions, capability: "codeActionProvider") {
      $0.codeActionLiterals
        ? ["codeActionKinds": .array(CodeActionKind.allCases.map { .string($0.rawValue) }), "resolveProvider": false]
        : true
    }
    // Only for clients that resolve edits: the source actions on every check get theirs when run.
    register(Method.codeActionResolve, Server.resolveCodeAction, capability: "codeActionProvider") {
      $0.codeActionLiterals && $0.codeActionResolvesEdits ? ["resolveProvider": true] : nil
    }
    register(Method.formatting, Server.formatting, capability: "documentFormattingProvider", true)
    register(Method.rangeFormatting, Server.rangeFormatting, capability: "documentRangeFormattingProvider", true)
    // Only for clients that pull diagnostics: the others have them pushed.
    register(Method.diagnostic, Server.pullDiagnostics, capability: "diagnosticProvider") {
      $0.pullDiagnostics ? ["identifier": "rpn", "interFileDependencies": false, "workspaceDiagnostics": false] : nil
    }
  }

  /// Registers a request's handler, announced by no capability.
  private func register(_ method: String, _ handler: @escaping RequestHandler) {
    add(method, .request(handler), capability: nil)
  }

  /// Registers a request's handler and the capability that announces it to every client.
  private func register(
    _ method: String, _ handler: @escaping RequestHandler, capability key: String, _ value: JSONValue
  ) {
    add(method, .request(handler), capability: (key, { _ in value }))
  }

  /// Registers a request's handler and the capability that announces it, whose value depends on
  /// what the client declared (nil: none for that client).
  private func register(
    _ method: String, _ handler: @escaping RequestHandler, capability key: String,
    _ value: @escaping (ClientCapabilities) -> JSONValue?
  ) {
    add(method, .request(handler), capability: (key, value))
  }

  /// Registers a notification's handler, announced by no capability.
  private func register(notification method: String, _ handler: @escaping NotificationHandler) {
    add(method, .notification(handler, staged: false), capability: nil)
  }

  /// Registers a notification's handler and the capability that announces it; a `staged` one
  /// does not evaluate the staged changes first.
  private func register(
    notification method: String, _ handler: @escaping NotificationHandler, staged: Bool = false,
    capability key: String, _ value: JSONValue
  ) {
    add(method, .notification(handler, staged: staged), capability: (key, { _ in value }))
  }

  private func add(_ method: String, _ handler: Handler, capability: Capability?) {
    assert(handlers[method] == nil, "\(method) is registered twice")
    handlers[method] = handler
    if let capability { capabilities.append(capability) }
  }

  /// The `capabilities` of the `initialize` result for this client: the negotiated encoding, then
  /// what the table declares, in its order.
  private func serverCapabilities() -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [("positionEncoding", .string(encoding.rawValue))]
    for capability in capabilities {
      guard let value = capability.value(client) else { continue }
      if let index = members.firstIndex(where: { $0.key == capability.key }) {
        members[index].value = Self.merged(members[index].value, value)
      } else {
        members.append((capability.key, value))
      }
    }
    return .object(members)
  }

  /// Two declarations of one capability as one: options objects merge member by member, and
  /// options win over `true` (in LSP's `boolean | Options`, options also say "supported").
  private static func merged(_ old: JSONValue, _ new: JSONValue) -> JSONValue {
    switch (old, new) {
    case (.object(var members), .object(let added)):
      for member in added {
        if let index = members.firstIndex(where: { $0.key == member.key }) {
          members[index].value = merged(members[index].value, member.value)
        } else {
          members.append(member)
        }
      }
      return .object(members)
    case (.object, .bool(true)):
      return old
    default:
      return new
    }
  }

  // MARK: Batches

  /// Handles everything that arrived together, in order.
  package func handle(_ batch: [Incoming]) {
    for item in batch { cancels.notice(item) }
    for item in batch {
      if exitStatus != nil { return }
      switch item {
      case .fault(let error):
        send(Outgoing.response(id: .null, result: .failure(error)))
      case .message(.response):
        break  // The client's answer to one of our requests (a refresh): nothing to do.
      case .message(.notification(let method, let params)):
        cancels.handled(item)
        if !isStaged(method) { flushDocuments() }
        notify(method, params)
      case .message(.request(let id, let method, let params)):
        receivedRequests += 1
        respond(id, method, params)
      }
    }
    flushDocuments()
    assert(answeredRequests == receivedRequests, "every request gets exactly one response")
    if answeredRequests != receivedRequests {
      log("internal error: \(receivedRequests) requests received, \(answeredRequests) answered")
    }
  }

  /// The end of the input ends the server as `exit` would.
  package func inputEnded() {
    flushDocuments()
    if exitStatus == nil { exitStatus = state == .shutDown ? 0 : 1 }
  }

  /// Answers a request, and is the only place that does: with what its handler returns, or with
  /// the error that it (or the lifecycle) throws.
  private func respond(_ id: JSONValue, _ method: String, _ params: JSONValue?) {
    let result: Result<JSONValue, ResponseError>
    do {
      result = .success(try dispatch(id, method, params))
    } catch {
      result = .failure(error)
    }
    answeredRequests += 1
    send(Outgoing.response(id: id, result: result))
  }

  /// Runs a request's handler. A request already cancelled does not run, and does not evaluate
  /// the staged changes either; any other first evaluates them, then looks again (a cancel can
  /// arrive while they are evaluated) before it runs.
  private func dispatch(_ id: JSONValue, _ method: String, _ params: JSONValue?) throws(ResponseError) -> JSONValue {
    func throwIfCancelled() throws(ResponseError) {
      if state == .running, cancels.contains(id) {
        throw ResponseError(code: .requestCancelled, message: "request \(method) was cancelled")
      }
    }
    try throwIfCancelled()
    flushDocuments()
    try throwIfCancelled()
    switch state {
    case .uninitialized where method != Method.initialize:
      throw ResponseError(
        code: .serverNotInitialized, message: "the server is not initialized yet: send initialize first")
    case .shutDown:
      throw .invalidRequest("the server is shut down: only exit is accepted now")
    default:
      break
    }
    guard case .request(let handler)? = handlers[method] else { throw .methodNotFound(method) }
    return try handler(self)(params)
  }

  private func notify(_ method: String, _ params: JSONValue?) {
    guard method == Method.exit || state == .running, case .notification(let handler, _)? = handlers[method] else {
      return
    }
    handler(self)(params)
  }

  /// Whether the table marks a notification as staged.
  private func isStaged(_ method: String) -> Bool {
    guard case .notification(_, let staged)? = handlers[method] else { return false }
    return staged
  }

  /// Logs to standard error and, once the client is listening, as `window/logMessage` (a warning).
  func log(_ message: String) {
    writeLog(message)
    guard state == .running else { return }
    notification(Method.logMessage, ["type": JSONValue(MessageType.warning.rawValue), "message": .string(message)])
  }

  /// A result id no document had before.
  func nextResultID() -> String {
    resultCounter += 1
    return String(resultCounter)
  }

  /// Sends a request to the client; its answer is ignored.
  func request(_ method: String, _ params: JSONValue?) {
    let id = JSONValue(nextOutgoingID)
    nextOutgoingID += 1
    send(Outgoing.request(id: id, method: method, params: params))
  }

  func notification(_ method: String, _ params: JSONValue) {
    send(Outgoing.notification(method: method, params: params))
  }

  // MARK: Lifecycle

  private func initialize(_ params: JSONValue?) throws(ResponseError) -> JSONValue {
    guard state == .uninitialized else { throw .invalidRequest("initialize was already received") }
    client = ClientCapabilities(params?["capabilities"])
    encoding = client.negotiatedEncoding
    if let options = params?["initializationOptions"] { settings.merge(options) }
    state = .running
    return ["capabilities": serverCapabilities(), "serverInfo": ["name": "rpn-lsp", "version": .string(Self.version)]]
  }

  /// The client is ready: nothing to do, as the server asks nothing of it at the start.
  private func initialized(_ params: JSONValue?) {}

  package static let version = "0.1.0"

  private func shutdown(_ params: JSONValue?) -> JSONValue {
    state = .shutDown
    return .null
  }

  /// Ends the server: successfully only after `shutdown`.
  private func exit(_ params: JSONValue?) {
    exitStatus = state == .shutDown ? 0 : 1
  }

  private func didChangeConfiguration(_ params: JSONValue?) {
    guard let changes = params?["settings"] else { return }
    let before = settings
    settings.merge(changes)
    guard settings != before else { return }
    if settings.evaluation != before.evaluation {
      for open in documents.values {
        open.document.update(settings: settings.evaluation)
        followSections(of: open)
      }
    }
    // Messages show values in the display: a display-only change republishes them too.
    for uri in documents.keys { documents[uri]?.needsPublishing = true }
    flushDocuments()
    if client.inlayHintRefresh { request(Method.inlayHintRefresh, nil) }
    // The lenses show summaries: evaluated again, or shown in another display.
    let summariesChanged = settings.evaluation != before.evaluation || summariesShowDifferently(than: before)
    if client.codeLensRefresh && summariesChanged { request(Method.codeLensRefresh, nil) }
    if client.pullDiagnostics && client.diagnosticRefresh { request(Method.diagnosticRefresh, nil) }
  }
}

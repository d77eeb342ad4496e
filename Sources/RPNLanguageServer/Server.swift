import JSONRPC
import LSPTypes
import RPNEngine

/// The language server: lifecycle state, the handler table, and the open documents.
///
/// It is driven by batches of incoming messages (all that arrived while it was busy), which it
/// answers through `send`. Within a batch, consecutive `didChange`s are staged and evaluated once,
/// before the next request or at the end of the batch, and a request cancelled by a later
/// `$/cancelRequest` of the same batch is answered `-32800` without running.
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
  /// the result or throws the error to answer.
  package typealias RequestHandler = (Server) -> (JSONValue?) throws(ResponseError) -> JSONValue
  package typealias NotificationHandler = (Server, JSONValue?) -> Void

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

  private var requestHandlers: [String: RequestHandler] = [:]
  private var notificationHandlers: [String: NotificationHandler] = [:]
  private var nextOutgoingID = 1
  private var resultCounter = 0
  package private(set) var receivedRequests = 0
  package private(set) var answeredRequests = 0

  package init(send: @escaping (JSONValue) -> Void, log: @escaping (String) -> Void) {
    self.send = send
    self.writeLog = log
    registerHandlers()
  }

  /// Registers a request handler: one line per method, in one place.
  func register(_ method: String, _ handler: @escaping RequestHandler) { requestHandlers[method] = handler }

  func register(notification method: String, _ handler: @escaping NotificationHandler) {
    notificationHandlers[method] = handler
  }

  private func registerHandlers() {
    register(Method.initialize, Server.initialize)
    register(Method.shutdown, Server.shutdown)
    register(Method.inlayHint, Server.inlayHints)
    register(Method.hover, Server.hover)
    register(Method.completion, Server.completion)
    register(Method.diagnostic, Server.pullDiagnostics)
    register(Method.definition, Server.definition)
    register(Method.references, Server.references)
    register(Method.documentHighlight, Server.documentHighlight)
    register(Method.prepareRename, Server.prepareRename)
    register(Method.rename, Server.rename)
    register(Method.documentSymbol, Server.documentSymbols)
    register(Method.semanticTokensFull, Server.semanticTokensFull)
    register(Method.semanticTokensRange, Server.semanticTokensRange)
    register(Method.codeAction, Server.codeActions)
    register(Method.formatting, Server.formatting)
    register(Method.rangeFormatting, Server.rangeFormatting)
    register(notification: Method.initialized) { _, _ in }
    register(notification: Method.exit) { server, _ in server.exitStatus = server.state == .shutDown ? 0 : 1 }
    register(notification: Method.didOpen) { $0.didOpen($1) }
    register(notification: Method.didChange) { $0.didChange($1) }
    register(notification: Method.didClose) { $0.didClose($1) }
    register(notification: Method.didChangeConfiguration) { $0.didChangeConfiguration($1) }
  }

  // MARK: Batches

  /// Handles everything that arrived together, in order.
  package func handle(_ batch: [Incoming]) {
    let cancelled = cancelledRequests(in: batch)
    for item in batch {
      if exitStatus != nil { return }
      switch item {
      case .fault(let error):
        send(Outgoing.response(id: .null, result: .failure(error)))
      case .message(.response):
        break  // The client's answer to one of our requests (inlay hint refresh): nothing to do.
      case .message(.notification(let method, let params)):
        if method == Method.didChange {
          if state == .running { didChange(params) }  // Staged; evaluated before the next request.
        } else {
          flushDocuments()
          notify(method, params)
        }
      case .message(.request(let id, let method, let params)):
        receivedRequests += 1
        respond(id, method, params, cancelled: cancelled.contains(id))
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

  private func cancelledRequests(in batch: [Incoming]) -> [JSONValue] {
    var cancelled: [JSONValue] = []
    for item in batch {
      if case .message(.notification(Method.cancelRequest, let params)) = item, let id = params?["id"] {
        cancelled.append(id)
      }
    }
    return cancelled
  }

  /// Answers a request, and is the only place that does: with what its handler returns, or with
  /// the error that it (or the lifecycle) throws.
  private func respond(_ id: JSONValue, _ method: String, _ params: JSONValue?, cancelled: Bool) {
    let result: Result<JSONValue, ResponseError>
    do {
      result = .success(try dispatch(method, params, cancelled: cancelled))
    } catch {
      result = .failure(error)
    }
    answeredRequests += 1
    send(Outgoing.response(id: id, result: result))
  }

  /// Runs a request's handler. A request cancelled in its batch does not run, and does not
  /// evaluate the staged changes either; any other first evaluates them.
  private func dispatch(_ method: String, _ params: JSONValue?, cancelled: Bool) throws(ResponseError) -> JSONValue {
    if cancelled, state == .running {
      throw ResponseError(code: .requestCancelled, message: "request \(method) was cancelled")
    }
    flushDocuments()
    switch state {
    case .uninitialized where method != Method.initialize:
      throw ResponseError(
        code: .serverNotInitialized, message: "the server is not initialized yet: send initialize first")
    case .shutDown:
      throw .invalidRequest("the server is shut down: only exit is accepted now")
    default:
      break
    }
    guard let handler = requestHandlers[method] else { throw .methodNotFound(method) }
    return try handler(self)(params)
  }

  private func notify(_ method: String, _ params: JSONValue?) {
    guard method == Method.exit || state == .running, let handler = notificationHandlers[method] else { return }
    handler(self, params)
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
    var capabilities: [(key: String, value: JSONValue)] = [
      ("positionEncoding", .string(encoding.rawValue)),
      ("textDocumentSync", ["openClose": true, "change": JSONValue(TextDocumentSyncKind.incremental.rawValue)]),
      ("hoverProvider", true),
      ("completionProvider", ["resolveProvider": false]),
      ("inlayHintProvider", ["resolveProvider": false]),
      ("definitionProvider", true),
      ("referencesProvider", true),
      ("documentHighlightProvider", true),
      // Options may be sent only to clients that declared support for them (LSP 3.17).
      ("renameProvider", client.prepareRename ? ["prepareProvider": true] : true),
      ("documentSymbolProvider", true),
      ("semanticTokensProvider", ["legend": SemanticTokensLegend.json, "full": true, "range": true]),
      (
        "codeActionProvider",
        client.codeActionLiterals
          ? ["codeActionKinds": [.string(CodeActionKind.quickFix.rawValue)], "resolveProvider": false] : true
      ),
      ("documentFormattingProvider", true),
      ("documentRangeFormattingProvider", true),
    ]
    if client.pullDiagnostics {
      capabilities.append(
        ("diagnosticProvider", ["identifier": "rpn", "interFileDependencies": false, "workspaceDiagnostics": false]))
    }
    return ["capabilities": .object(capabilities), "serverInfo": ["name": "rpn-lsp", "version": .string(Self.version)]]
  }

  package static let version = "0.1.0"

  private func shutdown(_ params: JSONValue?) -> JSONValue {
    state = .shutDown
    return .null
  }

  private func didChangeConfiguration(_ params: JSONValue?) {
    guard let changes = params?["settings"] else { return }
    let before = settings
    settings.merge(changes)
    guard settings != before else { return }
    if settings.evaluation != before.evaluation {
      for document in documents.values { document.document.update(settings: settings.evaluation) }
    }
    for uri in documents.keys { documents[uri]?.needsPublishing = true }
    flushDocuments()
    if client.inlayHintRefresh { request(Method.inlayHintRefresh, nil) }
    if client.pullDiagnostics && client.diagnosticRefresh { request(Method.diagnosticRefresh, nil) }
  }
}

// The JSON-RPC envelope: messages as received, error codes, response errors, and what is sent.

/// A JSON-RPC 2.0 message as received: a request (with an id to answer), a notification, or a
/// response to a request we sent.
package enum Message: Equatable {
  case request(id: JSONValue, method: String, params: JSONValue?)
  case notification(method: String, params: JSONValue?)
  case response(id: JSONValue)

  /// Classifies a parsed body. A body that is none of the three is `.invalidRequest` with a
  /// null id, to be answered as such.
  package static func classify(_ json: JSONValue) -> Result<Message, ResponseError> {
    guard json.isObject else { return .failure(.invalidRequest("a message must be a JSON object")) }
    // `"params": null` is not structured, but clients send it for `shutdown` and `exit`: absent.
    let params = json["params"] == .null ? nil : json["params"]
    if let params, !(params.isObject || params.arrayValue != nil) {
      if let id = json["id"], isValidID(id), json["method"]?.stringValue != nil {
        return .success(.request(id: id, method: json["method"]?.stringValue ?? "", params: params))
      }
      return .failure(.invalidRequest("params must be an object or an array"))
    }
    if let method = json["method"] {
      guard let name = method.stringValue else { return .failure(.invalidRequest("method must be a string")) }
      guard let id = json["id"] else { return .success(.notification(method: name, params: params)) }
      guard isValidID(id) else { return .failure(.invalidRequest("id must be a number or a string")) }
      return .success(.request(id: id, method: name, params: params))
    }
    if let id = json["id"], json["result"] != nil || json["error"] != nil {
      return .success(.response(id: id))
    }
    return .failure(.invalidRequest("a message needs a method (or, for a response, an id and a result)"))
  }

  /// A string or a number, any number: it is echoed as written (`JSONParser.parseMessage` keeps
  /// the text of one that would not come back the same as `.encoded`), so no id needs refusing
  /// for its size or its form.
  private static func isValidID(_ id: JSONValue) -> Bool {
    switch id {
    case .string, .number: true
    case .encoded(let text): text.first.map { $0 == 0x2D || $0 &- 0x30 < 10 } ?? false
    default: false
    }
  }
}

/// A request id as a key to find its request by (`$/cancelRequest` names the request to cancel):
/// a number by its value, however it is written (`1e3` is `1000`), a string by its text. A key,
/// not a comparison of `JSONValue`s, so that matching a batch's cancels costs one look-up a
/// request, whatever the mix: comparing an id kept as its text (`1e3`) parses it each time.
package enum RequestIDKey: Hashable, Sendable {
  case number(Double)
  case string(String)

  /// The key of an id; nil for anything that is not a number or a string.
  package init?(_ id: JSONValue) {
    switch id {
    case .number(let value): self = .number(value)
    case .string(let text): self = .string(text)
    case .encoded(let text):
      guard case .success(.number(let value)) = JSONParser.parse(text) else { return nil }
      self = .number(value)
    default: return nil
    }
  }
}

/// A JSON-RPC error code. The set is open (LSP adds its own), so this is a struct, not an enum.
package struct ErrorCode: RawRepresentable, Equatable, Hashable, Sendable {
  package var rawValue: Int
  package init(rawValue: Int) { self.rawValue = rawValue }

  package static let parseError = ErrorCode(rawValue: -32700)
  package static let invalidRequest = ErrorCode(rawValue: -32600)
  package static let methodNotFound = ErrorCode(rawValue: -32601)
  package static let invalidParams = ErrorCode(rawValue: -32602)
  package static let internalError = ErrorCode(rawValue: -32603)
  package static let serverNotInitialized = ErrorCode(rawValue: -32002)
  package static let requestCancelled = ErrorCode(rawValue: -32800)
  package static let requestFailed = ErrorCode(rawValue: -32803)
}

/// An error answer: a code and a message that says what was wrong.
package struct ResponseError: Error, Equatable, Sendable {
  package var code: ErrorCode
  package var message: String

  package init(code: ErrorCode, message: String) {
    self.code = code
    self.message = message
  }

  package static func parseError(_ message: String) -> ResponseError { .init(code: .parseError, message: message) }
  package static func invalidRequest(_ message: String) -> ResponseError {
    .init(code: .invalidRequest, message: message)
  }
  package static func methodNotFound(_ method: String) -> ResponseError {
    .init(code: .methodNotFound, message: "unknown method '\(method)'")
  }
  package static func invalidParams(_ message: String) -> ResponseError {
    .init(code: .invalidParams, message: message)
  }
  package static func requestFailed(_ message: String) -> ResponseError {
    .init(code: .requestFailed, message: message)
  }
}

/// The JSON of messages we send.
package enum Outgoing {
  package static func response(id: JSONValue, result: Result<JSONValue, ResponseError>) -> JSONValue {
    switch result {
    case .success(let value):
      return ["jsonrpc": "2.0", "id": id, "result": value]
    case .failure(let error):
      return [
        "jsonrpc": "2.0", "id": id,
        "error": ["code": .number(Double(error.code.rawValue)), "message": .string(error.message)],
      ]
    }
  }

  package static func notification(method: String, params: JSONValue) -> JSONValue {
    ["jsonrpc": "2.0", "method": .string(method), "params": params]
  }

  package static func request(id: JSONValue, method: String, params: JSONValue?) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [("jsonrpc", "2.0"), ("id", id), ("method", .string(method))]
    if let params { members.append(("params", params)) }
    return .object(members)
  }

  /// The framed bytes of a message: header, blank line, body.
  package static func frame(_ body: [UInt8]) -> [UInt8] {
    var framed = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
    framed.append(contentsOf: body)
    return framed
  }
}

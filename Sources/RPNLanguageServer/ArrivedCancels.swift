// The `$/cancelRequest`s read and not yet handled, shared by the reader thread and the server.

import JSONRPC
import LSPTypes
import Synchronization

/// The ids named by the `$/cancelRequest`s that have been read and that the server has not
/// handled yet. The transport's reader notes each cancel as it reads it, so a request queued
/// behind a slow one is seen as cancelled even when its cancel arrived after the server took the
/// batch that holds it. The server forgets a cancel when it handles it: by then every request it
/// can name (sent before it) has been answered, so the set holds no more than what is in flight.
package final class ArrivedCancels: Sendable {
  private let ids = Mutex<Set<RequestIDKey>>([])

  package init() {}

  /// Notes a cancel; anything else is ignored. Safe on any thread.
  package func notice(_ item: Incoming) {
    guard let id = Self.cancelledID(item) else { return }
    ids.withLock { _ = $0.insert(id) }
  }

  /// Forgets a cancel the server has handled.
  func handled(_ item: Incoming) {
    guard let id = Self.cancelledID(item) else { return }
    ids.withLock { _ = $0.remove(id) }
  }

  /// Whether a cancel for this request id has arrived.
  func contains(_ id: JSONValue) -> Bool {
    // Most of the time nothing is cancelled: no key to make (an id written `1e3` is parsed).
    if ids.withLock({ $0.isEmpty }) { return false }
    guard let key = RequestIDKey(id) else { return false }
    return ids.withLock { $0.contains(key) }
  }

  private static func cancelledID(_ item: Incoming) -> RequestIDKey? {
    guard case .message(.notification(Method.cancelRequest, let params)) = item else { return nil }
    return params?["id"].flatMap(RequestIDKey.init)
  }
}

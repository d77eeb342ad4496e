// ClientCapabilities: what the client declared at `initialize`, read leniently.

import JSONRPC

/// What the client said it can do, read leniently: an ill-typed optional field is ignored and
/// the default stays.
package struct ClientCapabilities: Equatable, Sendable {
  /// `general.positionEncodings`, in the client's order of preference.
  package var positionEncodings: [String] = []
  /// `textDocument.hover.contentFormat`.
  package var hoverFormats: [MarkupKind] = []
  /// `workspace.inlayHint.refreshSupport`.
  package var inlayHintRefresh = false
  /// `workspace.codeLens.refreshSupport`.
  package var codeLensRefresh = false
  /// `textDocument.diagnostic` present: the client pulls diagnostics.
  package var pullDiagnostics = false
  /// `workspace.diagnostics.refreshSupport`.
  package var diagnosticRefresh = false
  /// `textDocument.rename.prepareSupport`.
  package var prepareRename = false
  /// `textDocument.codeAction.codeActionLiteralSupport` present.
  package var codeActionLiterals = false
  /// `textDocument.codeAction.resolveSupport.properties` holds `edit` and `dataSupport` is true:
  /// the client can resolve an action's edit later, keeping its `data`.
  package var codeActionResolvesEdits = false
  /// `textDocument.inlayHint.resolveSupport.properties` holds `tooltip`: the client asks for a
  /// hint's tooltip with `inlayHint/resolve`, when it shows it.
  package var inlayHintResolvesTooltip = false
  /// `textDocument.inlayHint.resolveSupport.properties` holds `textEdits`: likewise for the edit
  /// that accepting a hint makes.
  package var inlayHintResolvesTextEdits = false
  /// `textDocument.documentSymbol.hierarchicalDocumentSymbolSupport`.
  package var hierarchicalSymbols = false
  /// `textDocument.completion.completionItemKind.valueSet` present: the client names the
  /// completion item kinds it knows, and takes any other as a default. A client that names none
  /// knows only the first protocol's, 1 (Text) to 18 (Reference).
  package var completionItemKindsDeclared = false

  package init() {}

  package init(_ json: JSONValue?) {
    guard let json else { return }
    if let encodings = json["general"]?["positionEncodings"]?.arrayValue {
      positionEncodings = encodings.compactMap(\.stringValue)
    }
    if let formats = json["textDocument"]?["hover"]?["contentFormat"]?.arrayValue {
      hoverFormats = formats.compactMap { $0.stringValue.flatMap(MarkupKind.init(rawValue:)) }
    }
    inlayHintRefresh = json["workspace"]?["inlayHint"]?["refreshSupport"]?.boolValue ?? false
    codeLensRefresh = json["workspace"]?["codeLens"]?["refreshSupport"]?.boolValue ?? false
    pullDiagnostics = json["textDocument"]?["diagnostic"]?.isObject ?? false
    diagnosticRefresh = json["workspace"]?["diagnostics"]?["refreshSupport"]?.boolValue ?? false
    prepareRename = json["textDocument"]?["rename"]?["prepareSupport"]?.boolValue ?? false
    let codeAction = json["textDocument"]?["codeAction"]
    codeActionLiterals = codeAction?["codeActionLiteralSupport"]?.isObject ?? false
    let resolvable = codeAction?["resolveSupport"]?["properties"]?.arrayValue ?? []
    codeActionResolvesEdits = resolvable.contains("edit") && codeAction?["dataSupport"]?.boolValue == true
    let inlayResolvable = json["textDocument"]?["inlayHint"]?["resolveSupport"]?["properties"]?.arrayValue ?? []
    inlayHintResolvesTooltip = inlayResolvable.contains("tooltip")
    inlayHintResolvesTextEdits = inlayResolvable.contains("textEdits")
    hierarchicalSymbols =
      json["textDocument"]?["documentSymbol"]?["hierarchicalDocumentSymbolSupport"]?.boolValue ?? false
    completionItemKindsDeclared =
      json["textDocument"]?["completion"]?["completionItemKind"]?["valueSet"]?.arrayValue != nil
  }

  /// UTF-8 when the client offers it (no conversion at all), else UTF-32 when offered (some
  /// clients offer it first and convert UTF-16 badly), else UTF-16 (which every client must support).
  package var negotiatedEncoding: PositionEncodingKind {
    if positionEncodings.contains("utf-8") { return .utf8 }
    return positionEncodings.contains("utf-32") ? .utf32 : .utf16
  }

  /// Markdown when the client lists it for hovers, else plain text.
  package var hoverFormat: MarkupKind { hoverFormats.contains(.markdown) ? .markdown : .plaintext }
}

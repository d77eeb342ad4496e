// What VS Code gets from a running rpn-lsp: the open `.rpn` documents kept in step with the
// server, its diagnostics, and one VS Code provider per server capability (hover, inlay hints,
// completion, navigation, rename, symbols, code actions, formatting, code lens, folding,
// selection ranges, semantic tokens). Each provider turns VS Code's arguments into LSP's and the
// answer back; LSP's positions are UTF-16 code units, which is what VS Code counts in.
'use strict';

const vscode = require('vscode');

/** The documents the server is sent: `.rpn` files and untitled editors set to RPN. */
const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'rpn' },
  { scheme: 'untitled', language: 'rpn' },
];

const range1to = (n) => Array.from({ length: n }, (_, i) => i + 1);

/** What this client can do, as it tells the server in `initialize`. */
const CLIENT_CAPABILITIES = {
  general: { positionEncodings: ['utf-16'] },
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true },
    didChangeConfiguration: { dynamicRegistration: false },
    symbol: { symbolKind: { valueSet: range1to(26) } },
    inlayHint: { refreshSupport: true },
    codeLens: { refreshSupport: true },
    semanticTokens: { refreshSupport: true },
    workspaceFolders: true,
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false, willSave: false },
    publishDiagnostics: { relatedInformation: true, tagSupport: { valueSet: [1, 2] }, codeDescriptionSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: {
      completionItem: {
        snippetSupport: true,
        documentationFormat: ['markdown', 'plaintext'],
        insertReplaceSupport: true,
        labelDetailsSupport: true,
        preselectSupport: true,
      },
      completionItemKind: { valueSet: range1to(25) },
      contextSupport: true,
    },
    inlayHint: {},
    definition: { linkSupport: true },
    references: {},
    documentHighlight: {},
    rename: { prepareSupport: true },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true, symbolKind: { valueSet: range1to(26) } },
    codeAction: {
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: ['', 'quickfix', 'refactor', 'refactor.extract', 'refactor.inline', 'refactor.rewrite', 'source',
            'source.organizeImports', 'source.fixAll'],
        },
      },
      isPreferredSupport: true,
      disabledSupport: true,
    },
    formatting: {},
    rangeFormatting: {},
    codeLens: {},
    foldingRange: { lineFoldingOnly: true },
    selectionRange: {},
    semanticTokens: {
      requests: { full: true, range: true },
      tokenTypes: ['namespace', 'type', 'class', 'enum', 'interface', 'struct', 'typeParameter', 'parameter', 'variable',
        'property', 'enumMember', 'event', 'function', 'method', 'macro', 'keyword', 'modifier', 'comment', 'string',
        'number', 'regexp', 'operator', 'decorator'],
      tokenModifiers: ['declaration', 'definition', 'readonly', 'static', 'deprecated', 'abstract', 'async',
        'modification', 'documentation', 'defaultLibrary'],
      formats: ['relative'],
      overlappingTokenSupport: false,
      multilineTokenSupport: false,
    },
  },
};

// ---------------------------------------------------------------------------------------------
// LSP → VS Code

const isObject = (value) => value !== null && typeof value === 'object';

function toPosition(p) {
  return new vscode.Position(Math.max(0, p.line | 0), Math.max(0, p.character | 0));
}

function toRange(r) {
  return new vscode.Range(toPosition(r.start), toPosition(r.end));
}

/** LSP's 1-based kinds (SymbolKind, CompletionItemKind, …) are VS Code's 0-based ones plus 1. */
const toKind = (kind, fallback) => (Number.isInteger(kind) && kind >= 1 ? kind - 1 : fallback);

function toMarkdown(content) {
  if (typeof content === 'string') return new vscode.MarkdownString(content);
  if (!isObject(content)) return new vscode.MarkdownString('');
  if (content.kind === 'plaintext') return new vscode.MarkdownString().appendText(content.value || '');
  if (content.kind === 'markdown') return new vscode.MarkdownString(content.value || '');
  // A MarkedString { language, value }: a code block.
  return new vscode.MarkdownString().appendCodeblock(content.value || '', content.language || '');
}

function toDocumentation(doc) {
  if (doc === undefined || doc === null) return undefined;
  if (typeof doc === 'string') return doc;
  return toMarkdown(doc);
}

function toSeverity(severity) {
  switch (severity) {
    case 1: return vscode.DiagnosticSeverity.Error;
    case 2: return vscode.DiagnosticSeverity.Warning;
    case 3: return vscode.DiagnosticSeverity.Information;
    case 4: return vscode.DiagnosticSeverity.Hint;
    default: return vscode.DiagnosticSeverity.Error;
  }
}

/** The LSP diagnostic each VS Code diagnostic came from, for code action requests. */
const lspDiagnostics = new WeakMap();

class Converter {
  /** @param {Map<string, vscode.Uri>} uris the URIs of the open documents, by the strings sent */
  constructor(uris) {
    this.uris = uris;
  }

  toUri(text) {
    return this.uris.get(text) || vscode.Uri.parse(text, true);
  }

  toLocation(location) {
    if (isObject(location.targetRange)) {
      // A LocationLink: VS Code's Location shows its selection range.
      return new vscode.Location(this.toUri(location.targetUri), toRange(location.targetSelectionRange || location.targetRange));
    }
    return new vscode.Location(this.toUri(location.uri), toRange(location.range));
  }

  toLocations(result) {
    if (!result) return undefined;
    return (Array.isArray(result) ? result : [result]).filter(isObject).map((l) => this.toLocation(l));
  }

  toDiagnostic(d) {
    const diagnostic = new vscode.Diagnostic(toRange(d.range), String(d.message || ''), toSeverity(d.severity));
    if (d.code !== undefined && d.code !== null) {
      diagnostic.code = isObject(d.codeDescription) && typeof d.codeDescription.href === 'string'
        ? { value: d.code, target: vscode.Uri.parse(d.codeDescription.href) }
        : d.code;
    }
    if (typeof d.source === 'string') diagnostic.source = d.source;
    if (Array.isArray(d.tags)) {
      diagnostic.tags = d.tags.filter((t) => t === 1 || t === 2)
        .map((t) => (t === 1 ? vscode.DiagnosticTag.Unnecessary : vscode.DiagnosticTag.Deprecated));
    }
    if (Array.isArray(d.relatedInformation)) {
      diagnostic.relatedInformation = d.relatedInformation.filter(isObject)
        .map((r) => new vscode.DiagnosticRelatedInformation(this.toLocation(r.location), String(r.message || '')));
    }
    lspDiagnostics.set(diagnostic, d);
    return diagnostic;
  }

  toTextEdit(edit) {
    return new vscode.TextEdit(toRange(edit.range), String(edit.newText ?? ''));
  }

  toWorkspaceEdit(edit) {
    const result = new vscode.WorkspaceEdit();
    if (!isObject(edit)) return result;
    if (Array.isArray(edit.documentChanges)) {
      for (const change of edit.documentChanges) {
        if (!isObject(change) || !isObject(change.textDocument) || !Array.isArray(change.edits)) continue;
        const uri = this.toUri(change.textDocument.uri);
        for (const e of change.edits) result.replace(uri, toRange(e.range), String(e.newText ?? ''));
      }
    } else if (isObject(edit.changes)) {
      for (const [uri, edits] of Object.entries(edit.changes)) {
        for (const e of edits || []) result.replace(this.toUri(uri), toRange(e.range), String(e.newText ?? ''));
      }
    }
    return result;
  }

  toCompletionItem(item, defaultRange) {
    const result = new vscode.CompletionItem(
      isObject(item.labelDetails) ? { label: item.label, detail: item.labelDetails.detail, description: item.labelDetails.description } : item.label,
      toKind(item.kind, undefined),
    );
    if (item.detail !== undefined) result.detail = item.detail;
    const documentation = toDocumentation(item.documentation);
    if (documentation !== undefined) result.documentation = documentation;
    if (item.sortText !== undefined) result.sortText = item.sortText;
    if (item.filterText !== undefined) result.filterText = item.filterText;
    if (item.preselect) result.preselect = true;
    const snippet = item.insertTextFormat === 2;
    const text = (value) => (snippet ? new vscode.SnippetString(value) : value);
    if (isObject(item.textEdit)) {
      result.insertText = text(item.textEdit.newText);
      result.range = isObject(item.textEdit.insert)
        ? { inserting: toRange(item.textEdit.insert), replacing: toRange(item.textEdit.replace) }
        : toRange(item.textEdit.range);
    } else {
      result.insertText = text(item.insertText !== undefined ? item.insertText : item.label);
      if (defaultRange) result.range = defaultRange;
    }
    if (Array.isArray(item.additionalTextEdits)) result.additionalTextEdits = item.additionalTextEdits.map((e) => this.toTextEdit(e));
    if (Array.isArray(item.commitCharacters)) result.commitCharacters = item.commitCharacters;
    return result;
  }

  toInlayHint(hint) {
    const label = typeof hint.label === 'string'
      ? hint.label
      : (hint.label || []).map((part) => {
        const p = new vscode.InlayHintLabelPart(String(part.value ?? ''));
        if (part.tooltip !== undefined) p.tooltip = typeof part.tooltip === 'string' ? part.tooltip : toMarkdown(part.tooltip);
        if (isObject(part.location)) p.location = this.toLocation(part.location);
        return p;
      });
    const kind = hint.kind === 1 ? vscode.InlayHintKind.Type : hint.kind === 2 ? vscode.InlayHintKind.Parameter : undefined;
    const result = new vscode.InlayHint(toPosition(hint.position), label, kind);
    if (hint.paddingLeft) result.paddingLeft = true;
    if (hint.paddingRight) result.paddingRight = true;
    if (hint.tooltip !== undefined) result.tooltip = typeof hint.tooltip === 'string' ? hint.tooltip : toMarkdown(hint.tooltip);
    if (Array.isArray(hint.textEdits)) result.textEdits = hint.textEdits.map((e) => this.toTextEdit(e));
    return result;
  }

  toDocumentSymbol(symbol) {
    const result = new vscode.DocumentSymbol(
      String(symbol.name || ''), String(symbol.detail || ''), toKind(symbol.kind, vscode.SymbolKind.Variable),
      toRange(symbol.range), toRange(symbol.selectionRange || symbol.range),
    );
    result.children = (symbol.children || []).filter(isObject).map((c) => this.toDocumentSymbol(c));
    return result;
  }

  toSymbolInformation(symbol) {
    return new vscode.SymbolInformation(
      String(symbol.name || ''), toKind(symbol.kind, vscode.SymbolKind.Variable), String(symbol.containerName || ''),
      this.toLocation(symbol.location),
    );
  }

  toCodeAction(action) {
    if (typeof action.command === 'string') {
      // A bare Command: shown by its title.
      const bare = new vscode.CodeAction(String(action.title || ''));
      bare.command = { title: action.title, command: action.command, arguments: action.arguments };
      return bare;
    }
    const kind = typeof action.kind === 'string' && action.kind !== '' ? vscode.CodeActionKind.Empty.append(action.kind) : undefined;
    const result = new vscode.CodeAction(String(action.title || ''), kind);
    if (isObject(action.edit)) result.edit = this.toWorkspaceEdit(action.edit);
    if (Array.isArray(action.diagnostics)) result.diagnostics = action.diagnostics.filter(isObject).map((d) => this.toDiagnostic(d));
    if (action.isPreferred) result.isPreferred = true;
    if (isObject(action.disabled)) result.disabled = { reason: String(action.disabled.reason || '') };
    if (isObject(action.command)) result.command = { title: action.command.title, command: action.command.command, arguments: action.command.arguments };
    return result;
  }

  toSelectionRange(selection) {
    return new vscode.SelectionRange(toRange(selection.range), isObject(selection.parent) ? this.toSelectionRange(selection.parent) : undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// VS Code → LSP

const fromPosition = (p) => ({ line: p.line, character: p.character });
const fromRange = (r) => ({ start: fromPosition(r.start), end: fromPosition(r.end) });

function fromSeverity(severity) {
  switch (severity) {
    case vscode.DiagnosticSeverity.Error: return 1;
    case vscode.DiagnosticSeverity.Warning: return 2;
    case vscode.DiagnosticSeverity.Information: return 3;
    default: return 4;
  }
}

/** The LSP diagnostic a VS Code one came from, or one made from its fields. */
function fromDiagnostic(diagnostic) {
  const original = lspDiagnostics.get(diagnostic);
  if (original) return original;
  const result = { range: fromRange(diagnostic.range), message: diagnostic.message, severity: fromSeverity(diagnostic.severity) };
  if (diagnostic.code !== undefined) result.code = isObject(diagnostic.code) ? diagnostic.code.value : diagnostic.code;
  if (diagnostic.source) result.source = diagnostic.source;
  return result;
}

// ---------------------------------------------------------------------------------------------
// A running server's features

/**
 * Joins a started `Connection` to VS Code: sends the open documents and their edits, shows the
 * diagnostics, and registers a provider for each capability in `capabilities` (the initialize
 * result's). Returns a Disposable that undoes all of it.
 */
function attach(connection, capabilities, output) {
  const disposables = [];
  const uris = new Map();
  const convert = new Converter(uris);
  const diagnostics = vscode.languages.createDiagnosticCollection('rpn');
  disposables.push(diagnostics);
  const caps = isObject(capabilities) ? capabilities : {};
  const doc = (document) => ({ uri: document.uri.toString() });
  const request = (method, params, token) => connection.request(method, params, token).catch((error) => {
    output.appendLine(`${method} failed: ${error.message}`);
    return null;
  });

  // Documents

  const isRpn = (document) => vscode.languages.match(DOCUMENT_SELECTOR, document) > 0;
  const open = (document) => {
    if (!isRpn(document)) return;
    const uri = document.uri.toString();
    if (uris.has(uri)) return;
    uris.set(uri, document.uri);
    connection.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'rpn', version: document.version, text: document.getText() },
    });
  };
  const close = (document) => {
    const uri = document.uri.toString();
    if (!uris.has(uri)) return;
    uris.delete(uri);
    connection.notify('textDocument/didClose', { textDocument: { uri } });
    diagnostics.delete(document.uri);
  };
  disposables.push(
    vscode.workspace.onDidOpenTextDocument(open),
    vscode.workspace.onDidCloseTextDocument(close),
    vscode.workspace.onDidChangeTextDocument((event) => {
      const uri = event.document.uri.toString();
      if (!uris.has(uri) || event.contentChanges.length === 0) return;
      connection.notify('textDocument/didChange', {
        textDocument: { uri, version: event.document.version },
        contentChanges: event.contentChanges.map((c) => ({ range: fromRange(c.range), rangeLength: c.rangeLength, text: c.text })),
      });
    }),
  );
  for (const document of vscode.workspace.textDocuments) open(document);

  connection.onNotification('textDocument/publishDiagnostics', (params) => {
    if (!isObject(params) || typeof params.uri !== 'string') return;
    if (!uris.has(params.uri)) return; // closed since
    diagnostics.set(uris.get(params.uri), (params.diagnostics || []).filter(isObject).map((d) => convert.toDiagnostic(d)));
  });
  connection.onNotification('window/logMessage', (params) => {
    if (isObject(params)) output.appendLine(String(params.message));
  });
  connection.onNotification('window/showMessage', (params) => {
    if (!isObject(params)) return;
    const show = params.type === 1 ? vscode.window.showErrorMessage : params.type === 2 ? vscode.window.showWarningMessage
      : vscode.window.showInformationMessage;
    void show(`rpn-lsp: ${params.message}`);
  });
  connection.onRequest('workspace/applyEdit', async (params) => ({
    applied: await vscode.workspace.applyEdit(convert.toWorkspaceEdit(params && params.edit)),
  }));

  // Providers

  const register = (capability, make) => {
    if (caps[capability]) disposables.push(make(caps[capability]));
  };
  const options = (value) => (isObject(value) ? value : {});

  register('hoverProvider', () => vscode.languages.registerHoverProvider(DOCUMENT_SELECTOR, {
    async provideHover(document, position, token) {
      const result = await request('textDocument/hover', { textDocument: doc(document), position: fromPosition(position) }, token);
      if (!isObject(result)) return undefined;
      const contents = Array.isArray(result.contents) ? result.contents.map(toMarkdown) : [toMarkdown(result.contents)];
      return new vscode.Hover(contents, isObject(result.range) ? toRange(result.range) : undefined);
    },
  }));

  register('completionProvider', (value) => vscode.languages.registerCompletionItemProvider(DOCUMENT_SELECTOR, {
    async provideCompletionItems(document, position, token, context) {
      const lspContext = { triggerKind: context.triggerKind + 1 };
      if (context.triggerCharacter !== undefined) lspContext.triggerCharacter = context.triggerCharacter;
      const result = await request('textDocument/completion',
        { textDocument: doc(document), position: fromPosition(position), context: lspContext }, token);
      if (!result) return undefined;
      const items = Array.isArray(result) ? result : result.items || [];
      const defaults = !Array.isArray(result) && isObject(result.itemDefaults) && isObject(result.itemDefaults.editRange)
        ? result.itemDefaults.editRange : undefined;
      const defaultRange = defaults && (isObject(defaults.insert)
        ? { inserting: toRange(defaults.insert), replacing: toRange(defaults.replace) }
        : toRange(defaults));
      return new vscode.CompletionList(items.filter(isObject).map((i) => convert.toCompletionItem(i, defaultRange)),
        !Array.isArray(result) && Boolean(result.isIncomplete));
    },
  }, ...(options(value).triggerCharacters || [])));

  /** An event fired when the server asks the client to refresh what `method` names. */
  const refreshedBy = (method) => {
    const emitter = new vscode.EventEmitter();
    disposables.push(emitter);
    connection.onRequest(method, () => {
      emitter.fire();
      return null;
    });
    return emitter;
  };

  const hintsChanged = refreshedBy('workspace/inlayHint/refresh');
  register('inlayHintProvider', () => vscode.languages.registerInlayHintsProvider(DOCUMENT_SELECTOR, {
    onDidChangeInlayHints: hintsChanged.event,
    async provideInlayHints(document, range, token) {
      const result = await request('textDocument/inlayHint', { textDocument: doc(document), range: fromRange(range) }, token);
      return Array.isArray(result) ? result.filter(isObject).map((h) => convert.toInlayHint(h)) : undefined;
    },
  }));

  register('definitionProvider', () => vscode.languages.registerDefinitionProvider(DOCUMENT_SELECTOR, {
    async provideDefinition(document, position, token) {
      return convert.toLocations(await request('textDocument/definition',
        { textDocument: doc(document), position: fromPosition(position) }, token));
    },
  }));

  register('referencesProvider', () => vscode.languages.registerReferenceProvider(DOCUMENT_SELECTOR, {
    async provideReferences(document, position, context, token) {
      return convert.toLocations(await request('textDocument/references', {
        textDocument: doc(document), position: fromPosition(position),
        context: { includeDeclaration: Boolean(context.includeDeclaration) },
      }, token));
    },
  }));

  register('documentHighlightProvider', () => vscode.languages.registerDocumentHighlightProvider(DOCUMENT_SELECTOR, {
    async provideDocumentHighlights(document, position, token) {
      const result = await request('textDocument/documentHighlight', { textDocument: doc(document), position: fromPosition(position) }, token);
      return Array.isArray(result)
        ? result.filter(isObject).map((h) => new vscode.DocumentHighlight(toRange(h.range), toKind(h.kind, vscode.DocumentHighlightKind.Text)))
        : undefined;
    },
  }));

  register('renameProvider', (value) => {
    const provider = {
      async provideRenameEdits(document, position, newName, token) {
        const result = await request('textDocument/rename', { textDocument: doc(document), position: fromPosition(position), newName }, token);
        return isObject(result) ? convert.toWorkspaceEdit(result) : undefined;
      },
    };
    if (options(value).prepareProvider) {
      provider.prepareRename = async (document, position, token) => {
        const result = await request('textDocument/prepareRename', { textDocument: doc(document), position: fromPosition(position) }, token);
        if (token.isCancellationRequested) return undefined;
        if (!isObject(result)) throw new Error('Only a variable or a word defined in this tape can be renamed.');
        if (isObject(result.start)) return toRange(result);
        if (isObject(result.range)) return { range: toRange(result.range), placeholder: String(result.placeholder ?? '') };
        return undefined; // defaultBehavior: VS Code's own word range
      };
    }
    return vscode.languages.registerRenameProvider(DOCUMENT_SELECTOR, provider);
  });

  register('documentSymbolProvider', () => vscode.languages.registerDocumentSymbolProvider(DOCUMENT_SELECTOR, {
    async provideDocumentSymbols(document, token) {
      const result = await request('textDocument/documentSymbol', { textDocument: doc(document) }, token);
      if (!Array.isArray(result)) return undefined;
      return result.filter(isObject).map((s) => (isObject(s.location) ? convert.toSymbolInformation(s) : convert.toDocumentSymbol(s)));
    },
  }, { label: 'rpn-lsp' }));

  register('workspaceSymbolProvider', () => vscode.languages.registerWorkspaceSymbolProvider({
    async provideWorkspaceSymbols(query, token) {
      const result = await request('workspace/symbol', { query }, token);
      return Array.isArray(result) ? result.filter((s) => isObject(s) && isObject(s.location) && isObject(s.location.range))
        .map((s) => convert.toSymbolInformation(s)) : undefined;
    },
  }));

  register('codeActionProvider', (value) => vscode.languages.registerCodeActionsProvider(DOCUMENT_SELECTOR, {
    async provideCodeActions(document, range, context, token) {
      const lspContext = { diagnostics: context.diagnostics.map(fromDiagnostic), triggerKind: context.triggerKind };
      if (context.only) lspContext.only = [context.only.value];
      const result = await request('textDocument/codeAction', { textDocument: doc(document), range: fromRange(range), context: lspContext }, token);
      return Array.isArray(result) ? result.filter(isObject).map((a) => convert.toCodeAction(a)) : undefined;
    },
  }, Array.isArray(options(value).codeActionKinds)
    ? { providedCodeActionKinds: options(value).codeActionKinds.map((k) => vscode.CodeActionKind.Empty.append(k)) }
    : undefined));

  const formattingOptions = (o) => ({ tabSize: o.tabSize, insertSpaces: o.insertSpaces });
  register('documentFormattingProvider', () => vscode.languages.registerDocumentFormattingEditProvider(DOCUMENT_SELECTOR, {
    async provideDocumentFormattingEdits(document, formatting, token) {
      const result = await request('textDocument/formatting', { textDocument: doc(document), options: formattingOptions(formatting) }, token);
      return Array.isArray(result) ? result.map((e) => convert.toTextEdit(e)) : undefined;
    },
  }));
  register('documentRangeFormattingProvider', () => vscode.languages.registerDocumentRangeFormattingEditProvider(DOCUMENT_SELECTOR, {
    async provideDocumentRangeFormattingEdits(document, range, formatting, token) {
      const result = await request('textDocument/rangeFormatting',
        { textDocument: doc(document), range: fromRange(range), options: formattingOptions(formatting) }, token);
      return Array.isArray(result) ? result.map((e) => convert.toTextEdit(e)) : undefined;
    },
  }));

  const lensesChanged = refreshedBy('workspace/codeLens/refresh');
  register('codeLensProvider', () => vscode.languages.registerCodeLensProvider(DOCUMENT_SELECTOR, {
    onDidChangeCodeLenses: lensesChanged.event,
    async provideCodeLenses(document, token) {
      const result = await request('textDocument/codeLens', { textDocument: doc(document) }, token);
      if (!Array.isArray(result)) return undefined;
      // A lens whose command is "" is a label: VS Code shows it and does nothing on a click.
      return result.filter(isObject).map((l) => new vscode.CodeLens(toRange(l.range),
        isObject(l.command) ? { title: String(l.command.title || ''), command: String(l.command.command || ''), arguments: l.command.arguments } : undefined));
    },
  }));

  register('foldingRangeProvider', () => vscode.languages.registerFoldingRangeProvider(DOCUMENT_SELECTOR, {
    async provideFoldingRanges(document, context, token) {
      const result = await request('textDocument/foldingRange', { textDocument: doc(document) }, token);
      if (!Array.isArray(result)) return undefined;
      const kinds = { comment: vscode.FoldingRangeKind.Comment, imports: vscode.FoldingRangeKind.Imports, region: vscode.FoldingRangeKind.Region };
      return result.filter(isObject).map((f) => new vscode.FoldingRange(f.startLine, f.endLine, kinds[f.kind]));
    },
  }));

  register('selectionRangeProvider', () => vscode.languages.registerSelectionRangeProvider(DOCUMENT_SELECTOR, {
    async provideSelectionRanges(document, positions, token) {
      const result = await request('textDocument/selectionRange', { textDocument: doc(document), positions: positions.map(fromPosition) }, token);
      return Array.isArray(result) ? result.filter(isObject).map((s) => convert.toSelectionRange(s)) : undefined;
    },
  }));

  register('semanticTokensProvider', (value) => {
    const legend = isObject(value.legend) ? value.legend : { tokenTypes: [], tokenModifiers: [] };
    const vsLegend = new vscode.SemanticTokensLegend(legend.tokenTypes || [], legend.tokenModifiers || []);
    const tokensChanged = refreshedBy('workspace/semanticTokens/refresh');
    const tokens = (result) => (isObject(result) && Array.isArray(result.data)
      ? new vscode.SemanticTokens(Uint32Array.from(result.data), result.resultId) : undefined);
    const registrations = [];
    if (value.full) {
      registrations.push(vscode.languages.registerDocumentSemanticTokensProvider(DOCUMENT_SELECTOR, {
        onDidChangeSemanticTokens: tokensChanged.event,
        async provideDocumentSemanticTokens(document, token) {
          return tokens(await request('textDocument/semanticTokens/full', { textDocument: doc(document) }, token));
        },
      }, vsLegend));
    }
    if (value.range) {
      registrations.push(vscode.languages.registerDocumentRangeSemanticTokensProvider(DOCUMENT_SELECTOR, {
        async provideDocumentRangeSemanticTokens(document, range, token) {
          return tokens(await request('textDocument/semanticTokens/range', { textDocument: doc(document), range: fromRange(range) }, token));
        },
      }, vsLegend));
    }
    return vscode.Disposable.from(...registrations);
  });

  return new vscode.Disposable(() => {
    for (const disposable of disposables.reverse()) disposable.dispose();
    uris.clear();
  });
}

module.exports = { attach, CLIENT_CAPABILITIES, DOCUMENT_SELECTOR, Converter };

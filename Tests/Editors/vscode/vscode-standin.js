// A stand-in for VS Code's `vscode` module, as much of it as the extension uses, for tests under
// plain Node.js: the API's classes with VS Code's constructors and enum values, a settings store
// with package.json's defaults, documents that tests open and edit, and a record of what the
// extension registered and showed. It is not VS Code: what VS Code draws from these objects is
// not checked here.
'use strict';

const fs = require('fs');
const path = require('path');

class Position {
  constructor(line, character) {
    if (line < 0 || character < 0) throw new Error(`Illegal position ${line}:${character}`);
    this.line = line;
    this.character = character;
  }
  isBefore(other) { return this.line < other.line || (this.line === other.line && this.character < other.character); }
  isEqual(other) { return this.line === other.line && this.character === other.character; }
}

class Range {
  constructor(a, b, c, d) {
    if (typeof a === 'number') {
      a = new Position(a, b);
      b = new Position(c, d);
    }
    if (!(a instanceof Position) || !(b instanceof Position)) throw new Error('Range takes Positions');
    [this.start, this.end] = b.isBefore(a) ? [b, a] : [a, b];
  }
  contains(p) { return !p.isBefore(this.start) && !this.end.isBefore(p); }
  intersection(other) {
    const start = this.start.isBefore(other.start) ? other.start : this.start;
    const end = this.end.isBefore(other.end) ? this.end : other.end;
    return end.isBefore(start) ? undefined : new Range(start, end);
  }
  toJSON() { return [this.start.line, this.start.character, this.end.line, this.end.character]; }
}

class Uri {
  constructor(scheme, fsPath, text) {
    this.scheme = scheme;
    this.fsPath = fsPath;
    this.text = text;
  }
  static file(p) { return new Uri('file', p, 'file://' + encodeURI(p)); }
  static parse(text) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text);
    return new Uri(scheme ? scheme[1] : 'file', scheme && scheme[1] === 'file' ? decodeURI(text.slice(7)) : text, text);
  }
  toString() { return this.text; }
  toJSON() { return this.text; }
}

class MarkdownString {
  constructor(value = '') { this.value = value; }
  appendText(text) { this.value += text.replace(/[\\`*_{}[\]()#+\-.!]/g, '\\$&'); return this; }
  appendMarkdown(text) { this.value += text; return this; }
  appendCodeblock(code, language = '') { this.value += '\n```' + language + '\n' + code + '\n```\n'; return this; }
}

class SnippetString {
  constructor(value = '') { this.value = value; }
}

class Location {
  constructor(uri, range) { this.uri = uri; this.range = range; }
}

class Diagnostic {
  constructor(range, message, severity = 0) {
    this.range = range;
    this.message = message;
    this.severity = severity;
  }
}

class DiagnosticRelatedInformation {
  constructor(location, message) { this.location = location; this.message = message; }
}

class Hover {
  constructor(contents, range) { this.contents = Array.isArray(contents) ? contents : [contents]; this.range = range; }
}

class TextEdit {
  constructor(range, newText) { this.range = range; this.newText = newText; }
}

class WorkspaceEdit {
  constructor() { this.entries = []; }
  replace(uri, range, newText) { this.entries.push([uri, new TextEdit(range, newText)]); }
  get size() { return new Set(this.entries.map(([u]) => u.toString())).size; }
}

class CompletionItem {
  constructor(label, kind) { this.label = label; this.kind = kind; }
}

class CompletionList {
  constructor(items = [], isIncomplete = false) { this.items = items; this.isIncomplete = isIncomplete; }
}

class InlayHint {
  constructor(position, label, kind) { this.position = position; this.label = label; this.kind = kind; }
}

class InlayHintLabelPart {
  constructor(value) { this.value = value; }
}

class DocumentHighlight {
  constructor(range, kind = 0) { this.range = range; this.kind = kind; }
}

class DocumentSymbol {
  constructor(name, detail, kind, range, selectionRange) {
    if (!name) throw new Error('name must not be falsy');
    if (!range.contains(selectionRange.start) || !range.contains(selectionRange.end)) {
      throw new Error('selectionRange must be contained in fullRange');
    }
    Object.assign(this, { name, detail, kind, range, selectionRange, children: [] });
  }
}

class SymbolInformation {
  constructor(name, kind, containerName, location) { Object.assign(this, { name, kind, containerName, location }); }
}

class CodeActionKind {
  constructor(value) { this.value = value; }
  append(part) { return new CodeActionKind(this.value ? `${this.value}.${part}` : part); }
}
CodeActionKind.Empty = new CodeActionKind('');
CodeActionKind.QuickFix = new CodeActionKind('quickfix');
CodeActionKind.Source = new CodeActionKind('source');

class CodeAction {
  constructor(title, kind) { this.title = title; this.kind = kind; }
}

class CodeLens {
  constructor(range, command) { this.range = range; this.command = command; }
  get isResolved() { return Boolean(this.command); }
}

class FoldingRange {
  constructor(start, end, kind) { this.start = start; this.end = end; this.kind = kind; }
}

class SelectionRange {
  constructor(range, parent) {
    if (parent && !(parent.range.contains(range.start) && parent.range.contains(range.end))) {
      throw new Error('Invalid argument: parent must contain this range');
    }
    this.range = range;
    this.parent = parent;
  }
}

class SemanticTokensLegend {
  constructor(tokenTypes, tokenModifiers = []) { this.tokenTypes = tokenTypes; this.tokenModifiers = tokenModifiers; }
}

class SemanticTokens {
  constructor(data, resultId) {
    if (!(data instanceof Uint32Array)) throw new Error('data must be a Uint32Array');
    this.data = data;
    this.resultId = resultId;
  }
}

class Disposable {
  constructor(fn) { this.fn = fn; }
  static from(...items) { return new Disposable(() => items.forEach((d) => d && d.dispose())); }
  dispose() { if (this.fn) this.fn(); this.fn = undefined; }
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener) => {
      this.listeners.add(listener);
      return new Disposable(() => this.listeners.delete(listener));
    };
  }
  fire(value) { for (const listener of [...this.listeners]) listener(value); }
  dispose() { this.listeners.clear(); }
}

class CancellationTokenSource {
  constructor() {
    this.emitter = new EventEmitter();
    this.token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  }
  cancel() {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
}

/** A text document: `lines` as VS Code keeps them, edited by `applyEdits` (offsets in UTF-16). */
class TextDocument {
  constructor(uri, languageId, text) {
    this.uri = uri;
    this.languageId = languageId;
    this.version = 1;
    this.text = text;
  }
  getText(range) {
    if (!range) return this.text;
    return this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
  }
  get lineCount() { return this.text.split('\n').length; }
  offsetAt(position) {
    const lines = this.text.split('\n');
    let offset = 0;
    for (let i = 0; i < Math.min(position.line, lines.length); i++) offset += lines[i].length + 1;
    if (position.line >= lines.length) return this.text.length;
    return offset + Math.min(position.character, lines[position.line].length);
  }
  positionAt(offset) {
    const before = this.text.slice(0, offset).split('\n');
    return new Position(before.length - 1, before[before.length - 1].length);
  }
  lineAt(line) { return { text: this.text.split('\n')[line] }; }
}

/**
 * A fresh `vscode` module. `options.extensionDir` has the package.json whose settings' defaults
 * the configuration starts from; `options.settings` overrides them ("rpn.precision": 4);
 * `options.folders` are workspace folders (paths); `options.errorChoice` is the button a test
 * "clicks" on every error message.
 */
function makeVscode(options = {}) {
  const pkg = JSON.parse(fs.readFileSync(path.join(options.extensionDir, 'package.json'), 'utf8'));
  const values = {};
  for (const [key, prop] of Object.entries(pkg.contributes.configuration.properties)) values[key] = prop.default;
  Object.assign(values, options.settings || {});
  const events = [];
  const record = { events, providers: {}, commands: {}, diagnostics: new Map(), documents: [], values };
  const onOpen = new EventEmitter();
  const onClose = new EventEmitter();
  const onChange = new EventEmitter();
  const onConfiguration = new EventEmitter();

  function getConfiguration(section) {
    const prefix = section ? section + '.' : '';
    const config = {};
    for (const [key, value] of Object.entries(values)) {
      if (!key.startsWith(prefix)) continue;
      const parts = key.slice(prefix.length).split('.');
      let node = config;
      for (const part of parts.slice(0, -1)) node = node[part] = node[part] || {};
      node[parts[parts.length - 1]] = value;
    }
    const get = (key, fallback) => (prefix + key in values ? values[prefix + key] : fallback);
    for (const [name, fn] of Object.entries({ get, has: (key) => prefix + key in values, inspect: () => undefined, update: async () => {} })) {
      Object.defineProperty(config, name, { value: fn, enumerable: false });
    }
    return config;
  }

  const matches = (selector, document) => (Array.isArray(selector) ? selector : [selector])
    .some((s) => (typeof s === 'string' ? s === document.languageId
      : (!s.language || s.language === document.languageId) && (!s.scheme || s.scheme === document.uri.scheme)));

  const registrar = (kind) => (selector, provider, ...rest) => {
    (record.providers[kind] = record.providers[kind] || []).push({ selector, provider, rest });
    return new Disposable(() => {
      record.providers[kind] = record.providers[kind].filter((p) => p.provider !== provider);
    });
  };
  const languages = {
    match: (selector, document) => (matches(selector, document) ? 10 : 0),
    createDiagnosticCollection(name) {
      return {
        name,
        set(uri, list) { record.diagnostics.set(uri.toString(), list); events.push(['diagnostics', uri.toString(), list.length]); },
        delete(uri) { record.diagnostics.delete(uri.toString()); },
        clear() { record.diagnostics.clear(); },
        dispose() { record.diagnostics.clear(); events.push(['diagnostics disposed']); },
      };
    },
    registerWorkspaceSymbolProvider: (provider) => registrar('workspaceSymbol')(undefined, provider),
  };
  for (const kind of ['Hover', 'CompletionItem', 'InlayHints', 'Definition', 'Reference', 'DocumentHighlight', 'Rename',
    'DocumentSymbol', 'CodeActions', 'DocumentFormattingEdit', 'DocumentRangeFormattingEdit', 'CodeLens', 'FoldingRange',
    'SelectionRange', 'DocumentSemanticTokens', 'DocumentRangeSemanticTokens']) {
    languages[`register${kind}Provider`] = registrar(kind);
  }

  const workspace = {
    getConfiguration,
    workspaceFolders: (options.folders || []).map((f, index) => ({ uri: Uri.file(f), name: path.basename(f), index })),
    get textDocuments() { return record.documents; },
    onDidOpenTextDocument: onOpen.event,
    onDidCloseTextDocument: onClose.event,
    onDidChangeTextDocument: onChange.event,
    onDidChangeConfiguration: onConfiguration.event,
    isTrusted: true,
    async applyEdit(edit) { record.applied = (record.applied || []).concat([edit]); return true; },
  };

  const window = {
    createOutputChannel(name) {
      return { name, append() {}, appendLine(line) { events.push(['output', line]); }, show() { events.push(['showOutput']); }, dispose() {} };
    },
    showErrorMessage(message, ...items) { events.push(["error", message, items]); return Promise.resolve("errorChoice" in record ? record.errorChoice : options.errorChoice); },
    showWarningMessage(message, ...items) { events.push(['warning', message, items]); return Promise.resolve(undefined); },
    showInformationMessage(message, ...items) { events.push(['info', message, items]); return Promise.resolve(undefined); },
  };

  const commands = {
    registerCommand(id, fn) { record.commands[id] = fn; return new Disposable(() => delete record.commands[id]); },
    async executeCommand(...args) { events.push(['executeCommand', ...args]); },
  };

  const vscode = {
    version: '1.95.0',
    env: { language: 'en' },
    Position, Range, Uri, MarkdownString, SnippetString, Location, Diagnostic, DiagnosticRelatedInformation, Hover,
    TextEdit, WorkspaceEdit, CompletionItem, CompletionList, InlayHint, InlayHintLabelPart, DocumentHighlight,
    DocumentSymbol, SymbolInformation, CodeActionKind, CodeAction, CodeLens, FoldingRange, SelectionRange,
    SemanticTokensLegend, SemanticTokens, Disposable, EventEmitter, CancellationTokenSource,
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
    CompletionItemKind: { Text: 0, Method: 1, Function: 2, Variable: 5, Unit: 10, Value: 11, Keyword: 13, Snippet: 14, Constant: 20, Operator: 23 },
    CompletionTriggerKind: { Invoke: 0, TriggerCharacter: 1, TriggerForIncompleteCompletions: 2 },
    CodeActionTriggerKind: { Invoke: 1, Automatic: 2 },
    InlayHintKind: { Type: 1, Parameter: 2 },
    DocumentHighlightKind: { Text: 0, Read: 1, Write: 2 },
    SymbolKind: { File: 0, Module: 1, Namespace: 2, Function: 11, Variable: 12, Constant: 13, String: 14, Number: 15 },
    FoldingRangeKind: { Comment: 1, Imports: 2, Region: 3 },
    languages, workspace, window, commands,
  };

  /** Test side: open, edit, close documents and change settings as VS Code would report them. */
  const host = {
    record,
    open(file, text, languageId = 'rpn', scheme = 'file') {
      const uri = scheme === 'file' ? Uri.file(file) : new Uri(scheme, file, `${scheme}:${file}`);
      const document = new TextDocument(uri, languageId, text);
      record.documents.push(document);
      onOpen.fire(document);
      return document;
    },
    /** Replaces `range` of `document` with `text`, as one change event. */
    edit(document, range, text) {
      const start = document.offsetAt(range.start);
      const end = document.offsetAt(range.end);
      document.text = document.text.slice(0, start) + text + document.text.slice(end);
      document.version += 1;
      onChange.fire({ document, contentChanges: [{ range, rangeOffset: start, rangeLength: end - start, text }], reason: undefined });
    },
    close(document) {
      record.documents = record.documents.filter((d) => d !== document);
      onClose.fire(document);
    },
    configure(changes) {
      Object.assign(values, changes);
      const changed = Object.keys(changes);
      onConfiguration.fire({ affectsConfiguration: (s) => changed.some((k) => k === s || k.startsWith(s + '.') || s.startsWith(k + '.')) });
    },
    /** The one provider of `kind` for `document` (fails when there is none). */
    provider(kind, document) {
      const found = (record.providers[kind] || []).filter((p) => !document || !p.selector || matches(p.selector, document));
      if (found.length !== 1) throw new Error(`${found.length} ${kind} providers registered, expected 1`);
      return found[0];
    },
  };
  return { vscode, host };
}

let current;
let installed = false;
/** Makes `require('vscode')` return `vscode` from here on (the latest one, when called again). */
function install(vscode) {
  current = vscode;
  if (installed) return;
  installed = true;
  const Module = require('module');
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    if (request === 'vscode') return current;
    return load.call(this, request, parent, isMain);
  };
}

module.exports = { makeVscode, install };

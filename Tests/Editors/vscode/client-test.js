// The VS Code extension's own LSP client (EditorConfigs/vscode: extension.js, client.js,
// features.js) run under plain Node.js with the `vscode` stand-in beside this file, against the
// real rpn-lsp over pipes. What the extension hands VS Code is checked exactly: each provider's
// answer for a tape (hints, hover, completion, navigation, rename, symbols, quick fixes,
// formatting, code lens, folding, selection, semantic tokens), the diagnostics, edits and the
// refreshes they cause, a settings change, cancellation, a server that dies, restarts, and how
// `rpn.server.path` finds the binary (with stand-in binaries that run the real server).
//
//   node Tests/Editors/vscode/client-test.js PATH/TO/rpn-lsp
//
// Prints one "ok - …" or "FAIL - …" line per check, and a line "# initialize {…}" with the
// initialize parameters the extension sends (check.py starts the server with them); exits 1 on
// a failure.
'use strict';

const assert = require('assert');
const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { makeVscode, install } = require('./vscode-standin');

const EXT = path.resolve(__dirname, '..', '..', '..', 'EditorConfigs', 'vscode');
const server = process.argv[2] && path.resolve(process.argv[2]);
if (!server || !fs.existsSync(server)) {
  console.error('usage: node client-test.js PATH/TO/rpn-lsp');
  process.exit(2);
}

// Every process the extension spawns, in order.
const spawned = [];
const realSpawn = childProcess.spawn;
childProcess.spawn = function (command, args, options) {
  const child = realSpawn.call(this, command, args, options);
  spawned.push({ command, args, child });
  return child;
};

let failures = 0;
async function check(what, body) {
  try {
    await body();
    console.log(`ok   - ${what}`);
  } catch (error) {
    failures += 1;
    console.log(`FAIL - ${what}\n       ${String(error && error.message || error).split('\n').join('\n       ')}`);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(what, condition, timeout = 10000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}
const exited = (child) => new Promise((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve([child.exitCode, child.signalCode]);
  else child.once('exit', (code, signal) => resolve([code, signal]));
});

/** A fresh `vscode` stand-in and a fresh load of the extension's modules. */
function load(options) {
  const made = makeVscode({ extensionDir: EXT, ...options });
  install(made.vscode);
  for (const key of Object.keys(require.cache)) if (key.startsWith(EXT + path.sep)) delete require.cache[key];
  return { ...made, extension: require(path.join(EXT, 'extension.js')) };
}

// Stand-in binaries that run the real server: on PATH, in a workspace folder, in a home folder.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'rpn-vscode-client.'));
const wrapper = `#!/bin/sh\nexec '${server.replace(/'/g, "'\\''")}' "$@"\n`;
const fakes = {
  onPath: path.join(scratch, 'bin', 'rpn-lsp'),
  other: path.join(scratch, 'other', 'rpn-lsp-dev'),
  inFolder: path.join(scratch, 'folder', 'tools', 'rpn-lsp'),
  inHome: path.join(scratch, 'home', 'bin', 'rpn-lsp'),
  failing: path.join(scratch, 'other', 'rpn-lsp-broken'),
};
for (const file of Object.values(fakes)) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, file === fakes.failing ? '#!/bin/sh\necho "rpn-lsp-broken: cannot start" >&2\nexit 1\n' : wrapper, { mode: 0o755 });
}
const notExecutable = path.join(scratch, 'other', 'not-executable');
fs.writeFileSync(notExecutable, '', { mode: 0o644 });
const systemPath = process.env.PATH;
process.env.HOME = path.join(scratch, 'home');

const DEFAULT_INIT = {
  rpn: {
    precision: 15, angleUnit: 'radians',
    display: { notation: 'auto', decimals: 2, grouping: false },
    inlayHints: { enabled: true, maxItems: 8, sections: true, position: 'afterTokens' },
  },
};

const TAPE = [
  '# lunch split', // 0
  '12.50 =lunch', // 1
  '8 =coffee', // 2
  'lunch coffee +', // 3
  '3 /', // 4
  'sqr', // 5
  ': hyp sq swap sq + sqrt ;', // 6
  '3 4 hyp', // 7
  '## Groceries', // 8
  '2.5   4 +', // 9
  '',
].join('\n');

const plain = (value) => JSON.parse(JSON.stringify(value));
const rangeOf = (r) => [r.start.line, r.start.character, r.end.line, r.end.character];

async function mainSession() {
  const { vscode, host, extension } = load({ settings: { 'rpn.server.path': fakes.onPath } });
  const token = new vscode.CancellationTokenSource().token;
  const P = (line, character) => new vscode.Position(line, character);
  const tape = host.open(path.join(scratch, 'tape.rpn'), TAPE);
  const text = host.open(path.join(scratch, 'notes.txt'), '1 2 +\nsqr\n', 'plaintext');
  const uri = tape.uri.toString();
  const first = spawned.length;
  const context = { subscriptions: [] };
  await extension.activate(context);
  const provider = (kind) => host.provider(kind, tape).provider;

  await check('activate spawns the binary rpn.server.path names, with --stdio, once', () => {
    assert.deepStrictEqual(spawned.slice(first).map((s) => [s.command, s.args]), [[fakes.onPath, ['--stdio']]]);
  });
  await check('initialize: UTF-16 positions, the rpn.* settings as initializationOptions, VS Code as the client', () => {
    const params = extension.initializeParams();
    assert.deepStrictEqual(params.capabilities.general.positionEncodings, ['utf-16']);
    assert.deepStrictEqual(params.initializationOptions, DEFAULT_INIT);
    assert.strictEqual(params.clientInfo.name, 'Visual Studio Code');
    console.log(`# initialize ${JSON.stringify(params)}`);
  });
  await check('a provider for each of the server\'s features, each registered once, for .rpn files and untitled RPN editors', () => {
    const kinds = Object.keys(host.record.providers).sort();
    assert.deepStrictEqual(kinds, ['CodeActions', 'CodeLens', 'CompletionItem', 'Definition', 'DocumentFormattingEdit',
      'DocumentHighlight', 'DocumentRangeFormattingEdit', 'DocumentRangeSemanticTokens', 'DocumentSemanticTokens',
      'DocumentSymbol', 'FoldingRange', 'Hover', 'InlayHints', 'Reference', 'Rename', 'SelectionRange', 'workspaceSymbol']);
    for (const kind of kinds) assert.strictEqual(host.record.providers[kind].length, 1, kind);
    assert.deepStrictEqual(plain(host.record.providers.Hover[0].selector),
      [{ scheme: 'file', language: 'rpn' }, { scheme: 'untitled', language: 'rpn' }]);
  });
  await check('the tape open before activation gets its diagnostic: `sqr` an unknown word, an error at 6:1-6:4', async () => {
    await until('diagnostics', () => host.record.diagnostics.has(uri));
    const list = host.record.diagnostics.get(uri);
    assert.deepStrictEqual(list.map((d) => [rangeOf(d.range), d.severity, d.code, d.source, d.message]),
      [[[5, 0, 5, 3], vscode.DiagnosticSeverity.Error, 'unknown-word', 'rpn', 'unknown word `sqr`; did you mean `sqrt` or `sq`?']]);
  });
  await check('a plain-text document is not sent to the server (no diagnostics for it)', () => {
    assert.ok(!host.record.diagnostics.has(text.uri.toString()));
    assert.throws(() => host.provider('Hover', text));
  });
  await check('inlay hints: the stack after each line, the word\'s stack effect after `;`, the section\'s summary on its heading', async () => {
    const hints = await provider('InlayHints').provideInlayHints(tape, new vscode.Range(0, 0, 10, 0), token);
    assert.deepStrictEqual(hints.map((h) => [h.position.line, h.position.character, h.label]), [
      [1, 12, '[12.5]'], [2, 9, '[12.5 8]'], [3, 14, '[12.5 8 20.5]'], [4, 3, '[12.5 8 6.83333333333333]'],
      [5, 3, '[12.5 8 6.83333333333333]'], [6, 25, '( a b -- r )'], [6, 25, '[12.5 8 6.83333333333333]'],
      [7, 7, '[12.5 8 6.83333333333333 5]'], [8, 12, 'Σ 6.5 · 1 value · avg 6.5'], [9, 9, '[12.5 8 6.83333333333333 5 6.5]'],
    ]);
    assert.ok(hints.every((h) => h.paddingLeft === true));
    assert.strictEqual(hints[2].tooltip, '3: 12.5\n2: 8\n1: 20.5');
    assert.deepStrictEqual(hints[2].textEdits.map((e) => [rangeOf(e.range), e.newText]), [[[3, 14, 3, 14], ' =20.5']]);
  });
  await check('hover on `+`: its effect and the stack before and after, as Markdown, over the token', async () => {
    const hover = await provider('Hover').provideHover(tape, P(3, 13), token);
    assert.ok(hover.contents[0] instanceof vscode.MarkdownString);
    assert.strictEqual(hover.contents[0].value,
      'operator `+`: add  \n`( a b -- a+b )`\n\nStack before: `[12.5 8 12.5 8]`  \nStack after: `[12.5 8 20.5]`');
    assert.deepStrictEqual(rangeOf(hover.range), [3, 13, 3, 14]);
  });
  await check('completion in `sqr`: sq and sqrt first, with their effects, replacing the word', async () => {
    const list = await provider('CompletionItem').provideCompletionItems(tape, P(5, 2), token, { triggerKind: 0 });
    assert.ok(list instanceof vscode.CompletionList);
    assert.deepStrictEqual(list.items.slice(0, 2).map((i) => [i.label, i.detail, i.insertText, rangeOf(i.range)]),
      [['sq', '( a -- a² )', 'sq', [5, 0, 5, 3]], ['sqrt', '( a -- √a )', 'sqrt', [5, 0, 5, 3]]]);
    const names = await provider('CompletionItem').provideCompletionItems(tape, P(3, 8), token, { triggerKind: 0 });
    assert.deepStrictEqual(names.items.filter((i) => i.kind === vscode.CompletionItemKind.Variable).map((i) => [i.label, rangeOf(i.range)]),
      [['coffee', [3, 6, 3, 12]]], 'the variable coffee, stored above, is offered as a Variable');
  });
  await check('the completion trigger characters are the server\'s (every letter)', () => {
    const triggers = host.record.providers.CompletionItem[0].rest;
    assert.ok(triggers.includes('a') && triggers.includes('Z'), JSON.stringify(triggers));
  });
  await check('go to definition, references and highlights of `lunch`', async () => {
    const definition = await provider('Definition').provideDefinition(tape, P(3, 1), token);
    assert.deepStrictEqual(definition.map((l) => [l.uri.toString(), rangeOf(l.range)]), [[uri, [1, 6, 1, 12]]]);
    const references = await provider('Reference').provideReferences(tape, P(3, 1), { includeDeclaration: true }, token);
    assert.deepStrictEqual(references.map((l) => rangeOf(l.range)), [[1, 6, 1, 12], [3, 0, 3, 5]]);
    const highlights = await provider('DocumentHighlight').provideDocumentHighlights(tape, P(3, 1), token);
    assert.deepStrictEqual(highlights.map((h) => [rangeOf(h.range), h.kind]),
      [[[1, 6, 1, 12], vscode.DocumentHighlightKind.Write], [[3, 0, 3, 5], vscode.DocumentHighlightKind.Read]]);
  });
  await check('rename `lunch` to `meal`: prepared on the name, both places edited; `/` cannot be renamed', async () => {
    const rename = provider('Rename');
    const prepared = await rename.prepareRename(tape, P(3, 1), token);
    assert.deepStrictEqual([rangeOf(prepared.range), prepared.placeholder], [[3, 0, 3, 5], 'lunch']);
    await assert.rejects(rename.prepareRename(tape, P(4, 2), token), /can be renamed/);
    const edit = await rename.provideRenameEdits(tape, P(3, 1), 'meal', token);
    assert.deepStrictEqual(edit.entries.map(([u, e]) => [u.toString(), rangeOf(e.range), e.newText]),
      [[uri, [1, 7, 1, 12], 'meal'], [uri, [3, 0, 3, 5], 'meal']]);
    assert.strictEqual(edit.entries[0][0], tape.uri, 'the edit names the open document\'s own Uri');
  });
  await check('document symbols: the variables, the word and the section; workspace symbols find `lunch`', async () => {
    const symbols = await provider('DocumentSymbol').provideDocumentSymbols(tape, token);
    assert.deepStrictEqual(symbols.map((s) => [s.name, s.detail, s.kind, rangeOf(s.selectionRange)]), [
      ['lunch', '12.5', vscode.SymbolKind.Variable, [1, 7, 1, 12]], ['coffee', '8', vscode.SymbolKind.Variable, [2, 3, 2, 9]],
      ['hyp', '( a b -- r )', vscode.SymbolKind.Function, [6, 2, 6, 5]],
      ['Groceries', 'Σ 6.5 · 1 value · avg 6.5', vscode.SymbolKind.Namespace, [8, 3, 8, 12]],
    ]);
    const found = await host.provider('workspaceSymbol').provider.provideWorkspaceSymbols('lun', token);
    assert.deepStrictEqual(found.map((s) => [s.name, s.kind, s.location.uri.toString(), rangeOf(s.location.range)]),
      [['lunch', vscode.SymbolKind.Variable, uri, [1, 6, 1, 12]]]);
  });
  await check('quick fixes for `sqr`: replace with sqrt or sq, each a quickfix tied to the diagnostic', async () => {
    const diagnostics = host.record.diagnostics.get(uri);
    const actions = await provider('CodeActions').provideCodeActions(tape, new vscode.Range(5, 0, 5, 3),
      { diagnostics, triggerKind: vscode.CodeActionTriggerKind.Invoke, only: undefined }, token);
    assert.deepStrictEqual(actions.map((a) => [a.title, a.kind.value, a.edit.entries.map(([, e]) => [rangeOf(e.range), e.newText])]), [
      ['Replace `sqr` with `sqrt`', 'quickfix', [[[5, 0, 5, 3], 'sqrt']]],
      ['Replace `sqr` with `sq`', 'quickfix', [[[5, 0, 5, 3], 'sq']]],
    ]);
    assert.deepStrictEqual(actions[0].diagnostics.map((d) => d.code), ['unknown-word']);
  });
  await check('formatting: the one misformatted line is rewritten', async () => {
    const edits = await provider('DocumentFormattingEdit').provideDocumentFormattingEdits(tape, { tabSize: 2, insertSpaces: true }, token);
    assert.deepStrictEqual(edits.map((e) => [rangeOf(e.range), e.newText]), [[[9, 0, 9, 9], '2.5 4 +']]);
    const ranged = await provider('DocumentRangeFormattingEdit').provideDocumentRangeFormattingEdits(tape, new vscode.Range(0, 0, 3, 0),
      { tabSize: 2, insertSpaces: true }, token);
    assert.deepStrictEqual(ranged, []);
  });
  await check('code lens: the section\'s summary over its heading, a label (empty command)', async () => {
    const lenses = await provider('CodeLens').provideCodeLenses(tape, token);
    assert.deepStrictEqual(lenses.map((l) => [rangeOf(l.range), l.command.title, l.command.command]),
      [[[8, 0, 8, 12], 'Σ 6.5 · 1 value · avg 6.5', '']]);
  });
  await check('folding: the section folds as a region; selection grows from a token to its line and the tape', async () => {
    const folds = await provider('FoldingRange').provideFoldingRanges(tape, {}, token);
    assert.deepStrictEqual(folds.map((f) => [f.start, f.end, f.kind]), [[8, 9, vscode.FoldingRangeKind.Region]]);
    const [selection] = await provider('SelectionRange').provideSelectionRanges(tape, [P(3, 1)], token);
    const chain = [];
    for (let s = selection; s; s = s.parent) chain.push(rangeOf(s.range));
    assert.deepStrictEqual(chain, [[3, 0, 3, 5], [3, 0, 3, 14], [0, 0, 10, 0]]);
  });
  await check('semantic tokens with the server\'s legend: the comment, the number, the store', async () => {
    const registration = host.record.providers.DocumentSemanticTokens[0];
    const legend = registration.rest[0];
    assert.deepStrictEqual([legend.tokenTypes, legend.tokenModifiers],
      [['number', 'operator', 'function', 'variable', 'comment', 'keyword', 'type'], ['declaration', 'readonly', 'defaultLibrary']]);
    const tokens = await registration.provider.provideDocumentSemanticTokens(tape, token);
    assert.ok(tokens.data instanceof Uint32Array && tokens.data.length % 5 === 0);
    const type = (i) => legend.tokenTypes[tokens.data[i * 5 + 3]];
    assert.deepStrictEqual([type(0), type(1)], ['comment', 'number']);
    assert.deepStrictEqual(Array.from(tokens.data.slice(0, 5)), [0, 0, 13, 4, 0]);
    const ranged = await host.provider('DocumentRangeSemanticTokens', tape).provider
      .provideDocumentRangeSemanticTokens(tape, new vscode.Range(1, 0, 1, 12), token);
    assert.ok(ranged.data.length > 0 && ranged.data.length < tokens.data.length);
  });

  // Edits, as VS Code reports them: incremental changes with the document's new version.
  let hintRefreshes = 0;
  let lensRefreshes = 0;
  host.record.providers.InlayHints[0].provider.onDidChangeInlayHints(() => { hintRefreshes += 1; });
  host.record.providers.CodeLens[0].provider.onDidChangeCodeLenses(() => { lensRefreshes += 1; });
  await check('an edit that fixes `sqr` to `sq` clears its diagnostic', async () => {
    host.edit(tape, new vscode.Range(5, 2, 5, 3), '');
    await until('the diagnostics to clear', () => host.record.diagnostics.get(uri).length === 0);
  });
  await check('after an edit of a value the hints (which VS Code asks for again after each edit) show the new stacks', async () => {
    host.edit(tape, new vscode.Range(2, 0, 2, 1), '9');
    const hints = await provider('InlayHints').provideInlayHints(tape, new vscode.Range(0, 0, 10, 0), token);
    assert.strictEqual(hints[2].label, '[12.5 9 21.5]');
    assert.strictEqual(hints[4].label, '[12.5 9 51.3611111111111]', 'line 6, `sq`, squares the top');
  });
  await check('an edit inside a section refreshes the code lenses, which show the new summary', async () => {
    const before = lensRefreshes;
    host.edit(tape, new vscode.Range(9, 6, 9, 7), '5');
    await until('a code lens refresh', () => lensRefreshes > before);
    const lenses = await provider('CodeLens').provideCodeLenses(tape, token);
    assert.deepStrictEqual(lenses.map((l) => l.command.title), ['Σ 7.5 · 1 value · avg 7.5']);
  });
  await check('a cancelled request resolves to nothing at once, without an error, and the next one is answered', async () => {
    const source = new vscode.CancellationTokenSource();
    source.cancel();
    const cancelled = await provider('Hover').provideHover(tape, P(3, 13), source.token);
    assert.ok(cancelled === undefined || cancelled === null, JSON.stringify(cancelled));
    const late = new vscode.CancellationTokenSource();
    const pending = provider('Hover').provideHover(tape, P(3, 13), late.token);
    late.cancel();
    const dropped = await pending;
    assert.ok(dropped === undefined || dropped === null, JSON.stringify(dropped));
    const hover = await provider('Hover').provideHover(tape, P(3, 13), token);
    assert.ok(hover.contents[0].value.includes('Stack after: `[12.5 9 21.5]`'), hover.contents[0].value);
    assert.ok(!host.record.events.some((e) => e[0] === 'output' && /failed/.test(e[1])), 'nothing failed in the output');
  });
  await check('an untitled RPN editor opened later is sent too, and gets its diagnostics', async () => {
    const untitled = host.open('Untitled-1', '1 +\n', 'rpn', 'untitled');
    await until('diagnostics for the untitled editor', () => (host.record.diagnostics.get(untitled.uri.toString()) || []).length === 1);
    assert.strictEqual(host.record.diagnostics.get(untitled.uri.toString())[0].code, 'stack-underflow');
  });
  await check('changing rpn.precision reaches the server without a restart: the hints use 3 digits', async () => {
    const before = hintRefreshes;
    const processes = spawned.length;
    host.configure({ 'rpn.precision': 3 });
    await until('a hint refresh', () => hintRefreshes > before);
    const hints = await provider('InlayHints').provideInlayHints(tape, new vscode.Range(0, 0, 10, 0), token);
    assert.strictEqual(hints[3].label, '[12.5 9 7.17]');
    assert.strictEqual(spawned.length, processes);
  });
  await check('closing the tape drops its diagnostics', async () => {
    host.close(tape);
    assert.ok(!host.record.diagnostics.has(uri));
  });

  const running = spawned[spawned.length - 1].child;
  await check('a server that dies: an error with Restart; Restart starts a new one, with one provider of each kind', async () => {
    host.record.errorChoice = 'Restart';
    const count = spawned.length;
    running.kill('SIGKILL');
    await until('a new server', () => spawned.length === count + 1);
    const errors = host.record.events.filter((e) => e[0] === 'error');
    assert.deepStrictEqual(errors.map((e) => [e[1], e[2]]),
      [['RPN: the rpn-lsp language server was stopped by SIGKILL.', ['Restart', 'Show Output']]]);
    await until('the new server\'s providers', () => (host.record.providers.Hover || []).length === 1);
    for (const [kind, list] of Object.entries(host.record.providers)) assert.strictEqual(list.length, 1, kind);
    host.record.errorChoice = undefined;
  });
  await check('RPN: Restart Language Server shuts the server down (exit status 0) and starts another', async () => {
    const old = spawned[spawned.length - 1].child;
    const count = spawned.length;
    await host.record.commands['rpn.restartServer']();
    assert.deepStrictEqual(await exited(old), [0, null]);
    assert.strictEqual(spawned.length, count + 1);
  });
  await check('deactivate shuts the server down (exit status 0) and unregisters every provider', async () => {
    const last = spawned[spawned.length - 1].child;
    await extension.deactivate();
    assert.deepStrictEqual(await exited(last), [0, null]);
    for (const [kind, list] of Object.entries(host.record.providers)) assert.strictEqual(list.length, 0, kind);
    assert.ok(host.record.events.some((e) => e[0] === 'diagnostics disposed'));
  });
}

/** Activates with `settings` (and a PATH, folders), returns what was spawned and shown; deactivates. */
async function scenario({ settings = {}, pathDirs = [], folders = [], errorChoice, change, restart } = {}) {
  process.env.PATH = [...pathDirs, systemPath].join(path.delimiter);
  const { host, extension } = load({ settings, folders, errorChoice });
  const first = spawned.length;
  await extension.activate({ subscriptions: [] });
  if (change) {
    host.configure(change);
    await sleep(50);
  }
  if (restart) await host.record.commands['rpn.restartServer']();
  await extension.deactivate();
  await sleep(50); // the error messages' follow-ups
  process.env.PATH = systemPath;
  const runs = spawned.slice(first);
  await Promise.all(runs.map((r) => exited(r.child)));
  return {
    commands: runs.map((r) => r.command),
    errors: host.record.events.filter((e) => e[0] === 'error').map((e) => e[1]),
    events: host.record.events,
  };
}

async function pathScenarios() {
  const bin = path.dirname(fakes.onPath);
  await check('rpn-lsp found on PATH by default', async () => {
    const got = await scenario({ pathDirs: [bin] });
    assert.deepStrictEqual([got.commands, got.errors], [[fakes.onPath], []]);
  });
  await check('rpn-lsp not on PATH: nothing runs; one error naming PATH and rpn.server.path; Open Settings opens it', async () => {
    const got = await scenario({ pathDirs: [path.join(scratch, 'nowhere')], errorChoice: 'Open Settings' });
    assert.deepStrictEqual(got.commands, []);
    assert.strictEqual(got.errors.length, 1);
    assert.match(got.errors[0], /"rpn-lsp" was not found on PATH\..*rpn\.server\.path/);
    console.log(`       the message: ${got.errors[0]}`);
    assert.ok(got.events.some((e) => e[0] === 'executeCommand' && e[1] === 'workbench.action.openSettings' && e[2] === 'rpn.server.path'));
  });
  await check('rpn.server.path naming no file, or a file that is not executable: an error naming it', async () => {
    const missing = path.join(scratch, 'nowhere', 'rpn-lsp');
    let got = await scenario({ settings: { 'rpn.server.path': missing } });
    assert.deepStrictEqual(got.commands, []);
    assert.ok(got.errors.length === 1 && got.errors[0].includes(`"${missing}"`) && got.errors[0].includes('not an executable file'), got.errors);
    got = await scenario({ settings: { 'rpn.server.path': notExecutable } });
    assert.ok(got.commands.length === 0 && got.errors.length === 1 && got.errors[0].includes('not an executable file'), got.errors);
  });
  await check('a relative rpn.server.path is taken from the workspace folder; without a folder it is an error', async () => {
    let got = await scenario({ settings: { 'rpn.server.path': 'tools/rpn-lsp' }, folders: [path.join(scratch, 'folder')] });
    assert.deepStrictEqual([got.commands, got.errors], [[fakes.inFolder], []]);
    got = await scenario({ settings: { 'rpn.server.path': 'tools/rpn-lsp' } });
    assert.ok(got.commands.length === 0 && got.errors.length === 1 && got.errors[0].includes('no folder is open'), got.errors);
  });
  await check('~/ in rpn.server.path is the home folder', async () => {
    const got = await scenario({ settings: { 'rpn.server.path': '~/bin/rpn-lsp' } });
    assert.deepStrictEqual([got.commands, got.errors], [[fakes.inHome], []]);
  });
  await check('changing rpn.server.path restarts the server with the new binary', async () => {
    const got = await scenario({ pathDirs: [bin], change: { 'rpn.server.path': fakes.other } });
    assert.deepStrictEqual([got.commands, got.errors], [[fakes.onPath, fakes.other], []]);
  });
  await check('a binary that exits at once: an error saying it did not start, and why', async () => {
    const got = await scenario({ settings: { 'rpn.server.path': fakes.failing } });
    assert.deepStrictEqual(got.commands, [fakes.failing]);
    assert.strictEqual(got.errors.length, 1);
    assert.match(got.errors[0], /did not start: rpn-lsp exited with status 1 before answering initialize/);
    assert.ok(got.events.some((e) => e[0] === 'output' && e[1] === 'rpn-lsp-broken: cannot start'), 'its stderr is in the output channel');
  });
}

(async () => {
  await mainSession();
  await pathScenarios();
  fs.rmSync(scratch, { recursive: true, force: true });
  if (failures > 0) {
    console.log(`VS Code extension client: ${failures} check(s) FAILED`);
    process.exit(1);
  }
  console.log('VS Code extension client: all checks passed');
})().catch((error) => {
  console.error(error && error.stack || error);
  process.exit(1);
});

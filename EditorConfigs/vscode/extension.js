// The VS Code side of rpn-lsp: starts the `rpn-lsp` language server for `.rpn` documents, over
// stdio, passes it the `rpn.*` settings, and restarts it when asked. It needs nothing but VS Code
// and Node.js: client.js is the JSON-RPC connection, features.js the editor features.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const { Connection } = require('./client');
const { attach, CLIENT_CAPABILITIES } = require('./features');

const OUTPUT_NAME = 'RPN Language Server';

/** @type {{connection: Connection, features?: vscode.Disposable} | undefined} the running server, if any */
let client;
/** @type {vscode.OutputChannel | undefined} one channel for every (re)start */
let output;
/** Starts and stops run one after the other, in the order they were asked for. */
let queue = Promise.resolve();

/**
 * The server's settings as it reads them: `{"rpn": {...}}`. Sent as
 * `initializationOptions`; later changes reach the server through
 * `workspace/didChangeConfiguration` (see `activate`).
 */
function serverSettings() {
  const config = vscode.workspace.getConfiguration('rpn');
  return {
    rpn: {
      precision: config.get('precision', 15),
      angleUnit: config.get('angleUnit', 'radians'),
      display: {
        notation: config.get('display.notation', 'auto'),
        decimals: config.get('display.decimals', 2),
        grouping: config.get('display.grouping', false),
      },
      inlayHints: {
        enabled: config.get('inlayHints.enabled', true),
        maxItems: config.get('inlayHints.maxItems', 8),
        sections: config.get('inlayHints.sections', true),
        position: config.get('inlayHints.position', 'afterTokens'),
      },
    },
  };
}

/** Whether `file` is a file this process may execute. */
function isExecutableFile(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds the binary `rpn.server.path` names: a command name is looked up on PATH (with PATHEXT
 * on Windows), `~` is the home folder, and a relative path is taken from the first workspace
 * folder. Returns `{ command }` (an absolute path) or `{ problem }` (a sentence for the user).
 */
function resolveServer(setting) {
  const isWindows = process.platform === 'win32';
  let name = typeof setting === 'string' && setting.trim() !== '' ? setting.trim() : 'rpn-lsp';
  if (name === '~' || name.startsWith('~/') || (isWindows && name.startsWith('~\\'))) {
    name = path.join(os.homedir(), name.slice(1));
  }
  const suffixes = isWindows
    ? [''].concat((process.env.PATHEXT || '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean))
    : [''];
  const found = (base) => suffixes.map((suffix) => base + suffix).find(isExecutableFile);

  if (path.isAbsolute(name)) {
    const command = found(name);
    return command
      ? { command }
      : { problem: `"${name}" (the rpn.server.path setting) is not an executable file.` };
  }
  if (name.includes('/') || (isWindows && name.includes('\\'))) {
    const folder = (vscode.workspace.workspaceFolders || []).find((f) => f.uri.scheme === 'file');
    if (!folder) {
      return { problem: `rpn.server.path is the relative path "${name}", but no folder is open to resolve it from; use an absolute path.` };
    }
    const full = path.join(folder.uri.fsPath, name);
    const command = found(full);
    return command
      ? { command }
      : { problem: `"${full}" (rpn.server.path, relative to the workspace folder) is not an executable file.` };
  }
  const dirs = (process.env.PATH || '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    const command = found(path.join(dir, name));
    if (command) return { command };
  }
  return { problem: `"${name}" was not found on PATH.` };
}

/** Shows why the server cannot start, with a way to fix it. */
async function reportMissingServer(problem) {
  const message =
    `RPN: cannot start the rpn-lsp language server: ${problem} ` +
    'Install rpn-lsp (its Debian package, or swift build -c release --product rpn-lsp --static-swift-stdlib, then put ' +
    '.build/release/rpn-lsp on your PATH) ' +
    'or set "rpn.server.path" to the binary.';
  output.appendLine(message);
  const choice = await vscode.window.showErrorMessage(message, 'Open Settings', 'Show Output');
  if (choice === 'Open Settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'rpn.server.path');
  } else if (choice === 'Show Output') {
    output.show(true);
  }
}

/** The parameters of `initialize`: who we are, the workspace, what we can do, the settings. */
function initializeParams() {
  const folders = (vscode.workspace.workspaceFolders || []).map((f) => ({ uri: f.uri.toString(), name: f.name }));
  const first = (vscode.workspace.workspaceFolders || [])[0];
  return {
    processId: process.pid,
    clientInfo: { name: 'Visual Studio Code', version: vscode.version },
    locale: vscode.env && vscode.env.language,
    rootPath: first && first.uri.scheme === 'file' ? first.uri.fsPath : null,
    rootUri: first ? first.uri.toString() : null,
    workspaceFolders: folders.length > 0 ? folders : null,
    capabilities: CLIENT_CAPABILITIES,
    initializationOptions: serverSettings(),
    trace: traceLevel(),
  };
}

/** The rpn.trace.server setting: 'off', 'messages' or 'verbose'. */
function traceLevel() {
  const level = vscode.workspace.getConfiguration('rpn').get('trace.server', 'off');
  return level === 'messages' || level === 'verbose' ? level : 'off';
}

async function startClient() {
  const setting = vscode.workspace.getConfiguration('rpn').get('server.path', 'rpn-lsp');
  const resolved = resolveServer(setting);
  if (!resolved.command) {
    void reportMissingServer(resolved.problem);
    return;
  }

  const connection = new Connection(resolved.command, ['--stdio'], {
    log: (line) => output.appendLine(line),
    trace: traceLevel,
  });
  const candidate = { connection, features: undefined };
  connection.onExit((code, signal, expected) => {
    if (candidate.features) candidate.features.dispose();
    candidate.features = undefined;
    if (expected || client !== candidate) return;
    client = undefined;
    const reason = signal ? `was stopped by ${signal}` : `exited with status ${code}`;
    output.appendLine(`rpn-lsp ${reason}.`);
    void vscode.window.showErrorMessage(`RPN: the rpn-lsp language server ${reason}.`, 'Restart', 'Show Output')
      .then((choice) => {
        if (choice === 'Restart') void restartClient();
        else if (choice === 'Show Output') output.show(true);
      });
  });
  output.appendLine(`Starting ${resolved.command} --stdio`);
  try {
    const result = await connection.start(initializeParams());
    const capabilities = result && typeof result === 'object' ? result.capabilities : undefined;
    candidate.features = attach(connection, capabilities, output);
    client = candidate;
  } catch (error) {
    connection.kill();
    const reason = error instanceof Error ? error.message : String(error);
    output.appendLine(`rpn-lsp did not start: ${reason}`);
    void vscode.window.showErrorMessage(`RPN: rpn-lsp (${resolved.command}) did not start: ${reason}`, 'Show Output')
      .then((choice) => { if (choice === 'Show Output') output.show(true); });
  }
}

async function stopClient() {
  const running = client;
  client = undefined;
  if (running) {
    if (running.features) running.features.dispose();
    running.features = undefined;
    try {
      await running.connection.stop();
    } catch (error) {
      output.appendLine(`Stopping rpn-lsp failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Queues a stop (if running) and a start. */
function restartClient() {
  queue = queue.then(stopClient).then(startClient).catch(logFailure);
  return queue;
}

function logFailure(error) {
  output.appendLine(`rpn-lsp: ${error instanceof Error ? error.stack || error.message : String(error)}`);
}

function activate(context) {
  output = vscode.window.createOutputChannel(OUTPUT_NAME);
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('rpn.restartServer', restartClient),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('rpn.server.path')) {
        void restartClient();
      } else if (event.affectsConfiguration('rpn') && client) {
        // The other rpn.* settings reach the running server as they are now.
        client.connection.notify('workspace/didChangeConfiguration', { settings: serverSettings() });
      }
    }),
  );
  return restartClient();
}

function deactivate() {
  queue = queue.then(stopClient).catch(logFailure);
  return queue;
}

module.exports = { activate, deactivate, resolveServer, serverSettings, initializeParams };

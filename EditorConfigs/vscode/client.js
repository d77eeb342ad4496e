// The extension's own JSON-RPC connection to `rpn-lsp`, over the server's stdin and stdout:
// LSP's framing (`Content-Length` headers), requests with ids, cancellation, the server's own
// requests and notifications, and an orderly shutdown. It knows nothing of VS Code (extension.js
// and features.js join the two), so that it runs, and is tested, under plain Node.js.
'use strict';

const { spawn } = require('child_process');

/** LSP's error code for a request the client cancelled. */
const REQUEST_CANCELLED = -32800;
/** JSON-RPC's error code for a method the receiver does not know. */
const METHOD_NOT_FOUND = -32601;
/** The largest message body read from the server; a longer one means the stream is broken. */
const MAX_BODY = 256 * 1024 * 1024;

/** An error answer from the server, with its JSON-RPC code. */
class ResponseError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/**
 * One running server. `start()` spawns it and runs `initialize`; `request`, `notify` and the
 * handlers talk to it; `stop()` asks it to shut down and waits for it to exit (killing it if it
 * does not). `onExit` hears of every exit, and whether it was asked for.
 */
class Connection {
  /**
   * @param {string} command the server binary
   * @param {string[]} args its arguments (`--stdio`)
   * @param {{log: (line: string) => void, trace?: () => string}} options `log` writes a line to
   *   the output channel; `trace` answers the trace level ('off', 'messages' or 'verbose').
   */
  constructor(command, args, options) {
    this.command = command;
    this.args = args;
    this.log = options.log;
    this.trace = options.trace || (() => 'off');
    this.nextId = 1;
    /** id → { method, resolve, reject } of every request sent and not yet answered */
    this.pending = new Map();
    this.requestHandlers = new Map();
    this.notificationHandlers = new Map();
    this.exitListeners = [];
    this.buffer = Buffer.alloc(0);
    this.process = undefined;
    this.stopping = false;
    this.exited = false;
    this.exitCode = undefined;
  }

  /** Handles a request the server sends (a refresh, say): `handler(params)` gives the result. */
  onRequest(method, handler) {
    this.requestHandlers.set(method, handler);
  }

  /** Handles a notification the server sends (diagnostics, log messages). */
  onNotification(method, handler) {
    this.notificationHandlers.set(method, handler);
  }

  /** `listener(code, signal, expected)` when the process exits; `expected` when `stop()` asked. */
  onExit(listener) {
    this.exitListeners.push(listener);
  }

  /**
   * Spawns the server and sends `initialize` with `params`, then `initialized`. Resolves to the
   * initialize result; rejects (with the reason) when the server cannot be spawned, exits or
   * answers with an error first.
   */
  async start(params) {
    await this.spawnProcess();
    const result = await this.request('initialize', params);
    this.notify('initialized', {});
    return result;
  }

  spawnProcess() {
    return new Promise((resolve, reject) => {
      let child;
      try {
        child = spawn(this.command, this.args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
      } catch (error) {
        reject(error);
        return;
      }
      this.process = child;
      child.on('error', (error) => {
        // Spawning failed (ENOENT, EACCES), or a pipe broke after it.
        this.exited = true;
        this.failPending(`rpn-lsp could not run: ${error.message}`);
        reject(error);
      });
      child.once('spawn', () => resolve());
      child.stdout.on('data', (chunk) => this.receive(chunk));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text) => {
        for (const line of text.split(/\r?\n/)) if (line) this.log(line);
      });
      child.stdin.on('error', (error) => this.log(`Writing to rpn-lsp failed: ${error.message}`));
      child.once('exit', (code, signal) => {
        this.exited = true;
        this.exitCode = code;
        const reason = signal ? `was stopped by ${signal}` : `exited with status ${code}`;
        this.failPending(`rpn-lsp ${reason}`);
        for (const listener of this.exitListeners) listener(code, signal, this.stopping);
      });
    });
  }

  /** Rejects every pending request: the server is gone. */
  failPending(reason) {
    for (const [, pending] of this.pending) pending.reject(new Error(`${reason} before answering ${pending.method}`));
    this.pending.clear();
  }

  /**
   * Sends a request; resolves to its result. `token` is a VS Code cancellation token (or
   * undefined): a request already cancelled is not sent, and resolves to `null`; one cancelled
   * while pending sends `$/cancelRequest` and resolves to `null` at once (VS Code has stopped
   * waiting; the server's late answer is dropped).
   */
  request(method, params, token) {
    if (this.exited || !this.process) return Promise.reject(new Error(`rpn-lsp is not running (${method})`));
    if (token && token.isCancellationRequested) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      let subscription;
      const settle = () => subscription && subscription.dispose();
      this.pending.set(id, {
        method,
        resolve: (value) => {
          settle();
          resolve(value);
        },
        reject: (error) => {
          settle();
          if (error.code === REQUEST_CANCELLED) resolve(null);
          else reject(error);
        },
      });
      this.write(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
      if (token) {
        subscription = token.onCancellationRequested(() => {
          if (!this.pending.has(id)) return;
          this.notify('$/cancelRequest', { id });
          settle();
          resolve(null);
        });
      }
    });
  }

  /** Sends a notification; says nothing when the server is gone. */
  notify(method, params) {
    if (this.exited || !this.process) return;
    this.write(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  write(message) {
    const level = this.trace();
    if (level !== 'off') this.traceMessage('Sending', message, level);
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    try {
      this.process.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
      this.process.stdin.write(body);
    } catch (error) {
      this.log(`Writing to rpn-lsp failed: ${error.message}`);
    }
  }

  traceMessage(direction, message, level) {
    const what = message.method
      ? `${message.id !== undefined ? 'request' : 'notification'} '${message.method}'${message.id !== undefined ? ` - (${message.id})` : ''}`
      : `response - (${message.id})`;
    this.log(`[Trace - ${new Date().toLocaleTimeString()}] ${direction} ${what}.`);
    if (level === 'verbose') {
      const body = message.params !== undefined ? message.params : message.error !== undefined ? message.error : message.result;
      if (body !== undefined) this.log(`Params: ${JSON.stringify(body, null, 4)}`);
    }
  }

  /** Appends bytes from the server's stdout and takes every whole message out of them. */
  receive(chunk) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const header = this.buffer.subarray(0, end).toString('ascii');
      const match = /(?:^|\r\n)content-length:\s*(\d+)\s*(?:\r\n|$)/i.exec(header);
      if (!match || Number(match[1]) > MAX_BODY) {
        this.log(`rpn-lsp wrote a message without a valid Content-Length header: ${JSON.stringify(header.slice(0, 200))}`);
        this.kill();
        return;
      }
      const length = Number(match[1]);
      if (this.buffer.length < end + 4 + length) return;
      const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(end + 4 + length);
      let message;
      try {
        message = JSON.parse(body);
      } catch (error) {
        this.log(`rpn-lsp wrote a message that is not JSON (${error.message}): ${body.slice(0, 200)}`);
        continue;
      }
      this.dispatch(message);
    }
  }

  dispatch(message) {
    const level = this.trace();
    if (level !== 'off') this.traceMessage('Received', message, level);
    if (message === null || typeof message !== 'object') return;
    if (typeof message.method === 'string') {
      if (message.id !== undefined && message.id !== null) {
        this.answer(message);
      } else {
        const handler = this.notificationHandlers.get(message.method);
        if (handler) {
          try {
            handler(message.params);
          } catch (error) {
            this.log(`Handling ${message.method} failed: ${error.stack || error.message}`);
          }
        }
      }
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (message.error) {
      const { code, message: text, data } = message.error;
      pending.reject(new ResponseError(code, `${pending.method}: ${text}`, data));
    } else {
      pending.resolve(message.result === undefined ? null : message.result);
    }
  }

  /** Answers a request from the server, through its handler, or "method not found". */
  async answer(message) {
    const handler = this.requestHandlers.get(message.method);
    if (!handler) {
      this.write({ jsonrpc: '2.0', id: message.id, error: { code: METHOD_NOT_FOUND, message: `Unhandled method ${message.method}` } });
      return;
    }
    try {
      const result = await handler(message.params);
      this.write({ jsonrpc: '2.0', id: message.id, result: result === undefined ? null : result });
    } catch (error) {
      this.write({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: String(error && error.message || error) } });
    }
  }

  /**
   * `shutdown`, then `exit`, then waits up to `timeout` ms for the process to end; kills it
   * if it has not. Resolves when it is gone.
   */
  async stop(timeout = 2000) {
    if (!this.process || this.exited) return;
    this.stopping = true;
    const gone = new Promise((resolve) => this.onExit(() => resolve()));
    const timer = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());
    try {
      await Promise.race([this.request('shutdown', undefined), timer(timeout)]);
    } catch (error) {
      this.log(`rpn-lsp did not shut down cleanly: ${error.message}`);
    }
    this.notify('exit', undefined);
    try {
      this.process.stdin.end();
    } catch {
      // already closed
    }
    await Promise.race([gone, timer(timeout)]);
    if (!this.exited) {
      this.kill();
      await Promise.race([gone, timer(timeout)]);
    }
  }

  kill() {
    if (this.process && !this.exited) this.process.kill('SIGKILL');
  }
}

module.exports = { Connection, ResponseError, REQUEST_CANCELLED };

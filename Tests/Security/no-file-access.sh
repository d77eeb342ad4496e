#!/usr/bin/env bash
# Security check: serving a session, rpn-lsp opens no file but the shared libraries the loader
# and the Swift runtime read at startup, runs nothing, and opens no socket. The session opens
# documents whose URIs name real files (/etc/passwd, the sample tape) and asks for every
# feature: the server must not read them; it works from the text the client sends.
#   bash Tests/Security/no-file-access.sh PATH/TO/rpn-lsp
set -euo pipefail
binary=${1:?usage: no-file-access.sh PATH/TO/rpn-lsp}
command -v strace >/dev/null || { apt-get update -qq >/dev/null && apt-get install -y -qq strace >/dev/null; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/session" "$(cd "$(dirname "$0")/../.." && pwd)/EditorConfigs/sample.rpn" <<'PY'
import json, sys
out, sample = sys.argv[1], sys.argv[2]
def frame(o):
    body = json.dumps(o).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body
msgs, n = [], 0
def request(method, params):
    global n
    n += 1
    msgs.append({"jsonrpc": "2.0", "id": n, "method": method, "params": params})
request("initialize", {"capabilities": {}, "rootUri": "file:///etc"})
for uri in ["file:///etc/passwd", "file://" + sample]:
    msgs.append({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                 "params": {"textDocument": {"uri": uri, "languageId": "rpn", "version": 1, "text": "1 2 +\n=x x 4+\n"}}})
    doc = {"uri": uri}
    at = {"textDocument": doc, "position": {"line": 1, "character": 3}}
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}
    for method, params in [("textDocument/hover", at), ("textDocument/completion", at), ("textDocument/definition", at),
                           ("textDocument/references", dict(at, context={"includeDeclaration": True})),
                           ("textDocument/rename", dict(at, newName="y")), ("textDocument/documentSymbol", {"textDocument": doc}),
                           ("textDocument/inlayHint", {"textDocument": doc, "range": whole}),
                           ("textDocument/semanticTokens/full", {"textDocument": doc}),
                           ("textDocument/codeAction", {"textDocument": doc, "range": whole, "context": {"diagnostics": []}}),
                           ("textDocument/formatting", {"textDocument": doc, "options": {}})]:
        request(method, params)
    msgs.append({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": doc}})
request("shutdown", None)
msgs.append({"jsonrpc": "2.0", "method": "exit"})
open(out, "wb").write(b"".join(frame(m) for m in msgs))
PY
strace -f -qq -e trace=open,openat,openat2,creat,execve,execveat,socket,connect -o "$work/trace" \
  "$binary" < "$work/session" > "$work/stdout"
# Allowed: the executable itself; shared libraries and the loader's cache; two files the Swift
# runtime and libdispatch read at startup. Everything read-only.
unexpected=$(grep -vE 'execve\("[^"]*rpn-lsp"|\.so(\.[0-9]+)*", O_RDONLY|/etc/ld\.so\.cache", O_RDONLY|"/proc/self/maps", O_RDONLY|"/sys/devices/system/cpu/possible", O_RDONLY|= -1 ENOENT|\+\+\+ exited' "$work/trace" || true)
echo "security: $(grep -c 'open' "$work/trace") opens traced, $(grep -c '"jsonrpc"' "$work/stdout") frames answered"
if [ -n "$unexpected" ]; then
  echo "FAIL security: rpn-lsp opened, ran or connected to something beyond its libraries:" >&2
  echo "$unexpected" >&2
  exit 1
fi
if grep -qE 'passwd|sample\.rpn' "$work/trace"; then
  echo "FAIL security: rpn-lsp touched a file named by a document URI" >&2
  exit 1
fi
echo "security: ok — no file opened but shared libraries at startup, nothing executed, no socket"

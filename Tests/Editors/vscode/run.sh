#!/usr/bin/env bash
# Checks the VS Code extension in EditorConfigs/vscode/ without VS Code (check.py beside this
# script does the checking; its header lists every check):
#   - package.json, language-configuration.json and the TextMate grammar: valid JSON, the fields
#     VS Code and vsce require, settings mirroring the server's;
#   - the grammar's regexes, run by Oniguruma (PyPI's onigurumacffi, the engine VS Code's
#     TextMate tokenizer uses) in a vscode-textmate-style loop: exact scopes for sample lines and
#     every builtin spelling of Sources/RPNEngine/Evaluation/Builtins.swift;
#   - extension.js: `node --check`, then activate() with stand-ins for `vscode` and
#     `vscode-languageclient/node` (server options, document selector, settings, missing binary);
#   - with PATH/TO/rpn-lsp: that server started the way vscode-languageclient starts it, with a
#     VS Code-like initialize; its semantic tokens must agree with the grammar token for token,
#     and its inlay hints must follow the settings extension.js and the client send.
# VS Code itself is not run, and `npm install` / `vsce package` are not (no npm registry here).
#
#   Tests/Editors/vscode/run.sh [PATH/TO/rpn-lsp]
#
# Installs onigurumacffi==1.5.0 (with cffi) with `pip install --target` into $RPN_ONIG_DIR
# (default ~/.cache/rpn-lsp/onigurumacffi-1.5.0-pyX.Y), so it touches no Python environment;
# idempotent. If it cannot be installed, the regexes are checked with Python's `re` instead (an
# exact translation of the grammar's \p{L} and \s), and a warning says so; RPN_ONIG_REQUIRED=1
# makes that a failure. Needs python3 and node; installs them with apt-get when missing.
# Exits non-zero when a check fails.
set -euo pipefail

if [ $# -gt 1 ]; then
  echo "usage: $0 [PATH/TO/rpn-lsp]" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
server_args=()
if [ $# -eq 1 ]; then
  server="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  if ! [ -x "$server" ]; then
    echo "VS Code extension test: $1 is not an executable rpn-lsp" >&2
    exit 2
  fi
  server_args=(--server "$server")
fi

INSTALL_NAME="VS Code extension test"
# shellcheck source=../install-lib.sh
source "$(dirname "$0")/../install-lib.sh"

PY="$(command -v python3 || true)"
if [ -z "$PY" ] || ! "$PY" -m pip --version >/dev/null 2>&1; then
  echo "installing python3 and pip"
  apt_install python3 python3-pip
  PY=/usr/bin/python3
fi
if ! command -v node >/dev/null 2>&1; then
  echo "installing node"
  apt_install nodejs
fi

ONIG_VERSION=1.5.0
py_version="$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
ONIG_DIR="${RPN_ONIG_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rpn-lsp/onigurumacffi-$ONIG_VERSION-py$py_version}"
onig_ok() {
  PYTHONPATH="$ONIG_DIR" "$PY" -c '
import importlib.metadata, sys
import onigurumacffi
sys.exit(importlib.metadata.version("onigurumacffi") != sys.argv[1])' "$ONIG_VERSION" >/dev/null 2>&1
}
engine=onig
if ! onig_ok; then
  echo "installing onigurumacffi==$ONIG_VERSION into $ONIG_DIR"
  rm -rf "$ONIG_DIR"
  mkdir -p "$ONIG_DIR"
  if ! "$PY" -m pip install -q --disable-pip-version-check --no-input --target "$ONIG_DIR" \
      "onigurumacffi==$ONIG_VERSION" >"$install_log" 2>&1 || ! onig_ok; then
    if [ "${RPN_ONIG_REQUIRED:-0}" = 1 ]; then
      echo "VS Code extension test: could not install onigurumacffi==$ONIG_VERSION:" >&2
      cat "$install_log" >&2
      exit 1
    fi
    echo "warning: VS Code extension test: onigurumacffi==$ONIG_VERSION did not install; checking the grammar with Python's re instead:" >&2
    tail -n 5 "$install_log" >&2
    engine=re
  fi
fi

status=0
PYTHONPATH="$ONIG_DIR${PYTHONPATH:+:$PYTHONPATH}" "$PY" "$here/check.py" --engine "$engine" ${server_args[@]+"${server_args[@]}"} || status=$?
if [ "$status" != 0 ]; then
  echo "VS Code extension test FAILED (EditorConfigs/vscode): see the FAIL lines above" >&2
fi
exit "$status"

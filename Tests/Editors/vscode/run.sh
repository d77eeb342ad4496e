#!/usr/bin/env bash
# Checks the VS Code extension in EditorConfigs/vscode/ without VS Code (check.py beside this
# script does the checking; its header lists every check):
#   - package.json, language-configuration.json and the TextMate grammar: valid JSON, the fields
#     VS Code and vsce require, settings mirroring the server's;
#   - the grammar's regexes, run by Oniguruma (PyPI's onigurumacffi, the engine VS Code's
#     TextMate tokenizer uses) in a vscode-textmate-style loop: exact scopes for sample lines and
#     every builtin spelling of Sources/RPNEngine/Evaluation/Builtins.swift;
#   - extension.js, client.js, features.js: `node --check`; with PATH/TO/rpn-lsp, client-test.js:
#     the extension's own LSP client under a stand-in for `vscode` (vscode-standin.js), against
#     the real server: each provider's exact answers, diagnostics, edits, refreshes, settings,
#     cancellation, a dying server, restarts, and how rpn.server.path finds the binary;
#   - with PATH/TO/rpn-lsp: that server started as the extension starts it, with the initialize
#     the extension sends; its semantic tokens must agree with the grammar token for token, and
#     its inlay hints must follow the settings.
# VS Code itself is not run (it cannot be installed here).
#
#   Tests/Editors/vscode/run.sh [PATH/TO/rpn-lsp]
#
# Installs onigurumacffi==1.5.0 (with cffi) with `pip install --target` into $RPN_ONIG_DIR
# (default ~/.cache/rpn-lsp/onigurumacffi-1.5.0-pyX.Y), so it touches no Python environment;
# idempotent. In CI (CI=true, or RPN_ONIG_REQUIRED=1) Oniguruma is required: where pip has no
# wheel it builds onigurumacffi from source, so Debian's libonig-dev, gcc, python3-dev and
# libffi-dev are installed first, and if it still cannot be installed the test fails, saying what
# to install. Elsewhere the regexes are then checked with Python's `re` instead (an exact
# translation of the grammar's \p{L} and \s), a weaker check, which a warning says before and
# after the checks. Needs python3 and node; installs them with apt-get when missing. Exits
# non-zero when a check fails.
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
# `re` is not the engine VS Code runs: a regex that Oniguruma reads differently, or rejects, can
# pass under it. CI must check the grammar as VS Code reads it.
onig_required=0
if [ "${CI:-}" = true ] || [ "${RPN_ONIG_REQUIRED:-0}" = 1 ]; then onig_required=1; fi
onig_install() {
  rm -rf "$ONIG_DIR" && mkdir -p "$ONIG_DIR" \
    && "$PY" -m pip install -q --disable-pip-version-check --no-input --target "$ONIG_DIR" \
      "onigurumacffi==$ONIG_VERSION" >"$install_log" 2>&1 \
    && onig_ok
}
install_hint="$PY -m pip install --target \"$ONIG_DIR\" onigurumacffi==$ONIG_VERSION (a wheel for Linux
  x86_64 and aarch64 with Python 3.10 or later; elsewhere pip builds it from source, which needs
  Oniguruma's headers, a C compiler and Python's: on Debian, apt-get install libonig-dev gcc
  python3-dev libffi-dev)"
weaker_check() {
  cat >&2 <<EOF
********************************************************************************
WARNING: VS Code extension test: onigurumacffi==$ONIG_VERSION (Oniguruma, the regex engine of
VS Code) is not installed, so the grammar's regexes are checked with Python's re instead. That
is a WEAKER check: a regex that Oniguruma reads differently, or rejects, can pass under re.
CI (CI=true) fails without Oniguruma. To check the grammar as VS Code reads it, install
  $install_hint
********************************************************************************
EOF
}
engine=onig
if ! onig_ok; then
  echo "installing onigurumacffi==$ONIG_VERSION into $ONIG_DIR"
  if ! onig_install && [ "$onig_required" = 1 ]; then
    echo "installing libonig-dev, gcc, python3-dev and libffi-dev, to build onigurumacffi from source"
    # In a subshell: a failed apt-get leads to the message below, which says what to install.
    (apt_install libonig-dev gcc python3-dev libffi-dev) || true
    onig_install || true
  fi
  if ! onig_ok; then
    if [ "$onig_required" = 1 ]; then
      cat "$install_log" >&2
      echo "VS Code extension test FAILED: Oniguruma is required in CI (CI=true or RPN_ONIG_REQUIRED=1), and" \
        "onigurumacffi==$ONIG_VERSION could not be installed (pip's output is above); Python's re is a weaker" \
        "check, not accepted here. Install it with" >&2
      echo "  $install_hint" >&2
      exit 1
    fi
    tail -n 5 "$install_log" >&2
    weaker_check
    engine=re
  fi
fi

status=0
PYTHONPATH="$ONIG_DIR${PYTHONPATH:+:$PYTHONPATH}" "$PY" "$here/check.py" --engine "$engine" ${server_args[@]+"${server_args[@]}"} || status=$?
if [ "$status" != 0 ]; then
  echo "VS Code extension test FAILED (EditorConfigs/vscode): see the FAIL lines above" >&2
fi
# Said again at the end, where it is read: the checks above were the weaker ones.
if [ "$engine" = re ]; then weaker_check; fi
exit "$status"

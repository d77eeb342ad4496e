#!/usr/bin/env bash
# Runs rpn-lsp in a real Emacs (`emacs --batch`) through the shipped configs
# (EditorConfigs/emacs/), unchanged, on a copy of EditorConfigs/sample.rpn in a fresh temporary
# folder that is no project (eglot then uses a transient project: single-file mode). The eglot
# runs start like an interactive Emacs does: packages activated (`package-activate-all`), then
# the config as init file, then the checks; the lsp-mode run activates packages itself, after
# checking rpn-lsp-mode.el without lsp-mode.
#
#   Tests/Editors/emacs/run.sh PATH/TO/rpn-lsp
#
# Runs (each must pass):
#   eglot + rpn-eglot.el      test.el: rpn-mode (mode, comments, font-lock), eglot connecting
#                             after a command, flymake diagnostics, hover, raw inlay hints,
#                             completion (`9 sq' through C-M-i and *Completions*), incremental
#                             edits, rpn-mode's stacks and messages at line ends (the overlays,
#                             before and after an edit), xref definition, rename, formatting,
#                             the quick fix, a defined word (hover, its effect hint, definition,
#                             rename), rpn-lsp-settings and shutdown
#   eglot + README snippet    test.el again, with the first ```elisp block of
#                             EditorConfigs/emacs/README.md as init file and rpn-lsp on PATH
#   lsp-mode + rpn-lsp-mode.el  test-lsp-mode.el: the three .el files byte-compile without
#                             warnings; rpn-lsp-mode.el loads without lsp-mode; with lsp-mode
#                             installed (Debian's elpa-lsp-mode), the client is registered and
#                             serves diagnostics and hover
#   no eglot + rpn-eglot.el   test-no-eglot.el: with eglot out of reach (Emacs 28 before the
#   no eglot + README snippet user installs it), the sample opens in rpn-mode without an error,
#                             and a message says how to install eglot
# The Emacs is Debian's emacs-nox with elpa-eglot (and elpa-lsp-mode), as
# Tests/Editors/install-emacs.sh installs them; override with RPN_EMACS=/path/to/emacs.
# RPN_EMACS_ALLOW_MISSING=1 skips the runs when Emacs is not installed instead of failing.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../run-lib.sh"
take_server "$@"
emacs="${RPN_EMACS:-$(command -v emacs || true)}"
# RPN_EDITOR_CONFIGS=DIR: the editor folders as a package installed them (DIR/emacs, e.g.
# /usr/share/rpn-lsp), in place of the repository's EditorConfigs.
configs="${RPN_EDITOR_CONFIGS:-$repo/EditorConfigs}/emacs"

if [ -z "$emacs" ] || ! [ -x "$emacs" ]; then
  if [ "${RPN_EMACS_ALLOW_MISSING:-0}" = 1 ]; then
    echo "emacs: skipped, Emacs is not installed"
    exit 0
  fi
  echo "emacs: FAIL: Emacs is not installed (run Tests/Editors/install-emacs.sh)"
  exit 1
fi

scratch="$(mktemp -d "${TMPDIR:-/tmp}/rpn-emacs-test.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

# The README's snippet (the first ```elisp block of EditorConfigs/emacs/README.md), as an init
# file; it finds rpn-mode.el in ~/.emacs.d/rpn/ and `rpn-lsp` on PATH.
snippet="$scratch/snippet.el"
mkdir -p "$scratch/bin"
fenced_block "$configs/README.md" elisp > "$snippet"
if ! [ -s "$snippet" ]; then
  echo "run.sh: no \`\`\`elisp block in $configs/README.md" >&2
  exit 2
fi
ln -s "$server" "$scratch/bin/rpn-lsp"

# Should the top-level README ever show an Emacs snippet for rpn-mode, it must be the tested one.
same_as_readme Emacs "the one in EditorConfigs/emacs/README.md" "$snippet" 'elisp|emacs-lisp' \
  eglot-server-programs rpn-mode

version="$("$emacs" --version | head -n 1)"
eglot_version="$("$emacs" --batch -f package-activate-all --eval \
  "(princ (or (ignore-errors (require 'eglot) (let ((d (cadr (assq 'eglot package-alist)))) (and d (package-version-join (package-desc-version d))))) \"built in\"))" 2>/dev/null || true)"

# one NAME INIT TEST [MODE]: INIT is the init file, TEST the checks. MODE "snippet" puts
# rpn-lsp on PATH and the .el files in ~/.emacs.d/rpn/ (where the snippet looks); otherwise
# the server comes from $RPN_LSP. MODE "bare" leaves packages unactivated (the test does it).
# MODE "no-eglot" (or "snippet-no-eglot", with the snippet's setup) leaves packages unactivated
# and loads TEST before INIT (it hides eglot), then runs its `rpn-test-no-eglot-main'.
one() {
  local name="$1" init="$2" test="$3" mode="${4:-}"
  local label="$version + $name"
  echo "== $label"
  local dir="$scratch/run$runs"
  mkdir -p "$dir/home" "$dir/tape"
  sample_tape "$dir"
  local status=0
  (
    cd "$dir/tape"
    export HOME="$dir/home"
    unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_CACHE_HOME EMACSLOADPATH
    export RPN_TEST_LABEL="$label" RPN_TEST_FILE="$dir/tape/sample.rpn" \
      RPN_TEST_CONFIGS="$configs" RPN_TEST_SHIPPED=0 RPN_TEST_SCRATCH="$dir"
    if [ "$mode" = snippet ] || [ "$mode" = snippet-no-eglot ]; then
      unset RPN_LSP
      export PATH="$scratch/bin:$PATH"
      mkdir -p "$HOME/.emacs.d/rpn"
      cp "$configs"/*.el "$HOME/.emacs.d/rpn/"
    else
      export RPN_LSP="$server" RPN_TEST_SHIPPED=1
    fi
    local activate=(-f package-activate-all) load=(-l "$init" -l "$test")
    case "$mode" in
      bare) activate=() ;;
      no-eglot | snippet-no-eglot) activate=() load=(-l "$test" -l "$init" -f rpn-test-no-eglot-main) ;;
    esac
    exec timeout 90 "$emacs" --batch ${activate[@]+"${activate[@]}"} "${load[@]}" \
      </dev/null 2>"$dir/stderr"
  ) || status=$?
  if ! run_ended "$label" "$status"; then
    if [ -s "$dir/stderr" ]; then
      echo "--- last lines of Emacs's messages (stderr):"
      grep -v '^Loading ' "$dir/stderr" | tail -n 40 | cut -c1-400
    fi
  fi
}

# The shipped config, as an init file would load it.
shipped="$scratch/init-rpn-eglot.el"
printf '(add-to-list (quote load-path) "%s")\n(require (quote rpn-eglot))\n' "$configs" > "$shipped"

one "eglot $eglot_version + rpn-eglot.el" "$shipped" "$here/test.el"
one "eglot $eglot_version + README snippet" "$snippet" "$here/test.el" snippet
one "rpn-lsp-mode.el (lsp-mode)" /dev/null "$here/test-lsp-mode.el" bare
one "no eglot + rpn-eglot.el" "$shipped" "$here/test-no-eglot.el" no-eglot
one "no eglot + README snippet" "$snippet" "$here/test-no-eglot.el" snippet-no-eglot

summary emacs

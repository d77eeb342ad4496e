#!/usr/bin/env bash
# Runs the Vim configs (EditorConfigs/vim/) in a real, headless Vim with no plugins and no vimrc:
#   vim -Nu NONE -i NONE -es --cmd 'set rtp^=EditorConfigs/vim' --cmd 'filetype plugin on' \
#       --cmd 'syntax on' -S Tests/Editors/vim/test.vim
# test.vim (beside this script) opens a copy of EditorConfigs/sample.rpn in a fresh temporary
# folder and checks filetype detection, the comment settings, the syntax groups, and that the
# vim-lsp and yegappan/lsp registration files source cleanly without those plugins (and register
# the right server with stand-ins for them). One line per check; a failure names Vim and what is
# missing.
# Then the README's Install steps, as a new user follows them (test-vimrc.vim): in an empty home,
# the README's ```sh block run from the repository (the package copied into ~/.vim/pack/), its
# ```vim block written as the whole ~/.vimrc, and Vim started as a user starts it (no -u, so it
# reads that vimrc; no plugins but the package): the sample's filetype, comment settings and
# syntax colours, and no error.
#
#   Tests/Editors/vim/run.sh
#
# The Vim is `vim` on PATH (Debian's 9.0 from Tests/Editors/install-vim.sh); override with
# RPN_VIM=/path/to/vim. It must have +eval, +autocmd and +syntax (vim-tiny has not).
# Exits 0 when every check passed, 1 when one failed, 2 when Vim is missing or unusable.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
vim="${RPN_VIM:-vim}"

if ! command -v "$vim" >/dev/null 2>&1; then
  echo "vim/run.sh: FAIL: $vim is not installed (run Tests/Editors/install-vim.sh)" >&2
  exit 2
fi
features="$("$vim" --version 2>/dev/null || true)"
for feature in +eval +autocmd +syntax; do
  if ! grep -q -- "$feature" <<<"$features"; then
    echo "vim/run.sh: FAIL: $vim has no $feature (vim-tiny?); install Debian's vim package" >&2
    exit 2
  fi
done
version="$(head -n 1 <<<"$features" | sed -E 's/^VIM - Vi IMproved ([0-9.]+).*/\1/')"
patches="$(sed -n -E 's/^Included patches: 1-([0-9]+).*/\1/p' <<<"$features" | head -n 1)"
label="Vim $version${patches:+.$patches}"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/rpn-vim-test.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home" "$scratch/tape"
cp "$repo/EditorConfigs/sample.rpn" "$scratch/tape/sample.rpn"
log="$scratch/log"
: >"$log"

status=0
(
  cd "$scratch/tape"
  unset RPN_LSP VIMINIT EXINIT
  export HOME="$scratch/home" RPN_TEST_LABEL="$label" RPN_TEST_TAPE="$scratch/tape/sample.rpn" \
    RPN_TEST_DIR="$scratch/tape" RPN_TEST_LOG="$log" RPN_TEST_CONFIGS="$repo/EditorConfigs/vim"
  exec timeout 60 "$vim" -Nu NONE -i NONE -es \
    --cmd "set rtp^=$repo/EditorConfigs/vim" --cmd 'filetype plugin on' --cmd 'syntax on' \
    -S "$here/test.vim" </dev/null >"$scratch/stdout" 2>&1
) || status=$?

cat "$log"
if [ -s "$scratch/stdout" ]; then
  echo "--- Vim's own output:"
  cat "$scratch/stdout"
fi
summary="$(grep -a -E '^vim: [0-9]+ passed, [0-9]+ failed$' "$log" || true)"
if [ -z "$summary" ]; then
  echo "  FAIL  [$label] test.vim stopped before its summary (exit status $status)"
  exit 1
fi
if [ "$status" != 0 ] || ! grep -a -q ', 0 failed$' <<<"$summary"; then
  [ "$status" = 124 ] && echo "  FAIL  [$label] timed out"
  echo "($label exited with status $status)"
  exit 1
fi

# The README's Install steps on an account with no vimrc. The blocks are indented under their
# list items; the first ```sh block installs the package, the first ```vim block is the vimrc.
readme="$repo/EditorConfigs/vim/README.md"
block() { awk -v fence="$1" '$0 ~ "^ *```" fence "$" { inside = 1; next } /^ *```$/ { if (inside) exit } inside' \
  "$readme" | sed -E 's/^ {3}//'; }
install_steps="$(block sh)"
vimrc="$(block vim)"
registration="$(sed -n -E 's|^source ~/(.*rpn-[a-z-]*\.vim).*|\1|p' <<<"$vimrc" | head -n 1)"
if [ -z "$install_steps" ] || [ -z "$vimrc" ] || [ -z "$registration" ]; then
  echo "  FAIL  [$label] EditorConfigs/vim/README.md has no \`\`\`sh install block, or no \`\`\`vim vimrc block sourcing a registration file"
  exit 1
fi
home="$scratch/readme-home"
mkdir -p "$home"
if ! (cd "$repo" && HOME="$home" sh -e -c "$install_steps") >"$scratch/install.log" 2>&1; then
  echo "  FAIL  [$label] the README's install steps failed:"
  cat "$scratch/install.log"
  exit 1
fi
printf '%s\n' "$vimrc" >"$home/.vimrc"
cp "$repo/EditorConfigs/sample.rpn" "$scratch/tape/readme.rpn"
log="$scratch/log-vimrc"
: >"$log"
status=0
(
  cd "$scratch/tape"
  unset RPN_LSP VIMINIT EXINIT
  export HOME="$home" RPN_TEST_LABEL="$label" RPN_TEST_TAPE="$scratch/tape/readme.rpn" \
    RPN_TEST_LOG="$log" RPN_TEST_REGISTRATION="$home/$registration"
  exec timeout 60 "$vim" -X -i NONE --not-a-term -S "$here/test-vimrc.vim" </dev/null >"$scratch/stdout-vimrc" 2>&1
) || status=$?
cat "$log"
summary="$(grep -a -E '^vimrc: [0-9]+ passed, [0-9]+ failed$' "$log" || true)"
if [ -z "$summary" ]; then
  echo "  FAIL  [$label] test-vimrc.vim stopped before its summary (exit status $status)"
  exit 1
fi
if [ "$status" != 0 ] || ! grep -a -q ', 0 failed$' <<<"$summary"; then
  [ "$status" = 124 ] && echo "  FAIL  [$label] timed out"
  echo "($label with the README's vimrc exited with status $status)"
  exit 1
fi

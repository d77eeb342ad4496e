#!/usr/bin/env bash
# CI of the Debian package, as root on a Debian machine with the Swift toolchain (for Debian 12
# with the toolchain at /opt/swift): builds the package with .packaging/deb.sh; checks that the
# binary needs no Swift library and runs with the toolchain hidden; installs the package with
# apt-get and checks the binary, the man page, the bash completion and that Vim and Emacs find
# their files; lints it (any lintian error fails, warnings are listed); removes and purges it and
# checks that every file it installed is gone. Installs what it needs with apt-get. Any failure
# fails the run, and the package is purged whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
step() { echo; echo "== packaging: $* ($((SECONDS - started)) s)"; }
fail() { echo "packaging: $*" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive

step "tools: dpkg-dev, binutils, lintian, man-db, bash-completion, vim, emacs-nox"
# vim and emacs-nox: to check that Debian's Vim and Emacs find the files the package installs.
need=()
for pkg in dpkg-dev binutils lintian man-db groff-base bash-completion vim emacs-nox; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
if ((${#need[@]})); then
  echo "installing ${need[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/tmp/rpn-packaging-apt.log 2>&1 ||
    { tail -30 /tmp/rpn-packaging-apt.log >&2; fail "apt-get install ${need[*]} failed"; }
fi

# A package left by an earlier run would hide what this one installs; and this run's is purged at
# the end, also on failure, so that the machine is left as it was.
purge() { dpkg -s rpn-lsp >/dev/null 2>&1 && apt-get purge -y -qq rpn-lsp >/dev/null 2>&1; true; }
purge
trap purge EXIT

step "build: bash .packaging/deb.sh"
build_started=$SECONDS
bash .packaging/deb.sh
binary=.build/static/release/rpn-lsp
staged=.build/deb/debian/rpn-lsp/usr/bin/rpn-lsp
version=$("$binary" --version | awk '{ print $2 }')
deb=rpn-lsp_${version}_$(dpkg --print-architecture).deb
[[ -f $deb ]] || fail "deb.sh made no $deb"
echo "built in $((SECONDS - build_started)) s"
size() { printf '%s: %s bytes (%s)\n' "$1" "$(stat -c %s "$2")" "$(numfmt --to=iec-i --suffix=B "$(stat -c %s "$2")")"; }
size "size: binary (stripped, /usr/bin/rpn-lsp)" "$staged"
size "size: binary (as built, $binary)" "$binary"
size "size: package ($deb)" "$deb"

step "ldd: no Swift library (libswift*, libFoundation*, libdispatch, libBlocksRuntime)"
ldd "$staged"
if ldd "$staged" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|not found'; then
  fail "$staged needs a library that a machine without the Swift toolchain lacks"
fi

# The toolchain's folder, hidden by a tmpfs mounted over it in a mount namespace of its own.
toolchain=$(cd "$(dirname "$(readlink -f "$(command -v swift)")")/../.." && pwd)
without_toolchain() {
  # shellcheck disable=SC2016 # $0, $1 and $@ are the inner shell's
  unshare -m sh -c 'mount -t tmpfs none "$1" && shift && [ ! -e "$0/usr/bin/swift" ] && exec "$@"' \
    "$toolchain" "$toolchain" "$@"
}
lunch=$'12.50 =lunch\n200 15 %\n+\n'
lunch_shown=$'12.50 =lunch  [12.5]\n200 15 %      [12.5 200 30]\n+             [12.5 230]'

step "the binary runs with the toolchain ($toolchain) hidden"
shown=$(without_toolchain "$staged" eval - <<<"$lunch")
[[ $shown == "$lunch_shown" ]] || fail "eval printed:"$'\n'"$shown"$'\n'"expected:"$'\n'"$lunch_shown"
# (The sample shows some mistakes on purpose: their diagnostics go to standard error.)
sample=$(without_toolchain "$staged" eval EditorConfigs/sample.rpn 2>/dev/null)
[[ $(wc -l <<<"$sample") -eq $(wc -l <EditorConfigs/sample.rpn) ]] || fail "eval of the sample printed:"$'\n'"$sample"
echo "eval: the lunch tape and the sample as expected"

step "apt-get install ./$deb"
apt-get install -y -qq "./$deb" >/tmp/rpn-packaging-apt.log 2>&1 ||
  { tail -30 /tmp/rpn-packaging-apt.log >&2; fail "apt-get install ./$deb failed"; }
dpkg -L rpn-lsp | sort >/tmp/rpn-packaging-files.txt
echo "$(wc -l </tmp/rpn-packaging-files.txt) paths installed"
[[ $(/usr/bin/rpn-lsp --version) == "rpn-lsp $version" ]] || fail "/usr/bin/rpn-lsp --version: $(/usr/bin/rpn-lsp --version)"
installed_sample=$(without_toolchain /usr/bin/rpn-lsp eval /usr/share/rpn-lsp/sample.rpn 2>/dev/null)
[[ $installed_sample == "$sample" ]] || fail "rpn-lsp eval /usr/share/rpn-lsp/sample.rpn differs from the sample's"
[[ $(without_toolchain /usr/bin/rpn-lsp eval - <<<"$lunch") == "$lunch_shown" ]] || fail "the installed rpn-lsp evaluates wrongly"
echo "rpn-lsp --version: rpn-lsp $version; eval of /usr/share/rpn-lsp/sample.rpn with the toolchain hidden"

step "man rpn-lsp"
[[ $(man -w rpn-lsp) == /usr/share/man/man1/rpn-lsp.1.gz ]] || fail "man -w rpn-lsp: $(man -w rpn-lsp 2>&1)"
warnings=$(man --warnings rpn-lsp 2>&1 >/dev/null)
[[ -z $warnings ]] || fail "man --warnings rpn-lsp:"$'\n'"$warnings"
warnings=$(groff -man -ww -z .packaging/rpn-lsp.1 2>&1)
[[ -z $warnings ]] || fail "groff -man -ww:"$'\n'"$warnings"
echo "man -w: /usr/share/man/man1/rpn-lsp.1.gz; no warnings"

step "bash completion (the installed file, found by bash-completion's loader)"
cmp .packaging/bash-completion/rpn-lsp /usr/share/bash-completion/completions/rpn-lsp
bash .packaging/bash-completion/test.sh /usr/share/bash-completion/completions/rpn-lsp
loaded=$(bash -c 'source /usr/share/bash-completion/bash_completion && __load_completion rpn-lsp && complete -p rpn-lsp')
[[ $loaded == "complete -F _rpn_lsp rpn-lsp" ]] || fail "bash-completion does not load it: $loaded"

step "Vim and Emacs find the installed files"
scratch=$(mktemp -d)
printf '1 2 +\n' >"$scratch/t.rpn"
# An account without a vimrc (Vim reads its defaults.vim), and one with a vimrc of its own.
# shellcheck disable=SC2016 # Vim's $VIMRUNTIME
echo 'source $VIMRUNTIME/defaults.vim' >"$scratch/vimrc"
for vimrc in none "$scratch/vimrc"; do
  flags=(-i NONE --not-a-term)
  [[ $vimrc == none ]] || flags+=(-u "$vimrc")
  rm -f "$scratch/vim.txt"
  HOME=$scratch timeout 30 vim "${flags[@]}" -c "redir! > $scratch/vim.txt" \
    -c 'echo &filetype b:current_syntax &commentstring' -c 'redir END' -c 'qa!' "$scratch/t.rpn" \
    </dev/null >/dev/null 2>&1 || true
  got=$(tr -d '\n' <"$scratch/vim.txt" 2>/dev/null || true)
  [[ $got == "rpn rpn # %s" ]] || fail "Vim (vimrc: $vimrc) gave filetype, syntax, commentstring '$got'"
done
echo "vim: filetype rpn, syntax rpn, commentstring '# %s' (with and without a vimrc)"
got=$(HOME=$scratch emacs --batch --eval "(progn (find-file \"$scratch/t.rpn\") (require 'rpn-eglot)
  (princ (format \"%s %s\" major-mode (locate-library \"rpn-eglot\"))))" 2>/dev/null)
[[ $got == "rpn-mode /usr/share/emacs/site-lisp/rpn-lsp/rpn-eglot.el" ]] || fail "Emacs: $got"
echo "emacs: .rpn opens in rpn-mode; (require 'rpn-eglot) loads from /usr/share/emacs/site-lisp/rpn-lsp"
rm -rf "$scratch"

step "lintian $deb (an error fails; warnings and notes are listed)"
status=0
lintian --display-info --pedantic --fail-on error "$deb" >/tmp/rpn-packaging-lintian.txt 2>&1 || status=$?
grep -E '^[EWX]: ' /tmp/rpn-packaging-lintian.txt || echo "no errors or warnings"
echo "notes (I: informational, P: pedantic), by tag:"
grep -E '^[IP]: ' /tmp/rpn-packaging-lintian.txt | awk '{ print "  " $1, $3 }' | sort | uniq -c
((status == 0)) || { cat /tmp/rpn-packaging-lintian.txt >&2; fail "lintian exited $status"; }

step "apt-get remove, then purge: every file the package installed is gone"
apt-get remove -y -qq rpn-lsp >/dev/null 2>&1 || fail "apt-get remove rpn-lsp failed"
conffiles=$(dpkg-deb --info "$deb" conffiles)
for path in $conffiles; do [[ -f $path ]] || fail "apt-get remove took the conffile $path (only purge should)"; done
apt-get purge -y -qq rpn-lsp >/dev/null 2>&1 || fail "apt-get purge rpn-lsp failed"
dpkg -s rpn-lsp >/dev/null 2>&1 && fail "rpn-lsp is still known to dpkg after the purge"
left=0
while IFS= read -r path; do
  if [[ -L $path ]] || { [[ -e $path ]] && [[ ! -d $path ]]; }; then
    echo "left behind: $path" >&2
    left=$((left + 1))
  elif [[ -d $path ]] && [[ -z $(ls -A "$path") ]] && ! dpkg -S "$path" >/dev/null 2>&1; then
    echo "left behind: the empty folder $path" >&2
    left=$((left + 1))
  fi
done </tmp/rpn-packaging-files.txt
for path in $conffiles /usr/share/rpn-lsp /usr/share/doc/rpn-lsp; do
  [[ -e $path ]] && { echo "left behind: $path" >&2; left=$((left + 1)); }
done
((left == 0)) || fail "$left paths left behind"
echo "all $(wc -l </tmp/rpn-packaging-files.txt) paths gone (shared folders kept), and the conffile $conffiles"

step "done in $((SECONDS - started)) s"

#!/usr/bin/env bash
# Builds the Debian package rpn-lsp_VERSION_ARCH.deb in the repository's top folder, in one step:
#
#   bash .packaging/deb.sh
#
# The binary is built with the Swift runtime and Foundation linked in (--static-swift-stdlib), so
# it needs only the C and C++ runtime libraries (libc6, libgcc-s1, libstdc++6), not the Swift
# toolchain. The package holds:
#   /usr/bin/rpn-lsp                                   the binary, stripped
#   /usr/share/man/man1/rpn-lsp.1.gz                   the man page (.packaging/rpn-lsp.1)
#   /usr/share/bash-completion/completions/rpn-lsp     bash completion (.packaging/bash-completion/)
#   /usr/share/rpn-lsp/                                every file of EditorConfigs/, as there
#   /usr/share/vim/vimfiles/pack/dist-bundle/start/rpn-lsp
#                                                      a link to /usr/share/rpn-lsp/vim, a Vim
#                                                      package that Debian's Vim loads at start
#   /usr/share/emacs/site-lisp/rpn-lsp                 a link to /usr/share/rpn-lsp/emacs: on
#                                                      load-path in Debian's Emacs
#   /etc/emacs/site-start.d/50rpn-lsp.el               opens .rpn files in rpn-mode
#   /usr/share/doc/rpn-lsp/{copyright,changelog.gz}
#
# Needs: the Swift toolchain, dpkg-deb, gzip, strip (binutils), and dpkg-shlibdeps (dpkg-dev)
# for the versions of the dependencies (without it they are found with dpkg -S, unversioned).
# RPN_LSP_MAINTAINER overrides the Maintainer field. .packaging/ci.sh builds, installs,
# lints and removes the package.
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022
package=rpn-lsp
maintainer=${RPN_LSP_MAINTAINER:-rpn-lsp developers <dev@rpn-lsp.invalid>}

# The binary. --disable-local-rpath: no RUNPATH of $ORIGIN, which a program in /usr/bin must
# not carry (nothing is loaded from beside it); -z now: the relocations are resolved at start,
# so that the whole GOT can be made read-only (Debian's "bindnow" hardening).
mkdir -p .build
if ! swift build -c release --product rpn-lsp --static-swift-stdlib --disable-local-rpath \
  -Xlinker -z -Xlinker now --scratch-path .build/static >.build/deb-build.log 2>&1; then
  tail -40 .build/deb-build.log >&2
  echo "deb.sh: the build failed (the whole log: .build/deb-build.log)" >&2
  exit 1
fi
tail -1 .build/deb-build.log
binary=.build/static/release/rpn-lsp
version=$("$binary" --version | awk '{ print $2 }')
arch=$(dpkg --print-architecture)
[[ $version =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || { echo "deb.sh: '$version' is no package version" >&2; exit 1; }

# Only the C and C++ runtimes may be needed: a Swift library would not be on the machine.
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
for library in $needed; do
  case $library in
    libc.so.* | libm.so.* | libstdc++.so.* | libgcc_s.so.* | ld-linux*.so.*) ;;
    *) echo "deb.sh: $binary needs $library, which a Debian system without Swift lacks" >&2; exit 1 ;;
  esac
done
if readelf -d "$binary" | grep -E '\((RUNPATH|RPATH)\)'; then
  echo "deb.sh: $binary carries a library search path" >&2
  exit 1
fi

# The staging tree, laid out as dpkg-shlibdeps expects: debian/control, debian/PACKAGE/.
work=.build/deb
rm -rf "$work"
root=$work/debian/$package
mkdir -p "$root/DEBIAN"

install -D -m 0755 "$binary" "$root/usr/bin/rpn-lsp"
strip --remove-section=.comment --remove-section=.note "$root/usr/bin/rpn-lsp"

mkdir -p "$root/usr/share/man/man1"
gzip -9n <.packaging/rpn-lsp.1 >"$root/usr/share/man/man1/rpn-lsp.1.gz"
install -D -m 0644 .packaging/bash-completion/rpn-lsp "$root/usr/share/bash-completion/completions/rpn-lsp"

# Every file of EditorConfigs/ (the tracked ones in a git checkout: no node_modules/ or build
# output an editor left there).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z EditorConfigs
else
  find EditorConfigs -type f -print0
fi | while IFS= read -r -d '' file; do
  install -D -m 0644 "$file" "$root/usr/share/rpn-lsp/${file#EditorConfigs/}"
  # A script the tree marks executable (vscode/build-vsix.sh) stays one: listed for below.
  if [[ -x $file ]]; then printf '%s\0' "usr/share/rpn-lsp/${file#EditorConfigs/}" >>"$root.executables"; fi
done
[[ -f $root/usr/share/rpn-lsp/sample.rpn && -f $root/usr/share/rpn-lsp/vim/syntax/rpn.vim ]] ||
  { echo "deb.sh: EditorConfigs/ was not copied" >&2; exit 1; }

# Vim: EditorConfigs/vim is a Vim package (ftdetect/, ftplugin/, syntax/); a package under
# pack/*/start of a folder on 'packpath' (/usr/share/vim/vimfiles is) is loaded by every Vim,
# which is where Debian's Vim addons go (dh_vim-addon's "automatic" addons).
mkdir -p "$root/usr/share/vim/vimfiles/pack/dist-bundle/start"
ln -s ../../../../../rpn-lsp/vim "$root/usr/share/vim/vimfiles/pack/dist-bundle/start/rpn-lsp"

# Emacs: each folder under /usr/share/emacs/site-lisp is on Debian's load-path (its subdirs.el);
# the site-start file autoloads rpn-mode for .rpn files, while the package is installed.
mkdir -p "$root/usr/share/emacs/site-lisp"
ln -s ../../rpn-lsp/emacs "$root/usr/share/emacs/site-lisp/rpn-lsp"
install -d "$root/etc/emacs/site-start.d"
cat >"$root/etc/emacs/site-start.d/50rpn-lsp.el" <<'EOF'
;; rpn-lsp: .rpn files open in rpn-mode, from /usr/share/emacs/site-lisp/rpn-lsp.
;; For the language server as well, put (require 'rpn-eglot) or (require 'rpn-lsp-mode) in
;; your init file; /usr/share/rpn-lsp/emacs/README.md says more.
(when (file-directory-p "/usr/share/emacs/site-lisp/rpn-lsp")
  (autoload 'rpn-mode "rpn-mode" "Major mode for .rpn calculator tapes." t)
  (add-to-list 'auto-mode-alist '("\\.rpn\\'" . rpn-mode)))
EOF
echo /etc/emacs/site-start.d/50rpn-lsp.el >"$root/DEBIAN/conffiles"

# The documentation Debian asks of every package: copyright and changelog. The date is the last
# commit's, so that two builds of one commit give the same package.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
doc=$root/usr/share/doc/$package
install -D -m 0644 .packaging/copyright "$doc/copyright"
{
  printf '%s (%s) unstable; urgency=medium\n\n' "$package" "$version"
  printf '  * Built by .packaging/deb.sh from commit %s.\n\n' "$commit"
  printf ' -- %s  %s\n' "$maintainer" "$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$doc/changelog.gz"

# Dependencies: the packages of the shared libraries the binary needs, with the least versions
# that provide the symbols it uses.
depends=
if command -v dpkg-shlibdeps >/dev/null; then
  printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$package" "$package" >"$work/debian/control"
  depends=$(cd "$work" && dpkg-shlibdeps -O "debian/$package/usr/bin/rpn-lsp" | sed -n 's/^shlibs:Depends=//p')
else
  echo "deb.sh: no dpkg-shlibdeps (apt-get install dpkg-dev): dependencies without versions" >&2
  depends=$(ldd "$binary" | awk '/=>/ { print $3 }' | while read -r library; do
    dpkg -S "$library" | cut -d: -f1
  done | sort -u | paste -sd, - | sed 's/,/, /g')
fi
[[ -n $depends ]] || { echo "deb.sh: no dependencies found" >&2; exit 1; }

installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: $package
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Section: editors
Priority: optional
Description: language server and command line for .rpn calculator tapes
 rpn-lsp evaluates .rpn documents: calculator tapes in reverse Polish
 notation, where one stack flows through the whole document, top to bottom
 and left to right. Values can be stored under names, checked against what a
 line should give, and carry units and times.
 .
 An editor runs it as a Language Server Protocol server: the stack after
 every line as an inlay hint, the stack before and after a token on hover,
 diagnostics as you type (an operator short of operands, a failing check, an
 unknown word), and completion of operators with their stack effects.
 .
 On the command line, "rpn-lsp eval" prints a tape with its stacks, "check"
 lists its diagnostics, "format" lays it out, and "update" rewrites failing
 checks; each takes files or folders.
 .
 The package also ships configurations for Neovim, Vim, Emacs, Helix,
 Kakoune, Sublime Text, VS Code, JetBrains IDEs and Zed in /usr/share/rpn-lsp,
 a Vim filetype with syntax colours, an Emacs major mode, a manual page and
 bash completion.
EOF

# Checksums of every file but the conffile, which dpkg sums itself.
(cd "$root" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\0' | LC_ALL=C sort -z |
  xargs -0 md5sum >DEBIAN/md5sums)

find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f -exec chmod 0644 {} +
chmod 0755 "$root/usr/bin/rpn-lsp"
if [[ -s $root.executables ]]; then
  while IFS= read -r -d '' file; do chmod 0755 "$root/$file"; done <"$root.executables"
fi
rm -f "$root.executables"

deb=${package}_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "deb.sh: built $deb ($(stat -c %s "$deb") bytes; rpn-lsp $(stat -c %s "$root/usr/bin/rpn-lsp") bytes)"

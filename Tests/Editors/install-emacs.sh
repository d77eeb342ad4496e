#!/usr/bin/env bash
# Installs the Emacs that Tests/Editors/emacs/run.sh drives, on a fresh Debian machine:
#   - Debian's `emacs-nox` (28.2 on bookworm): /usr/bin/emacs
#   - Debian's `elpa-eglot` (eglot 1.9 on bookworm), which Emacs 28 loads from
#     /usr/share/emacs/site-lisp/elpa/ without package.el.
#   - Debian's `elpa-lsp-mode` (8.0.0 on bookworm), when the archive has it: run.sh then checks
#     that EditorConfigs/emacs/rpn-lsp-mode.el registers the client in a real lsp-mode. Missing
#     from the archive is not an error (run.sh then only checks that the file loads without it).
# Idempotent: installed packages are left alone, and `apt-get update` runs only when something
# has to be installed. Quiet on success; on failure the installer's own output is shown.
# Prints what is installed at the end, one per line, as NAME=VERSION.
set -euo pipefail

INSTALL_NAME="install-emacs.sh"
# shellcheck source=../install-lib.sh
source "$(dirname "$0")/install-lib.sh"
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
version_of() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; }

missing=()
for pkg in emacs-nox elpa-eglot; do
  installed "$pkg" || missing+=("$pkg")
done
if [ "${#missing[@]}" != 0 ]; then
  echo "installing Debian's ${missing[*]}"
  apt_install "${missing[@]}"
fi

# lsp-mode: optional (Debian 12 has elpa-lsp-mode 8.0.0; other releases may not).
if ! installed elpa-lsp-mode; then
  if ! apt-cache show elpa-lsp-mode >/dev/null 2>&1; then apt_update; fi
  if apt-cache show elpa-lsp-mode >/dev/null 2>&1; then
    echo "installing Debian's elpa-lsp-mode"
    apt_install elpa-lsp-mode
  else
    echo "note: elpa-lsp-mode is not in the package archive; the lsp-mode check will only load the file"
  fi
fi

if ! emacs --batch --eval '(kill-emacs 0)' >"$install_log" 2>&1; then
  echo "install-emacs.sh: emacs does not run" >&2
  cat "$install_log" >&2
  exit 1
fi
if ! emacs --batch -l package --eval '(progn (package-initialize) (require (quote eglot)))' >"$install_log" 2>&1; then
  echo "install-emacs.sh: emacs cannot load eglot" >&2
  cat "$install_log" >&2
  exit 1
fi
echo "EMACS=$(command -v emacs) ($(emacs --version | head -n 1))"
echo "ELPA_EGLOT=$(version_of elpa-eglot)"
if installed elpa-lsp-mode; then echo "ELPA_LSP_MODE=$(version_of elpa-lsp-mode)"; fi

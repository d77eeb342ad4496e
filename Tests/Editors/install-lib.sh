# Shared by the editor install scripts (source it; set INSTALL_NAME first for messages).
# run CMD…: runs quietly; on failure prints the command and everything it printed, then fails.
# apt_update / apt_install PACKAGE…: Debian's packages, `apt-get update` at most once.
install_log="$(mktemp)"
trap 'rm -f "$install_log"' EXIT
run() {
  if ! "$@" >"$install_log" 2>&1; then
    echo "${INSTALL_NAME:-install}: failed: $*" >&2
    cat "$install_log" >&2
    exit 1
  fi
}

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
apt_updated=0
apt_update() {
  if [ "$apt_updated" = 0 ]; then run $SUDO apt-get update -q; apt_updated=1; fi
}
apt_install() {
  apt_update
  run $SUDO apt-get install -y -q --no-install-recommends "$@"
}

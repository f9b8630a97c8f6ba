# Installs missing Debian packages: `apt_install TAG PACKAGE...`. Sourced, not run.
# Idempotent: installed packages are left alone (and their config files kept); never
# prompts. Needs root only when something is missing.
# shellcheck shell=bash
apt_install() {
  local tag=$1 p
  shift
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "$tag: missing packages: ${missing[*]} (run as root or install them)" >&2
    return 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${missing[@]}"
}

#!/usr/bin/env bash
# Installs a single-host OAR 2.5.9 (server, node, user tools) and PostgreSQL from Debian
# 12 packages only, for the tests on a real OAR. Idempotent and non-interactive.
# Debian's policy-rc.d keeps the packages from starting their services (and the cluster
# does not use Debian's PostgreSQL cluster "main" anyway): scripts/oar/start.sh starts
# private daemons instead. oar-node pulls in openssh-server, whose sshd is not started
# either; OAR runs its own sshd (port 6667), which start.sh starts.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/oar/common.sh
. "$here/common.sh"
log() { echo "oar/install: $*" >&2; }

packages=(oar-server oar-server-pgsql oar-node oar-user oar-user-pgsql postgresql)
# shellcheck source=scripts/lib/apt.sh
. "$here/../lib/apt.sh"
apt_install oar/install "${packages[@]}"
log "all ${#packages[@]} packages present (oar $(dpkg-query -W -f='${Version}' oar-server))"

# The unprivileged user the tests submit as: OAR refuses root (an admission rule, kept).
# scripts/sge/install.sh may have made it already.
if ! id "$yard_oar_user" >/dev/null 2>&1; then
  useradd --system --user-group --create-home --shell /bin/bash "$yard_oar_user"
  log "created user $yard_oar_user"
fi

# Its ~/.bashrc must not recurse when OAR's jobs source it (see yard_oar_bashrc_guard):
# the guard goes first, above whatever is there.
home=$(getent passwd "$yard_oar_user" | cut -d: -f6)
bashrc=$home/.bashrc
if ! yard_oar_bashrc_guarded "$bashrc"; then
  tmp=$(mktemp)
  { echo "$yard_oar_bashrc_guard"; cat "$bashrc" 2>/dev/null || true; } > "$tmp"
  install -m 644 -o "$yard_oar_user" -g "$(id -gn "$yard_oar_user")" "$tmp" "$bashrc"
  rm -f "$tmp"
  log "$bashrc: non-interactive shells stop at its first line now"
fi
yard_oar_own_bashrc_safe || {
  log "~oar/.bashrc is not the packaged one: make sure it cannot recurse, then make it again only source ~oar/.bash_oar"
  exit 1
}

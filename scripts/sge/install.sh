#!/usr/bin/env bash
# Installs a single-host Grid Engine 8.1.9 (qmaster, execd, clients) from Debian 12
# packages only, for the tests on a real Grid Engine. Idempotent and non-interactive:
# the cell is preseeded (cell "default", this host its master) so that the packages'
# own set-up creates it; Debian's policy-rc.d keeps them from starting their services,
# and scripts/sge/start.sh starts the daemons instead.
set -euo pipefail

packages=(gridengine-master gridengine-exec gridengine-client)
host=$(hostname)
debconf-set-selections <<EOF2
gridengine-common shared/gridengineconfig boolean true
gridengine-common shared/gridenginecell string default
gridengine-common shared/gridenginemaster string $host
gridengine-master shared/gridengineconfig boolean true
gridengine-client shared/gridengineconfig boolean true
EOF2

# shellcheck source=scripts/lib/apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
apt_install sge/install "${packages[@]}"
echo "sge/install: all ${#packages[@]} packages present ($(dpkg-query -W -f='${Version}' gridengine-master))"

# The unprivileged user the tests submit as (tests/sge): Grid Engine's users are not root.
if ! id yardtest >/dev/null 2>&1; then
  useradd --system --user-group --create-home --shell /bin/bash yardtest
  echo "sge/install: created user yardtest"
fi

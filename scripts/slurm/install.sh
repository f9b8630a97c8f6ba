#!/usr/bin/env bash
# Installs a single-host Slurm 22.05 with accounting (slurmdbd + MariaDB) from Debian 12
# packages only, for the tests on a real Slurm. Idempotent and non-interactive: a second
# run installs nothing. Debian's policy-rc.d keeps the packages from starting their
# services; scripts/slurm/start.sh starts private daemons instead.
set -euo pipefail

packages=(slurm-wlm slurmctld slurmd slurm-client munge slurmdbd mariadb-server)

# shellcheck source=scripts/lib/apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
apt_install slurm/install "${packages[@]}"
echo "slurm/install: all ${#packages[@]} packages present ($(dpkg-query -W -f='${Version}' slurmctld))"

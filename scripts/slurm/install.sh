#!/usr/bin/env bash
# Installs a single-host Slurm 22.05 with accounting (slurmdbd + MariaDB) from Debian 12
# packages only, for the tests on a real Slurm. Idempotent and non-interactive: a second
# run installs nothing. Debian's policy-rc.d keeps the packages from starting their
# services; scripts/slurm/start.sh starts private daemons instead.
set -euo pipefail

packages=(slurm-wlm slurmctld slurmd slurm-client munge slurmdbd mariadb-server)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  if [ "$(id -u)" -ne 0 ]; then
    echo "slurm/install: missing packages: ${missing[*]} (run as root or install them)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Keep config files of any earlier install untouched and never prompt.
  apt-get install -y -qq --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${missing[@]}"
fi
echo "slurm/install: all ${#packages[@]} packages present ($(dpkg-query -W -f='${Version}' slurmctld))"

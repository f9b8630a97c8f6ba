#!/usr/bin/env bash
# Installs everything Switchyard needs to build, test and benchmark, from Debian 12
# packages only. Idempotent: a second run installs nothing new.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build ccache pkg-config clang libclang-rt-14-dev
  # libraries
  libsqlite3-dev sqlite3 nlohmann-json3-dev libyaml-cpp-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev libhwloc-dev zlib1g-dev
  # benchmark comparisons
  parallel task-spooler
  # used by tests and scripts
  procps util-linux
  # MPMD launches through mpirun (direct mode, --launcher mpirun)
  openmpi-bin
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing packages: ${missing[*]} (run as root or install them)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "install-deps: all ${#packages[@]} packages present"

#!/usr/bin/env bash
# Installs everything Switchyard needs to build, test and benchmark, from Debian 12
# packages only. Idempotent: a second run installs nothing new.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build ccache pkg-config clang libclang-rt-14-dev
  # libraries
  libsqlite3-dev sqlite3 nlohmann-json3-dev libyaml-cpp-dev libyaml-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev libhwloc-dev zlib1g-dev libpugixml-dev libxxhash-dev
  # benchmark comparisons
  parallel task-spooler
  # used by tests and scripts
  procps util-linux
  # reads JSON in the OAR example, its test and the bench scripts
  python3
  # the Python module (src/python/): pybind11 over the client library, cloudpickle for
  # functions as jobs, pytest for its tests
  pybind11-dev python3-dev python3-pybind11 python3-cloudpickle python3-pytest
  # the web platform (src/web/): its HTTP server, its passwords and tokens (argon2id), the
  # API tests' schema checks, and the browser its pages are tested in (tests/web/)
  libcpp-httplib-dev libsodium-dev python3-jsonschema chromium openssl
  # a workflow tool driving Slurm's commands as front ends to yard (tests/slurm-commands/)
  snakemake
  # the documentation site (mkdocs.yml, scripts/docs.sh), and curl, which its web pages'
  # API examples use (tests/docs/doc_examples.py runs them)
  mkdocs mkdocs-material curl
  # MPMD launches through mpirun (direct mode, --launcher mpirun)
  openmpi-bin
  # the package test: building the .deb (dpkg-shlibdeps), its man pages, its modulefile
  dpkg-dev man-db lmod
)

# shellcheck source=scripts/lib/apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/apt.sh"
apt_install install-deps "${packages[@]}"
# The web pages' build tools and their browser tests' driver (web/package-lock.json: Vite,
# TypeScript, uPlot, playwright-core), from the npm registry with the machine's Node.js
# (Debian's when there is none). Installed again only when the lock file changed.
command -v npm >/dev/null || apt_install install-deps nodejs npm
stamp=web/node_modules/.yard-lock-sha256
lock_sum=$(sha256sum web/package-lock.json | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$lock_sum" ]; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
  echo "$lock_sum" > "$stamp"
fi
echo "install-deps: all ${#packages[@]} packages present, and web/'s npm packages"

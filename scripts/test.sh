#!/usr/bin/env bash
# Installs what is needed, builds, and runs every test: once in a release build, and again
# under AddressSanitizer + UndefinedBehaviorSanitizer but for the suites against real
# clusters (Slurm, Grid Engine, OAR) and the load tests, which run once: under the sanitizers their daemons
# and ours share 2 cores with the sanitized unit tests, and the pass would outgrow CI's
# hour.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Slurm 22.05 for the tests against a real cluster (started and stopped by the tests).
bash scripts/slurm/install.sh
# Grid Engine 8.1.9 for the tests against a real Grid Engine (started and stopped by them).
bash scripts/sge/install.sh
# OAR 2.5.9 with its own PostgreSQL, for the tests against a real OAR.
bash scripts/oar/install.sh
# The suites against real clusters and stand-in schedulers (their fixtures' setup and
# cleanup tests included).
cluster_tests='^(Slurm|Sge|Oar|Pbs|Torque|Lsf|Htcondor|Flux)[A-Za-z/]*(Cluster|World|Example)[A-Za-z]*\.|^OarDirect\.'
# Load tests that measure the daemon's bounds (memory held for 1,000 watchers): run once,
# in release; under the sanitizers their allocator's own memory is what they would see.
# The code they load runs under the sanitizers in its unit tests (server/subscribers_test).
load_tests='^Api\.AThousandWatchers'
for kind in release asan; do
  echo "== build ($kind)"
  bash scripts/build.sh "$kind"
  dir=build; skip=(); [ "$kind" = asan ] && dir=build-asan skip=(-E "$cluster_tests|$load_tests")
  echo "== tests ($kind${skip:+, without the real-cluster suites})"
  (cd "$dir" && ctest --output-on-failure --timeout 600 -j2 "${skip[@]}")
done
echo "== build (clang, Release): warning-free with the other compiler too"
bash scripts/build.sh clang
echo "== fuzz (libFuzzer, clang): every parser of external text, briefly"
FUZZ_SECONDS=${FUZZ_SECONDS:-15} bash scripts/fuzz.sh

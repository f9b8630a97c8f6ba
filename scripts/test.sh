#!/usr/bin/env bash
# Installs what is needed, builds, and runs every test: once in a release build, and again
# under AddressSanitizer + UndefinedBehaviorSanitizer but for the suites against real
# clusters (Slurm, Grid Engine, OAR, and the stand-in schedulers) and the load tests, which
# run once: under the sanitizers their daemons and ours would share 2 cores with the
# sanitized unit tests, and the pass would outgrow CI's hour (the sanitizers' build does not
# even build the cluster suites: CMakeLists.txt).
#
# The cluster suites wait on their schedulers far more than they compute (a job to leave
# Slurm's queue takes a minute): they run in the background, one lane per scheduler (each
# holds its scheduler's lock), beside the rest of the release tests and the sanitizers'
# build, so that the two cores are not left idle while they wait. Their output is shown
# when they end.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase's minutes, at its end, and the whole run's (CI's budget is an hour).
start=$SECONDS
phase_done() { echo "== $1 done at $(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s"; }
trap 'echo "== test.sh stopped at $(( (SECONDS - start) / 60 )) min"' ERR
bash scripts/install-deps.sh
# Slurm 22.05 for the tests against a real cluster (started and stopped by the tests).
bash scripts/slurm/install.sh
# Grid Engine 8.1.9 for the tests against a real Grid Engine (started and stopped by them).
bash scripts/sge/install.sh
# OAR 2.5.9 with its own PostgreSQL, for the tests against a real OAR.
bash scripts/oar/install.sh
phase_done install
# The suites against real clusters and stand-in schedulers (their fixtures' setup and
# cleanup tests included).
cluster_tests='^(Slurm|Sge|Oar|Pbs|Torque|Lsf|Htcondor|Flux)[A-Za-z/]*(Cluster|World|Example)[A-Za-z]*\.|^OarDirect\.'
# Load tests that measure the daemon's bounds (memory held for 1,000 watchers): run once,
# in release; under the sanitizers their allocator's own memory is what they would see.
# The code they load runs under the sanitizers in its unit tests (server/subscribers_test).
load_tests='^Api\.AThousandWatchers'
echo "== build (release)"
bash scripts/build.sh release
phase_done "build (release)"
# The OAR tests are listed when ctest starts (DISCOVERY_MODE PRE_TEST), into a file of the
# build directory: listed once here, before two ctest runs start side by side, each of
# which would otherwise write that file while the other reads it (a test then vanished
# from one run).
(cd build && ctest -N > /dev/null)
echo "== tests against real clusters and stand-in schedulers (release, in the background)"
clusters_log=$PWD/build/cluster-tests.log
(cd build && ctest --output-on-failure --timeout 600 -j4 -R "$cluster_tests" > "$clusters_log" 2>&1) &
clusters=$!
# What they printed, but for the lines of tests that started and passed: a failure's
# output and the summary, where the end of CI's log shows them.
show_clusters_log() {
  grep -v -E '^ *Start +[0-9]+: |^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed +[0-9.]+ sec$' "$clusters_log" || true
}
# Whatever fails meanwhile, the cluster suites end before this script does (their last
# tests stop the schedulers they started), and what they printed is shown.
finish_clusters() {
  local rc=$?
  if [ -n "$clusters" ]; then
    echo "== waiting for the cluster suites to end"
    wait "$clusters" || true
    show_clusters_log
  fi
  exit "$rc"
}
trap finish_clusters EXIT
echo "== tests (release, the rest)"
(cd build && ctest --output-on-failure --timeout 600 -j2 -E "$cluster_tests")
phase_done "tests (release, the rest)"
echo "== build (asan)"
bash scripts/build.sh asan
phase_done "build (asan)"
echo "== tests (asan, without the real-cluster suites and the load tests)"
(cd build-asan && ctest --output-on-failure --timeout 600 -j2 -E "$cluster_tests|$load_tests")
phase_done "tests (asan)"
echo "== build (clang, Release, with the fuzz targets): warning-free with the other compiler too (the cluster suites go on)"
bash scripts/build.sh clang
phase_done "build (clang)"
echo "== fuzz (libFuzzer, clang): every parser of external text, briefly"
FUZZ_SECONDS=${FUZZ_SECONDS:-15} bash scripts/fuzz.sh
phase_done fuzz
echo "== tests against real clusters and stand-in schedulers (release): waiting for them"
clusters_rc=0
wait "$clusters" || clusters_rc=$?
clusters=
show_clusters_log
[ "$clusters_rc" -eq 0 ] || { echo "== the cluster suites failed (exit $clusters_rc)"; exit 1; }
phase_done "tests (clusters)"

#!/usr/bin/env bash
# Python functions as jobs on the local backend: N `executor.submit(f, i)` then every
# result, beside concurrent.futures.ProcessPoolExecutor(2) doing the same calls (the
# floor: two worker processes started once) and N `sbatch --parsable` through Slurm's
# commands as front ends, in the same run, against one fresh daemon.
# Usage: bench/python/run.sh [N]   (default 1000; needs a release build)
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-1000}
[ -f build/python/switchyard/__init__.py ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
for d in run state config; do mkdir -m 700 "$root/$d"; done
XDG_RUNTIME_DIR=$root/run XDG_STATE_HOME=$root/state XDG_CONFIG_HOME=$root/config PYTHONPATH=$PWD/build/python \
  /usr/bin/python3 bench/python/submit_results.py "$n" "$PWD/build/src/cli/yard"

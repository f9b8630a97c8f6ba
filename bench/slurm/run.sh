#!/usr/bin/env bash
# Slurm backend benchmark table, in one run:
#   - tracking 1,000 and 10,000 jobs: Slurm commands per status cycle and per minute,
#     and the time to parse and apply one cycle (bench/poll/poll_bench, no cluster);
#   - end to end on a real Slurm 22.05 (started here, stopped at the end): N trivial jobs
#     through `yard submit --backend slurm` + `yard wait`, against the same N through
#     plain `sbatch --wrap` in a loop, each from the first submit until Slurm's
#     accounting has them all COMPLETED.
# Usage: bench/slurm/run.sh [N]   (default 1000; needs root and a release build)
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-1000}
yard=$PWD/build/src/cli/yard
bench=$PWD/build/bench/poll/poll_bench
[ -x "$yard" ] && [ -x "$bench" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }

echo "| jobs tracked | Slurm commands per cycle | per minute (default 1 s cycle, capped at 1.8/s) | parse + apply one cycle |"
echo "|---:|---:|---:|---:|"
for n in 1000 10000; do
  read -r jobs per_cycle apply_ms per_min < <("$bench" slurm "$n")
  echo "| $jobs | $per_cycle | $per_min | ${apply_ms} ms |"
done

state=$(mktemp -d /tmp/yard-bench-slurm.XXXXXX)
work=$(mktemp -d /tmp/yard-bench-home.XXXXXX)
cleanup() {
  HOME=$work XDG_RUNTIME_DIR=$work/run XDG_STATE_HOME=$work/state "$yard" server stop >/dev/null 2>&1 || true
  bash scripts/slurm/stop.sh "$state" >/dev/null 2>&1 || true
  rm -rf "$state" "$work"
}
trap cleanup EXIT
bash scripts/slurm/install.sh >/dev/null
bash scripts/slurm/start.sh --fresh "$state" >/dev/null 2>&1
. "$state/env.sh"
now() { echo "${EPOCHREALTIME/./}"; }
secs() { awk -v us="$1" 'BEGIN { printf "%.1f", us / 1e6 }'; }
# All of these ids COMPLETED in the accounting?
all_done() { [ "$(sacct -X -n -P -o State -j "$1" 2>/dev/null | grep -c '^COMPLETED')" -ge "$2" ]; }

# Plain sbatch in a loop.
ids=()
t0=$(now)
for _ in $(seq "$N"); do ids+=("$(sbatch --parsable -o /dev/null --wrap=true)"); done
list=$(IFS=,; echo "${ids[*]}")
until all_done "$list" "$N"; do sleep 0.2; done
t1=$(now)
sbatch_us=$((t1 - t0))

# The same through yard (default settings).
export HOME=$work XDG_RUNTIME_DIR=$work/run XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_RUNTIME_DIR"
"$yard" server start >/dev/null
yids=()
t0=$(now)
for _ in $(seq "$N"); do yids+=("$("$yard" submit --backend slurm -o /dev/null -- true)"); done
t_submitted=$(now)
"$yard" wait --timeout 3600 "${yids[@]}" >/dev/null
t1=$(now)
yard_us=$((t1 - t0))
calls=$("$yard" server status --json)

echo
echo "| $N trivial jobs on Slurm | seconds | yard vs sbatch |"
echo "|---|---:|---:|"
echo "| sbatch --wrap in a loop | $(secs "$sbatch_us") | - |"
echo "| yard submit --backend slurm + yard wait (the $N submit commands: $(secs $((t_submitted - t0))) s) | $(secs "$yard_us") | $(awk -v a="$yard_us" -v b="$sbatch_us" 'BEGIN { printf "%+.1f%%", 100 * (a - b) / b }') (target < +10%) |"
echo
echo "yard's Slurm calls in that run: $(echo "$calls" | sed -n 's/.*"slurm_calls":\({[^}]*}\).*/\1/p')"

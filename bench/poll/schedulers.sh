#!/usr/bin/env bash
# Every indirect scheduler side by side, in one run, without a cluster (bench/poll/
# poll_bench: the real dialect and engine over a real store, the status output
# synthesized in each scheduler's exact format): commands per status cycle with 1,000
# jobs tracked, and the time to parse and apply one batched status output of 10,000
# jobs, also as a ratio to Slurm's measured in the same run.
# Usage: bench/poll/schedulers.sh   (needs a release build: scripts/build.sh release)
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=build/bench/poll/poll_bench
[ -x "$bench" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }
read -r _ _ slurm_ms _ < <("$bench" slurm 10000)
echo "| scheduler | commands per cycle (1,000 jobs) | parse + apply, 10,000 jobs | vs Slurm |"
echo "|---|---:|---:|---:|"
for s in slurm sge oar pbs torque lsf htcondor flux; do
  read -r _ per_cycle _ _ < <("$bench" "$s" 1000)
  if [ "$s" = slurm ]; then apply_ms=$slurm_ms; else read -r _ _ apply_ms _ < <("$bench" "$s" 10000); fi
  ratio=$(awk -v a="$apply_ms" -v b="$slurm_ms" 'BEGIN { printf "%.2fx", a / b }')
  echo "| $s | $per_cycle | ${apply_ms} ms | $ratio |"
done

#!/usr/bin/env bash
# Failover benchmark table: the time from a scheduler going down (its controller
# unreachable: Slurm's commands print Slurm's own error and fail) to the first new job
# routed to its fallback (routes.yaml: slurm: {fallback: local}), with the default
# down_after_failures (3) and with 1. The clock starts at the first job submitted to the
# down scheduler, whose failing calls are the first the daemon makes; the job that lands
# is a `yard submit --test-only`, asked every 20 ms. The commands fail at once, or after 2 s
# (as a real client that tries the controller for a while before it gives up): what yard
# adds is the first; the second is mostly the commands' own time.
#   bash bench/routes/failover.sh   (needs a release build: scripts/build.sh release)
set -euo pipefail
cd "$(dirname "$0")/../.."
yard=$PWD/build/src/cli/yard
[ -x "$yard" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }
work=$(mktemp -d)
cleanup() {
  HOME=$work XDG_RUNTIME_DIR=$work/run XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config \
    "$yard" server stop --kill-jobs >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/bin"
for c in sbatch squeue sacct scancel scontrol; do
  printf '#!/bin/sh\nsleep "${FAIL_AFTER:-0}"\necho "%s: error: Unable to contact slurm controller (connect failure)" >&2\nexit 1\n' "$c" > "$work/bin/$c"
  chmod +x "$work/bin/$c"
done
now() { echo "${EPOCHREALTIME/./}"; }

# Seconds from the first job sent to the down Slurm to new jobs landing on the fallback.
time_to_fallback() {
  local settings=$1 home=$work/home-$RANDOM
  export HOME=$home XDG_RUNTIME_DIR=$home/run XDG_STATE_HOME=$home/state XDG_CONFIG_HOME=$home/config
  mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME/switchyard"
  printf '%s' "$settings" > "$XDG_CONFIG_HOME/switchyard/slurm.yaml"
  printf 'targets:\n  slurm: {fallback: local}\n' > "$XDG_CONFIG_HOME/switchyard/routes.yaml"
  PATH=$work/bin:$PATH "$yard" server start >/dev/null
  local t0 t1 i
  t0=$(now)
  "$yard" submit --backend slurm -o /dev/null -- true >/dev/null
  for ((i = 0; i < 6000; i++)); do
    if "$yard" submit --test-only --json --backend slurm -- true 2>/dev/null | grep -q '"backend":"local"'; then
      t1=$(now)
      "$yard" server stop --kill-jobs >/dev/null
      awk -v d=$((t1 - t0)) 'BEGIN { printf "%.2f", d / 1e6 }'
      return
    fi
    sleep 0.02
  done
  "$yard" server stop --kill-jobs >/dev/null
  echo "never"
}

printf '%-64s %10s\n' "failover: Slurm's controller unreachable, fallback local" "seconds"
printf '%-64s %10s\n' "to the fallback, defaults (down after 3 failed calls)" "$(time_to_fallback '')"
printf '%-64s %10s\n' "to the fallback, down_after_failures: 1" "$(time_to_fallback 'down_after_failures: 1
')"
export FAIL_AFTER=2
printf '%-64s %10s\n' "to the fallback, defaults, each command failing after 2 s" "$(time_to_fallback '')"

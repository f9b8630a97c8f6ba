#!/usr/bin/env bash
# Smoke test of the single-host Slurm test cluster (scripts/slurm): starts it in a fresh
# directory, runs one job through `sbatch --parsable` until sacct reports it COMPLETED,
# stops the cluster and checks that none of its processes is left. Needs root and
# scripts/slurm/install.sh. Exit 0 on success; otherwise the reason is on stderr.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
slurm_scripts=$root/scripts/slurm
# shellcheck source=scripts/slurm/common.sh
. "$slurm_scripts/common.sh"

timeout_s=${YARD_SLURM_SMOKE_TIMEOUT:-60}
state=$(mktemp -d "${TMPDIR:-/tmp}/yard-slurm-smoke.XXXXXX")
stopped=0

fail() {
  echo "cluster_smoke: FAIL: $*" >&2
  exit 1
}

# Whatever happens, the cluster is stopped and its directory removed; a failure keeps
# the logs on stderr first, since the directory goes away.
cleanup() {
  local rc=$?
  if ((!stopped)); then
    if ((rc != 0)) && [[ -d $state/log ]]; then
      for f in "$state"/log/slurmctld.log "$state"/log/slurmd-c1.log "$state"/log/slurmdbd.log; do
        [[ -s $f ]] && { echo "---- last lines of $f" >&2; tail -5 "$f" >&2; }
      done
    fi
    "$slurm_scripts/stop.sh" "$state" || true
  fi
  rm -rf -- "$state"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$slurm_scripts/start.sh" "$state" >/dev/null || fail "start.sh failed"
# shellcheck source=/dev/null
. "$state/env.sh"
[[ $SLURM_CONF == "$state/etc/slurm.conf" ]] || fail "env.sh does not point at $state"

# The daemons start.sh reports, to check afterwards that they are all gone.
daemons=()
for f in "$state"/run/*.pid; do
  name=$(basename "$f" .pid)
  pid=$(yard_slurm_pid "$f" "${name%%-*}" "$state") || fail "$name (pid file $f) is not running"
  daemons+=("$pid:$name")
done
((${#daemons[@]} == 7)) || fail "expected 7 daemons, found ${#daemons[@]}: ${daemons[*]}"

out=$state/smoke.out
# shellcheck disable=SC2016 # expanded by the job, not here
id=$(sbatch --parsable -J yard-smoke -o "$out" --wrap 'echo "smoke job $SLURM_JOB_ID on $SLURMD_NODENAME"') ||
  fail "sbatch failed"
[[ $id =~ ^[0-9]+$ ]] || fail "sbatch --parsable printed '$id', not a job id"

# sacct trails slurmctld by up to a few seconds: poll it until the job is final.
deadline=$(($(yard_slurm_ms) + timeout_s * 1000))
while :; do
  st=$(sacct -n -P -X -j "$id" -o State,ExitCode 2>/dev/null || true)
  case "$st" in
    COMPLETED\|0:0) break ;;
    PENDING* | RUNNING* | COMPLETING* | "") ;;
    *) fail "job $id ended as '$st', expected COMPLETED|0:0" ;;
  esac
  (($(yard_slurm_ms) < deadline)) || fail "job $id not COMPLETED after ${timeout_s}s (sacct: '$st')"
  sleep 0.2
done
grep -qx "smoke job $id on c[12]" "$out" || fail "unexpected job output: $(cat "$out" 2>&1)"
echo "cluster_smoke: job $id COMPLETED 0:0 ($(cat "$out"))"

"$slurm_scripts/stop.sh" "$state" || fail "stop.sh failed"
stopped=1
left=()
for d in "${daemons[@]}"; do
  pid=${d%%:*}
  st=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || true)
  # A zombie is dead; it only waits for init to reap it.
  [[ -z $st || $st == Z ]] || left+=("$d")
done
# Also any step daemon of this cluster, found by its SLURM_CONF.
for p in $(pgrep -x slurmstepd || true); do
  if yard_slurm_ours "$p" slurmstepd "$state"; then left+=("$p:slurmstepd"); fi
done
((${#left[@]} == 0)) || fail "still running after stop.sh: ${left[*]}"
echo "cluster_smoke: OK (${#daemons[@]} daemons started and stopped)"

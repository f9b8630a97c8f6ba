#!/usr/bin/env bash
# Smoke test of the single-host Grid Engine test cluster (scripts/sge): starts it, runs
# one batch script that prints and exits 3, waits until qacct reports exit status 3,
# stops the cluster and checks that the daemons it started are gone. Needs root and
# scripts/sge/install.sh. Exit 0 on success; otherwise the reason is on stderr.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
sge_scripts=$root/scripts/sge
# shellcheck source=scripts/sge/common.sh
. "$sge_scripts/common.sh"
state=$(mktemp -d "${TMPDIR:-/tmp}/yard-sge-smoke.XXXXXX")
chmod 755 "$state"
stopped=0
fail() {
  echo "sge cluster_smoke: FAIL: $*" >&2
  exit 1
}
cleanup() {
  local rc=$?
  ((stopped)) || "$sge_scripts/stop.sh" "$state" || true
  rm -rf -- "$state"
  exit "$rc"
}
trap cleanup EXIT

"$sge_scripts/start.sh" "$state" 2>/dev/null || fail "start.sh failed"
# shellcheck source=/dev/null
. "$state/env.sh"
started=()
for f in "$state"/*.pid; do started+=("$(cat "$f")"); done

printf '#!/bin/sh\necho "hello from $JOB_ID"\nexit 3\n' > "$state/job.sh"
id=$(cd "$state" && qsub -terse -o "$state/out.txt" -j y "$state/job.sh") || fail "qsub failed"
[[ $id =~ ^[0-9]+$ ]] || fail "qsub -terse printed '$id'"
# The record appears in the accounting file shortly after the end.
for ((i = 0; i < 600; i++)); do
  acct=$(qacct -j "$id" 2>/dev/null) && break
  sleep 0.1
done
[[ -n ${acct:-} ]] || fail "no accounting record for job $id after 60 s; qstat: $(qstat -j "$id" 2>&1 | tail -3)"
status=$(awk '$1 == "exit_status" { print $2 }' <<< "$acct")
[[ $status == 3 ]] || fail "exit_status $status, expected 3"
[[ $(cat "$state/out.txt") == "hello from $id" ]] || fail "output: $(cat "$state/out.txt")"

"$sge_scripts/stop.sh" "$state" 2>/dev/null
stopped=1
# Gone, or a zombie: the daemons detach, so init reaps them (at its own pace).
for pid in "${started[@]}"; do
  st=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || true)
  [[ -z $st || $st == Z ]] || fail "daemon $pid still running after stop.sh (state $st)"
done
echo "sge cluster_smoke: ok (job $id, exit status 3; ${#started[@]} daemons started and stopped)"

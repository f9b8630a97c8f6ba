#!/usr/bin/env bash
# Smoke test of the single-host OAR test cluster (scripts/oar): starts it, has the test
# user submit one batch script that prints and exits 3, waits until oarstat reports the
# job Terminated with exit code 3 (a raw wait status: 768), checks its output, stops the
# cluster and checks that the daemons it started are gone. Needs root and
# scripts/oar/install.sh. Exit 0 on success; otherwise the reason is on stderr.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
oar_scripts=$root/scripts/oar
# shellcheck source=scripts/oar/common.sh
. "$oar_scripts/common.sh"
state=$(mktemp -d "${TMPDIR:-/tmp}/yard-oar-smoke.XXXXXX")
# PostgreSQL keeps its data in it, and the test user writes the job's output there.
chmod 755 "$state"
mkdir "$state/work"
chown "$yard_oar_user" "$state/work"
stopped=0
t0=$(date +%s%N)
ms() { echo $((($(date +%s%N) - t0) / 1000000)); }
fail() {
  echo "oar cluster_smoke: FAIL: $*" >&2
  exit 1
}
# The state directory goes only once the cluster is stopped: it holds the pids and the
# database that stop.sh needs.
cleanup() {
  local rc=$?
  if ((stopped)) || "$oar_scripts/stop.sh" "$state" 2>/dev/null; then
    rm -rf -- "$state"
  else
    echo "oar cluster_smoke: stop.sh failed: $state kept" >&2
  fi
  exit "$rc"
}
trap cleanup EXIT
as_user() { (cd "$state/work" && runuser -u "$yard_oar_user" -- "$@"); }

"$oar_scripts/start.sh" "$state" 2> "$state/start.log" || fail "start.sh failed: $(tail -5 "$state/start.log")"
start_ms=$(ms)
# shellcheck source=/dev/null
. "$state/env.sh"
started=()
for f in "$state"/*.pid; do [[ -e $f ]] && started+=("$(cat "$f")"); done
((${#started[@]} == 3)) || fail "start.sh recorded ${#started[@]} daemons, not 3 (an OAR cluster of another STATE_DIR running?)"

# shellcheck disable=SC2016 # $OAR_JOB_ID is the job's
printf '#!/bin/sh\necho "hello from $OAR_JOB_ID"\nexit 3\n' > "$state/work/job.sh"
chmod 755 "$state/work/job.sh"
out=$state/work/out.txt err=$state/work/err.txt
sub=$(as_user oarsub -O "$out" -E "$err" -l /core=1,walltime=0:05:00 ./job.sh 2>&1) ||
  fail "oarsub failed: $sub"
submit_ms=$(ms)
id=$(sed -n 's/^OAR_JOB_ID=\([0-9]*\)$/\1/p' <<< "$sub")
[[ -n $id ]] || fail "oarsub printed no OAR_JOB_ID: $sub"

# Polled until it ends (single-job latency here: 3.5-4 s).
state_of() { sed -n 's/^ *"state" : "\(.*\)",\{0,1\}$/\1/p' <<< "$1"; }
for ((i = 0; i < 600; i++)); do
  job=$(as_user oarstat -J -f -j "$id" 2>/dev/null) || job=
  [[ $(state_of "$job") =~ ^(Terminated|Error)$ ]] && break
  sleep 0.1
done
s=$(state_of "$job")
[[ $s == Terminated ]] || fail "job $id is '$s' after 60 s, not Terminated: $job"
code=$(sed -n 's/^ *"exit_code" : \([^,]*\),\{0,1\}$/\1/p' <<< "$job")
[[ $code == 768 ]] || fail "job $id: exit_code '$code', expected 768 (exit 3 as a wait status)"
((code >> 8 == 3)) || fail "exit_code $code is not exit 3"
[[ $(cat "$out" 2>&1) == "hello from $id" ]] || fail "output of job $id: $(cat "$out" 2>&1)"
job_ms=$(ms)

"$oar_scripts/stop.sh" "$state" 2> "$state/stop.log" || fail "stop.sh failed: $(tail -5 "$state/stop.log")"
stopped=1
# Gone, or a zombie: the daemons detach, so init reaps them (at its own pace).
for pid in "${started[@]}"; do
  stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
  stat=${stat##*) }
  [[ ${stat%% *} == [ZX] ]] || fail "daemon $pid still running after stop.sh: $(ps -o pid=,args= -p "$pid")"
done
echo "oar cluster_smoke: ok (job $id Terminated, exit_code $code = exit 3, seen $((job_ms - submit_ms)) ms after oarsub;" \
  "${#started[@]} daemons started in $start_ms ms, stopped in $(($(ms) - job_ms)) ms)"

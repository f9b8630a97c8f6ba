#!/usr/bin/env bash
# Stops the Grid Engine daemons that scripts/sge/start.sh started for STATE_DIR (by the
# pids it recorded, each checked to still be that daemon), with their jobs: SIGTERM,
# then SIGKILL after a deadline (sge_qmaster takes ~9 s to stop). Daemons it did not
# start are left alone. Idempotent.
#
#   scripts/sge/stop.sh STATE_DIR
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/sge/common.sh
. "$here/common.sh"
state=$(realpath -m -- "${1:?usage: stop.sh STATE_DIR}")
grace_s=${YARD_SGE_STOP_GRACE:-20}
log() { echo "sge/stop: $*" >&2; }
[[ -e $state/.yard-sge ]] || { log "no cluster of ours in $state: nothing to stop"; exit 0; }

stop_daemon() {
  local name=$1 program=$2 pid i
  pid=$(yard_sge_pid "$state/$name.pid" "$program") || { rm -f "$state/$name.pid"; return 0; }
  # The execd's jobs (its shepherds and what they run) go with it.
  local -a jobs=()
  [[ $program == sge_execd ]] && mapfile -t jobs < <(pgrep -P "$pid" || true)
  kill -TERM "$pid" "${jobs[@]}" 2>/dev/null || true
  for ((i = 0; i < grace_s * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$program ($pid) still there after ${grace_s} s: SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  for j in "${jobs[@]}"; do pkill -KILL -s "$j" 2>/dev/null || true; done
  rm -f "$state/$name.pid"
}
stop_daemon execd sge_execd
stop_daemon qmaster sge_qmaster
log "stopped (state $state)"

#!/usr/bin/env bash
# Stops the OAR daemons that scripts/oar/start.sh started for STATE_DIR (by the pids it
# recorded, each checked to still be that daemon), with what they run: SIGTERM, then
# SIGKILL after a deadline. Almighty first (with its modules), then OAR's sshd with the
# jobs of the node (their oarexec detaches from the sshd: found by the pid files OAR
# keeps for them), then PostgreSQL (pg_ctl stop -m fast) once nothing uses it. Daemons
# it did not start are left alone. Idempotent. STATE_DIR (the database) is kept.
#
#   scripts/oar/stop.sh STATE_DIR
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/oar/common.sh
. "$here/common.sh"
state=$(realpath -m -- "${1:?usage: stop.sh STATE_DIR}")
grace_s=${YARD_OAR_STOP_GRACE:-20}
log() { echo "oar/stop: $*" >&2; }
[[ -e $state/.yard-oar ]] || { log "no cluster of ours in $state: nothing to stop"; exit 0; }

# "PID START" of a live process (START: its start time, to tell it from a later one that
# got the same pid). A zombie counts as gone: this machine's init may be slow to reap.
ident() {
  local pid=$1 stat
  stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  # shellcheck disable=SC2086 # the fields of /proc/PID/stat after "PID (COMM) "
  set -- $stat
  [[ $1 != [ZX] ]] || return 1
  echo "$pid ${20}"
}
# Kills what is still the same process, for each "PID START" line of IDENTS.
kill_same() {
  local sig=$1 pid start
  while read -r pid start; do
    [[ -n $pid && $(ident "$pid") == "$pid $start" ]] && kill "-$sig" "$pid" 2>/dev/null
  done <<< "$2"
  return 0
}
# Whether any of IDENTS is still the same process.
any_alive() {
  local pid start
  while read -r pid start; do
    [[ -n $pid && $(ident "$pid") == "$pid $start" ]] && return 0
  done <<< "$1"
  return 1
}
# Waits up to SECONDS until none of IDENTS is alive.
wait_gone() {
  local i
  for ((i = 0; i < $1 * 10; i++)); do
    any_alive "$2" || return 0
    sleep 0.1
  done
  return 1
}
# The pids of the given processes and all their descendants, as "PID START" lines.
tree_idents() {
  local p
  for p in "$@" $(yard_oar_descendants "$@"); do ident "$p" || true; done
}

# SIGTERM to the daemon PID, to EXTRA pids and to all their descendants (recorded first:
# Almighty's modules ignore SIGTERM, and Almighty kills some of them itself; a job's
# processes may outlive their parent). SIGKILL to the daemon after the deadline, and to
# whatever of the others is left a second after the daemon's end.
stop_tree() {
  local what=$1 pid=$2 idents
  shift 2
  idents=$(tree_idents "$pid" "$@")
  kill_same TERM "$idents"
  wait_gone "$grace_s" "$(ident "$pid")" || log "$what ($pid) still there after ${grace_s} s: SIGKILL"
  wait_gone 1 "$idents" || kill_same KILL "$idents"
}

# Almighty and its modules (scheduler, bipbip launchers, ...).
if pid=$(yard_oar_almighty_pid "$state"); then
  stop_tree Almighty "$pid"
  log "stopped Almighty ($pid)"
fi
rm -f "$state/almighty.pid"

# OAR's sshd, its sessions and the jobs of the node: each oarexec (a perl with the
# argument OAREXEC, run as oar) detaches from its ssh session; OAR records its pid in
# OAR_RUNTIME_DIRECTORY. Its session holds the job's processes.
if pid=$(yard_oar_sshd_pid "$state"); then
  runtime=$(sed -n 's/^OAR_RUNTIME_DIRECTORY="\(.*\)"$/\1/p' "$yard_oar_conf" | tail -1)
  oarexecs=() jobs=()
  for f in "${runtime:-/tmp/oar_runtime}"/pid_of_oarexec_for_jobId_*; do
    j=$(yard_oar_pid "$f" /usr/bin/perl OAREXEC) || continue
    oarexecs+=("$j")
    sid=$(ps -o sid= -p "$j" | tr -d ' ')
    [[ $sid =~ ^[0-9]+$ ]] || continue
    mapfile -t -O "${#jobs[@]}" jobs < <(ps -e -o pid=,sid= | awk -v s="$sid" '$2 == s { print $1 }')
  done
  stop_tree "OAR's sshd" "$pid" "${oarexecs[@]}" "${jobs[@]}"
  log "stopped OAR's sshd ($pid)$( ((${#oarexecs[@]})) && echo " and the jobs of the node (oarexec ${oarexecs[*]})")"
fi
rm -f "$state/sshd.pid"

if pid=$(yard_oar_postgres_pid "$state"); then
  if ! (cd / && runuser -u postgres -- "$(yard_oar_pg_bin)/pg_ctl" -D "$state/pg" stop -m fast -w -t "$grace_s" >/dev/null); then
    log "PostgreSQL ($pid) still there after ${grace_s} s: SIGKILL"
    stop_tree PostgreSQL "$pid"
  fi
  log "stopped PostgreSQL ($pid)"
fi
rm -f "$state/postgres.pid"
log "stopped (state $state)"

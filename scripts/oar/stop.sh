#!/usr/bin/env bash
# Stops the OAR daemons that scripts/oar/start.sh started for STATE_DIR (by the pids it
# recorded, each checked to still be that daemon), with what they run: first the jobs of
# the node, the way oardel does (so that OAR records them as ended), then Almighty with
# its modules, OAR's sshd with its sessions, and PostgreSQL (pg_ctl stop -m fast) once
# nothing uses it. Each: SIGTERM, then SIGKILL after a deadline. Daemons it did not start
# are left alone. Idempotent. STATE_DIR (the database) is kept for the next start.
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

# The jobs of the node, if the node is ours, ended first as oardel does: Leon sends
# SIGTERM to the job's oarexec, which kills the job and reports to Almighty, which
# records the job as ended (Error) and cleans the node through the sshd. Otherwise the
# database would keep the job Running with nothing behind it, its cores taken, until
# OAR gives up on it. What is left of them (the oarexec, the processes of its session,
# which are the job's) gets SIGKILL.
if yard_oar_sshd_pid "$state" >/dev/null; then
  job_ids=() oarexecs=() members=()
  for f in "$(yard_oar_runtime_dir)"/pid_of_oarexec_for_jobId_*; do
    id=${f##*_}
    j=$(yard_oar_oarexec_pid "$id") || continue
    job_ids+=("$id")
    oarexecs+=("$j")
    sid=$(ps -o sid= -p "$j" | tr -d ' ')
    [[ $sid =~ ^[0-9]+$ ]] || continue
    mapfile -t -O "${#members[@]}" members < <(ps -e -o pid=,sid= | awk -v s="$sid" '$2 == s { print $1 }')
  done
  if ((${#oarexecs[@]})); then
    idents=$(tree_idents "${oarexecs[@]}" "${members[@]}")
    kill_same TERM "$(for j in "${oarexecs[@]}"; do ident "$j" || true; done)"
    recorded() {
      local id
      for id in "${job_ids[@]}"; do
        [[ $(oarstat -s -j "$id" 2>/dev/null) =~ :\ (Terminated|Error)$ ]] || return 1
      done
    }
    for ((i = 0; i < grace_s * 10; i++)); do
      yard_oar_listening "$yard_oar_server_port" || break
      recorded && break
      sleep 0.1
    done
    wait_gone 1 "$idents" || kill_same KILL "$idents"
    if recorded; then
      log "ended the jobs of the node: ${job_ids[*]}"
    else
      log "killed the jobs of the node: ${job_ids[*]} (OAR did not record their end)"
    fi
  fi
fi

# Almighty and its modules (scheduler, bipbip launchers, ...).
if pid=$(yard_oar_almighty_pid "$state"); then
  stop_tree Almighty "$pid"
  log "stopped Almighty ($pid)"
fi
rm -f "$state/almighty.pid"

# OAR's sshd and its sessions.
if pid=$(yard_oar_sshd_pid "$state"); then
  stop_tree "OAR's sshd" "$pid"
  log "stopped OAR's sshd ($pid)"
fi
rm -f "$state/sshd.pid"

# Last, as Almighty needs it to the end.
if pid=$(yard_oar_postgres_pid "$state"); then
  if ! (cd / && runuser -u postgres -- "$(yard_oar_pg_bin)/pg_ctl" -D "$state/pg" stop -m fast -w -t "$grace_s" >/dev/null); then
    log "PostgreSQL ($pid) still there after ${grace_s} s: SIGKILL"
    stop_tree PostgreSQL "$pid"
  fi
  log "stopped PostgreSQL ($pid)"
fi
rm -f "$state/postgres.pid"
log "stopped (state $state)"

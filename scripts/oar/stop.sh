#!/usr/bin/env bash
# Stops the OAR daemons that scripts/oar/start.sh started for STATE_DIR (by the pids it
# recorded, each checked to still be that daemon), with what they run: first the jobs of
# the node, which OAR itself ends (so that it records them as ended), then Almighty with
# its modules, OAR's sshd with its sessions, and PostgreSQL (pg_ctl stop -m fast) once
# nothing uses it. Each: SIGTERM, then SIGKILL after a deadline. Daemons it did not start
# are left alone. Idempotent. STATE_DIR (the database) is kept for the next start.
#
#   scripts/oar/stop.sh STATE_DIR
set -Eeuo pipefail  # -E: a command failing in a function is reported by the ERR trap too
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/oar/common.sh
. "$here/common.sh"
state=$(realpath -m -- "${1:?usage: stop.sh STATE_DIR}")
grace_s=${YARD_OAR_STOP_GRACE:-20}
log() { echo "oar/stop: $*" >&2; }
# A command that fails ends the script (set -e): say which, or the caller sees only a status.
trap 'log "failed (status $?) at line $LINENO: $BASH_COMMAND"' ERR
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
    # Gone between the look and the kill: nothing left to do (not a failure).
    [[ -n $pid && $(ident "$pid") == "$pid $start" ]] && { kill "-$sig" "$pid" 2>/dev/null || true; }
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

# The jobs of the node, if the node is ours, ended first the way OAR does when a node is
# taken out: the node is set Absent (no job starts on it any more, and OAR deletes the
# ones it runs: Leon sends SIGTERM to each job's oarexec, which kills the job and reports
# to Almighty, which records it as ended, Error, and cleans the node through the sshd).
# Otherwise the database would keep them Running with nothing behind them, their cores
# taken, until OAR gives up on them. start.sh sets the node Alive again. Each oarexec
# detaches from the ssh session that started it; its session holds the job's processes:
# SIGKILL to what is left of them after the deadline.
node_jobs() {
  local f j sid
  for f in "$(yard_oar_runtime_dir)"/pid_of_oarexec_for_jobId_*; do
    j=$(yard_oar_oarexec_pid "${f##*_}") || continue
    echo "$j"
    # The oarexec may end between the two looks (its job just ended): no session then.
    sid=$(ps -o sid= -p "$j" | tr -d ' ') || continue
    if [[ $sid =~ ^[0-9]+$ ]]; then
      ps -e -o pid=,sid= | awk -v s="$sid" '$2 == s { print $1 }'
    fi
  done
  return 0
}
# Whether OAR has a job started and not yet ended. (OAR's clients wait for ever for a
# database that does not answer, hence the timeouts.)
busy() {
  timeout 10 oarstat -J 2>/dev/null |
    grep -qE '"state" : "(toLaunch|Launching|Running|Finishing|Suspended|Resuming|toError)"'
}
if yard_oar_sshd_pid "$state" >/dev/null; then
  if yard_oar_listening "$yard_oar_server_port"; then
    running=$(node_jobs | wc -l)
    timeout 10 oarnodesetting -n -s Absent -h localhost >/dev/null 2>&1 || true
    deadline=$((SECONDS + grace_s))
    while ((SECONDS < deadline)) && yard_oar_listening "$yard_oar_server_port" && busy; do
      sleep 0.1
    done
    if busy; then
      log "OAR did not end the jobs of the node within ${grace_s} s: killing them"
    elif ((running)); then
      log "set the node Absent: OAR ended its jobs"
    fi
  fi
  mapfile -t pids < <(node_jobs)
  if ((${#pids[@]})); then
    idents=$(tree_idents "${pids[@]}")
    kill_same TERM "$idents"
    wait_gone 1 "$idents" || kill_same KILL "$idents"
    log "killed what was left of the jobs of the node (${pids[*]})"
  fi
fi

# Almighty and its modules (scheduler, bipbip launchers, ...).
if pid=$(yard_oar_almighty_pid "$state"); then
  stop_tree Almighty "$pid"
  # The pid file /usr/sbin/oar-server wrote for it.
  [[ $(head -1 /run/oar-server.pid 2>/dev/null) != "$pid" ]] || rm -f /run/oar-server.pid
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

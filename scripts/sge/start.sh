#!/usr/bin/env bash
# Starts the single-host Grid Engine test cluster (scripts/sge/install.sh first):
#
#   scripts/sge/start.sh [--clean] STATE_DIR
#
# --clean (a test run's first start): jobs an earlier run left in the cell are deleted.
#
# Configures the cell for tests, idempotently: this host as admin, submit and execution
# host (a host_aliases entry, since it resolves to 127.0.0.1, which reads back as
# "localhost"); a queue all.q of 4 slots with parallel environments smp and mpi; root may
# submit (min_uid 0); the scheduler runs every second and accounting is flushed every
# second. Then starts sge_qmaster and sge_execd unless they run already, and writes the
# pids of those it started into STATE_DIR (scripts/sge/stop.sh stops only those), and
# STATE_DIR/env.sh (SGE_ROOT, SGE_CELL, PATH to the direct binaries).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/sge/common.sh
. "$here/common.sh"
clean=0
if [[ ${1:-} == --clean ]]; then clean=1; shift; fi
state=$(realpath -m -- "${1:?usage: start.sh [--clean] STATE_DIR}")
mkdir -p "$state"
touch "$state/.yard-sge"
log() { echo "sge/start: $*" >&2; }
q() { "$yard_sge_bin/$1" "${@:2}"; }

host=$(hostname)
[[ -d $yard_sge_common ]] || { log "no cell in $yard_sge_common: run scripts/sge/install.sh"; exit 1; }
echo "$host" > "$yard_sge_common/act_qmaster"
echo "$host localhost" > "$yard_sge_common/host_aliases"

# shellcheck source=scripts/lib/wait.sh
. "$here/../lib/wait.sh"

# Starts sge_qmaster unless one runs, and waits until it answers. A qmaster that was
# shutting down when we looked (the previous cluster's, stopped a moment ago) answers
# once and then refuses connections: the configuration below is retried on a running one.
start_qmaster() {
  if pgrep -x sge_qmaster >/dev/null; then
    log "sge_qmaster runs already (not ours: left running at stop)"
  else
    local qmaster_pidfile=/var/spool/gridengine/qmaster/qmaster.pid
    rm -f "$qmaster_pidfile"
    su -s /bin/sh sgeadmin -c "SGE_ROOT=$SGE_ROOT SGE_CELL=$SGE_CELL $yard_sge_bin/sge_qmaster"
    wait_for 30 yard_sge_pid "$qmaster_pidfile" sge_qmaster || { log "sge_qmaster did not start"; return 1; }
    cp "$qmaster_pidfile" "$state/qmaster.pid"
  fi
  wait_for 30 q qconf -sh || { log "sge_qmaster does not answer"; return 1; }
}

# The cell's configuration for tests (each step does nothing if already so). Every
# step that must succeed says so with `|| return 1`: `set -e` does not apply inside a
# function called as a condition.
configure_cell() {
  local rule pe
  q qconf -ah "$host" >/dev/null 2>&1 || true
  q qconf -as "$host" >/dev/null 2>&1 || true
  if ! q qconf -se "$host" >/dev/null 2>&1; then
    printf 'hostname %s\nload_scaling NONE\ncomplex_values NONE\nuser_lists NONE\nxuser_lists NONE\nprojects NONE\nxprojects NONE\nusage_scaling NONE\nreport_variables NONE\n' \
      "$host" > "$tmp/exec"
    q qconf -Ae "$tmp/exec" >/dev/null || return 1
  fi
  if ! q qconf -shgrp @allhosts >/dev/null 2>&1; then
    printf 'group_name @allhosts\nhostlist %s\n' "$host" > "$tmp/hg"
    q qconf -Ahgrp "$tmp/hg" >/dev/null || return 1
  fi
  for pe in smp mpi; do
    q qconf -sp "$pe" >/dev/null 2>&1 && continue
    rule='$pe_slots'
    [[ $pe == mpi ]] && rule='$round_robin'
    printf 'pe_name %s\nslots 999\nuser_lists NONE\nxuser_lists NONE\nstart_proc_args NONE\nstop_proc_args NONE\nallocation_rule %s\ncontrol_slaves TRUE\njob_is_first_task FALSE\nurgency_slots min\naccounting_summary FALSE\nqsort_args NONE\n' \
      "$pe" "$rule" > "$tmp/pe"
    q qconf -Ap "$tmp/pe" >/dev/null || return 1
  done
  if ! q qconf -sq all.q >/dev/null 2>&1; then
    q qconf -sq > "$tmp/template" 2>/dev/null || return 1
    sed -e 's/^qname .*/qname all.q/' -e 's/^hostlist .*/hostlist @allhosts/' \
      -e 's/^slots .*/slots 4/' -e 's/^pe_list .*/pe_list smp mpi/' \
      -e 's/^shell_start_mode .*/shell_start_mode unix_behavior/' "$tmp/template" > "$tmp/q"
    q qconf -Aq "$tmp/q" >/dev/null || return 1
  fi
  # A test cell runs its jobs however busy the machine is: with the default load
  # threshold (np_load_avg=1.75) a 2-core machine compiling or running other tests puts
  # the queue in alarm and its jobs wait for ever.
  q qconf -sq all.q > "$tmp/all.q" || return 1
  if [[ $(awk '$1 == "load_thresholds" { print $2 }' "$tmp/all.q") != NONE ]]; then
    q qconf -rattr queue load_thresholds NONE all.q >/dev/null || return 1
  fi
  q qconf -sconf global > "$tmp/global.now" || return 1
  sed -e 's/^min_uid .*/min_uid 0/' -e 's/^min_gid .*/min_gid 0/' \
    -e 's/flush_time=[0-9:]*/flush_time=00:00:01/' "$tmp/global.now" > "$tmp/global"
  (cd "$tmp" && q qconf -Mconf global >/dev/null 2>&1) || { log "cannot set the global configuration"; return 1; }
  q qconf -ssconf > "$tmp/sched.now" || return 1
  sed -e 's/^schedule_interval .*/schedule_interval 0:0:1/' "$tmp/sched.now" > "$tmp/sched"
  q qconf -Msconf "$tmp/sched" >/dev/null 2>&1 || { log "cannot set the scheduler configuration"; return 1; }
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
configured=0
for attempt in 1 2 3; do
  start_qmaster || exit 1
  if configure_cell; then configured=1; break; fi
  log "configuring the cell failed (attempt $attempt); retrying on a running sge_qmaster; the qmaster's last messages:"
  tail -n 5 /var/spool/gridengine/qmaster/messages >&2 || true
  wait_for 30 bash -c '! pgrep -x sge_qmaster' || wait_for 10 q qconf -sh || true
done
((configured)) || { log "could not configure the cell"; exit 1; }

if pgrep -x sge_execd >/dev/null; then
  log "sge_execd runs already (not ours: left running at stop)"
else
  # Its spool directory is named as the host resolves (here "localhost").
  rm -f /var/spool/gridengine/execd/*/execd.pid
  "$yard_sge_bin/sge_execd"
  execd_pidfile() { ls /var/spool/gridengine/execd/*/execd.pid 2>/dev/null | head -1; }
  execd_started() { yard_sge_pid "$(execd_pidfile)" sge_execd; }
  wait_for 30 execd_started || { log "sge_execd wrote no pid file"; exit 1; }
  cp "$(execd_pidfile)" "$state/execd.pid"
fi
# A run cut short (its cell stopped while a job started) leaves that job in the spool:
# started again now, its lost shepherd puts the queue in error for good ("queue all.q
# marked QERROR as result of job N's failure"). The cell is the tests' own: at a run's
# first start (--clean) such jobs are deleted, and an error state one left is cleared
# while the queue comes up. (A start within a run, after a qmaster outage, keeps the
# run's jobs.)
((clean)) && { q qdel -f -u '*' >/dev/null 2>&1 || true; }
# Ready when the queue instance is there and not in an error or unknown state.
ready() { q qstat -f | awk -v h="all.q@$host" '$1 == h && $6 !~ /[uEe]/ { ok = 1 } END { exit !ok }'; }
ready_or_cleared() {
  ready && return 0
  if q qstat -f | awk -v h="all.q@$host" '$1 == h && $6 ~ /E/ { found = 1 } END { exit !found }'; then
    log "all.q@$host is in error (a job of an earlier run): clearing it"
    q qmod -c "all.q@$host" >/dev/null 2>&1 || true
  fi
  return 1
}
wait_for 60 ready_or_cleared || { log "the queue all.q@$host did not come up"; q qstat -f >&2; exit 1; }
cat > "$state/env.sh" <<EOF2
export SGE_ROOT=$SGE_ROOT SGE_CELL=$SGE_CELL
export PATH=$yard_sge_bin:\$PATH
EOF2
log "Grid Engine up on $host (state $state)"

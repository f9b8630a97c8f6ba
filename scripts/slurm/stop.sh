#!/usr/bin/env bash
# Stops the test cluster that scripts/slurm/start.sh started in STATE_DIR:
#
#   scripts/slurm/stop.sh [STATE_DIR]      (default STATE_DIR: /tmp/yard-slurm)
#
# Only processes of that cluster are touched: the daemons named by its pid files (each
# checked to still be that daemon of that state dir, since pids get reused), and the
# slurmstepd of its jobs with the jobs' processes. Each gets SIGTERM, then SIGKILL if it
# is still there after a deadline. Leaves the state directory in place (start.sh re-uses
# it); idempotent: with nothing running it does nothing.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/slurm/common.sh
. "$here/common.sh"

state=$(realpath -m -- "${1:-/tmp/yard-slurm}")
# Seconds a group of processes gets between SIGTERM and SIGKILL.
grace_s=${YARD_SLURM_STOP_GRACE:-10}
t_start=$(yard_slurm_ms)

log() { echo "slurm/stop: $*" >&2; }

if [[ ! -e $state/.yard-slurm ]]; then
  log "no cluster of ours in $state: nothing to stop"
  exit 0
fi

# Running, as opposed to gone or a zombie waiting for a parent that may never reap it.
alive() {
  local st
  st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n $st && $st != Z ]]
}

# Sends SIGTERM to every pid given, waits until all are gone, SIGKILLs the rest after
# the grace period, and waits for those too.
terminate() {
  local -a pids=("$@") left
  local p deadline killed=0
  ((${#pids[@]})) || return 0
  kill -TERM "${pids[@]}" 2>/dev/null || true
  deadline=$(($(yard_slurm_ms) + grace_s * 1000))
  while :; do
    left=()
    for p in "${pids[@]}"; do alive "$p" && left+=("$p"); done
    ((${#left[@]})) || return 0
    if (($(yard_slurm_ms) > deadline)); then
      if ((killed)); then
        log "still running after SIGKILL: ${left[*]}"
        return 1
      fi
      log "still running ${grace_s}s after SIGTERM, sending SIGKILL: ${left[*]}"
      kill -KILL "${left[@]}" 2>/dev/null || true
      killed=1
      deadline=$(($(yard_slurm_ms) + 5000))
    fi
    sleep 0.05
  done
}

# Pids of the daemons in the given pid files that are really ours.
daemon_pids() {
  local f name pid
  for f in "$@"; do
    [[ -e $f ]] || continue
    name=$(basename "$f" .pid)
    name=${name%%-*} # slurmd-c1 -> slurmd
    if pid=$(yard_slurm_pid "$f" "$name" "$state"); then
      echo "$pid"
    fi
  done
}

# The slurmstepd of this cluster's jobs (they outlive slurmd). A slurmstepd carries
# slurmd's environment, hence our SLURM_CONF.
step_daemons() {
  local p
  # Candidates by name only; each is then checked to be of this cluster.
  for p in $(pgrep -x slurmstepd || true); do
    if yard_slurm_ours "$p" slurmstepd "$state"; then echo "$p"; fi
  done
}

# All descendants of the given pids: the jobs' processes.
descendants() {
  (($#)) || return 0
  # Breadth-first walk of the process tree.
  ps -e -o pid=,ppid= | awk -v roots="$*" '
    { pid[NR] = $1; parent[NR] = $2 }
    END {
      n = split(roots, q, " "); for (i = 1; i <= n; i++) seen[q[i]] = 1
      m = n
      for (h = 1; h <= m; h++)
        for (j = 1; j <= NR; j++)
          if (parent[j] == q[h] && !(pid[j] in seen)) { seen[pid[j]] = 1; q[++m] = pid[j] }
      for (i = n + 1; i <= m; i++) print q[i]
    }'
}

# Processes of this cluster's jobs that left the step daemon's tree (double fork,
# setsid): they carry the job's SLURM_JOB_ID and, from the submitter's environment, our
# SLURM_CONF. The caller and its ancestors are spared: they may have sourced env.sh.
job_strays() {
  local f p q=$$ spare=" $$ "
  while q=$(awk '{print $4}' "/proc/$q/stat" 2>/dev/null) && ((q > 1)); do spare+="$q "; done
  for f in $(grep -lzxF "SLURM_CONF=$state/etc/slurm.conf" /proc/[0-9]*/environ 2>/dev/null || true); do
    p=${f#/proc/}
    p=${p%/environ}
    [[ $spare == *" $p "* ]] && continue
    grep -qz '^SLURM_JOB_ID=' "$f" 2>/dev/null || continue
    if alive "$p"; then echo "$p"; fi
  done
}

shopt -s nullglob
stopped=0
rc=0
# Controller and node daemons first, so that nothing new is launched; the jobs' step
# daemons and processes with them. Then accounting, its database, and munge last, as
# every other daemon authenticates through it while shutting down.
# Jobs get what Slurm gives them (KillWait=2): SIGTERM, SIGKILL 2 s later. The daemons
# get their SIGTERM at the same time and up to the full grace period.
mapfile -t daemons < <(daemon_pids "$state/run/slurmctld.pid" "$state"/run/slurmd-*.pid)
mapfile -t steps < <(step_daemons)
mapfile -t group < <(descendants "${steps[@]}"; job_strays)
mapfile -t group < <(printf '%s\n' "${group[@]}" | sort -u | grep .)
kill -TERM "${daemons[@]}" 2>/dev/null || true
daemon_grace=$grace_s
grace_s=2
terminate "${group[@]}" || rc=1
grace_s=$daemon_grace
terminate "${daemons[@]}" || rc=1
stopped=$((stopped + ${#daemons[@]} + ${#group[@]}))
# slurmstepd ignores SIGTERM: SIGKILL the step daemons, and whatever job process was
# forked meanwhile, or appeared while slurmd was stopping.
mapfile -t steps < <(step_daemons)
mapfile -t group < <(descendants "${steps[@]}"; job_strays)
group+=("${steps[@]}")
if ((${#group[@]})); then
  kill -KILL "${group[@]}" 2>/dev/null || true
  grace_s=5
  terminate "${group[@]}" || rc=1
  stopped=$((stopped + ${#group[@]}))
fi
for d in slurmdbd mariadbd munged; do
  mapfile -t group < <(daemon_pids "$state/run/$d.pid")
  terminate "${group[@]}" || rc=1
  stopped=$((stopped + ${#group[@]}))
done
rm -f "$state"/run/*.pid

t_end=$(yard_slurm_ms)
log "stopped $stopped process(es) in $(((t_end - t_start) / 1000)).$(printf '%03d' $(((t_end - t_start) % 1000)))s ($state)"
exit "$rc"

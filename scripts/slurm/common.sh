# Helpers shared by scripts/slurm/start.sh and stop.sh. Sourced, not run.
# shellcheck shell=bash

# The daemons of one test cluster, in the order they are started. Each has a pid file
# $state/run/<name>.pid (slurmd: one per node, slurmd-<node>.pid).
# shellcheck disable=SC2034 # used by the scripts that source this file
yard_slurm_nodes=(c1 c2 g1)

# Succeeds if PID is alive, is the daemon NAME, and belongs to the cluster in STATE.
# A pid file may outlive its daemon and the pid may have been reused since, so the
# process must also name our state directory in its arguments or in its SLURM_CONF.
yard_slurm_ours() {
  local pid=$1 name=$2 state=$3 comm cmd env
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
  # comm is cut to 15 characters; Debian's binaries may also be reached via alternatives.
  [[ $comm == "${name:0:15}"* ]] || return 1
  cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") || return 1
  # A zombie has an empty command line: it is not running any more.
  [[ -n $cmd ]] || return 1
  [[ $cmd == *"$state/"* ]] && return 0
  env=$(tr '\0' '\n' 2>/dev/null <"/proc/$pid/environ") || return 1
  [[ $'\n'$env$'\n' == *$'\n'"SLURM_CONF=$state/etc/slurm.conf"$'\n'* ]]
}

# Prints the pid in pid file FILE if that process is the live daemon NAME of STATE.
yard_slurm_pid() {
  local file=$1 name=$2 state=$3 pid
  [[ -r $file ]] || return 1
  read -r pid 2>/dev/null <"$file" || return 1
  yard_slurm_ours "$pid" "$name" "$state" || return 1
  echo "$pid"
}

# Milliseconds since the epoch (integer arithmetic for deadlines).
yard_slurm_ms() {
  local t=${EPOCHREALTIME/[.,]/}
  echo "$((t / 1000))"
}

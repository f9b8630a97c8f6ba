# Shared by scripts/sge/*.sh and its tests: the cell and the direct binaries (the
# /usr/bin/q* wrappers add ~140 ms per call).
# shellcheck shell=bash
export SGE_ROOT=/var/lib/gridengine SGE_CELL=default
yard_sge_bin=/usr/lib/gridengine
yard_sge_common=$SGE_ROOT/$SGE_CELL/common

# The pid in FILE if that process is alive and runs PROGRAM (pids get reused).
yard_sge_pid() {
  local file=$1 program=$2 pid
  pid=$(cat "$file" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  [[ $(readlink "/proc/$pid/exe" 2>/dev/null) == "$yard_sge_bin/$program" ]] || return 1
  echo "$pid"
}

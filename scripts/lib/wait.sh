# `wait_for SECONDS CMD...`: runs CMD every 0.1 s until it succeeds (0) or SECONDS pass
# (1); its output is dropped. Sourced by the cluster scripts, not run.
# shellcheck shell=bash
wait_for() {
  local seconds=$1 i
  shift
  for ((i = 0; i < seconds * 10; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

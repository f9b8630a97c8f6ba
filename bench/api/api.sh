#!/usr/bin/env bash
# Benchmark of the daemon's API (protocol/queries.h), in one run:
#   - with 100,000 jobs in the store: `yard status` (first page), `yard status ID`,
#     `yard status --json` (all), and a `yard watch` that replays the whole event log,
#     each beside the same read done directly on the store (sqlite3, read-only), the way
#     the CLI read it before it went through the daemon;
#   - `yard submit`, one process per job, beside a /bin/true process: its jobs waiting
#     (the submission alone), then running at once (on 2 cores, beside the jobs);
#   - the daemon's CPU per job on a 10,000-element array with no watcher, 100 reading
#     watchers, and 1,000 watchers that never read (and its RSS then).
# Usage: bench/api/api.sh [JOBS]   (default 100000; needs a release build)
set -euo pipefail
cd "$(dirname "$0")/../.."
JOBS=${1:-100000}
ARRAY=${ARRAY:-10000}
yard=$PWD/build/src/cli/yard
[ -x "$yard" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }
work=$(mktemp -d)
export HOME=$work XDG_RUNTIME_DIR=$work/run XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME/switchyard"
holder=
cleanup() {
  [ -n "$holder" ] && kill "$holder" 2>/dev/null || true
  "$yard" server stop --kill-jobs >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)"
store=$XDG_STATE_HOME/switchyard/store.db
now() { echo "${EPOCHREALTIME/./}"; }
# The median wall time of 5 runs of a command, in milliseconds.
median_ms() {
  local t=() i t0
  for i in 1 2 3 4 5; do
    t0=$(now); "$@" >/dev/null; t+=($(( $(now) - t0 )))
  done
  printf '%s\n' "${t[@]}" | sort -n | awk 'NR == 3 { printf "%.1f", $1 / 1000 }'
}
hz=$(getconf CLK_TCK)
cpu_of() { awk -v hz="$hz" '{ sub(/^.*\) /, ""); printf "%.3f", ($12 + $13) / hz }' "/proc/$1/stat"; }
rss_mb() { awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

echo "bench: filling the store with $JOBS jobs" >&2
"$yard" server start >/dev/null
pid=$("$yard" server status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])')
first=$("$yard" submit --array "1-$JOBS" -o /dev/null -- true)
"$yard" wait "$first" >/dev/null
mid=$((first + JOBS / 2))
q() { sqlite3 -readonly "$store" "$@"; }

printf '%-34s %12s %12s %8s\n' "with $JOBS jobs (median of 5)" "yard (ms)" "direct (ms)" "ratio"
row() { printf '%-34s %12s %12s %8s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"; }
a=$(median_ms "$yard" status --limit 50); b=$(median_ms q "SELECT * FROM jobs ORDER BY id LIMIT 50")
row "status, first page (50)" "$a" "$b"
a=$(median_ms "$yard" status "$mid"); b=$(median_ms q "SELECT * FROM jobs WHERE id = $mid")
row "status ID" "$a" "$b"
a=$(median_ms "$yard" status --json); b=$(median_ms q -json "SELECT * FROM jobs ORDER BY id")
row "status --json, all" "$a" "$b"
events=$(q "SELECT count(*) FROM events")
a=$(median_ms "$yard" watch --json --no-follow); b=$(median_ms q -json "SELECT * FROM events ORDER BY id")
row "watch, whole log ($events events)" "$a" "$b"

echo
n=300
# Wall time per call, and CPU per call of the process itself (this shell's children).
children_cpu() { awk -v hz="$hz" '{ sub(/^.*\) /, ""); printf "%.6f", ($14 + $15) / hz }' "/proc/$1/stat"; }
per_call() {  # wall microseconds, cpu seconds -> "wall_ms cpu_ms"
  awk -v u="$1" -v c="$2" -v n=$n 'BEGIN { printf "%.2f %.2f\n", u / n / 1000, c * 1000 / n }'
}
measure() {
  local t0 c0 me=$BASHPID  # this (sub)shell: its waited-for children's CPU
  c0=$(children_cpu "$me"); t0=$(now)
  for _ in $(seq $n); do "$@" >/dev/null; done
  per_call $(( $(now) - t0 )) "$(awk -v a="$c0" -v b="$(children_cpu "$me")" 'BEGIN { print b - a }')"
}
# The submission alone: jobs that wait on a sleeping one, so that the machine (2 cores)
# is not running the jobs submitted while the next ones are; then jobs that run at once.
sleeper=$("$yard" submit -o /dev/null -- sleep 3600)
read -r pend_ms pend_cpu < <(measure "$yard" submit -o /dev/null -d "afterany:$sleeper" -- true)
read -r true_ms true_cpu < <(measure /bin/true)
read -r ver_ms ver_cpu < <(measure "$yard" --version)
"$yard" cancel "$sleeper" >/dev/null
"$yard" wait "$(("$sleeper" + n))" >/dev/null || true
read -r sub_ms sub_cpu < <(measure "$yard" submit -o /dev/null -- true)
printf '%-34s %12s %12s %8s\n' "one process per call ($n calls)" "yard (ms)" "true (ms)" "ratio"
row "yard submit (job waits), wall" "$pend_ms" "$true_ms"
row "yard submit (job waits), own CPU" "$pend_cpu" "$true_cpu"
row "yard submit (job runs), wall" "$sub_ms" "$true_ms"
row "yard submit (job runs), own CPU" "$sub_cpu" "$true_cpu"
row "yard --version, wall" "$ver_ms" "$true_ms"
"$yard" wait "$("$yard" submit -o /dev/null -- true)" >/dev/null

# The daemon's CPU per job of an array of $ARRAY, with watchers held by watchers.py.
array_cpu_us() {
  local c0 id
  c0=$(cpu_of "$pid")
  id=$("$yard" submit --array "1-$ARRAY" -o /dev/null -- true)
  "$yard" wait "$id" >/dev/null
  awk -v a="$c0" -v b="$(cpu_of "$pid")" -v n="$ARRAY" 'BEGIN { printf "%.1f", (b - a) * 1e6 / n }'
}
with_watchers() {  # N [--read]: starts the holder, waits for "ready"
  local since
  since=$("$yard" server status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["last_event"])')
  coproc HOLD { python3 bench/api/watchers.py "$1" "$since" "${2:-}"; }
  holder=$HOLD_PID
  read -r _ <&"${HOLD[0]}"
}
stop_watchers() { kill "$holder" 2>/dev/null || true; wait "$holder" 2>/dev/null || true; holder=; }
echo
printf '%-34s %12s %12s %8s\n' "daemon CPU per job, array of $ARRAY" "us/job" "no watcher" "ratio"
base=$(array_cpu_us)
row "no watcher" "$base" "$base"
with_watchers 100 --read; w100=$(array_cpu_us); stop_watchers
row "100 watchers reading" "$w100" "$base"
with_watchers 1000; w1000=$(array_cpu_us); rss=$(rss_mb "$pid"); stop_watchers
row "1,000 watchers never reading" "$w1000" "$base"
echo "daemon RSS with 1,000 unread watchers: $rss MiB; still answering: $("$yard" status --limit 1 >/dev/null && echo yes)"

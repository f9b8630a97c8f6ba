#!/usr/bin/env bash
# Benchmark of the local backend, in one run against the machine's own limits:
#   - N trivial jobs (/bin/true, one core each, one array) through the daemon, from
#     submit to last completion, against xargs -P<cores> (the fork/exec limit), GNU
#     parallel and task-spooler;
#   - submit latency p50/p99 (the whole `yard submit` command, as a user sees it);
#   - daemon RSS with 100,000 finished jobs in the store.
# Usage: bench/local_throughput.sh [N]   (default 10000; needs a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000}
SMALL=$(( N < 2000 ? N : 2000 ))   # parallel and task-spooler are slow: fewer jobs, same rate
yard=$PWD/build/src/cli/yard
[ -x "$yard" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }
cores=$(nproc)

work=$(mktemp -d)
export HOME=$work XDG_RUNTIME_DIR=$work/run XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_RUNTIME_DIR"
cleanup() {
  "$yard" server stop --kill-jobs >/dev/null 2>&1 || true
  [ -n "${TS_SOCKET:-}" ] && tsp -K >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

now() { echo "${EPOCHREALTIME/./}"; }   # microseconds, no fork
rate() { awk -v n="$1" -v us="$2" 'BEGIN { printf "%.0f", n / (us / 1e6) }'; }
secs() { awk -v us="$1" 'BEGIN { printf "%.2f", us / 1e6 }'; }

echo "bench: $N jobs, $cores cores" >&2

# CPU seconds (user + system) of a process, or of this shell's waited-for children.
hz=$(getconf CLK_TCK)
cpu_of() { awk -v hz="$hz" '{ sub(/^.*\) /, ""); printf "%.3f", ($12 + $13) / hz }' "/proc/$1/stat"; }
children_cpu() { awk -v hz="$hz" '{ sub(/^.*\) /, ""); printf "%.3f", ($14 + $15) / hz }' /proc/$$/stat; }
per_job_ms() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.3f", (b - a) * 1000 / n }'; }

# xargs: the fork/exec limit of the machine.
c0=$(children_cpu)
t0=$(now); seq "$N" | xargs -P "$cores" -I{} /bin/true; t1=$(now)
xargs_cpu_ms=$(per_job_ms "$c0" "$(children_cpu)" "$N")
xargs_us=$((t1 - t0)); xargs_rate=$(rate "$N" "$xargs_us")

# GNU parallel.
t0=$(now); seq "$SMALL" | parallel --will-cite -j "$cores" /bin/true; t1=$(now)
par_us=$((t1 - t0)); par_rate=$(rate "$SMALL" "$par_us")

# task-spooler: one `tsp` call per job, as its users submit.
export TS_SOCKET=$work/ts.sock TS_MAXFINISHED=$((SMALL + 10))
tsp -S "$cores" >/dev/null
t0=$(now)
for _ in $(seq "$SMALL"); do tsp -n /bin/true >/dev/null; done
while [ "$(tsp | awk 'NR > 1 && $2 != "finished"' | wc -l)" -gt 0 ]; do sleep 0.05; done
t1=$(now)
ts_us=$((t1 - t0)); ts_rate=$(rate "$SMALL" "$ts_us")

# yard: one array of N elements, submit to last completion.
mkdir -p "$XDG_CONFIG_HOME/switchyard"
"$yard" server start >/dev/null
daemon=$("$yard" server status --json | sed -n 's/.*"pid":\([0-9]*\).*/\1/p')
host=$(pgrep -P "$daemon" -f __job-host | head -1)
d0=$(cpu_of "$daemon"); h0=$(cpu_of "$host")
t0=$(now)
id=$("$yard" submit -a "0-$((N - 1))" -o /dev/null -- /bin/true)
"$yard" wait --timeout 3600 "$id" >/dev/null
t1=$(now)
yard_us=$((t1 - t0)); yard_rate=$(rate "$N" "$yard_us")
daemon_cpu_ms=$(per_job_ms "$d0" "$(cpu_of "$daemon")" "$N")
host_cpu_ms=$(per_job_ms "$h0" "$(cpu_of "$host")" "$N")

# Submit latency: 300 separate `yard submit` commands.
lat=()
for _ in $(seq 300); do
  t0=$(now); "$yard" submit -o /dev/null -- /bin/true >/dev/null; t1=$(now)
  lat+=($((t1 - t0)))
done
sorted=$(printf '%s\n' "${lat[@]}" | sort -n)
p50=$(echo "$sorted" | awk '{ a[NR] = $1 } END { printf "%.2f", a[int(NR * 0.50)] / 1000 }')
p99=$(echo "$sorted" | awk '{ a[NR] = $1 } END { printf "%.2f", a[int(NR * 0.99)] / 1000 }')

# Daemon RSS with 100,000 finished jobs: add finished jobs straight into the store while
# the daemon is stopped, then start it, make it work, and read its peak RSS.
"$yard" server stop >/dev/null
have=$(sqlite3 "$XDG_STATE_HOME/switchyard/store.db" "SELECT COUNT(*) FROM jobs")
extra=$((100000 - have))
if [ "$extra" -gt 0 ]; then
  sqlite3 "$XDG_STATE_HOME/switchyard/store.db" <<SQL
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $extra)
INSERT INTO jobs(uid, spec_id, name, backend, cpus, mem_bytes, gpus, walltime_s, state, submit_time,
                 start_time, end_time)
SELECT printf('ydbench%011d', i), 1, 'true', 'local', 1, 0, 0, 0, 'COMPLETED', 0, 0, 0 FROM n;
SQL
fi
total=$(sqlite3 "$XDG_STATE_HOME/switchyard/store.db" "SELECT COUNT(*) FROM jobs")
"$yard" server start >/dev/null
pid=$("$yard" server status --json | sed -n 's/.*"pid":\([0-9]*\).*/\1/p')
id=$("$yard" submit -a 0-999 -o /dev/null -- /bin/true)
"$yard" wait "$id" >/dev/null
"$yard" status >/dev/null
rss_kb=$(awk '/VmHWM/ { print $2 }' "/proc/$pid/status")
rss_mb=$(awk -v k="$rss_kb" 'BEGIN { printf "%.1f", k / 1024 }')

pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f%%", 100 * a / b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }'; }
echo
echo "| runner | jobs | seconds | jobs/s | yard vs it |"
echo "|---|---:|---:|---:|---:|"
echo "| yard (array, daemon) | $N | $(secs "$yard_us") | $yard_rate | - |"
echo "| xargs -P$cores | $N | $(secs "$xargs_us") | $xargs_rate | $(pct "$yard_rate" "$xargs_rate") of its rate (target >= 50%) |"
echo "| GNU parallel -j$cores | $SMALL | $(secs "$par_us") | $par_rate | $(ratio "$yard_rate" "$par_rate") (target >= 5x) |"
echo "| task-spooler -S$cores | $SMALL | $(secs "$ts_us") | $ts_rate | $(ratio "$yard_rate" "$ts_rate") |"
echo
echo "| measure | value | target |"
echo "|---|---:|---:|"
echo "| yard submit latency p50 | ${p50} ms | |"
echo "| yard submit latency p99 | ${p99} ms | |"
echo "| daemon peak RSS, $total jobs in store | ${rss_mb} MB | < 100 MB |"
echo
echo "| CPU per job (user + system) | ms |"
echo "|---|---:|"
echo "| xargs run: /bin/true, its fork and exec, xargs | $xargs_cpu_ms |"
echo "| yard daemon | $daemon_cpu_ms |"
echo "| yard job host (without the jobs themselves) | $host_cpu_ms |"

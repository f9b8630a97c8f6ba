#!/usr/bin/env bash
# OAR backend benchmark table, in one run:
#   - tracking 1,000 and 10,000 queued jobs: OAR commands per status cycle and the time
#     to parse and apply one cycle (bench/poll/poll_bench, no cluster);
#   - on a real OAR 2.5.9 (started here, stopped at the end, 4 cores), as the
#     unprivileged user yardtest (OAR refuses root):
#     * QUEUED jobs (default 1,000) waiting behind a running one (-a): the commands yard
#       ran per status cycle over 30 s;
#     * N trivial jobs through `yard submit --backend oar` + `yard wait`, against the same
#       N through plain `oarsub` in a loop, each from the first submit until OAR has
#       ended them all.
# Usage: bench/oar/run.sh [N]   (default 200; needs root and a release build)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD  # the run moves to its scratch directory: paths from here on are absolute
N=${1:-200}
QUEUED=${QUEUED:-1000}
bench=$PWD/build/bench/poll/poll_bench
[ -x "$PWD/build/src/cli/yard" ] && [ -x "$bench" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }
user=yardtest

echo "| jobs tracked (queued) | OAR commands per cycle | per minute (default 1 s cycle) | parse + apply one cycle |"
echo "|---:|---:|---:|---:|"
for n in 1000 10000; do
  read -r jobs per_cycle apply_ms per_min < <("$bench" oar "$n")
  echo "| $jobs | $per_cycle | $per_min | ${apply_ms} ms |"
done

state=$(mktemp -d /tmp/yard-bench-oar.XXXXXX)
work=$(mktemp -d /tmp/yard-bench-home.XXXXXX)
chmod 755 "$state"
bash "$root/scripts/oar/install.sh" >/dev/null
cp "$root/build/src/cli/yard" "$work/yard"
chown -R "$user:" "$work"
as_user() { (cd "$work" && runuser -u "$user" -- "$@"); }
ystate() { as_user env HOME="$work" XDG_RUNTIME_DIR="$work/run" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" "$work/yard" "$@"; }
cleanup() {
  ystate server stop >/dev/null 2>&1 || true
  bash "$root/scripts/oar/stop.sh" "$state" >/dev/null 2>&1 || true
  rm -rf "$state" "$work"
}
trap cleanup EXIT
bash "$root/scripts/oar/start.sh" "$state" >/dev/null 2>&1
as_user mkdir -p "$work/run" "$work/config/switchyard"
cd "$work"
now() { echo "${EPOCHREALTIME/./}"; }
secs() { awk -v us="$1" 'BEGIN { printf "%.1f", us / 1e6 }'; }
# How many of the user's jobs named $1* OAR has ended.
ended() {
  as_user oarstat -J --sql "job_name LIKE '$1%' AND state IN ('Terminated', 'Error')" 2>/dev/null |
    python3 -c 'import json,sys; t=sys.stdin.read().strip(); print(len(json.loads(t)) if t else 0)'
}
calls() { ystate server status --json | python3 -c 'import json,sys; c=json.load(sys.stdin)["oar_calls"]; print(c["poll"], c["history"] + c["find"], c["failed"])'; }
active() { ystate status --json | python3 -c 'import json,sys; print(" ".join(str(j["id"]) for j in json.load(sys.stdin) if j["state"] in ("PENDING", "RUNNING")))'; }
delete_all() { as_user oardel --sql "job_user = '$user' AND state NOT IN ('Terminated', 'Error')" >/dev/null 2>&1 || true; }

# QUEUED jobs waiting behind one that runs.
ystate server start >/dev/null
blocker=$(ystate submit --backend oar -o /dev/null -- sleep 3600)
for _ in $(seq "$QUEUED"); do ystate submit --backend oar -o /dev/null -d "afterany:$blocker" -- true >/dev/null; done
until [ "$(ystate status --json | python3 -c 'import json,sys; print(sum(1 for j in json.load(sys.stdin) if j.get("native_id")))')" -ge $((QUEUED + 1)) ]; do sleep 1; done
read -r p0 o0 f0 < <(calls)
sleep 30  # the measurement window
read -r p1 o1 f1 < <(calls)
cycles=$((p1 - p0)); others=$((o1 - o0))
echo
echo "| on the real cluster: $QUEUED jobs waiting, 30 s | status cycles | other OAR calls | commands per cycle | failed calls |"
echo "|---|---:|---:|---:|---:|"
echo "| yard (default settings) | $cycles | $others | $(awk -v c="$cycles" -v o="$others" 'BEGIN { printf "%.2f", (c + o) / c }') | $((f1 - f0)) |"
# shellcheck disable=SC2046 # one id a word
ystate cancel $(active) >/dev/null 2>&1 || true
ystate server stop >/dev/null
delete_all
until [ -z "$(as_user oarstat -u "$user" 2>/dev/null)" ]; do sleep 1; done

# Plain oarsub in a loop.
tag=bench-oarsub-$$
t0=$(now)
for i in $(seq "$N"); do as_user oarsub -l /core=1 -n "$tag-$i" -O /dev/null -E /dev/null true >/dev/null; done
until [ "$(ended "$tag")" -ge "$N" ]; do sleep 0.5; done
t1=$(now)
oarsub_us=$((t1 - t0))

# The same through yard (default settings).
rm -rf "$work/state"
ystate server start >/dev/null
yids=()
t0=$(now)
for _ in $(seq "$N"); do yids+=("$(ystate submit --backend oar -o /dev/null -- true)"); done
t_submitted=$(now)
ystate wait --timeout 3600 "${yids[@]}" >/dev/null
t1=$(now)
yard_us=$((t1 - t0))
read -r p f _ < <(calls)

echo
echo "| $N trivial jobs on OAR (4 cores) | seconds | yard vs oarsub |"
echo "|---|---:|---:|"
echo "| oarsub in a loop, until OAR has ended them all | $(secs "$oarsub_us") | - |"
echo "| yard submit --backend oar + yard wait (the $N submit commands: $(secs $((t_submitted - t0))) s) | $(secs "$yard_us") | $(awk -v a="$yard_us" -v b="$oarsub_us" 'BEGIN { printf "%+.1f%%", 100 * (a - b) / b }') |"
echo
echo "yard's OAR calls in that run: $p status cycles, $f history and look-up calls"

#!/usr/bin/env bash
# Grid Engine backend benchmark table, in one run:
#   - tracking 1,000 and 10,000 queued jobs: Grid Engine commands per status cycle and
#     the time to parse and apply one cycle (bench/poll/poll_bench, no cluster);
#   - on a real Grid Engine 8.1.9 (started here, stopped at the end, 4 slots):
#     * 1,000 jobs queued behind a running one (-hold_jid): the commands yard ran per
#       status cycle over 30 s;
#     * N trivial jobs through `yard submit --backend sge` + `yard wait`, against the same
#       N through plain `qsub -b y` in a loop, each from the first submit until qacct has
#       them all.
# Usage: bench/sge/run.sh [N]   (default 200; needs root and a release build)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD  # the run moves to its scratch directory: paths from here on are absolute
N=${1:-200}
QUEUED=${QUEUED:-1000}
yard=$PWD/build/src/cli/yard
bench=$PWD/build/bench/poll/poll_bench
[ -x "$yard" ] && [ -x "$bench" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }

echo "| jobs tracked (queued) | Grid Engine commands per cycle | per minute (default 1 s cycle) | parse + apply one cycle |"
echo "|---:|---:|---:|---:|"
for n in 1000 10000; do
  read -r jobs per_cycle apply_ms per_min < <("$bench" sge "$n")
  echo "| $jobs | $per_cycle | $per_min | ${apply_ms} ms |"
done

state=$(mktemp -d /tmp/yard-bench-sge.XXXXXX)
work=$(mktemp -d /tmp/yard-bench-home.XXXXXX)
chmod 755 "$state" "$work"
ystate() { HOME=$work XDG_RUNTIME_DIR=$work/run XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config "$yard" "$@"; }
cleanup() {
  ystate server stop >/dev/null 2>&1 || true
  qdel -u "$(id -un)" '*' >/dev/null 2>&1 || true
  bash "$root/scripts/sge/stop.sh" "$state" >/dev/null 2>&1 || true
  rm -rf "$state" "$work"
}
trap cleanup EXIT
bash "$root/scripts/sge/install.sh" >/dev/null
bash "$root/scripts/sge/start.sh" "$state" >/dev/null 2>&1
. "$state/env.sh"
mkdir -p "$work/run" "$work/config/switchyard"
cd "$work"
now() { echo "${EPOCHREALTIME/./}"; }
secs() { awk -v us="$1" 'BEGIN { printf "%.1f", us / 1e6 }'; }
# How many of the jobs named $1* have an accounting record.
accounted() { qacct -j "$1*" 2>/dev/null | grep -c '^jobnumber' || true; }
calls() { ystate server status --json | python3 -c 'import json,sys; c=json.load(sys.stdin)["sge_calls"]; print(c["poll"], c["history"] + c["find"], c["failed"])'; }

# 1,000 jobs queued behind one that runs.
ystate server start >/dev/null
blocker=$(ystate submit --backend sge -o /dev/null -- sleep 600)
for _ in $(seq "$QUEUED"); do ystate submit --backend sge -o /dev/null -d "afterany:$blocker" -- true >/dev/null; done
until [ "$(ystate status --json | python3 -c 'import json,sys; print(sum(1 for j in json.load(sys.stdin) if j.get("native_id")))')" -ge $((QUEUED + 1)) ]; do sleep 0.5; done
read -r p0 o0 f0 < <(calls)
sleep 30  # the measurement window
read -r p1 o1 f1 < <(calls)
cycles=$((p1 - p0)); others=$((o1 - o0))
echo
echo "| on the real cluster: $QUEUED jobs queued, 30 s | status cycles | other Grid Engine calls | commands per cycle | failed calls |"
echo "|---|---:|---:|---:|---:|"
echo "| yard (default settings) | $cycles | $others | $(awk -v c="$cycles" -v o="$others" 'BEGIN { printf "%.2f", (c + o) / c }') | $((f1 - f0)) |"
ystate cancel "$blocker" >/dev/null
ystate cancel $(ystate status --json | python3 -c 'import json,sys; print(" ".join(str(j["id"]) for j in json.load(sys.stdin) if j["state"] in ("PENDING", "RUNNING")))') >/dev/null 2>&1 || true
ystate server stop >/dev/null
qdel -u "$(id -un)" '*' >/dev/null 2>&1 || true
until [ -z "$(qstat -u "$(id -un)")" ]; do sleep 0.5; done

# Plain qsub in a loop.
tag=bench-qsub-$$
t0=$(now)
for i in $(seq "$N"); do qsub -terse -b y -N "$tag-$i" -o /dev/null -j y true >/dev/null; done
until [ "$(accounted "$tag")" -ge "$N" ]; do sleep 0.2; done
t1=$(now)
qsub_us=$((t1 - t0))

# The same through yard (default settings).
rm -rf "$work/state"
ystate server start >/dev/null
yids=()
t0=$(now)
for _ in $(seq "$N"); do yids+=("$(ystate submit --backend sge -o /dev/null -- true)"); done
t_submitted=$(now)
ystate wait --timeout 3600 "${yids[@]}" >/dev/null
t1=$(now)
yard_us=$((t1 - t0))
read -r p f _ < <(calls)

echo
echo "| $N trivial jobs on Grid Engine (4 slots) | seconds | yard vs qsub |"
echo "|---|---:|---:|"
echo "| qsub -b y in a loop, until qacct has them all | $(secs "$qsub_us") | - |"
echo "| yard submit --backend sge + yard wait (the $N submit commands: $(secs $((t_submitted - t0))) s) | $(secs "$yard_us") | $(awk -v a="$yard_us" -v b="$qsub_us" 'BEGIN { printf "%+.1f%%", 100 * (a - b) / b }') |"
echo
echo "yard's Grid Engine calls in that run: $p status cycles, $f history and look-up calls"

#!/usr/bin/env bash
# Benchmark of running a flow end to end: STEPS steps of `true` between a first and a
# last step (fan-out, fan-in), on the local backend, by `yard run` (its own daemon, a
# fresh store), beside `make -j2` of the same graph and Snakemake's run of it
# (`snakemake --cores 2`, within SNAKE_LIMIT seconds); then `yard run` of the finished
# flow again (every step up to date), and the flow with its fan-out in series (`group:
# GROUP`). Wall time, in the same run.
# Usage: [GROUP=100] bench/flow/run.sh [STEPS]   (default 10000; needs a release build; installs
# Debian's snakemake if it is missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
STEPS=${1:-10000}
SNAKE_LIMIT=${SNAKE_LIMIT:-600}
GROUP=${GROUP:-100}
yard=$PWD/build/src/cli/yard
[ -x "$yard" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }
command -v snakemake >/dev/null || apt-get install -y --no-install-recommends snakemake >/dev/null
work=$(mktemp -d)
export HOME=$work XDG_RUNTIME_DIR=$work/run XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME/switchyard" "$work/yard" "$work/make" "$work/snake"
cleanup() {
  "$yard" server stop --kill-jobs >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
now() { echo "${EPOCHREALTIME/./}"; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", (b - a) / 1e6 }'; }

cat > "$work/yard/fan.yaml" <<YAML
defaults: {output: /dev/null}
steps:
  - name: first
    command: 'true'
  - name: work
    foreach: {range: 1-$STEPS}
    command: 'true'
    needs: [first]
  - name: last
    command: 'true'
    needs: [work]
YAML
# The same graph with the fan-out's steps in series, GROUP to a job (docs/WORKFLOWS.md:
# `group:`), each step's log in the run's directory.
mkdir -p "$work/grouped"
cat > "$work/grouped/fan.yaml" <<YAML
steps:
  - name: first
    command: 'true'
  - name: work
    foreach: {range: 1-$STEPS}
    group: $GROUP
    command: 'true'
    needs: [first]
  - name: last
    command: 'true'
    needs: [work]
YAML
python3 - "$STEPS" > "$work/make/Makefile" <<'PY'
import sys
n = int(sys.argv[1])
work = " ".join(f"w{i}" for i in range(1, n + 1))
print(f".PHONY: all first last {work}\nall: last\nfirst:\n\ttrue")
for i in range(1, n + 1):
    print(f"w{i}: first\n\ttrue")
print(f"last: {work}\n\ttrue")
PY
cat > "$work/snake/Snakefile" <<PY
rule last:
    input: expand("w/{i}", i=range(1, $STEPS + 1))
    shell: "true"
rule work:
    input: "first"
    output: "w/{i}"
    shell: "touch {output}"
rule first:
    output: "first"
    shell: "touch {output}"
PY

"$yard" server start >/dev/null
t0=$(now)
(cd "$work/yard" && "$yard" run fan.yaml > "$work/yard.out")
yard_s=$(seconds_since "$t0")
grep -c COMPLETED "$work/yard.out" > /dev/null
# The same flow again: every step up to date, nothing submitted.
t0=$(now)
(cd "$work/yard" && "$yard" run fan.yaml > "$work/yard-again.out")
again_s=$(seconds_since "$t0")
grep -q " 0 submitted, 0 running already, $((STEPS + 2)) up to date" "$work/yard-again.out" ||
  { echo "bench: the run again submitted something:" >&2; grep '^flow ' "$work/yard-again.out" >&2; exit 1; }
t0=$(now)
(cd "$work/grouped" && "$yard" run fan.yaml > "$work/grouped.out")
grouped_s=$(seconds_since "$t0")
t0=$(now)
make -s -j2 -C "$work/make" all > /dev/null
make_s=$(seconds_since "$t0")
t0=$(now)
if (cd "$work/snake" && timeout -k 10 "$SNAKE_LIMIT" snakemake -q --cores 2 > /dev/null 2>&1); then
  snake_s=$(seconds_since "$t0")
else
  snake_s="> $SNAKE_LIMIT"
fi
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0 && a + 0 > 0) printf "%.2f", a / b; else print "-" }'; }
printf '%-40s %10s %12s\n' "fan-out/fan-in of $STEPS steps of true" "seconds" "yard / it"
printf '%-40s %10s %12s\n' "yard run (local backend)" "$yard_s" "1.00"
printf '%-40s %10s %12s\n' "yard run, in series (group: $GROUP)" "$grouped_s" "$(ratio "$yard_s" "$grouped_s")"
printf '%-40s %10s %12s\n' "make -j2" "$make_s" "$(ratio "$yard_s" "$make_s")"
printf '%-40s %10s %12s\n' "in series / make -j2" "-" "$(ratio "$grouped_s" "$make_s")"
printf '%-40s %10s %12s\n' "snakemake --cores 2" "$snake_s" "$(ratio "$yard_s" "${snake_s#> }")"
printf '%-40s %10s %12s\n' "yard run again (all up to date)" "$again_s" "-"

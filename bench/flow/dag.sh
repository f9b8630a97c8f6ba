#!/usr/bin/env bash
# Benchmark of building and checking a flow's graph: a flow of STEPS steps where step i
# needs the 10 steps before it (about 10 * STEPS edges), checked by `yard flow check`
# (read, expanded, every name and need resolved, cycles and files checked), beside
# Snakemake's dry run (`snakemake -n`, its DAG built and checked) of the same graph,
# at the largest size it finishes within SNAKE_LIMIT seconds. Wall time and peak memory.
# Usage: bench/flow/dag.sh [STEPS]   (default 100000; needs a release build; installs
# Debian's snakemake if it is missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
STEPS=${1:-100000}
SNAKE_LIMIT=${SNAKE_LIMIT:-600}
yard=$PWD/build/src/cli/yard
[ -x "$yard" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }
command -v snakemake >/dev/null || apt-get install -y --no-install-recommends snakemake >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The flow: s0 .. s(N-1), each needing the (up to) 10 before it.
flow_file() {
  python3 - "$1" > "$2" <<'PY'
import sys
n = int(sys.argv[1])
out = ["name: chain", "steps:"]
for i in range(n):
    needs = ", ".join(f"s{j}" for j in range(max(0, i - 10), i))
    out.append(f"  - name: s{i}\n    command: 'true'" + (f"\n    needs: [{needs}]" if needs else ""))
print("\n".join(out))
PY
}
# The same graph for Snakemake: one rule, each output needing the 10 before it.
snakefile() {
  cat > "$2" <<PY
N = $1
rule all:
    input: expand("out/{i}.txt", i=range(N))
rule step:
    output: "out/{i}.txt"
    input: lambda w: [f"out/{j}.txt" for j in range(max(0, int(w.i) - 10), int(w.i))]
    shell: "touch {output}"
PY
}
# "seconds peak_MiB" of a command (its exit status must be 0), or "- -" past the limit.
measure() {
  local limit=$1
  shift
  local t0 rc=0
  t0=${EPOCHREALTIME/./}
  /usr/bin/time -f "%M" -o "$work/rss" timeout "$limit" "$@" > "$work/out" 2> "$work/err" || rc=$?
  if ((rc == 124)); then echo "- -"; return; fi
  ((rc == 0)) || { echo "bench: $* failed ($rc): $(tail -3 "$work/err")" >&2; exit 1; }
  awk -v us=$(( ${EPOCHREALTIME/./} - t0 )) -v kb="$(tail -1 "$work/rss")" 'BEGIN { printf "%.2f %.0f\n", us / 1e6, kb / 1024 }'
}

printf '%-30s %10s %10s %12s\n' "steps (edges)" "seconds" "peak MiB" "steps/s"
row() {  # what, seconds, MiB, steps ("-": no rate)
  local rate=-
  [ "$4" != - ] && rate=$(awk -v n="$4" -v s="$2" 'BEGIN { if (s + 0 > 0) printf "%.0f", n / s; else print "-" }')
  printf '%-30s %10s %10s %12s\n' "$1" "$2" "$3" "$rate"
}
flow_file "$STEPS" "$work/flow.yaml"
edges=$((STEPS * 10 - 55))
read -r s m < <(measure 600 "$yard" flow check "$work/flow.yaml")
grep -q "$STEPS steps, $edges needs" "$work/out" || { echo "bench: yard flow check said: $(cat "$work/out")" >&2; exit 1; }
row "yard flow check $STEPS ($edges)" "$s" "$m" "$STEPS"
# Snakemake from 1,000 steps up, x4 each time, until it passes the limit or reaches STEPS.
n=1000
while ((n <= STEPS)); do
  mkdir -p "$work/snake-$n"
  snakefile "$n" "$work/snake-$n/Snakefile"
  read -r s m < <(cd "$work/snake-$n" && measure "$SNAKE_LIMIT" snakemake -n -q --cores 1)
  if [ "$s" = - ]; then
    row "snakemake -n $n" "> $SNAKE_LIMIT" "-" -
    break
  fi
  row "snakemake -n $n" "$s" "$m" "$n"
  if ((n < STEPS && n * 4 > STEPS)); then n=$STEPS; else n=$((n * 4)); fi
done

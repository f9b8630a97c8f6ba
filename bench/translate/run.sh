#!/usr/bin/env bash
# The time `yard submit --test-only SCRIPT` and `yard translate --to KIND SCRIPT` take per
# script, over the sbatch corpus (tests/fixtures/sbatch-corpus/) and the directive
# samples of the other schedulers (fuzz/corpus/directives/), repeated until each command
# has run at least --min-runs times. Prints a markdown table: runs, how many exited 0,
# mean and 95th percentile in milliseconds, per command.
#
#   bench/translate/run.sh [YARD] [--min-runs N] [--to KIND,...]
#
#   YARD          the yard binary (default: $YARD, else build/src/cli/yard); copied first,
#                 so that a rebuild during the run changes nothing
#   --min-runs N  runs of each command in all, the scripts repeated as needed (default 1000)
#   --to KINDS    the targets timed (default slurm,pbs,torque,lsf,sge,oar,htcondor,flux)
#
# yard runs in a private world under a temporary directory (HOME and XDG_* there, as the
# tests' harness does) whose local backend declares a large machine, so that --test-only
# accepts the corpus's big jobs; its daemon starts on the first submit and is stopped at
# the end. A script with several kinds of directives is refused by both commands (exit
# 2) and still timed: the refusal is part of the work. Progress goes to stderr.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
yard_src=${YARD:-$root/build/src/cli/yard}
min_runs=1000
targets=slurm,pbs,torque,lsf,sge,oar,htcondor,flux

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while (($#)); do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --min-runs) min_runs=$2; shift 2 ;;
    --to) targets=$2; shift 2 ;;
    -*) echo "bench/translate: unknown option '$1'" >&2; exit 2 ;;
    *) yard_src=$1; shift ;;
  esac
done
log() { echo "bench/translate: $*" >&2; }
die() { log "$*"; exit 2; }
[[ -x $yard_src ]] || die "no yard binary at $yard_src (give its path, or set YARD)"
[[ $min_runs =~ ^[0-9]+$ && $min_runs -gt 0 ]] || die "--min-runs takes a number"

scripts=("$root"/tests/fixtures/sbatch-corpus/*.sh "$root"/fuzz/corpus/directives/*.sh)
n=${#scripts[@]}
((n > 0)) || die "no scripts found"

world=$(mktemp -d /tmp/yard-bench-translate.XXXXXX)
yard=$world/yard
trap '"$yard" server stop >/dev/null 2>&1; rm -rf -- "$world"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cp -- "$yard_src" "$yard"
mkdir -p "$world"/{run,state,config/switchyard,cwd}
printf 'cpus: 4096\nmemory: 64T\ngpus: 64\n' >"$world/config/switchyard/local.yaml"
# Every yard below runs in the world: its own HOME, socket, store and config.
export HOME=$world XDG_RUNTIME_DIR=$world/run XDG_STATE_HOME=$world/state XDG_CONFIG_HOME=$world/config
unset YARD_CONFIG YARD_POLICY
while IFS='=' read -r name _; do
  case $name in SBATCH_* | SLURM_*) unset "$name" ;; esac
done < <(env)
cd "$world/cwd"  # relative paths in the scripts resolve here

now() { local t=${EPOCHREALTIME/[.,]/}; echo "$t"; }  # microseconds
rounds=$(((min_runs + n - 1) / n))
log "yard: $("$yard" --version | head -1); $n scripts, $rounds rounds: $((rounds * n)) runs a command"
"$yard" server start >/dev/null

declare -A times ok
commands=("submit --test-only")
IFS=, read -r -a kinds <<<"$targets"
for k in "${kinds[@]}"; do commands+=("translate --to $k"); done
for c in "${commands[@]}"; do times[$c]=""; ok[$c]=0; done

for ((r = 0; r < rounds; r++)); do
  log "round $((r + 1)) of $rounds"
  for f in "${scripts[@]}"; do
    for c in "${commands[@]}"; do
      read -r -a words <<<"$c"
      t0=$(now)
      if "$yard" "${words[@]}" "$f" >/dev/null 2>&1; then ok[$c]=$((ok[$c] + 1)); fi
      t1=$(now)
      times[$c]+="$((t1 - t0))"$'\n'
    done
  done
done

# "runs mean p95" in milliseconds, from microseconds one a line.
stats() {
  sort -n | awk 'NF { v[++n] = $1; s += $1 } END {
    i = int(0.95 * n); if (i < 0.95 * n) i++; if (i < 1) i = 1
    printf "%d %.2f %.2f\n", n, s / n / 1000, v[i] / 1000 }'
}
echo "| command | runs | exit 0 | mean (ms) | p95 (ms) |"
echo "|---|---:|---:|---:|---:|"
for c in "${commands[@]}"; do
  read -r runs mean p95 < <(printf '%s' "${times[$c]}" | stats)
  echo "| yard $c | $runs | ${ok[$c]} | $mean | $p95 |"
done
echo
echo "$n scripts ($(ls "$root"/tests/fixtures/sbatch-corpus/*.sh | wc -l) of the sbatch corpus, $(ls "$root"/fuzz/corpus/directives/*.sh | wc -l) directive samples), each run $rounds times a command; $("$yard" --version | head -1)."

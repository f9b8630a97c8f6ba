#!/usr/bin/env bash
# Agreement between `yard submit --test-only --backend slurm SCRIPT` and the real
# `sbatch --test-only SCRIPT` over the corpus of real-world batch scripts in
# tests/fixtures/sbatch-corpus/, and the time each takes per script.
#
#   bench/sbatch_agreement/run.sh [YARD] [--state DIR] [--min-runs N] [--sbatch-rounds N]
#                                        [--corpus DIR] [--keep DIR]
#
#   YARD             the yard binary (default: $YARD, else build/src/cli/yard); it is
#                    copied first, so that a rebuild during the run changes nothing
#   --state DIR      state directory of the Slurm test cluster started here
#                    (default /tmp/yard-slurm-agreement); stopped by scripts/slurm/stop.sh
#                    when this script exits, however it exits
#   --min-runs N     yard runs in total for the timing, the corpus repeated as needed
#                    (default 1000)
#   --sbatch-rounds N  rounds of the corpus through sbatch for its timing (default 3)
#   --corpus DIR     the scripts (default tests/fixtures/sbatch-corpus)
#   --keep DIR       also write each script's results there (results.tsv, one line each)
#
# Every script is given to sbatch as the cluster expects it (partitions `cpu`, the
# default, and `gpu`; no accounts or QOS are enforced). Its answer is classified from
# its exit status and stderr: accepted, syntax (a bad option, value, directive or
# script: sbatch's own parsing), or site (refused by what this cluster has: unknown
# partition, node, feature, gres, licence or cluster, more CPUs, memory or nodes than it
# offers). yard's exit status: 0 accepted, 2 an error in the flags or the script, 1 the
# backend could not run it. A script agrees when both accept it or both refuse it as a
# syntax error; site refusals are counted apart (yard does not know the site), with
# yard's answer to each, since a yard refusal (2) of a script sbatch only refused for
# its site means that sbatch's parser took what yard's did not.
#
# yard runs in a private world under a temporary directory (HOME and XDG_* there, as
# the tests' harness does), with config/switchyard/slurm.yaml; its daemon starts on the
# first request and is stopped at the end. Needs root (the cluster's daemons) and
# scripts/slurm/install.sh. The report, in markdown, goes to stdout; progress to stderr.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
yard_src=${YARD:-$root/build/src/cli/yard}
state=/tmp/yard-slurm-agreement
min_runs=1000
sbatch_rounds=3
corpus=$root/tests/fixtures/sbatch-corpus
keep=

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while (($#)); do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --state) state=$2; shift 2 ;;
    --min-runs) min_runs=$2; shift 2 ;;
    --sbatch-rounds) sbatch_rounds=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -*) echo "sbatch_agreement: unknown option '$1'" >&2; exit 2 ;;
    *) yard_src=$1; shift ;;
  esac
done

log() { echo "sbatch_agreement: $*" >&2; }
die() { log "$*"; exit 2; }

[[ $(id -u) -eq 0 ]] || die "must run as root (the Slurm test cluster's daemons run as root)"
[[ -x $yard_src ]] || die "no yard binary at $yard_src (give its path, or set YARD)"
command -v sbatch >/dev/null || die "sbatch not found: run scripts/slurm/install.sh first"
[[ $min_runs =~ ^[0-9]+$ && $sbatch_rounds =~ ^[0-9]+$ ]] || die "--min-runs and --sbatch-rounds take numbers"
mapfile -t scripts < <(find "$corpus" -maxdepth 1 -name '*.sh' | sort)
((${#scripts[@]})) || die "no *.sh scripts in $corpus"

world=$(mktemp -d /tmp/yard-agreement.XXXXXX)
started=0
yard=$world/yard
# The world yard runs in: its own HOME, socket, store and config (tests/integration/harness).
y() {
  env -u YARD_CONFIG -u YARD_POLICY HOME="$world" XDG_RUNTIME_DIR="$world/run" \
    XDG_STATE_HOME="$world/state" XDG_CONFIG_HOME="$world/config" "$yard" "$@"
}
cleanup() {
  local rc=$?
  y server stop >/dev/null 2>&1 || true
  if ((started)); then "$root/scripts/slurm/stop.sh" "$state" >/dev/null 2>&1 || log "stop.sh $state failed"; fi
  rm -rf -- "$world"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cp -- "$yard_src" "$yard"
mkdir -p "$world"/{run,state,config/switchyard,cwd}
# Status polls are irrelevant to --test-only: keep them rare.
printf 'poll_interval: 5\n' >"$world/config/switchyard/slurm.yaml"

# Neither client may pick up the caller's job options or cluster.
while IFS='=' read -r name _; do
  case $name in SBATCH_* | SLURM_*) unset "$name" ;; esac
done < <(env)

log "starting the Slurm test cluster in $state"
started=1
"$root/scripts/slurm/start.sh" "$state" >/dev/null
# shellcheck source=/dev/null
. "$state/env.sh"
cd "$world/cwd"  # relative paths in the scripts (output files, --chdir) resolve here

log "yard: $("$yard" --version | head -1); sbatch: $(sbatch --version)"
y server start >/dev/null
y submit --test-only --backend slurm -- true >/dev/null 2>&1 || die "yard --test-only --backend slurm does not work: $(y submit --test-only --backend slurm -- true 2>&1 | tail -1)"
sbatch --test-only --wrap true >/dev/null 2>&1 || die "sbatch --test-only does not work: $(sbatch --test-only --wrap true 2>&1 | tail -1)"

# Microseconds since the epoch.
now() { local t=${EPOCHREALTIME/[.,]/}; echo "$t"; }

# sbatch's refusals: its own parsing (checked first: some are reported by the
# controller, e.g. an invalid array), or the site.
syntax_re='unrecognized option|invalid option|is ambiguous|requires an argument|does not look like a batch script|Invalid directive found|is not a valid|Invalid numeric value|Invalid --[a-z-]+ specification|Invalid job array specification|mutually exclusive|conflicting'
site_re='invalid partition|Invalid partition|Invalid account|Invalid qos|Requested node configuration is not available|More processors requested than permitted|Node count specification invalid|Invalid node name|Invalid feature specification|Invalid generic resource|Invalid license|reservation|known by database|can.t be reached now|Job dependency problem|Memory required by task is not available|Requested time limit|Job violates|permission denied'
classify() {  # rc stderr -> accepted | syntax | site
  local rc=$1 err=$2
  if ((rc == 0)); then echo accepted
  elif grep -qiE -- "$syntax_re" <<<"$err"; then echo syntax
  elif grep -qE -- "$site_re" <<<"$err"; then echo site
  elif grep -qE -- 'allocation failure|Batch job submission failed' <<<"$err"; then echo site
  else echo syntax
  fi
}
# One line, without the corpus path, the "Try --help" hint and the markdown pipe.
shorten() {
  local s
  s=$(grep -v -e '^Try "sbatch --help"' -e '^$' <<<"$1" | tr '\n' ' ')
  s=${s//"$corpus/"/}
  s=${s//|/\\|}
  s=${s%% }
  ((${#s} > 170)) && s="${s:0:167}..."
  echo "${s:-(nothing on stderr)}"
}

n=${#scripts[@]}
declare -a s_class s_msg y_rc y_msg
sbatch_times=()
yard_times=()

log "$n scripts: classifying (sbatch --test-only, then yard submit --test-only)"
for i in "${!scripts[@]}"; do
  f=${scripts[$i]}
  t0=$(now)
  err=$(sbatch --test-only "$f" 2>&1 >/dev/null) && rc=0 || rc=$?
  t1=$(now)
  sbatch_times+=($((t1 - t0)))
  s_class[i]=$(classify "$rc" "$err")
  s_msg[i]=$(shorten "$err")
  t0=$(now)
  err=$(y submit --test-only --backend slurm "$f" 2>&1 >/dev/null) && rc=0 || rc=$?
  t1=$(now)
  yard_times+=($((t1 - t0)))
  y_rc[i]=$rc
  y_msg[i]=$(shorten "$err")
done

# Timing: the corpus again until yard has run at least min_runs times, and sbatch
# sbatch_rounds times in all (the classifying pass above counts as the first round).
rounds=$(((min_runs + n - 1) / n))
log "timing: yard ${rounds} x $n runs, sbatch ${sbatch_rounds} x $n runs"
for ((r = 1; r < rounds; r++)); do
  for f in "${scripts[@]}"; do
    t0=$(now)
    y submit --test-only --backend slurm "$f" >/dev/null 2>&1 || true
    t1=$(now)
    yard_times+=($((t1 - t0)))
  done
done
for ((r = 1; r < sbatch_rounds; r++)); do
  for f in "${scripts[@]}"; do
    t0=$(now)
    sbatch --test-only "$f" >/dev/null 2>&1 || true
    t1=$(now)
    sbatch_times+=($((t1 - t0)))
  done
done

# "runs mean p95" in milliseconds, from microseconds one a line.
stats() {
  sort -n | awk '{ v[NR] = $1; s += $1 } END {
    i = int(0.95 * NR); if (i < 0.95 * NR) i++; if (i < 1) i = 1
    printf "%d %.1f %.1f\n", NR, s / NR / 1000, v[i] / 1000 }'
}
read -r y_runs y_mean y_p95 < <(printf '%s\n' "${yard_times[@]}" | stats)
read -r s_runs s_mean s_p95 < <(printf '%s\n' "${sbatch_times[@]}" | stats)

agree=0 agree_acc=0 agree_syn=0 site=0 site_y0=0 site_y1=0 site_y2=0
disagree=()
site_rows=()
for i in "${!scripts[@]}"; do
  name=$(basename "${scripts[$i]}")
  c=${s_class[$i]} r=${y_rc[$i]}
  if [[ $c == accepted && $r == 0 ]]; then ((++agree, ++agree_acc))
  elif [[ $c == syntax && $r == 2 ]]; then ((++agree, ++agree_syn))
  elif [[ $c == site ]]; then
    ((++site))
    case $r in 0) ((++site_y0)) ;; 1) ((++site_y1)) ;; *) ((++site_y2)) ;; esac
    site_rows+=("| $name | ${s_msg[$i]} | $r | $( ((r == 0)) && echo '' || echo "${y_msg[$i]}") |")
  else
    disagree+=("| $name | $c: ${s_msg[$i]} | $r: $( ((r == 0)) && echo accepted || echo "${y_msg[$i]}") |")
  fi
done

if [[ -n $keep ]]; then
  mkdir -p "$keep"
  {
    printf 'file\tsbatch\tsbatch_stderr\tyard_exit\tyard_stderr\n'
    for i in "${!scripts[@]}"; do
      printf '%s\t%s\t%s\t%s\t%s\n' "$(basename "${scripts[$i]}")" "${s_class[$i]}" "${s_msg[$i]}" "${y_rc[$i]}" "${y_msg[$i]}"
    done
  } >"$keep/results.tsv"
  log "per-script results in $keep/results.tsv"
fi

cat <<EOF
## sbatch --test-only vs yard submit --test-only --backend slurm

Corpus: $corpus ($n scripts); Slurm $(sbatch --version | awk '{print $2}') test cluster
(partitions cpu, gpu); yard: $("$yard" --version | head -1).

| scripts | agree | (both accept) | (both refuse: syntax/option) | disagree | site refusals by sbatch | (yard: 0 / 2 / 1) |
|---:|---:|---:|---:|---:|---:|---:|
| $n | $agree | $agree_acc | $agree_syn | ${#disagree[@]} | $site | $site_y0 / $site_y2 / $site_y1 |

### Disagreements

EOF
if ((${#disagree[@]})); then
  echo "| script | sbatch | yard (exit: stderr) |"
  echo "|---|---|---|"
  printf '%s\n' "${disagree[@]}"
else
  echo "None."
fi
cat <<EOF

### Site refusals (sbatch refused for what this cluster has; yard does not check the site)

| script | sbatch | yard exit | yard stderr |
|---|---|---:|---|
EOF
printf '%s\n' "${site_rows[@]}"
cat <<EOF

### Time per script (wall clock of one command, fork and exec included)

| command | runs | mean | p95 |
|---|---:|---:|---:|
| yard submit --test-only --backend slurm | $y_runs | $y_mean ms | $y_p95 ms |
| sbatch --test-only | $s_runs | $s_mean ms | $s_p95 ms |
EOF

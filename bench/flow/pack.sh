#!/usr/bin/env bash
# Packing (docs/WORKFLOWS.md, "Packing"): a flow of STEPS steps of `sleep SECONDS` in one
# foreach, run by `yard run` on the Slurm cluster of scripts/slurm/start.sh (started
# here, stopped after, by pid) packed into arrays (the default), in series (`group:
# GROUP`) and unpacked (`pack: false`), then on the local backend in series and a job per
# step: wall time and scheduler submissions (the distinct Slurm jobs behind the flow's
# steps; on the local backend, the jobs it started), in the same run.
# Usage: [GROUP=20] [LOCAL=0] bench/flow/pack.sh [STEPS] [SECONDS]   (default 200 steps of
# sleep 1; needs a release build and Slurm installed: scripts/slurm/install.sh). LOCAL=0
# leaves out the local backend's rows: 10,000 one-second steps are 5,000 s on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
STEPS=${1:-200}
SECS=${2:-1}
GROUP=${GROUP:-20}
LOCAL=${LOCAL:-1}
yard=$PWD/build/src/cli/yard
[ -x "$yard" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }
work=$(mktemp -d)
state=$work/slurm
chmod 755 "$work"  # munge wants its socket's directories open to all
export HOME=$work XDG_RUNTIME_DIR=$work/run XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME/switchyard"
cleanup() {
  local rt
  for rt in "$work"/*/rt; do  # each run's daemon (run() gives each its own)
    [ -d "$rt" ] || continue
    XDG_RUNTIME_DIR=$rt XDG_STATE_HOME=${rt%/rt}/state "$yard" server stop --kill-jobs >/dev/null 2>&1 || true
  done
  bash scripts/slurm/stop.sh "$state" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
echo "bench: starting a Slurm cluster" >&2
bash scripts/slurm/start.sh --fresh "$state" >/dev/null
export SLURM_CONF=$state/etc/slurm.conf
now() { echo "${EPOCHREALTIME/./}"; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", (b - a) / 1e6 }'; }

# One run of the flow: "seconds submissions". MODE is packed (the default), apart
# (pack: false) or group (group: GROUP: steps in series); BACKEND slurm or local. The
# submissions are the distinct Slurm jobs (array ids) behind the flow's jobs on Slurm,
# and the jobs the local backend started on it.
run() {
  local mode=$1 backend=$2 dir=$work/$1-$2 t0 extra=
  mkdir -p "$dir/rt"
  # A daemon and store of its own (this function runs in a subshell): its carriers only.
  export XDG_STATE_HOME=$dir/state XDG_RUNTIME_DIR=$dir/rt
  case $mode in
    apart) extra="    pack: false" ;;
    group) extra="    group: $GROUP" ;;
  esac
  cat > "$dir/flow.yaml" <<YAML
name: pack-$mode-$backend
defaults: {flags: --backend $backend}
steps:
  - name: step
    foreach: {range: 1-$STEPS}
$extra
    command: sleep $SECS
YAML
  t0=$(now)
  (cd "$dir" && "$yard" run --json --run-dir "$dir/run" flow.yaml > "$dir/out.jsonl")
  local s
  s=$(seconds_since "$t0")
  "$yard" status --json --name step.series > "$dir/carriers.json"
  python3 - "$dir/out.jsonl" "$dir/carriers.json" "$STEPS" "$s" "$backend" <<'PY'
import json, sys
end = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
assert end["event"] == "end" and end["failed"] == 0, end
jobs = end["jobs"]
assert len(jobs) == int(sys.argv[3]), len(jobs)
carriers = json.load(open(sys.argv[2]))
runners = carriers if any(j["backend"] == "series" for j in jobs) else jobs
if sys.argv[5] == "local":
    print(sys.argv[4], len(runners))
else:
    print(sys.argv[4], len({j["native_id"].split("_")[0] for j in runners}))
PY
  "$yard" server stop >/dev/null
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
row() { printf '%-44s %10s %14s\n' "$@"; }
read -r packed_s packed_calls < <(run packed slurm)
read -r apart_s apart_calls < <(run apart slurm)
read -r group_s group_calls < <(run group slurm)
if [ "$LOCAL" != 0 ]; then
  read -r lapart_s lapart_calls < <(run apart local)
  read -r lgroup_s lgroup_calls < <(run group local)
fi
row "$STEPS steps of sleep $SECS on Slurm" "seconds" "sbatch calls"
row "packed (arrays of up to 1,000)" "$packed_s" "$packed_calls"
row "in series (group: $GROUP)" "$group_s" "$group_calls"
row "unpacked (pack: false)" "$apart_s" "$apart_calls"
row "packed / unpacked" "$(ratio "$packed_s" "$apart_s")" "$(ratio "$packed_calls" "$apart_calls")"
row "in series / unpacked" "$(ratio "$group_s" "$apart_s")" "$(ratio "$group_calls" "$apart_calls")"
[ "$LOCAL" != 0 ] || exit 0
echo
row "$STEPS steps of sleep $SECS, local backend" "seconds" "jobs started"
row "in series (group: $GROUP)" "$lgroup_s" "$lgroup_calls"
row "a job per step" "$lapart_s" "$lapart_calls"
row "in series / a job per step" "$(ratio "$lgroup_s" "$lapart_s")" "$(ratio "$lgroup_calls" "$lapart_calls")"

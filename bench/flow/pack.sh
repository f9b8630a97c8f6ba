#!/usr/bin/env bash
# Packing on the real Slurm (docs/WORKFLOWS.md, "Packing"): a flow of STEPS steps of
# `sleep SECONDS` in one foreach, run by `yard run` packed (the default) and unpacked
# (`pack: false`) on the Slurm cluster of scripts/slurm/start.sh (started here, stopped
# after, by pid): wall time and sbatch calls (the distinct Slurm submissions among the
# flow's jobs, from `yard run --json`), in the same run.
# Usage: bench/flow/pack.sh [STEPS] [SECONDS]   (default 200 steps of sleep 1; needs a
# release build and Slurm installed: scripts/slurm/install.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
STEPS=${1:-200}
SECS=${2:-1}
yard=$PWD/build/src/cli/yard
[ -x "$yard" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }
work=$(mktemp -d)
state=$work/slurm
chmod 755 "$work"  # munge wants its socket's directories open to all
export HOME=$work XDG_RUNTIME_DIR=$work/run XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME/switchyard"
cleanup() {
  "$yard" server stop --kill-jobs >/dev/null 2>&1 || true
  bash scripts/slurm/stop.sh "$state" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
echo "bench: starting a Slurm cluster" >&2
bash scripts/slurm/start.sh --fresh "$state" >/dev/null
export SLURM_CONF=$state/etc/slurm.conf
now() { echo "${EPOCHREALTIME/./}"; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", (b - a) / 1e6 }'; }

# One run of the flow, packed or not: "seconds sbatch_calls".
run() {
  local pack=$1 dir=$work/$1 t0
  mkdir -p "$dir"
  cat > "$dir/flow.yaml" <<YAML
name: pack-$pack
defaults: {flags: --backend slurm}
steps:
  - name: step
    foreach: {range: 1-$STEPS}
    pack: $pack
    command: sleep $SECS
YAML
  t0=$(now)
  (cd "$dir" && "$yard" run --json --run-dir "$dir/run" flow.yaml > "$dir/out.jsonl")
  local s
  s=$(seconds_since "$t0")
  python3 - "$dir/out.jsonl" "$STEPS" "$s" <<'PY'
import json, sys
end = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
assert end["event"] == "end" and end["failed"] == 0, end
jobs = end["jobs"]
assert len(jobs) == int(sys.argv[2]), len(jobs)
print(sys.argv[3], len({j["native_id"].split("_")[0] for j in jobs}))
PY
}
"$yard" server start >/dev/null
read -r packed_s packed_calls < <(run true)
read -r apart_s apart_calls < <(run false)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
printf '%-44s %10s %14s\n' "$STEPS steps of sleep $SECS on Slurm" "seconds" "sbatch calls"
printf '%-44s %10s %14s\n' "packed (arrays of up to 1,000)" "$packed_s" "$packed_calls"
printf '%-44s %10s %14s\n' "unpacked (pack: false)" "$apart_s" "$apart_calls"
printf '%-44s %10s %14s\n' "packed / unpacked" "$(ratio "$packed_s" "$apart_s")" "$(ratio "$packed_calls" "$apart_calls")"

#!/usr/bin/env bash
# What a site installs, and how quick the installed command answers:
#   - the .deb's size and its installed size, the stripped yard's size;
#   - `yard --version` and `yard status` (empty queue, daemon running) wall time, beside
#     `squeue --version` and `sbatch --version` (Slurm's clients; no cluster needed).
# Usage: bench/package.sh [RUNS]   (default 200; a release build, Slurm's clients installed)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-200}
build=$PWD/build
[ -x "$build/src/cli/yard" ] || { echo "bench: build first (scripts/build.sh release)" >&2; exit 2; }
work=$(mktemp -d)
export HOME=$work XDG_RUNTIME_DIR=$work/run XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_RUNTIME_DIR"
cleanup() {
  [ -x "$work/root/usr/bin/yard" ] && "$work/root/usr/bin/yard" server stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" >/dev/null
deb=$(ls "$work"/pkg/switchyard_*.deb)
dpkg-deb -x "$deb" "$work/root"
yard=$work/root/usr/bin/yard   # the packaged (stripped) binary
kib() { awk -v b="$1" 'BEGIN { printf "%.0f KiB", b / 1024 }'; }
deb_size=$(stat -c %s "$deb")
installed_kib=$(dpkg-deb -f "$deb" Installed-Size)
bin_size=$(stat -c %s "$yard")
unstripped=$(stat -c %s "$build/src/cli/yard")

# Mean wall time of a command over $runs runs, in ms.
mean_ms() {
  local t0 t1
  t0=${EPOCHREALTIME/./}
  for _ in $(seq "$runs"); do "$@" >/dev/null; done
  t1=${EPOCHREALTIME/./}
  awk -v us="$((t1 - t0))" -v n="$runs" 'BEGIN { printf "%.2f", us / n / 1000 }'
}
# Slurm's clients read their configuration even for --version: the test cluster's, or a
# one-node configuration of the same kind when SLURM_CONF is not set.
if [ -z "${SLURM_CONF:-}" ]; then
  printf 'ClusterName=bench\nSlurmctldHost=localhost\nNodeName=localhost CPUs=%s State=UNKNOWN\nPartitionName=debug Nodes=localhost Default=YES\n' \
    "$(nproc)" > "$work/slurm.conf"
  export SLURM_CONF=$work/slurm.conf
fi
"$yard" server start >/dev/null
v=$(mean_ms "$yard" --version)
s=$(mean_ms "$yard" status)
sq=$(mean_ms squeue --version)
sb=$(mean_ms sbatch --version)

echo
echo "| what | size |"
echo "|---|---:|"
echo "| switchyard .deb | $(kib "$deb_size") |"
echo "| installed (dpkg Installed-Size) | $installed_kib KiB |"
echo "| yard, stripped (packaged) | $(kib "$bin_size") |"
echo "| yard, as built (RelWithDebInfo) | $(kib "$unstripped") |"
echo
echo "| command ($runs runs) | mean wall time |"
echo "|---|---:|"
echo "| yard --version | $v ms |"
echo "| yard status (empty queue, daemon running) | $s ms |"
echo "| squeue --version | $sq ms |"
echo "| sbatch --version | $sb ms |"

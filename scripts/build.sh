#!/usr/bin/env bash
# Configures (once) and builds one build directory with Ninja and ccache.
#   scripts/build.sh [release|asan]   (default: release)
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
case "$kind" in
  release) dir=build;      flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  asan)    dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=Debug -DYARD_SANITIZE=ON -DYARD_BENCH=OFF) ;;
  *) echo "build.sh: unknown build kind '$kind' (accepted: release, asan)" >&2; exit 2 ;;
esac
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
# Paths relative to the checkout, so another clone of the project hits the same cache.
export CCACHE_BASEDIR=$PWD
if [ ! -f "$dir/build.ninja" ]; then
  cmake -S . -B "$dir" -G Ninja "${flags[@]}" >/dev/null
fi
ninja -C "$dir"

#!/usr/bin/env bash
# Configures (once) and builds one build directory with Ninja and ccache.
#   scripts/build.sh [release|asan|clang]   (default: release)
# release: gcc, RelWithDebInfo at -g1 (tests, benchmarks); asan: gcc, Debug with ASan + UBSan;
# clang: clang, Release, the product and the libFuzzer targets, without tests and benchmarks
# (CI builds it to keep the code warning-free with both compilers, and scripts/fuzz.sh runs
# its fuzz targets: one clang build of the libraries, not two).
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
# The debug information of the ~100 test programs, each linked with most of the project,
# compressed when linked (a third of the size; gdb and the sanitizers read it as before): a
# full test run's build directories would otherwise take ~9 GB of disk. Link flags only,
# so the compiler cache still serves every object.
compact=(-DCMAKE_EXE_LINKER_FLAGS=-Wl,--compress-debug-sections=zlib
         -DCMAKE_SHARED_LINKER_FLAGS=-Wl,--compress-debug-sections=zlib)
case "$kind" in
  # -g1: line tables and function names (backtraces, profiles), without the types and
  # variables that made a third of the optimised build's compile time.
  release) dir=build;      flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
                                 -DYARD_WERROR=ON "${compact[@]}") ;;
  asan)    dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=Debug -DYARD_SANITIZE=ON -DYARD_BENCH=OFF -DYARD_WERROR=ON
                                 "${compact[@]}") ;;
  clang)   dir=build-clang; flags=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ -DYARD_WERROR=ON
                                 -DYARD_TESTS=OFF -DYARD_BENCH=OFF -DYARD_WEB_PAGES=OFF -DYARD_FUZZ=ON) ;;
  *) echo "build.sh: unknown build kind '$kind' (accepted: release, asan, clang)" >&2; exit 2 ;;
esac
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
# Room for the three builds' objects (release, sanitizers, clang with its fuzz targets: ~6 GB): at ccache's
# default 5 GB each run evicted what the next one needed.
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-12G}
# Paths relative to the checkout, so another clone of the project hits the same cache.
export CCACHE_BASEDIR=$PWD
# Nor the build directory's path in the hash (debug builds put it in their debug info):
# a fresh clone builds from the cache.
export CCACHE_NOHASHDIR=1
# Configured again when the flags are not those of the cache (a checkout from before
# YARD_WERROR existed, say).
if [ ! -f "$dir/build.ninja" ] || ! grep -q '^YARD_WERROR:BOOL=ON' "$dir/CMakeCache.txt" ||
   { [ "$kind" != clang ] && ! grep -q 'compress-debug-sections' "$dir/CMakeCache.txt"; } ||
   { [ "$kind" = clang ] && ! grep -q '^YARD_FUZZ:BOOL=ON' "$dir/CMakeCache.txt"; } ||
   { [ "$kind" = release ] && ! grep -q '^CMAKE_CXX_FLAGS_RELWITHDEBINFO:STRING=-O2 -g1 ' "$dir/CMakeCache.txt"; }; then
  cmake -S . -B "$dir" -G Ninja "${flags[@]}" >/dev/null
fi
ninja -C "$dir"

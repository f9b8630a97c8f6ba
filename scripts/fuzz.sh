#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (in the clang build, build-clang/: scripts/build.sh
# clang) and runs each on its corpus for a short while (FUZZ_SECONDS, default 20): parsers
# of external text must never crash.
#   bash scripts/fuzz.sh            a longer hunt: FUZZ_SECONDS=600 bash scripts/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-20}
bash scripts/build.sh clang >/dev/null
# Every fuzz/*_fuzz.cpp is a target; its corpus is fuzz/corpus/NAME (a scheduler's
# readers, NAME_parse_fuzz, use fuzz/corpus/NAME).
targets=()
for source in fuzz/*_fuzz.cpp; do targets+=("$(basename "$source" .cpp)"); done
for t in "${targets[@]}"; do
  corpus=fuzz/corpus/${t%_fuzz}
  [ -d "$corpus" ] || corpus=fuzz/corpus/${t%_parse_fuzz}
  work=$(mktemp -d)
  echo "== fuzz $t for ${seconds}s"
  # New inputs go to a scratch directory: the committed corpus stays as it is.
  "build-clang/fuzz/$t" -max_total_time="$seconds" -print_final_stats=0 "$work" "$corpus" 2>&1 | tail -2
  rm -rf "$work"
done

#!/usr/bin/env bash
# Routes benchmark table: 100,000 jobs through a routes file of ~50 lines (wishes through
# wishes, 6 size classes, 10 targets, one drained), and the reading of that file.
#   bash bench/routes/run.sh   (needs a release build: scripts/build.sh release)
set -euo pipefail
cd "$(dirname "$0")/../.."
ninja -C build routes_bench >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
read -r per_s us direct_us read_ms check_us _ < <(build/bench/routes/routes_bench "$work")
printf '%-44s %14s\n' "routes ($(wc -l < "$work/routes.yaml") lines), 100,000 jobs" "value"
printf '%-44s %14s\n' "routing decisions per second" "$per_s"
printf '%-44s %14s\n' "per decision (us)" "$us"
printf '%-44s %14s\n' "per job named directly, no routes (us)" "$direct_us"
printf '%-44s %14s\n' "reading the file (ms)" "$read_ms"
printf '%-44s %14s\n' "its classes against 10 queue listings (us)" "$check_us"

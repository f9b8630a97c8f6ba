#!/usr/bin/env bash
# Simulator benchmark table: SDSC-SP2 and CTC-SP2 under each policy (wall time, peak
# memory), and one scheduling pass over 10,000 / 100,000 queued jobs on 1,000 / 10,000
# nodes. Builds the benchmark programs in a release build directory first.
#   bash bench/sim/run.sh            (BUILD_DIR=build-bench by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD_DIR:-build-bench}
traces=${TRACES_DIR:-$PWD/tests/traces}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
ninja -C "$build" trace_bench pass_bench >/dev/null

echo "Trace replay (read + simulate, one process per run)"
printf '%-9s %-13s %7s %9s %10s %9s %9s %12s %9s\n' trace policy jobs read_s simulate_s total_s peak_MB avg_wait_s avg_bsld
for trace in SDSC-SP2-1998-4.2-cln CTC-SP2-1996-3.1-cln; do
  file="$traces/$trace.swf.gz"
  if [ ! -f "$file" ]; then
    echo "missing $file" >&2
    exit 1
  fi
  for policy in fcfs easy conservative sjbf; do
    read -r jobs read sim total rss wait bsld < <("$build/bench/sim/trace_bench" "$file" "$policy")
    printf '%-9s %-13s %7s %9s %10s %9s %9s %12s %9s\n' "${trace%%-199*}" "$policy" "$jobs" "$read" "$sim" "$total" "$rss" "$wait" "$bsld"
  done
done

echo
echo "One scheduling pass (median of 15; machine ~98% busy, wide job at the head)"
printf '%-8s %7s %8s %12s %8s %12s\n' policy queued nodes ms_per_pass started breakpoints
for policy in easy sjbf; do
  for queued in 10000 100000; do
    for nodes in 1000 10000; do
      read -r q n ms started points < <("$build/bench/sim/pass_bench" "$queued" "$nodes" "$policy")
      printf '%-8s %7s %8s %12s %8s %12s\n' "$policy" "$q" "$n" "$ms" "$started" "$points"
    done
  done
done

echo
echo "One PolicyEngine pass (the local backend's scheduler: priorities, tiers, co-allocation; median of 3)"
printf '%-10s %7s %8s %12s %8s\n' depth queued nodes ms_per_pass started
ninja -C "$build" engine_pass_bench >/dev/null
for depth in 1 unlimited; do
  for queued in 10000 100000; do
    for nodes in 1000 10000; do
      read -r q n ms started < <("$build/bench/sim/engine_pass_bench" "$queued" "$nodes" "$depth" 3)
      printf '%-10s %7s %8s %12s %8s\n' "$depth" "$q" "$n" "$ms" "$started"
    done
  done
done

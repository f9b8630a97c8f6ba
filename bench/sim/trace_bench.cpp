// Times one simulation of an SWF trace under one policy: reading and parsing, then
// simulating, and the process's peak resident memory. One run per process, so that the
// peak memory is that of this run alone.
//   trace_bench TRACE.swf[.gz] fcfs|easy|conservative|sjbf
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "sched/policy.h"
#include "sim/metrics.h"
#include "sim/simulator.h"
#include "sim/swf_reader.h"
#include "sim/workload.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: trace_bench TRACE.swf[.gz] fcfs|easy|conservative|sjbf\n");
    return 2;
  }
  const auto policy = yard::sched::policy_by_name(argv[2]);
  if (!policy) {
    std::fprintf(stderr, "trace_bench: unknown policy %s\n", argv[2]);
    return 2;
  }
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto trace = yard::sim::read_swf(argv[1]);
  if (!trace || !trace->max_procs) {
    std::fprintf(stderr, "trace_bench: %s: %s\n", argv[1],
                 trace ? "no MaxProcs header" : trace.error().c_str());
    return 2;
  }
  const auto jobs = yard::sim::jobs_from_swf(*trace, *trace->max_procs);
  const auto t1 = Clock::now();
  auto result = yard::sim::simulate(jobs, *trace->max_procs, *policy);
  const auto t2 = Clock::now();
  if (!result) {
    std::fprintf(stderr, "trace_bench: %s\n", result.error().c_str());
    return 2;
  }
  const auto m = yard::sim::compute_metrics(jobs, *result, *trace->max_procs);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const std::chrono::duration<double> read = t1 - t0, sim = t2 - t1;
  // jobs read_s simulate_s total_s peak_rss_mb avg_wait_s avg_bsld
  std::printf("%zu %.3f %.3f %.3f %.1f %.1f %.3f\n", m.jobs, read.count(), sim.count(),
              read.count() + sim.count(), static_cast<double>(usage.ru_maxrss) / 1024.0,
              m.avg_wait_s, m.avg_bounded_slowdown);
  return 0;
}

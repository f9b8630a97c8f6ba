// `yard sim`: replays a Standard Workload Format trace through the scheduling policies on
// a virtual clock (src/sim) and reports wait, bounded slowdown, utilization and makespan.
// Exit status 0 on success, 2 on bad input (unknown policy, unreadable or malformed
// trace, unknown machine size, unwritable output file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>

#include <CLI/CLI.hpp>

namespace yard {

struct SimOptions {
  std::string trace;
  std::string policy;
  std::string config;       // a policy config (YAML); replaces --policy
  std::int64_t procs = 0;   // 0: from the trace header
  std::size_t first = 0;    // 0: every job
  bool json = false;
  bool lenient = false;
  std::string jobs_csv;
  std::string plot;
};

// Runs one simulation; results to `out`, messages to `err`; returns the exit status.
int run_sim(const SimOptions& options, std::ostream& out, std::ostream& err);

// Adds `yard sim TRACE.swf (--policy fcfs|easy|conservative|sjbf | --config POLICY.yaml)
// [--procs N] [--first N]
// [--json] [--jobs-csv FILE] [--plot FILE.svg] [--lenient]`. A failure is reported on
// stderr and ends parsing with CLI::RuntimeError carrying the exit status.
void add_sim_command(CLI::App& app);

}  // namespace yard

// LaunchPlan: everything the job host needs to start one job, computed from the
// JobSpec, the job's identity and its allocation. Pure, so the environment a job sees
// and the files it writes are unit-tested without starting anything.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/job_spec.h"
#include "local/machine.h"
#include "local/resource_pool.h"

namespace yard {

struct JobIdentity {
  std::int64_t id = 0;
  std::string uid;
  std::optional<std::int64_t> array_job_id, array_index;
};

struct LaunchPlan {
  std::int64_t job_id = 0;
  std::string uid;
  std::vector<std::string> argv;  // argv[0] is looked up in the job's PATH
  std::vector<std::string> env;   // "NAME=value"
  std::string workdir;
  std::string stdout_path;        // absolute
  std::string stderr_path;        // absolute; equal to stdout_path when merged
  bool append_output = false;     // --open-mode=append; else the files are truncated at every start
  std::vector<int> pus;           // real processing units to pin to
  std::uint64_t mem_limit_bytes = 0;
  bool memory_poll = false;       // enforce it by polling, without a cgroup
  std::int64_t walltime_s = 0;    // 0 = none
  // sbatch --signal: `warn_signal` sent `warn_before_s` before the walltime (core/warning_signal.h).
  int warn_signal = 0;
  int warn_before_s = 0;
  bool warn_batch_only = false;   // to the job's first process only, not all of them
  int kill_grace_s = 10;
};

// `script_path` is where the job's script body was saved (when it has one).
LaunchPlan make_launch_plan(const JobSpec& spec, const JobIdentity& who, const Allocation& alloc,
                            const Machine& machine, const std::string& script_path, const std::string& user);

// The default output file, as Slurm's: yard-%j.out, or yard-%A_%a.out for arrays.
std::string default_output_pattern(bool is_array);

}  // namespace yard

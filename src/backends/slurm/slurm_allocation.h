// Direct mode (Melissa's `slurm-global`): Switchyard inside a Slurm allocation runs each
// job as an `srun` step on its share of the allocation, instead of one batch job per
// job. The local scheduler does the placement (its pool is the allocation's size); this
// file reads the allocation (`scontrol show job -o`) and turns a job's launch into a step.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/job_spec.h"
#include "core/result.h"

namespace yard {

struct SlurmAllocation {
  std::string job_id;
  std::string state;  // RUNNING once granted
  int nodes = 0;
  int cpus = 0;                 // in all
  std::uint64_t mem_bytes = 0;  // in all (TRES mem)
  int gpus = 0;                 // in all (TRES gres/gpu)
};

std::vector<std::string> scontrol_show_job_argv(const std::string& job_id);
// `scontrol show job -o ID`: one line of Key=Value words. Errors name what is missing.
Result<SlurmAllocation> parse_scontrol_job(std::string_view text);

// The srun command line that runs `argv` as a step of `alloc` with the job's resources:
// --exact (only what it asks for, so steps share the allocation), its own name (carrying
// the UID), and its tasks; srun's exit status is the job's.
std::vector<std::string> srun_step_argv(const SlurmAllocation& alloc, const JobSpec& spec, const std::string& step_name,
                                        const std::vector<std::string>& argv);

}  // namespace yard

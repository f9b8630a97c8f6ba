// Direct mode (Melissa's `slurm-global`): Switchyard inside a Slurm allocation runs each
// job as an `srun` step on its share of the allocation, instead of one batch job per
// job. The local scheduler does the placement (its pool is the allocation's size); this
// file reads the allocation (`scontrol show job -o`) and turns a job's launch into a step.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "backends/mpirun_argv.h"
#include "core/job_spec.h"
#include "core/result.h"

namespace yard {

// A heterogeneous allocation (`sbatch -p cpu ... : -p gpu ...`) has components, each
// with its own nodes and resources; steps run in one of them (srun --het-group=K). The
// figures of a heterogeneous allocation are component 0's (where steps run unless the
// job chooses another); `components` has every component's.
struct SlurmAllocation {
  std::string job_id;           // a heterogeneous allocation's: its HetJobId
  std::string state;            // RUNNING once granted (every component, for a het one)
  int nodes = 0;
  int cpus = 0;                 // in all
  std::uint64_t mem_bytes = 0;  // in all (TRES mem)
  int gpus = 0;                 // in all (TRES gres/gpu)
  std::string node_list;        // NodeList, e.g. c[1-2]
  std::string partition;
  // Heterogeneous: every component by HetJobOffset (0, 1, ...), each with its own
  // JobId, figures, state and partition; empty for an ordinary allocation.
  std::vector<SlurmAllocation> components;
};

std::vector<std::string> scontrol_show_job_argv(const std::string& job_id);
// `scontrol show job -o ID`: one line of Key=Value words, or one per component of a
// heterogeneous allocation (HetJobId, HetJobOffset). Errors name what is missing.
Result<SlurmAllocation> parse_scontrol_job(std::string_view text);

// The srun command line that runs `argv` as a step of `alloc` with the job's resources:
// --exact (only what it asks for, so steps share the allocation), its own name (carrying
// the UID), and its tasks; srun's exit status is the job's. In a heterogeneous
// allocation the step runs in the job's component, 0 unless it chose one
// (--het-group=K: srun refuses to start a step there without it).
std::vector<std::string> srun_step_argv(const SlurmAllocation& alloc, const JobSpec& spec, const std::string& step_name,
                                        const std::vector<std::string>& argv);

// What mpirun needs to see the allocation (its Slurm support reads SLURM_JOB_ID,
// SLURM_NODELIST, SLURM_TASKS_PER_NODE...; the job's own SLURM_* are stripped) and to
// start its daemons as one --exact step with the job's CPUs and name, as NAME=value.
// As root, Open MPI also needs its two run-as-root variables.
std::vector<std::string> mpirun_environment(const SlurmAllocation& alloc, const JobSpec& spec,
                                            const std::string& step_name, bool as_root);

}  // namespace yard

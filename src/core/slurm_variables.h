// A job submitted through Slurm's commands as front ends (src/frontends/slurm/) gets
// Slurm's variables (SLURM_JOB_ID, SLURM_NTASKS, ...) whatever its backend, as the tools
// that submitted it read them. The front end marks it with this variable in its spec's
// environment; the backend takes the mark out and sets the variables. Other jobs never get
// them: an MPI library that finds SLURM_JOB_ID believes it runs under Slurm.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace yard {

inline constexpr const char* kSlurmVariablesWanted = "YARD_SLURM_VARIABLES";

// One task's view of its job, each value in its user's form: a value for the local
// backend's launch, a shell word for a cluster's batch script (backends/job_wrapper.h).
struct SlurmValues {
  std::string job_id, name, ntasks, cpus_per_task, cpus_on_node, nodes, host, submit_dir;
  std::string partition;  // none when empty
};

// Slurm's variables for a job of its commands as front ends, as the tools read them.
inline std::vector<std::pair<std::string, std::string>> slurm_variables(const SlurmValues& v) {
  std::vector<std::pair<std::string, std::string>> out = {
      {"SLURM_JOB_ID", v.job_id},           {"SLURM_JOBID", v.job_id},     {"SLURM_JOB_NAME", v.name},
      {"SLURM_NTASKS", v.ntasks},           {"SLURM_NPROCS", v.ntasks},    {"SLURM_CPUS_PER_TASK", v.cpus_per_task},
      {"SLURM_CPUS_ON_NODE", v.cpus_on_node}, {"SLURM_PROCID", "0"},      {"SLURM_LOCALID", "0"},
      {"SLURM_NODEID", "0"},                {"SLURM_JOB_NODELIST", v.host}, {"SLURM_NODELIST", v.host},
      {"SLURM_JOB_NUM_NODES", v.nodes},     {"SLURM_SUBMIT_DIR", v.submit_dir}};
  if (!v.partition.empty()) out.emplace_back("SLURM_JOB_PARTITION", v.partition);
  return out;
}

}  // namespace yard

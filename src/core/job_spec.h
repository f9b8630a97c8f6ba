// JobSpec: what a user asks for, validated and backend-neutral. Every front end (CLI,
// YAML run files, later REST) builds one; every backend consumes one.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/array_spec.h"
#include "core/checked.h"
#include "core/dependency.h"
#include "core/output_pattern.h"
#include "core/result.h"
#include "core/retry_policy.h"
#include "core/sbatch_options.h"

namespace yard {

// The backend of a job that names none: the machine's own scheduler.
inline constexpr const char* kDefaultBackend = "local";

struct Resources {
  int nodes = 1;
  int max_nodes = 0;  // sbatch -N MIN-MAX: Slurm may give up to this many (0: exactly `nodes`)
  int ntasks = 1;
  int cpus_per_task = 1;
  std::uint64_t mem_bytes = 0;          // per node; 0 = not requested
  std::uint64_t mem_per_cpu_bytes = 0;  // alternative to mem_bytes; 0 = not requested
  int gpus = 0;
  std::string other_gres;  // --gres entries other than GPUs ("nvme:1,lscratch:10"): Slurm's only
  std::int64_t walltime_s = 0;  // 0 = none (the partition default applies)

  // In 64 bits, where the product of two ints cannot overflow.
  std::int64_t total_cpus() const { return std::int64_t{ntasks} * cpus_per_task; }
  // Memory the job may use in all, from --mem (per node) or --mem-per-cpu; 0 = not
  // limited; nullopt when it does not fit 64 bits.
  std::optional<std::uint64_t> checked_total_mem_bytes() const;
  // The same, saturated (JobSpec::validate refuses an overflow).
  std::uint64_t total_mem_bytes() const { return saturate(checked_total_mem_bytes()); }
};

// The most CPUs, tasks or GPUs a job may ask for in all: the store, the schedulers and
// Slurm count them in 32 bits, and no machine comes near.
constexpr std::int64_t kMaxJobCount = 2147483647;

// One more component of a heterogeneous job (Slurm's hetjob, DEEP-EST's modules): its own
// resources on its own partition, started together with the others. Component 0 is the
// JobSpec's own `res` and `partition`; the job's command runs in component 0.
// With the mpirun launcher (MPMD, Melissa's slurm-openmpi) a component is an app context
// instead: its tasks run `argv` in the same MPI world (mpirun -np 1 ./a : -np 2 ./b).
struct Component {
  Resources res;
  std::string partition;
  std::vector<std::string> argv;  // only with launcher "mpirun"
  SbatchSettings slurm_options;   // sbatch's other options given for this component
};

struct JobSpec {
  std::string name;
  // Either argv (a command), or script (a script body run by its #! interpreter) with
  // argv as the script's arguments.
  std::vector<std::string> argv;
  std::string script;
  std::string workdir;                      // absolute
  std::map<std::string, std::string> env;   // the job's whole environment
  std::string stdout_path;                  // pattern with %j, %x, %A, %a, %u, %%
  std::string stderr_path;                  // empty = with stdout
  Resources res;
  std::string partition, account, qos, backend;  // backend "": kDefaultBackend
  // Components 1, 2, ... of a heterogeneous job; empty for an ordinary job.
  std::vector<Component> components;
  // "" (the backend's own launch) or "mpirun": one mpirun runs argv with res.ntasks
  // ranks, then each component's argv with its ntasks, as app contexts of one world.
  std::string launcher;
  // slurm-steps in a heterogeneous allocation: the component its step runs in (srun
  // --het-group); -1 = not given (component 0).
  int het_group = -1;
  int priority = 0;
  // The scheduler's own kinds of job (--job-type: besteffort, container, inner=ID,
  // idempotent, ...), passed on as they are; a backend that has no such kinds ignores
  // them (yard submit warns), so that a script that names them runs unchanged anywhere.
  std::vector<std::string> job_types;
  // --requeue / --no-requeue: whether a job that the scheduler preempted (a best-effort
  // job killed for another) is submitted again; nullopt: the class's or the backend's
  // default (not).
  std::optional<bool> requeue;
  // sbatch's options that yard has no field for (core/sbatch_options.h), in order: a
  // Slurm job gets them unchanged; other backends warn about or refuse them.
  SbatchSettings slurm_options;
  std::vector<Dependency> dependencies;
  bool dependency_any = false;  // '?': any one of the dependencies suffices (else all)
  std::optional<ArraySpec> array;
  // Tried again when it ends badly for a listed cause (core/retry_policy.h); the local
  // backend carries it out (others: not yet).
  std::optional<RetryPolicy> retry;

  // Checks everything a backend relies on; the message names the field and the value.
  Status validate() const;

  // --open-mode; nullopt when not given (the backend's default: truncate for local jobs,
  // the cluster's JobFileAppend on Slurm). It travels in `env` as kOpenModeVariable,
  // because the spec's JSON codec has no field for it yet; backends read it here and
  // keep the variable out of the job's environment. Only these two know where it is.
  std::optional<OpenMode> open_mode() const;
  void set_open_mode(std::optional<OpenMode> mode);

  // What the job holds in all, components included (what a scheduler must find). In 64
  // bits and saturated; validate() refuses a job whose totals overflow or exceed
  // kMaxJobCount, so after it they fit an int.
  std::int64_t total_cpus() const;
  std::uint64_t total_mem_bytes() const;
  std::int64_t total_gpus() const;
  std::int64_t total_ntasks() const;
};

// The environment variable that carries a spec's open mode ("append" or "truncate").
inline constexpr const char* kOpenModeVariable = "YARD_OPEN_MODE";

// An error naming the first of the job's sbatch options that would change its result
// (--begin, --hold, ...) and that `backend` does not honour (`honours(long name)`), or
// nothing.
Status refuse_unhonoured_options(const JobSpec& spec, std::string_view backend,
                                 const std::function<bool(std::string_view)>& honours);

// One line for each of the job's sbatch options that changes nothing in its result and
// that `backend` does not honour ("--constraint=haswell: backend local does not honour
// it"), and for --gres and --job-type when it honours neither: ignored, said once each.
std::vector<std::string> unhonoured_option_warnings(const JobSpec& spec, std::string_view backend,
                                                    const std::function<bool(std::string_view)>& honours);

void to_json(nlohmann::json& j, const JobSpec& s);
// The same without "env" (the store keeps environments apart, once each).
nlohmann::json spec_json_without_env(const JobSpec& s);
void from_json(const nlohmann::json& j, JobSpec& s);

}  // namespace yard

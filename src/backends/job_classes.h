// Classes of jobs (Melissa's slurm-semiglobal: "some jobs indirect, others direct, chosen
// per job or per class"): slurm.yaml's `classes:` names a class and the backend its jobs
// run on, with defaults for what a job of the class does not say itself.
//
//   classes:
//     sweep: slurm-steps            # a name and a backend
//     big:                          # or a map: backend, then defaults
//       backend: slurm
//       partition: cpu
//       account: proj
//       qos: normal
//       time: 2:00:00
//     scavenge:                     # best-effort jobs, submitted again when preempted
//       backend: slurm
//       qos: scavenger
//       requeue: true
//
// `yard submit --class sweep ...` then needs no --backend.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/job_spec.h"
#include "core/result.h"

namespace yard {

struct JobClass {
  std::string backend;                 // any backend the daemon has (checked when a job names the class)
  std::string partition, account, qos;  // defaults: "" = none
  std::int64_t walltime_s = 0;          // default; 0 = none
  std::vector<std::string> job_types;   // added to the job's own (besteffort, ...)
  std::optional<bool> requeue;          // default for --requeue / --no-requeue
};

using JobClasses = std::map<std::string, JobClass>;

// Puts `spec` in class `name`: its backend, and the class's defaults for what the spec
// leaves unset. An unknown class, or a --backend other than the class's, is an error
// naming the class and the known ones; `spec` is unchanged then.
Status apply_job_class(JobSpec& spec, const std::string& name, const JobClasses& classes);

}  // namespace yard

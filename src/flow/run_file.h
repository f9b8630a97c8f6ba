// Run files: a list of jobs with dependencies by name, for `yard run FILE.yaml`.
//
//   jobs:
//     - name: prepare
//       command: echo preparing          # a string runs under /bin/sh -c; a list is argv
//     - name: simulate
//       command: ["./sim", "--case", "1"]
//       array: 0-9%4
//       cpus_per_task: 2
//       mem: 1G
//       time: "10:00"
//       after: [prepare]                 # afterok on those jobs
//     - name: big
//       command: ./analyse
//       flags: -p cpu -t 1:00:00 --backend slurm -A proj   # any flag of yard submit
//       after: [simulate]
//
// Keys per job: name (unique, required), command (required), ntasks, cpus_per_task,
// mem, mem_per_cpu, gpus, time, array, priority, output, error, chdir, after, and flags:
// every flag a job of `yard submit` takes (its partition, account, class, backend,
// sbatch's other options ...), a string split as an #SBATCH line or a list of words; the
// other keys, when given too, win.
// Errors name the file, line and key.
#pragma once

#include <string>
#include <vector>

#include "core/job_spec.h"
#include "core/result.h"

namespace yard {

struct RunJob {
  std::string name;
  JobSpec spec;                     // dependencies not yet filled in
  std::vector<std::string> after;   // names of jobs this one waits for (afterok)
  std::string job_class;            // --class among its flags ("": none)
};

// Jobs in an order where each comes after those it depends on. `base_dir` resolves
// relative chdir values; `env` is every job's environment.
Result<std::vector<RunJob>> load_run_file(const std::string& path, const std::string& base_dir,
                                          const std::map<std::string, std::string>& env);

}  // namespace yard

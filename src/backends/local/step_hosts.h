// Where a direct-mode job's tasks run among an allocation's slots (a slot: one core, or
// one line of a host file, each naming its host): shared by every scheduler's steps
// backend that launches a job onto its hosts itself.
#pragma once

#include <string>
#include <vector>

#include "core/job_spec.h"
#include "local/launch_plan.h"

namespace yard {

// The host of each of the job's tasks, in task order: task k holds slots
// [k*cpus_per_task, (k+1)*cpus_per_task) of those it was given (plan.pus, as slot
// numbers); the job's own tasks first, then each component's (MPMD).
std::vector<std::string> task_hosts(const LaunchPlan& plan, const JobSpec& spec, const std::vector<std::string>& slots);

// The host of each slot the job was given, in order (its own node file's lines).
std::vector<std::string> slot_hosts(const LaunchPlan& plan, const std::vector<std::string>& slots);

// mpirun's --host: each host once, with the number of the job's tasks on it, in order.
std::string mpirun_hosts(const std::vector<std::string>& tasks);

// `env` with KEY set to `value` (an earlier KEY dropped).
void set_env(std::vector<std::string>& env, const std::string& key, const std::string& value);

}  // namespace yard

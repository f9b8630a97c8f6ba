// A yard job's state as Slurm names it: its long name (squeue %T, sacct State) and its
// compact code (squeue %t, StateCompact), and the states Slurm's -t/--state lists name.
// LOST (what ran it vanished) is Slurm's NODE_FAIL; UNKNOWN (yard cannot tell now) shows
// as RUNNING once started, else PENDING: never as an end, so a tool keeps waiting.
#pragma once

#include <string>
#include <vector>

#include "core/job_record.h"
#include "core/result.h"

namespace yard::slurm_front {

std::string slurm_state(const JobRecord& j);          // "PENDING", "OUT_OF_MEMORY", ...
std::string slurm_state_compact(const JobRecord& j);  // "PD", "OOM", ...
bool slurm_ended(const JobRecord& j);

// "all", or a comma list of long names or compact codes, in any case: the yard states
// they cover (Slurm's states that yard never has cover none). An unknown name is an
// error naming it, in squeue's words.
Result<std::vector<JobState>> yard_states_of(const std::string& list);

}  // namespace yard::slurm_front

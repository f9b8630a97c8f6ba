// Packing a flow's small steps (submit_many): the steps of one foreach that are the same
// job but for their command (backend, class, resources, options, directory, environment,
// needs, log directory) are submitted as one array to a backend where each submission
// costs (Backend::packs_steps: a cluster's), one submission for up to kMaxPack of them
// (one sbatch for a thousand steps). The local backend starts jobs at once: there, an
// element that must read the pack's script would only cost more. Each element is one step, with
// its own job id, state, exit code and log (<run dir>/<foreach name>_<N>.out, N its place
// in the pack), and a run again finds it under the step's own key as before.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/job_spec.h"
#include "protocol/messages.h"

namespace yard {

// Slurm's default MaxArraySize is 1001 (indices up to 1000); a pack of this many keeps the
// dispatching script small for every backend.
inline constexpr std::size_t kMaxPack = 1000;

// Whether a job may be packed (into an array, or a series: server/step_series.h): a
// command (not a script, an array or a het job), no retries (a cluster retries jobs, not
// elements), the flow's environment, and its log alone in the run directory.
bool may_pack(const SubmitManyRequest::Job& job);
// What must be equal for two jobs to be packed together: everything but their command,
// name and log, with their foreach, class, needs and log directory.
std::string pack_signature(const SubmitManyRequest::Job& job);
// The directory of a job's log.
std::string log_directory(const JobSpec& s);

// The packs among the request's jobs that may be packed (`candidates[i]`: submitted now,
// to a backend that packs steps): each the indices of two or more jobs, in request order,
// at most kMaxPack. Their environment is the flow's, not compared.
std::vector<std::vector<std::size_t>> find_packs(const SubmitManyRequest& r, const std::vector<bool>& candidates);

// The array that runs a pack: element N (from 1) runs the Nth job's command, its log in the
// directory of the jobs' logs.
JobSpec packed_spec(const SubmitManyRequest& r, const std::vector<std::size_t>& pack);

}  // namespace yard

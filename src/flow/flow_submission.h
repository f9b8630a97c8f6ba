// A flow made into the daemon's request for one run of it (submit_many with a flow,
// protocol/messages.h), the same for every client that runs workflow files: `yard run`
// and the web platform's workflow runs.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/result.h"
#include "flow/flow.h"
#include "protocol/messages.h"

namespace yard {

// Steps that name no output log into `run_dir` (one file per step, named by it; such a
// step may be packed with its foreach siblings, one that names its own log may not), and
// the directories of every step's logs and outputs are made: a job whose output cannot be
// opened would fail at its start. Errors name the step and its line. `logged_there`: set
// when some step logs into `run_dir`.
Status prepare_flow_run(Flow& flow, const std::string& run_dir, bool* logged_there = nullptr);

// The request: each step's job with its key (flow/step_key.h) from the digests of the
// flow's inputs (`known`: what the daemon keeps for unchanged files, as it answers a
// DigestsRequest for external_inputs(flow); the others are read now, `reading` told of
// each with its size), and `again` the steps (by name, or a foreach's rule) asked to run
// again.
Result<SubmitManyRequest> flow_submission(const Flow& flow, const std::string& run_dir, const std::set<std::string>& again,
                                          const std::vector<FileDigest>& known,
                                          const std::function<void(const std::string&, std::int64_t)>& reading = {});

}  // namespace yard

// A flow's run, the daemon's half (submit_many with a flow, protocol/messages.h): which of
// its steps are already done or under way under the same key, and so are not submitted
// again, and the record of the run (the flow, its steps, the digests of their inputs).
#pragma once

#include <cstdint>
#include <vector>

#include "protocol/messages.h"
#include "store/store.h"

namespace yard {

// Each step's origin and, for those not submitted, the ids of the jobs it takes.
struct FlowPlan {
  std::vector<StepOrigin> origins;
  std::vector<std::vector<std::int64_t>> ids;  // empty for a step to submit
};
Result<FlowPlan> plan_flow(Store& store, const SubmitManyRequest& request);

// The run as stored the first time its key was seen (a client asking again after a broken
// connection), or nothing.
Result<std::optional<SubmitManyReply>> replayed_flow(Store& store, const std::string& key);

// Stores the run: the flow, a step per job (its name, its first id), the inputs' digests.
// In the iteration's transaction, with the jobs.
Result<std::int64_t> record_flow(Store& store, const SubmitManyRequest& request, const std::vector<std::string>& names,
                                 const SubmitManyReply& reply, double now);

}  // namespace yard

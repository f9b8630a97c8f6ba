// The daemon's answers to the read side of its protocol (protocol/queries.h): jobs by
// query and page, one job in full, a byte range of a job's output, and the accounts as
// the scheduling policy computes them; flows and file digests. Read-only; testable
// without a socket.
#pragma once

#include "client/paths.h"
#include "protocol/flows.h"
#include "protocol/queries.h"
#include "store/store.h"

namespace yard {

// The most jobs one reply carries (a larger or no limit is cut to it; `next` continues).
constexpr std::size_t kMaxJobsPage = 5000;

Result<JobsReply> handle(Store& store, const JobsRequest& request);
Result<JobReply> handle(Store& store, const JobRequest& request);
Result<LogsReply> handle(Store& store, const LogsRequest& request);
// From the policy file `paths.policy` and the usage the store holds.
Result<AccountsReply> handle(Store& store, const Paths& paths, const AccountsRequest& request, double now);
// Flows (flow_requests.cpp, protocol/flows.h).
Result<FlowsReply> handle(Store& store, const FlowsRequest& request);
Result<FlowReply> handle(Store& store, const FlowRequest& request);
Result<DigestsReply> handle(Store& store, const DigestsRequest& request);

}  // namespace yard

// The daemon's answers about flows (protocol/flows.h): read from the store, where each
// step's state is its jobs'.
#include "server/read_requests.h"

namespace yard {

// The most file digests one request may ask for: a flow's inputs, not a file system.
constexpr std::size_t kMaxDigestPaths = 1'000'000;

Result<FlowsReply> handle(Store& store, const FlowsRequest& r) {
  auto flows = store.flows(static_cast<std::size_t>(r.limit));
  if (!flows) return flows.failure();
  return FlowsReply{std::move(*flows)};
}

Result<FlowReply> handle(Store& store, const FlowRequest& r) {
  auto flow = store.flow(r.id);
  if (!flow) return flow.failure();
  if (!*flow) return Error{"no flow " + std::to_string(r.id), ErrorKind::NotFound};
  auto steps = store.flow_steps(r.id);
  if (!steps) return steps.failure();
  return FlowReply{std::move(**flow), std::move(*steps)};
}

Result<DigestsReply> handle(Store& store, const DigestsRequest& r) {
  if (r.paths.size() > kMaxDigestPaths)
    return Error{"a digests request may ask for at most " + std::to_string(kMaxDigestPaths) + " paths", ErrorKind::Invalid};
  auto digests = store.file_digests(r.paths);
  if (!digests) return digests.failure();
  return DigestsReply{std::move(*digests)};
}

}  // namespace yard

// The client's questions about flows (protocol/flows.h).
#include "client/daemon_client.h"

namespace yard {
namespace {
constexpr int kFlowReadTimeoutMs = 30000;
}

Result<FlowsReply> DaemonClient::flows(std::int64_t limit) {
  auto line = ask(encode_request(FlowsRequest{limit}), kFlowReadTimeoutMs, false);
  if (!line) return line.failure();
  return decode_flows_reply(*line);
}

Result<FlowReply> DaemonClient::flow(std::int64_t id) {
  auto line = ask(encode_request(FlowRequest{id}), kFlowReadTimeoutMs, false);
  if (!line) return line.failure();
  return decode_flow_reply(*line);
}

Result<DigestsReply> DaemonClient::digests(const DigestsRequest& request) {
  auto line = ask(encode_request(request), kFlowReadTimeoutMs, false);
  if (!line) return line.failure();
  return decode_digests_reply(*line);
}

}  // namespace yard

// What the protocol's codec files share (messages.cpp: the changing requests;
// queries.cpp: the read side; flows.cpp: flows). Internal to src/protocol/.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "protocol/messages.h"

namespace yard {

// One line of JSON. Job texts travel encoded (core/byte_json.h); anything else that is
// not UTF-8 is replaced, not thrown.
inline std::string line_of(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The reply object, or the refusal it carries.
Result<nlohmann::json> reply_object(std::string_view line);

template <typename T, typename F>
Result<T> decode_with(std::string_view line, F read) {
  auto j = reply_object(line);
  if (!j) return j.failure();
  try {
    return read(*j);
  } catch (const std::exception& e) {
    return Error{std::string("bad reply from the daemon: ") + e.what(), ErrorKind::Internal};
  }
}

nlohmann::json query_request_json(const JobsRequest& r);
nlohmann::json query_request_json(const JobRequest& r);
nlohmann::json query_request_json(const LogsRequest& r);
nlohmann::json query_request_json(const AccountsRequest& r);
nlohmann::json query_request_json(const RoutesRequest& r);
nlohmann::json query_request_json(const RoutesMoveRequest& r);
nlohmann::json query_request_json(const WaitRequest& r);
nlohmann::json query_request_json(const WatchRequest& r);
// A read-side request of operation `op`, or nullopt if `op` is none of them; a
// malformed one is an Invalid error naming the operation and the field.
std::optional<Result<Request>> decode_query_request(const std::string& op, const nlohmann::json& j);

// The same for flows (flows.cpp).
nlohmann::json flow_request_json(const FlowsRequest& r);
nlohmann::json flow_request_json(const FlowRequest& r);
nlohmann::json flow_request_json(const DigestsRequest& r);
std::optional<Result<Request>> decode_flow_request(const std::string& op, const nlohmann::json& j);

}  // namespace yard

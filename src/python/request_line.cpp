#include "python/request_line.h"

#include <type_traits>

namespace yard {
namespace {

template <typename Reply>
Result<std::string> encoded(Result<Reply> reply) {
  if (!reply) return reply.failure();
  return encode_reply(*reply);
}

}  // namespace

Result<std::string> request_line(DaemonClient& client, std::string_view line) {
  auto request = decode_request(line);
  if (!request) return request.failure();
  return std::visit(
      [&client](auto& r) -> Result<std::string> {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, SubmitRequest>) return encoded(client.submit(std::move(r)));
        else if constexpr (std::is_same_v<R, SubmitManyRequest>) return encoded(client.submit_many(std::move(r)));
        else if constexpr (std::is_same_v<R, CancelRequest>) return encoded(client.cancel(r));
        else if constexpr (std::is_same_v<R, JobActionRequest>) return encoded(client.act(r));
        else if constexpr (std::is_same_v<R, PingRequest>) return encoded(client.ping());
        else if constexpr (std::is_same_v<R, ShutdownRequest>) return encoded(client.shutdown(r));
        else if constexpr (std::is_same_v<R, JobsRequest>) return encoded(client.jobs(r));
        else if constexpr (std::is_same_v<R, JobRequest>) return encoded(client.job(r.id));
        else if constexpr (std::is_same_v<R, LogsRequest>) return encoded(client.logs(r));
        else if constexpr (std::is_same_v<R, AccountsRequest>) return encoded(client.accounts());
        else if constexpr (std::is_same_v<R, RoutesRequest>) return encoded(client.routes());
        else if constexpr (std::is_same_v<R, RoutesMoveRequest>) return encoded(client.move_jobs(r));
        else if constexpr (std::is_same_v<R, FlowsRequest>) return encoded(client.flows(r.limit));
        else if constexpr (std::is_same_v<R, FlowRequest>) return encoded(client.flow(r.id));
        else if constexpr (std::is_same_v<R, DigestsRequest>) return encoded(client.digests(r));
        else if constexpr (std::is_same_v<R, WaitRequest> || std::is_same_v<R, WatchRequest>)
          return Error{"wait and watch keep their connection open: use their own calls, not a request line",
                       ErrorKind::Invalid};
        else static_assert(!sizeof(R), "a request the module does not send");
      },
      *request);
}

}  // namespace yard

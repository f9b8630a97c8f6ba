// The client library's read side: queries, and the two streams (wait, watch).
#include <chrono>
#include <thread>

#include "client/daemon_client.h"
#include "client/daemon_lock.h"
#include "core/clock.h"

namespace yard {
namespace {

// How long a read request waits for its reply.
constexpr int kReadTimeoutMs = 30000;
// How long a stream keeps trying to reach a daemon that went away (restarting).
constexpr double kReconnectWindowS = 60;

}  // namespace

Result<JobsReply> DaemonClient::jobs(const JobsRequest& request) {
  auto line = ask(encode_request(request), kReadTimeoutMs, false);
  if (!line) return line.failure();
  return decode_jobs_reply(*line);
}

Result<std::vector<JobRecord>> DaemonClient::all_jobs(JobQuery query) {
  std::vector<JobRecord> out;
  for (;;) {
    auto page = jobs(JobsRequest{query});
    if (!page) return page.failure();
    if (out.empty()) out = std::move(page->jobs);
    else out.insert(out.end(), std::make_move_iterator(page->jobs.begin()), std::make_move_iterator(page->jobs.end()));
    if (!page->next) return out;
    query.after = page->next;
  }
}

Result<JobReply> DaemonClient::job(std::int64_t id) {
  auto line = ask(encode_request(JobRequest{id}), kReadTimeoutMs, false);
  if (!line) return line.failure();
  return decode_job_reply(*line);
}

Result<LogsReply> DaemonClient::logs(const LogsRequest& request) {
  auto line = ask(encode_request(request), kReadTimeoutMs, false);
  if (!line) return line.failure();
  return decode_logs_reply(*line);
}

Result<AccountsReply> DaemonClient::accounts() {
  auto line = ask(encode_request(AccountsRequest{}), kReadTimeoutMs, false);
  if (!line) return line.failure();
  return decode_accounts_reply(*line);
}

Result<RoutesReply> DaemonClient::routes() {
  auto line = ask(encode_request(RoutesRequest{}), kReadTimeoutMs, false);
  if (!line) return line.failure();
  return decode_routes_reply(*line);
}

Result<RoutesMoveReply> DaemonClient::move_jobs(const RoutesMoveRequest& request) {
  auto line = ask(encode_request(request), kReadTimeoutMs, !request.dry_run);  // a move done twice moves nothing more
  if (!line) return line.failure();
  return decode_routes_move_reply(*line);
}

Result<LineStream> DaemonClient::open_stream(const std::string& line) {
  const double start = monotonic_now();
  auto delay = std::chrono::milliseconds(2);
  for (;;) {
    auto s = LineStream::open(paths_.socket, line);
    if (s || !autostart_) return s;
    if (monotonic_now() - start > kReconnectWindowS) return s.failure();
    if (daemon_lock_holder(paths_.lock)) {  // restarting: it will listen again
      std::this_thread::sleep_for(delay);
      delay = std::min(delay * 2, std::chrono::milliseconds(200));
      continue;
    }
    bool refused = false;
    if (auto started = start_daemon(paths_, &refused); !started && (refused || !daemon_lock_holder(paths_.lock)))
      return started.failure();
  }
}

Result<std::optional<WaitReply>> DaemonClient::wait(const WaitRequest& request, double timeout_s) {
  const double deadline = timeout_s > 0 ? monotonic_now() + timeout_s : 0;
  const std::string line = encode_request(request);
  for (;;) {
    auto stream = open_stream(line);
    if (!stream) return stream.failure();
    std::string reply;
    const int left_ms = deadline > 0 ? std::max(0, static_cast<int>((deadline - monotonic_now()) * 1000)) : -1;
    switch (stream->next(reply, left_ms)) {
      case LineStream::Got::Line: {
        auto r = decode_wait_reply(reply);
        if (!r) return r.failure();
        return std::optional<WaitReply>(std::move(*r));
      }
      case LineStream::Got::Timeout:
        return std::optional<WaitReply>();
      case LineStream::Got::Closed:
        break;  // the daemon went away (it restarts, or is started again): ask again
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (deadline > 0 && monotonic_now() >= deadline) return std::optional<WaitReply>();
  }
}

Status DaemonClient::watch(WatchRequest request, const std::function<bool(const LoggedEvent&)>& on_event) {
  double last_progress = monotonic_now();
  for (;;) {
    if (monotonic_now() - last_progress > kReconnectWindowS)
      return unavailable("the daemon keeps closing the event stream; see " + paths_.log);
    auto stream = open_stream(encode_request(request));
    if (!stream) return stream.failure();
    std::string line;
    while (stream->next(line, -1) == LineStream::Got::Line) {
      auto got = decode_watch_line(line);
      if (!got) return got.failure();
      if (!got->event) return {};
      request.since = got->event->id;
      last_progress = monotonic_now();
      if (!on_event(*got->event)) return {};
    }
    // The connection was lost: from the last event seen, on a daemon started again.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

Result<std::vector<LoggedEvent>> DaemonClient::poll_events(WatchRequest request, double timeout_s, std::size_t max_events) {
  request.follow = true;
  auto stream = open_stream(encode_request(request));
  if (!stream) return stream.failure();
  std::vector<LoggedEvent> out;
  std::string line;
  // The first event within the timeout; then what follows on its heels (the log's
  // backlog comes in a burst; a few ms between two lines is its end).
  int wait_ms = std::max(0, static_cast<int>(timeout_s * 1000));
  while (out.size() < max_events && stream->next(line, wait_ms) == LineStream::Got::Line) {
    auto got = decode_watch_line(line);
    if (!got) return got.failure();
    if (!got->event) break;
    out.push_back(std::move(*got->event));
    wait_ms = 5;
  }
  return out;
}

}  // namespace yard

#include "client/daemon_client.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <thread>

#include "client/connection.h"
#include "client/daemon_lock.h"
#include "client/daemon_program.h"
#include "client/start_report.h"
#include "core/clock.h"
#include "core/file_text.h"
#include "core/uid.h"

namespace yard {
namespace {

// How long a request may keep being retried while its daemon restarts (after a crash, or
// after a store fault it restarts itself from the store).
constexpr double kRetryWindowS = 60;
// How long one request waits for its reply before the client looks whether a daemon
// still holds the state directory (then it waits on, up to its patience).
constexpr int kRequestTimeoutMs = 30000;
// How long a request that changes something waits for a daemon that holds the state
// directory but does not answer, before its outcome is reported unknown.
constexpr double kDefaultPatienceS = 600;

// Reads the starting daemon's one line (start_report.h) until `deadline`.
std::string read_start_report(int fd, double deadline) {
  std::string line;
  char buf[4096];
  while (line.find('\n') == std::string::npos) {
    const auto left = static_cast<long>((deadline - monotonic_now()) * 1000);
    if (left <= 0) return "timeout";
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) return line.empty() ? "exited" : line;
    line.append(buf, static_cast<std::size_t>(n));
  }
  return line.substr(0, line.find('\n'));
}

// Spawns the daemon (yardd), detached, and returns what it reported (start_report.h).
Result<std::string> spawn_daemon(const Paths& paths, double deadline) {
  const std::string program = daemon_program();
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) return unavailable("cannot create a pipe to start the daemon");
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(report[0]);
    ::close(report[1]);
    return unavailable("cannot fork the daemon");
  }
  if (pid == 0) {
    ::setsid();
    if (::fork() != 0) ::_exit(0);  // the daemon is nobody's child: no zombie, no terminal
    if (::chdir("/") != 0) ::_exit(127);  // nor anybody's directory (server/daemon.cpp)
    int null = ::open("/dev/null", O_RDWR);
    int log = ::open(paths.log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    ::dup2(null, 0);
    ::dup2(log >= 0 ? log : null, 1);
    ::dup2(log >= 0 ? log : null, 2);
    // The report pipe as descriptor 3, kept across exec; everything else closed.
    if (report[1] == 3) ::fcntl(3, F_SETFD, 0);
    else ::dup2(report[1], 3);
    ::close_range(4, ~0U, 0);
    ::setenv(kStartReportEnv, "3", 1);
    ::execlp(program.c_str(), "yardd", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(report[1]);
  ::waitpid(pid, nullptr, 0);
  std::string said = read_start_report(report[0], deadline);
  ::close(report[0]);
  return said;
}

}  // namespace

Result<long> start_daemon(const Paths& paths, bool* refused) {
  if (auto s = ensure_dirs(paths); !s) return s.failure();
  const double deadline = monotonic_now() + 10;
  auto delay = std::chrono::milliseconds(2);
  while (monotonic_now() < deadline) {
    auto said = spawn_daemon(paths, deadline);
    if (!said) return said.failure();
    if (said->rfind("error ", 0) == 0 || *said == "exited") {
      if (refused) *refused = true;
      if (*said == "exited")
      return unavailable("the daemon (" + daemon_program() + ") exited as it started, or could not be run; see " +
                         paths.log);
      return unavailable("the daemon could not start: " + said->substr(6));
    }
    // "ready"; or "busy": another daemon, starting or restarting, holds this state
    // directory. Wait for it to answer; if it goes away instead (it could not start
    // either), start one again to learn why.
    while (monotonic_now() < deadline) {
      auto r = DaemonClient(paths).ping(2000);
      if (r) return r->pid;
      if (!daemon_lock_holder(paths.lock)) break;
      std::this_thread::sleep_for(delay);
      delay = std::min(delay * 2, std::chrono::milliseconds(100));
    }
  }
  if (auto holder = daemon_lock_holder(paths.lock))
    return unavailable("the daemon (pid " + std::to_string(*holder) + ") holds " + paths.state_dir +
                       " but did not answer on " + paths.socket + " within 10 s; see " + paths.log);
  return unavailable("the daemon did not start within 10 s; see " + paths.log);
}

double DaemonClient::patience_s() {
  if (const char* v = std::getenv("YARD_PATIENCE"); v && *v) {
    char* end = nullptr;
    const double s = std::strtod(v, &end);
    if (end && !*end && s >= 0) return s == 0 ? 1e12 : s;
  }
  return kDefaultPatienceS;
}

Result<std::string> DaemonClient::ask(const std::string& line, int timeout_ms, bool acts) {
  if (line.size() >= kMaxRequestBytes)
    return err("the request is " + readable_size(line.size()) + "; the daemon takes at most " +
               readable_size(kMaxRequestBytes));
  const double start = monotonic_now();
  const double patience = acts ? patience_s() : kRetryWindowS;
  bool maybe_done = false;  // a copy of the request reached a daemon that did not answer
  bool told = false;
  std::optional<pid_t> holder;
  auto tell_once = [&](const std::string& what) {
    if (told || !notice_) return;
    told = true;
    notice_(what);
  };
  auto give_up = [&](const std::string& why) -> Error {
    const std::string who = holder ? "the daemon (pid " + std::to_string(*holder) + ")" : "the daemon";
    if (!maybe_done) return unavailable(why);
    return Error{who + " did not answer within " + std::to_string(static_cast<long>(monotonic_now() - start)) +
                     " s: whether the request was carried out is unknown (it may have been: `yard status` tells; "
                     "YARD_PATIENCE sets how long to wait)",
                 ErrorKind::OutcomeUnknown};
  };
  auto delay = std::chrono::milliseconds(2);
  for (;;) {
    // A daemon that holds its state directory is alive, if slow (stopped, or stalled on a
    // hung or busy disk): it has the request, and is waited for.
    auto keep_waiting = [&](double waited_s) {
      if (!acts) return waited_s * 1000 < timeout_ms;
      holder = daemon_lock_holder(paths_.lock);
      if (!holder) return waited_s * 1000 < timeout_ms;
      if (monotonic_now() - start > patience) return false;
      if (waited_s >= 10)
        tell_once("the daemon (pid " + std::to_string(*holder) + ") has not answered for " +
                  std::to_string(static_cast<long>(waited_s)) + " s; waiting for it (YARD_PATIENCE: " +
                  std::to_string(static_cast<long>(patience)) + " s)");
      return true;
    };
    auto x = exchange(paths_.socket, line, keep_waiting);
    if (x.outcome == Exchange::Outcome::Replied) return x.text;
    if (x.outcome == Exchange::Outcome::NoReply) maybe_done = true;
    if (!autostart_) return maybe_done ? give_up(x.text) : unavailable(x.text);
    if (monotonic_now() - start > patience) return give_up(x.text);
    holder = daemon_lock_holder(paths_.lock);
    if (holder) {
      // Alive, but not taking requests on its socket: restarting, or making its socket
      // again after someone removed it. Asked again (a keyed request is stored once).
      if (monotonic_now() - start >= 10)
        tell_once("the daemon (pid " + std::to_string(*holder) + ") holds " + paths_.state_dir +
                  " but does not answer on " + paths_.socket + " (" + x.text + "); waiting for it");
      std::this_thread::sleep_for(delay);
      delay = std::min(delay * 2, std::chrono::milliseconds(200));
      continue;
    }
    bool refused = false;
    auto started = start_daemon(paths_, &refused);
    if (!started && (refused || !daemon_lock_holder(paths_.lock)))
      return maybe_done ? give_up(started.error()) : started.failure();
  }
}

Result<SubmitReply> DaemonClient::submit(SubmitRequest request) {
  // A submission carries a key of its own, so that sending it again after a broken
  // connection cannot store it twice: the daemon answers a known key with its ids.
  if (request.key.empty()) request.key = new_uid();
  const std::string encoded = encode_request(request);
  if (encoded.size() >= kMaxRequestBytes)
    return err("the job is " + readable_size(encoded.size()) + "; a submission can carry at most " +
               readable_size(kMaxRequestBytes) + " (the script, its arguments and its environment)");
  auto line = ask(encoded, kRequestTimeoutMs, true);
  if (!line) return line.failure();
  return decode_submit_reply(*line);
}

Result<SubmitManyReply> DaemonClient::submit_many(SubmitManyRequest request) {
  if (request.key.empty()) request.key = new_uid();
  const std::string encoded = encode_request(request);
  if (encoded.size() >= kMaxRequestBytes)
    return err("the flow's jobs are " + readable_size(encoded.size()) + "; a submission can carry at most " +
               readable_size(kMaxRequestBytes));
  // Storing many jobs takes the daemon longer than one: a minute before the outcome is
  // called unknown (it is then looked up by the key, never stored twice).
  auto line = ask(encoded, std::max(kRequestTimeoutMs, 60'000), true);
  if (!line) return line.failure();
  return decode_submit_many_reply(*line);
}

Result<CancelReply> DaemonClient::cancel(const CancelRequest& request) {
  auto line = ask(encode_request(request), kRequestTimeoutMs, true);
  if (!line) return line.failure();
  return decode_cancel_reply(*line);
}

Result<JobActionReply> DaemonClient::act(const JobActionRequest& request) {
  auto line = ask(encode_request(request), kRequestTimeoutMs, true);
  if (!line) return line.failure();
  return decode_cancel_reply(*line);
}

Result<PingReply> DaemonClient::ping(int timeout_ms) {
  auto line = ask(encode_request(PingRequest{}), timeout_ms, false);
  if (!line) return line.failure();
  return decode_ping_reply(*line);
}

Result<ShutdownReply> DaemonClient::shutdown(const ShutdownRequest& request) {
  auto line = ask(encode_request(request), kRequestTimeoutMs, true);
  if (!line) return line.failure();
  return decode_shutdown_reply(*line);
}

}  // namespace yard

#include "client/daemon_client.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "client/connection.h"
#include "core/clock.h"
#include "core/uid.h"
#include "server/daemon_lock.h"
#include "server/start_report.h"

namespace yard {
namespace {

// How long a request may keep being retried while its daemon restarts (after a crash, or
// after a store fault it restarts itself from the store).
constexpr double kRetryWindowS = 60;
// How long one request waits for its reply.
constexpr int kRequestTimeoutMs = 30000;

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

// Spawns `yard server run`, detached, and returns what it reported (start_report.h).
Result<std::string> spawn_daemon(const Paths& paths, double deadline) {
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
    char exe[4096];
    ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) ::_exit(127);
    exe[n] = 0;
    ::execl(exe, exe, "server", "run", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(report[1]);
  ::waitpid(pid, nullptr, 0);
  std::string said = read_start_report(report[0], deadline);
  ::close(report[0]);
  return said;
}

}  // namespace

Result<long> start_daemon(const Paths& paths) {
  if (auto s = ensure_dirs(paths); !s) return s.failure();
  const double deadline = monotonic_now() + 10;
  auto delay = std::chrono::milliseconds(2);
  while (monotonic_now() < deadline) {
    auto said = spawn_daemon(paths, deadline);
    if (!said) return said.failure();
    if (said->rfind("error ", 0) == 0) return unavailable("the daemon could not start: " + said->substr(6));
    if (*said == "exited") return unavailable("the daemon exited as it started; see " + paths.log);
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
  return unavailable("the daemon did not start within 10 s; see " + paths.log);
}

Result<std::string> DaemonClient::ask(const std::string& line, int timeout_ms) {
  const double give_up = monotonic_now() + kRetryWindowS;
  for (;;) {
    auto r = exchange_line(paths_.socket, line, timeout_ms);
    // No answer: the daemon is absent, or went away while handling the request (it may
    // have done it: the request is idempotent, so it is asked again).
    if (r || !autostart_ || monotonic_now() > give_up) return r;
    auto started = start_daemon(paths_);
    if (!started) return started.failure();
  }
}

Result<SubmitReply> DaemonClient::submit(SubmitRequest request) {
  // A submission carries a key of its own, so that sending it again after a broken
  // connection cannot store it twice: the daemon answers a known key with its ids.
  if (request.key.empty()) request.key = new_uid();
  auto line = ask(encode_request(request), kRequestTimeoutMs);
  if (!line) return line.failure();
  return decode_submit_reply(*line);
}

Result<CancelReply> DaemonClient::cancel(const CancelRequest& request) {
  auto line = ask(encode_request(request), kRequestTimeoutMs);
  if (!line) return line.failure();
  return decode_cancel_reply(*line);
}

Result<PingReply> DaemonClient::ping(int timeout_ms) {
  auto line = ask(encode_request(PingRequest{}), timeout_ms);
  if (!line) return line.failure();
  return decode_ping_reply(*line);
}

Result<ShutdownReply> DaemonClient::shutdown(const ShutdownRequest& request) {
  auto line = ask(encode_request(request), kRequestTimeoutMs);
  if (!line) return line.failure();
  return decode_shutdown_reply(*line);
}

}  // namespace yard

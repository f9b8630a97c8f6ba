#include "cli/daemon_client.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "server/protocol.h"

namespace yard {

Result<long> start_daemon(const Paths& paths) {
  if (auto s = ensure_dirs(paths); !s) return Error{s.error()};
  pid_t pid = ::fork();
  if (pid < 0) return err("cannot fork the daemon");
  if (pid == 0) {
    ::setsid();
    if (::fork() != 0) ::_exit(0);  // the daemon is nobody's child: no zombie, no terminal
    int null = ::open("/dev/null", O_RDWR);
    int log = ::open(paths.log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    ::dup2(null, 0);
    ::dup2(log >= 0 ? log : null, 1);
    ::dup2(log >= 0 ? log : null, 2);
    ::close_range(3, ~0U, 0);
    char exe[4096];
    ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) ::_exit(127);
    exe[n] = 0;
    ::execl(exe, exe, "server", "run", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::waitpid(pid, nullptr, 0);
  // Wait on the condition "the daemon answers", with a deadline.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  auto delay = std::chrono::milliseconds(2);
  while (std::chrono::steady_clock::now() < deadline) {
    auto r = call_daemon(paths.socket, {{"op", "ping"}}, 2000);
    if (r && r->value("ok", false)) return r->value("pid", 0L);
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, std::chrono::milliseconds(100));
  }
  return err("the daemon did not start within 10 s; see " + paths.log);
}

Result<nlohmann::json> ask_daemon(const Paths& paths, const nlohmann::json& request, bool autostart) {
  auto r = call_daemon(paths.socket, request);
  if (!r && autostart) {
    auto started = start_daemon(paths);
    if (!started) return Error{started.error()};
    r = call_daemon(paths.socket, request);
  }
  if (!r) return r;
  if (!r->value("ok", false)) return err(r->value("error", std::string("the daemon refused the request")));
  return r;
}

}  // namespace yard

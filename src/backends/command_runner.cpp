#include "backends/command_runner.h"

#include <algorithm>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/clock.h"

extern char** environ;

namespace yard {
namespace {

// More output than any status call of a sane cluster; beyond it the rest is dropped.
constexpr std::size_t kMaxOutput = 256u << 20;

}  // namespace

std::string CommandResult::summary() const {
  std::string first = err.substr(0, err.find('\n'));
  if (first.empty()) first = out.substr(0, out.find('\n'));
  std::string what;
  if (not_started) what = "could not start";
  else if (timed_out) what = "timed out after " + std::to_string(static_cast<int>(seconds)) + " s";
  else if (signal) what = "killed by signal " + std::to_string(signal);
  else what = "exit " + std::to_string(exit_code);
  return first.empty() ? what : what + ": " + first;
}

CommandResult run_command(const std::vector<std::string>& argv, double timeout_s, const std::string& cwd,
                          const std::string& stdin_path) {
  CommandResult r;
  const double start = monotonic_now();
  if (argv.empty()) {
    r.not_started = true;
    r.err = "empty command";
    return r;
  }
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    r.not_started = true;
    r.err = std::string("cannot create a pipe: ") + std::strerror(errno);
    return r;
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]), ::close(out[1]);
    r.not_started = true;
    r.err = std::string("cannot create a pipe: ") + std::strerror(errno);
    return r;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, stdin_path.empty() ? "/dev/null" : stdin_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group, so a time-out kills whatever it started too; default signal
  // dispositions and an empty mask, whatever the daemon blocks.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, args[0], &fa, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(out[0]), ::close(err[0]);
    r.not_started = true;
    r.err = "cannot run '" + argv[0] + "'" + (cwd.empty() ? "" : " in " + cwd) + ": " + std::strerror(rc);
    r.seconds = monotonic_now() - start;
    return r;
  }

  const double deadline = start + timeout_s;
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds = 2;
  bool killed = false;
  char buf[65536];
  while (open_fds > 0) {
    double left = deadline - monotonic_now();
    if (left <= 0 && !killed) {
      ::kill(-pid, SIGKILL);
      killed = true;
      r.timed_out = true;
    }
    // After the kill, wait a little for the pipes to close (a grandchild that left the
    // group may hold them: then stop reading).
    int wait_ms = killed ? 1000 : static_cast<int>(left * 1000) + 1;
    int n = ::poll(fds, 2, wait_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (killed) break;
      continue;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !fds[i].revents) continue;
      ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        if (sinks[i]->size() < kMaxOutput) sinks[i]->append(buf, static_cast<std::size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.seconds = monotonic_now() - start;
  return r;
}

CommandWorker::CommandWorker(int threads) {
  event_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { loop(); });
}

CommandWorker::~CommandWorker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    queue_.clear();
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
  if (event_fd_ >= 0) ::close(event_fd_);
}

void CommandWorker::post(Command c) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(c));
  }
  cv_.notify_one();
}

std::vector<CompletedCommand> CommandWorker::take_completed() {
  std::uint64_t n;
  while (::read(event_fd_, &n, sizeof n) > 0) {
  }
  std::lock_guard<std::mutex> lock(mu_);
  return std::exchange(done_, {});
}

void CommandWorker::loop() {
  for (;;) {
    Command c;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      c = std::move(queue_.front());
      queue_.pop_front();
    }
    CommandResult r = run_command(c.argv, c.timeout_s, c.cwd, c.stdin_path);
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_.push_back({std::move(c), std::move(r)});
    }
    const std::uint64_t one = 1;
    (void)!::write(event_fd_, &one, sizeof one);
  }
}

}  // namespace yard

#include "local/job_host_link.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

extern char** environ;

namespace yard {

Result<JobHostLink> JobHostLink::start() {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    return err(std::string("cannot create the job host's socket: ") + std::strerror(errno));
  for (int fd : sv) {
    ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &kMaxHostMessage, sizeof kMaxHostMessage);
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &kMaxHostMessage, sizeof kMaxHostMessage);
  }
  // The host's end becomes its descriptor 3 (dup2 clears close-on-exec); all else the
  // daemon holds is close-on-exec. posix_spawn is vfork + exec: cheap, and thread-safe.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, sv[1], 3);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // The host starts with its signals blocked (the mask survives exec): a cancel or revoke
  // sent while it still loads, before its signalfd exists, waits for it instead of
  // killing it (their default action), however slowly it starts.
  const sigset_t held = host_signals();
  posix_spawnattr_setsigmask(&attr, &held);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  char arg0[] = "yardd", arg1[] = "__job-host", arg2[] = "3";
  char* argv[] = {arg0, arg1, arg2, nullptr};
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, "/proc/self/exe", &actions, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(sv[1]);
  if (rc != 0) {
    ::close(sv[0]);
    return err(std::string("cannot start the job host: ") + std::strerror(rc));
  }
  // Our unreaped child: the pid cannot have been reused.
  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) {
    ::close(sv[0]);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return err(std::string("cannot watch the job host (pidfd_open): ") + std::strerror(errno));
  }
  ::fcntl(sv[0], F_SETFL, ::fcntl(sv[0], F_GETFL) | O_NONBLOCK);
  return JobHostLink(sv[0], pid, pidfd);
}

JobHostLink::JobHostLink(JobHostLink&& o) noexcept : sock_(o.sock_), pid_(o.pid_), pidfd_(o.pidfd_) {
  o.sock_ = o.pidfd_ = -1;
  o.pid_ = 0;
}

JobHostLink& JobHostLink::operator=(JobHostLink&& o) noexcept {
  if (this != &o) {
    close_all();
    sock_ = o.sock_;
    pid_ = o.pid_;
    pidfd_ = o.pidfd_;
    o.sock_ = o.pidfd_ = -1;
    o.pid_ = 0;
  }
  return *this;
}

JobHostLink::~JobHostLink() { close_all(); }

void JobHostLink::close_all() {
  if (sock_ >= 0) ::close(sock_);
  if (pidfd_ >= 0) ::close(pidfd_);
  sock_ = pidfd_ = -1;
}

Status JobHostLink::launch(std::int64_t job_id, const LaunchPlan& plan, int record_fd, std::int64_t after) {
  const std::string text = encode_launch(job_id, plan, after);
  if (text.size() >= static_cast<std::size_t>(kMaxHostMessage))
    return err("the job's command and environment are too large (" + std::to_string(text.size()) +
               " bytes; at most " + std::to_string(kMaxHostMessage) + ")");
  // The socket is non-blocking for reports; a launch waits for room (the host drains its
  // requests before anything else it does).
  for (;;) {
    if (send_with_fd(sock_, text, record_fd, false)) return {};
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOBUFS) break;
    pollfd p{sock_, POLLOUT, 0};
    ::poll(&p, 1, 1000);
  }
  return err(std::string("the job host does not answer: ") + std::strerror(errno));
}

std::vector<Ended> JobHostLink::take_reports() {
  std::vector<Ended> out;
  std::string text;
  for (;;) {
    int fd = -1;
    if (!recv_with_fd(sock_, text, fd)) break;
    if (fd >= 0) ::close(fd);
    out.push_back(decode_ended(text));
  }
  return out;
}

void JobHostLink::reap() {
  if (pid_ > 0) ::waitpid(pid_, nullptr, WNOHANG);
}

}  // namespace yard

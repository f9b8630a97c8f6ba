#include "local/launcher.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <vector>

#include "local/supervisor.h"

namespace yard {
namespace {

// Plans carry a job's whole environment; a SEQPACKET message must fit the socket buffer.
constexpr int kMaxMessage = 4 << 20;

int pidfd_open(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

// Sends `data` with at most one file descriptor attached.
bool send_with_fd(int sock, const std::string& data, int fd) {
  iovec iov{const_cast<char*>(data.data()), data.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  if (fd >= 0) {
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  }
  ssize_t n;
  do n = ::sendmsg(sock, &msg, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(data.size());
}

// Receives one message and the descriptor attached to it (-1 if none). Returns false at
// EOF or on error.
bool recv_with_fd(int sock, std::string& data, int& fd) {
  fd = -1;
  // The message's length first (SEQPACKET keeps boundaries), so no buffer of the
  // largest size is cleared for every message.
  ssize_t len;
  do len = ::recv(sock, nullptr, 0, MSG_PEEK | MSG_TRUNC);
  while (len < 0 && errno == EINTR);
  if (len <= 0) return false;
  data.resize(static_cast<std::size_t>(len));
  iovec iov{data.data(), data.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n;
  do n = ::recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n <= 0) return false;
  data.resize(static_cast<std::size_t>(n));
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
  return true;
}

void reap_children() {
  while (::waitpid(-1, nullptr, WNOHANG) > 0) {
  }
}

// The launcher's life: one request at a time, until the daemon goes away.
[[noreturn]] void serve(int sock) {
  // Keep stdio (errors of the supervisors' set-up go to the daemon's log) and our socket;
  // above all, not the daemon's lock, or a new daemon could not start while we linger.
  if (sock > 3) ::close_range(3, static_cast<unsigned>(sock) - 1, 0);
  ::close_range(static_cast<unsigned>(sock) + 1, ~0U, 0);
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &mask, nullptr);
  int sigfd = ::signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  for (int s : {SIGTERM, SIGINT, SIGHUP}) ::signal(s, SIG_IGN);  // the daemon decides when we end

  std::string request;
  for (;;) {
    pollfd fds[2] = {{sock, POLLIN, 0}, {sigfd, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) break;
    if (fds[1].revents) {
      signalfd_siginfo si;
      while (::read(sigfd, &si, sizeof si) > 0) {
      }
      reap_children();
    }
    if (!fds[0].revents) continue;
    int record_fd = -1;
    if (!recv_with_fd(sock, request, record_fd)) break;
    nlohmann::json reply;
    auto plan = decode_launch_plan(request);
    if (!plan) {
      reply = {{"error", plan.error()}};
    } else if (record_fd < 0) {
      reply = {{"error", "no run record was passed"}};
    } else {
      // The supervisor must not see our signal mask or our descriptors.
      pid_t pid = ::fork();
      if (pid == 0) {
        ::sigprocmask(SIG_UNBLOCK, &mask, nullptr);
        for (int s : {SIGTERM, SIGINT, SIGHUP}) ::signal(s, SIG_DFL);
        ::close(sock);
        ::close(sigfd);
        run_supervisor(*plan, record_fd);
      }
      if (pid < 0) {
        reply = {{"error", std::string("cannot fork a supervisor: ") + std::strerror(errno)}};
      } else {
        // Still our unreaped child, so the pid cannot have been reused yet.
        int pidfd = pidfd_open(pid);
        reply = {{"pid", pid}};
        std::string text = reply.dump();
        send_with_fd(sock, text, pidfd);
        if (pidfd >= 0) ::close(pidfd);
        ::close(record_fd);
        continue;
      }
    }
    if (record_fd >= 0) ::close(record_fd);
    send_with_fd(sock, reply.dump(), -1);
  }
  reap_children();
  ::_exit(0);
}

}  // namespace

std::string encode_launch_plan(const LaunchPlan& p) {
  return nlohmann::json{{"job_id", p.job_id},     {"uid", p.uid},
                        {"argv", p.argv},         {"env", p.env},
                        {"workdir", p.workdir},   {"stdout", p.stdout_path},
                        {"stderr", p.stderr_path}, {"pus", p.pus},
                        {"mem_limit_bytes", p.mem_limit_bytes}, {"walltime_s", p.walltime_s},
                        {"kill_grace_s", p.kill_grace_s}}
      .dump();
}

Result<LaunchPlan> decode_launch_plan(const std::string& text) {
  try {
    auto j = nlohmann::json::parse(text);
    LaunchPlan p;
    j.at("job_id").get_to(p.job_id);
    j.at("uid").get_to(p.uid);
    j.at("argv").get_to(p.argv);
    j.at("env").get_to(p.env);
    j.at("workdir").get_to(p.workdir);
    j.at("stdout").get_to(p.stdout_path);
    j.at("stderr").get_to(p.stderr_path);
    j.at("pus").get_to(p.pus);
    j.at("mem_limit_bytes").get_to(p.mem_limit_bytes);
    j.at("walltime_s").get_to(p.walltime_s);
    j.at("kill_grace_s").get_to(p.kill_grace_s);
    if (p.argv.empty()) return err("launch plan has no command");
    return p;
  } catch (const std::exception& e) {
    return err(std::string("malformed launch plan: ") + e.what());
  }
}

Result<Launcher> Launcher::start() {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    return err(std::string("cannot create the launcher's socket: ") + std::strerror(errno));
  for (int fd : sv) {
    ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &kMaxMessage, sizeof kMaxMessage);
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &kMaxMessage, sizeof kMaxMessage);
  }
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(sv[0]);
    ::close(sv[1]);
    return err(std::string("cannot fork the launcher: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(sv[0]);
    serve(sv[1]);
  }
  ::close(sv[1]);
  return Launcher(sv[0], pid);
}

Launcher::Launcher(Launcher&& o) noexcept : sock_(o.sock_), pid_(o.pid_) {
  o.sock_ = -1;
  o.pid_ = 0;
}

Launcher::~Launcher() {
  if (sock_ >= 0) ::close(sock_);  // the launcher sees EOF and exits
  if (pid_ > 0) ::waitpid(pid_, nullptr, 0);
}

Result<Launched> Launcher::launch(const LaunchPlan& plan, int record_fd) {
  const std::string text = encode_launch_plan(plan);
  if (text.size() >= static_cast<std::size_t>(kMaxMessage))
    return err("the job's command and environment are too large (" + std::to_string(text.size()) +
               " bytes; at most " + std::to_string(kMaxMessage) + ")");
  if (!send_with_fd(sock_, text, record_fd))
    return err(std::string("the launcher does not answer: ") + std::strerror(errno));
  std::string reply;
  int pidfd = -1;
  if (!recv_with_fd(sock_, reply, pidfd)) return err("the launcher exited");
  try {
    auto j = nlohmann::json::parse(reply);
    if (j.contains("error")) {
      if (pidfd >= 0) ::close(pidfd);
      return err(j["error"].get<std::string>());
    }
    return Launched{j.at("pid").get<pid_t>(), pidfd};
  } catch (const std::exception& e) {
    if (pidfd >= 0) ::close(pidfd);
    return err(std::string("malformed answer from the launcher: ") + e.what());
  }
}

}  // namespace yard

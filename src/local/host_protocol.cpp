#include "local/host_protocol.h"

#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/byte_json.h"

namespace yard {

sigset_t host_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGCHLD, cancel_signal(), preempt_signal(), revoke_signal()}) sigaddset(&set, s);
  return set;
}
namespace {

std::int64_t leading_id(std::string_view& text, std::string_view prefix) {
  std::int64_t id = 0;
  if (text.substr(0, prefix.size()) != prefix) return 0;
  text.remove_prefix(prefix.size());
  auto nl = text.find('\n');
  auto head = text.substr(0, nl);
  std::from_chars(head.data(), head.data() + head.size(), id);
  text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
  return id;
}

}  // namespace

std::string encode_launch(std::int64_t job_id, const LaunchPlan& p, std::int64_t after) {
  return std::to_string(job_id) + (after > 0 ? " " + std::to_string(after) : std::string()) + "\n" +
         // Arguments, environment and paths are bytes (core/byte_json.h).
         nlohmann::json{{"uid", p.uid},
                        {"argv", byte_list_to_json(p.argv)},
                        {"env", byte_list_to_json(p.env)},
                        {"workdir", bytes_to_json(p.workdir)},
                        {"stdout", bytes_to_json(p.stdout_path)},
                        {"stderr", bytes_to_json(p.stderr_path)},
                        {"append_output", p.append_output},
                        {"pus", p.pus},
                        {"mem_limit_bytes", p.mem_limit_bytes},
                        {"memory_poll", p.memory_poll},
                        {"walltime_s", p.walltime_s},
                        {"warn_signal", p.warn_signal},
                        {"warn_before_s", p.warn_before_s},
                        {"warn_batch_only", p.warn_batch_only},
                        {"kill_grace_s", p.kill_grace_s}}
             .dump();
}

DecodedLaunch decode_launch(std::string_view text) {
  DecodedLaunch d{0, 0, err("")};
  {
    const auto nl = text.find('\n');
    const auto head = text.substr(0, nl);
    const auto space = head.find(' ');
    std::from_chars(head.data(), head.data() + std::min(space, head.size()), d.job_id);
    if (space != std::string_view::npos) std::from_chars(head.data() + space + 1, head.data() + head.size(), d.after);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
  }
  try {
    auto j = nlohmann::json::parse(text);
    LaunchPlan p;
    p.job_id = d.job_id;
    j.at("uid").get_to(p.uid);
    p.argv = byte_list_from_json(j.at("argv"));
    p.env = byte_list_from_json(j.at("env"));
    p.workdir = bytes_from_json(j.at("workdir"));
    p.stdout_path = bytes_from_json(j.at("stdout"));
    p.stderr_path = bytes_from_json(j.at("stderr"));
    p.append_output = j.value("append_output", false);  // absent from an older daemon's plans
    j.at("pus").get_to(p.pus);
    j.at("mem_limit_bytes").get_to(p.mem_limit_bytes);
    p.memory_poll = j.value("memory_poll", false);
    j.at("walltime_s").get_to(p.walltime_s);
    p.warn_signal = j.value("warn_signal", 0);  // absent from an older daemon's plans
    p.warn_before_s = j.value("warn_before_s", 0);
    p.warn_batch_only = j.value("warn_batch_only", false);
    j.at("kill_grace_s").get_to(p.kill_grace_s);
    if (d.job_id <= 0) d.plan = err("launch request without a job id");
    else if (p.argv.empty()) d.plan = err("launch plan has no command");
    else d.plan = std::move(p);
  } catch (const std::exception& e) {
    d.plan = err(std::string("malformed launch plan: ") + e.what());
  }
  return d;
}

std::string encode_ended(std::int64_t job_id, std::string_view record_text) {
  return "id=" + std::to_string(job_id) + "\n" + std::string(record_text);
}

Ended decode_ended(std::string_view text) {
  Ended e;
  e.job_id = leading_id(text, "id=");
  e.record = parse_run_record(text);
  return e;
}

bool send_with_fd(int sock, std::string_view data, int fd, bool nonblocking) {
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
  do n = ::sendmsg(sock, &msg, MSG_NOSIGNAL | (nonblocking ? MSG_DONTWAIT : 0));
  while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(data.size());
}

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

bool signal_host(int host_pidfd, int sig, std::int64_t job_id) {
  siginfo_t info{};
  info.si_signo = sig;
  info.si_code = SI_QUEUE;
  info.si_pid = ::getpid();
  info.si_uid = ::getuid();
  info.si_value.sival_ptr = reinterpret_cast<void*>(static_cast<std::intptr_t>(job_id));
  return ::syscall(SYS_pidfd_send_signal, host_pidfd, sig, &info, 0) == 0;
}

}  // namespace yard

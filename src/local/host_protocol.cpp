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
#include "core/json_out.h"

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
  // Written straight as text (core/json_out.h): the environment is most of a launch, and
  // a tree of its values for every job was a tenth of the daemon's time in a flow.
  std::string out = std::to_string(job_id);
  if (after > 0) out += " " + std::to_string(after);
  out += "\n{";
  std::size_t bytes = 256 + p.workdir.size() + p.stdout_path.size() + p.stderr_path.size();
  for (const auto& e : p.env) bytes += e.size() + 4;
  for (const auto& a : p.argv) bytes += a.size() + 4;
  out.reserve(out.size() + bytes);
  auto key = [&out](const char* k) {
    if (out.back() != '{') out += ',';
    out += '"';
    out += k;
    out += "\":";
  };
  auto list = [&out](const std::vector<std::string>& items) {
    out += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i) out += ',';
      json_out::bytes(out, items[i]);
    }
    out += ']';
  };
  auto flag = [&out](bool v) { out += v ? "true" : "false"; };
  key("uid");
  json_out::string_utf8(out, p.uid);
  key("argv");
  list(p.argv);
  key("env");
  list(p.env);
  key("workdir");
  json_out::bytes(out, p.workdir);
  key("stdout");
  json_out::bytes(out, p.stdout_path);
  key("stderr");
  json_out::bytes(out, p.stderr_path);
  key("append_output");
  flag(p.append_output);
  key("pus");
  out += '[';
  for (std::size_t i = 0; i < p.pus.size(); ++i) {
    if (i) out += ',';
    json_out::integer(out, p.pus[i]);
  }
  out += ']';
  key("mem_limit_bytes");
  json_out::integer(out, static_cast<std::int64_t>(p.mem_limit_bytes));
  key("memory_poll");
  flag(p.memory_poll);
  key("walltime_s");
  json_out::integer(out, p.walltime_s);
  key("warn_signal");
  json_out::integer(out, p.warn_signal);
  key("warn_before_s");
  json_out::integer(out, p.warn_before_s);
  key("warn_batch_only");
  flag(p.warn_batch_only);
  key("kill_grace_s");
  json_out::integer(out, p.kill_grace_s);
  out += '}';
  return out;
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

#include "local/proc_scan.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace yard {
namespace {

// The fields of /proc/PID/stat after "(comm) ", which may itself hold spaces and ')'.
std::string stat_fields(const char* pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%s/stat", pid);
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  char buf[1024];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return {};
  std::string line(buf, static_cast<std::size_t>(n));
  auto close = line.rfind(')');
  return close == std::string::npos || close + 2 > line.size() ? std::string() : line.substr(close + 2);
}

// Calls `f(pid, fields)` for every process, `fields` being its stat fields from state (3) on.
template <typename F>
void each_process(F f) {
  DIR* d = ::opendir("/proc");
  if (!d) return;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::string fields = stat_fields(e->d_name);
    if (!fields.empty()) f(static_cast<pid_t>(std::atol(e->d_name)), fields);
  }
  ::closedir(d);
}

// Field `n` (3 = state) of stat fields that start at field 3.
long long stat_field(const std::string& fields, int n) {
  std::size_t at = 0;
  for (int i = 3; i < n; ++i) {
    at = fields.find(' ', at);
    if (at == std::string::npos) return 0;
    ++at;
  }
  return std::atoll(fields.c_str() + at);
}

}  // namespace

std::unordered_map<pid_t, std::uint64_t> rss_by_group() {
  std::unordered_map<pid_t, std::uint64_t> total;
  static const long page = ::sysconf(_SC_PAGESIZE);
  each_process([&](pid_t, const std::string& f) {
    const long long pgrp = stat_field(f, 5), rss = stat_field(f, 24);
    if (rss > 0) total[static_cast<pid_t>(pgrp)] += static_cast<std::uint64_t>(rss) * static_cast<std::uint64_t>(page);
  });
  return total;
}

std::unordered_map<pid_t, std::vector<pid_t>> children_by_parent() {
  std::unordered_map<pid_t, std::vector<pid_t>> tree;
  each_process([&](pid_t pid, const std::string& f) {
    if (f[0] != 'Z') tree[static_cast<pid_t>(stat_field(f, 4))].push_back(pid);
  });
  return tree;
}

std::vector<pid_t> descendants(const std::unordered_map<pid_t, std::vector<pid_t>>& tree, pid_t root) {
  std::vector<pid_t> out;
  std::vector<pid_t> todo{root};
  while (!todo.empty() && out.size() < 1000000) {
    pid_t p = todo.back();
    todo.pop_back();
    auto it = tree.find(p);
    if (it == tree.end()) continue;
    for (pid_t c : it->second) {
      out.push_back(c);
      todo.push_back(c);
    }
  }
  return out;
}

bool environment_has(pid_t pid, std::string_view entry) {
  const std::string path = "/proc/" + std::to_string(pid) + "/environ";
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  std::string env;
  char buf[8192];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0 && env.size() < (1u << 22)) env.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  std::size_t at = 0;
  while (at < env.size()) {
    std::size_t end = env.find('\0', at);
    if (end == std::string::npos) end = env.size();
    if (std::string_view(env).substr(at, end - at) == entry) return true;
    at = end + 1;
  }
  return false;
}

}  // namespace yard

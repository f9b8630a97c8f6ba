#include "local/cgroup.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/file_text.h"

namespace yard {
namespace {

namespace fs = std::filesystem;

bool write_file(const std::string& path, const std::string& value) {
  std::ofstream f(path);
  f << value;
  f.flush();
  return static_cast<bool>(f);
}

std::uint64_t field(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string k;
  std::uint64_t v = 0;
  while (in >> k >> v)
    if (k == key) return v;
  return 0;
}

bool v2_has_memory(const std::string& root) {
  return read_file_or_empty(root + "/cgroup.controllers").find("memory") != std::string::npos;
}

}  // namespace

Result<MemoryCgroup> MemoryCgroup::create(const std::string& name, std::uint64_t limit_bytes) {
  std::error_code ec;
  const std::string v1 = "/sys/fs/cgroup/memory";
  if (fs::exists(v1 + "/memory.limit_in_bytes", ec)) {
    const std::string base = v1 + "/switchyard";
    fs::create_directory(base, ec);
    const std::string path = base + "/" + name;
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) return err("cgroup v1: cannot create " + path);
    if (!write_file(path + "/memory.limit_in_bytes", std::to_string(limit_bytes)))
      return err("cgroup v1: cannot set the limit in " + path);
    (void)write_file(path + "/memory.swappiness", "0");  // count swap-outs as over the limit
    return MemoryCgroup(path, false);
  }
  const std::string v2 = "/sys/fs/cgroup";
  if (v2_has_memory(v2)) {
    const std::string base = v2 + "/switchyard";
    fs::create_directory(base, ec);
    (void)write_file(v2 + "/cgroup.subtree_control", "+memory");
    (void)write_file(base + "/cgroup.subtree_control", "+memory");
    const std::string path = base + "/" + name;
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) return err("cgroup v2: cannot create " + path);
    if (!write_file(path + "/memory.max", std::to_string(limit_bytes)))
      return err("cgroup v2: cannot set memory.max in " + path);
    (void)write_file(path + "/memory.swap.max", "0");
    return MemoryCgroup(path, true);
  }
  return err("no writable memory cgroup on this machine");
}

Status MemoryCgroup::add(pid_t pid) const {
  if (!write_file(path_ + "/cgroup.procs", std::to_string(pid))) return err("cannot move process into " + path_);
  return {};
}

bool MemoryCgroup::oom_killed() const {
  if (v2_) return field(read_file_or_empty(path_ + "/memory.events"), "oom_kill") > 0;
  return field(read_file_or_empty(path_ + "/memory.oom_control"), "oom_kill") > 0;
}

std::uint64_t MemoryCgroup::peak_bytes() const {
  std::string t = read_file_or_empty(path_ + (v2_ ? "/memory.peak" : "/memory.max_usage_in_bytes"));
  try {
    return t.empty() ? 0 : std::stoull(t);
  } catch (...) {
    return 0;
  }
}

void MemoryCgroup::kill_all() const {
  if (v2_ && write_file(path_ + "/cgroup.kill", "1")) return;
  std::istringstream in(read_file_or_empty(path_ + "/cgroup.procs"));
  pid_t p;
  while (in >> p) ::kill(p, SIGKILL);
}

bool MemoryCgroup::try_remove() const { return ::rmdir(path_.c_str()) == 0 || errno == ENOENT; }

void MemoryCgroup::remove() const {
  // rmdir fails while dying processes are still accounted; retry for a short while.
  for (int i = 0; i < 200; ++i) {
    if (::rmdir(path_.c_str()) == 0 || errno == ENOENT) return;
    kill_all();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace yard

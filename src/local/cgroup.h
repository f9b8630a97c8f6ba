// Memory limits through cgroups: v1 (a memory controller mounted at
// /sys/fs/cgroup/memory) or v2 (a writable unified hierarchy with the memory controller).
// Where neither is writable, jobs run without a kernel-enforced limit and the job host
// falls back to polling the resident memory of the job's processes (see job_host.h).
// One MemoryCgroup per job, created by the job host and removed when the job ends.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"

namespace yard {

class MemoryCgroup {
 public:
  // Creates the group `name` with `limit_bytes`; an error if no cgroup can be used here.
  static Result<MemoryCgroup> create(const std::string& name, std::uint64_t limit_bytes);

  Status add(pid_t pid) const;
  bool oom_killed() const;             // the kernel killed a process for the limit
  std::uint64_t peak_bytes() const;    // 0 if unknown
  void kill_all() const;               // SIGKILL every process left in the group
  void remove() const;                 // waits briefly for the group to empty
  bool try_remove() const;             // removes it if empty (or gone); never waits
  const std::string& path() const { return path_; }
  bool v2() const { return v2_; }

 private:
  MemoryCgroup(std::string path, bool v2) : path_(std::move(path)), v2_(v2) {}
  std::string path_;
  bool v2_ = false;
};

}  // namespace yard

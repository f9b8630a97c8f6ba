// The local machine's free CPUs, memory and GPUs. Allocation takes specific CPU and GPU
// slots (so jobs can be pinned and given their own devices) and never more than exists.
// Not thread safe: owned by the daemon's event loop.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "local/machine.h"

namespace yard {

struct Allocation {
  std::vector<int> cpus;  // schedulable CPU slots
  std::vector<int> gpus;  // GPU indices
  std::uint64_t mem_bytes = 0;

  std::string to_json() const;
  static Result<Allocation> from_json(const std::string& text);
};

class ResourcePool {
 public:
  explicit ResourcePool(const Machine& m);

  // True if the request could ever fit on this machine.
  // 64-bit counts: a job's totals (JobSpec::total_cpus) are, and must not be narrowed first.
  bool could_ever_fit(std::int64_t cpus, std::uint64_t mem, std::int64_t gpus) const;
  std::optional<Allocation> allocate(int cpus, std::uint64_t mem, int gpus);
  // Marks the slots of an allocation recovered after a restart as used.
  void claim(const Allocation& a);
  void release(const Allocation& a);

  int free_cpus() const { return free_cpus_; }
  int free_gpus() const { return free_gpus_; }
  std::uint64_t free_mem() const { return free_mem_; }

 private:
  std::vector<bool> cpu_used_, gpu_used_;
  int free_cpus_, free_gpus_;
  std::uint64_t total_mem_, free_mem_;
};

}  // namespace yard

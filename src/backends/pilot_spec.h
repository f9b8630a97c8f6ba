// What a pilot job asks for (slurm.yaml `allocation: pilot` and its `pilot:` map): the
// allocation yard obtains itself for direct mode. See backends/slurm/slurm_pilot.h.
#pragma once

#include <cstdint>
#include <string>

namespace yard {

struct PilotSpec {
  std::string partition, account, qos;
  int nodes = 1;
  int cpus = 1;                 // in all: the steps' CPUs (one task each)
  std::uint64_t mem_bytes = 0;  // per node; 0 = the partition's default
  int gpus = 0;                 // in all
  std::int64_t walltime_s = 0;  // 0 = the partition's default
};

}  // namespace yard

// A job's demand as the policy engine counts it: its components merged per pool and
// resource (cores, memory, GPUs), each a profile of the pass. Shared by the engine and
// by its reference (engine_reference.cpp), so that both count capacity the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sched/engine.h"

namespace yard::sched {

// Each pool has three profiles, in this order: cores, memory, GPUs.
inline constexpr std::size_t kResources = 3;

// A job's request merged per (pool, resource): one entry per profile it needs something
// of, profiles ascending.
struct Need {
  std::size_t profile;  // pool * kResources + resource
  std::int64_t amount;  // > 0
  std::size_t pool() const { return profile / kResources; }
};

// What profile `profile` holds in all.
inline std::int64_t capacity(const std::vector<Pool>& pools, std::size_t profile) {
  const Pool& p = pools[profile / kResources];
  switch (profile % kResources) {
    case 0: return p.cores();
    case 1: return p.memory();
    default: return p.gpus();
  }
}

// Adds a component's demand to `out`; false when the component can never be had in its
// pool as asked (no such pool, no core, a node-shaped request that fits no node).
bool add_component(const Component& c, const std::vector<Pool>& pools, std::vector<Need>& out);

// Merges components per pool and resource; false when a component can never be had in
// its pool as asked (no such pool, no core, a node-shaped request that fits no node) or
// the merged request exceeds what its pool has (the job can never start).
bool merge(const std::vector<Component>& components, const std::vector<Pool>& pools, std::vector<Need>& out);

Procs total_procs(const std::vector<Component>& components);

}  // namespace yard::sched

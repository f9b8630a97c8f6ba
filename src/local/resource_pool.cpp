#include "local/resource_pool.h"

#include <nlohmann/json.hpp>

namespace yard {

std::string Allocation::to_json() const {
  return nlohmann::json{{"cpus", cpus}, {"gpus", gpus}, {"mem_bytes", mem_bytes}}.dump();
}

Result<Allocation> Allocation::from_json(const std::string& text) {
  try {
    auto j = nlohmann::json::parse(text);
    return Allocation{j.at("cpus").get<std::vector<int>>(), j.at("gpus").get<std::vector<int>>(),
                      j.at("mem_bytes").get<std::uint64_t>()};
  } catch (const std::exception& e) {
    return err(std::string("bad allocation record: ") + e.what());
  }
}

ResourcePool::ResourcePool(const Machine& m)
    : cpu_used_(static_cast<std::size_t>(m.cpus)),
      gpu_used_(static_cast<std::size_t>(m.gpus)),
      free_cpus_(m.cpus),
      free_gpus_(m.gpus),
      total_mem_(m.mem_bytes),
      free_mem_(m.mem_bytes) {}

bool ResourcePool::could_ever_fit(std::int64_t cpus, std::uint64_t mem, std::int64_t gpus) const {
  return cpus <= static_cast<std::int64_t>(cpu_used_.size()) && gpus <= static_cast<std::int64_t>(gpu_used_.size()) &&
         mem <= total_mem_;
}

std::optional<Allocation> ResourcePool::allocate(int cpus, std::uint64_t mem, int gpus) {
  if (cpus > free_cpus_ || gpus > free_gpus_ || mem > free_mem_) return std::nullopt;
  Allocation a;
  a.mem_bytes = mem;
  for (std::size_t i = 0; i < cpu_used_.size() && static_cast<int>(a.cpus.size()) < cpus; ++i)
    if (!cpu_used_[i]) a.cpus.push_back(static_cast<int>(i));
  for (std::size_t i = 0; i < gpu_used_.size() && static_cast<int>(a.gpus.size()) < gpus; ++i)
    if (!gpu_used_[i]) a.gpus.push_back(static_cast<int>(i));
  claim(a);
  return a;
}

void ResourcePool::claim(const Allocation& a) {
  for (int c : a.cpus)
    if (c >= 0 && c < static_cast<int>(cpu_used_.size()) && !cpu_used_[static_cast<std::size_t>(c)])
      cpu_used_[static_cast<std::size_t>(c)] = true, --free_cpus_;
  for (int g : a.gpus)
    if (g >= 0 && g < static_cast<int>(gpu_used_.size()) && !gpu_used_[static_cast<std::size_t>(g)])
      gpu_used_[static_cast<std::size_t>(g)] = true, --free_gpus_;
  free_mem_ -= std::min(free_mem_, a.mem_bytes);
}

void ResourcePool::release(const Allocation& a) {
  for (int c : a.cpus)
    if (c >= 0 && c < static_cast<int>(cpu_used_.size()) && cpu_used_[static_cast<std::size_t>(c)])
      cpu_used_[static_cast<std::size_t>(c)] = false, ++free_cpus_;
  for (int g : a.gpus)
    if (g >= 0 && g < static_cast<int>(gpu_used_.size()) && gpu_used_[static_cast<std::size_t>(g)])
      gpu_used_[static_cast<std::size_t>(g)] = false, ++free_gpus_;
  free_mem_ = std::min(total_mem_, free_mem_ + a.mem_bytes);
}

}  // namespace yard

#include "backends/slurm/slurm_pilot.h"

#include <cstdio>

#include "backends/slurm/slurm_argv.h"
#include "core/checked.h"
#include "core/duration.h"

namespace yard {

std::string slurm_pilot_name(std::string_view user, std::string_view state_dir) {
  std::uint32_t h = 2166136261u;  // FNV-1a: stable across runs and builds
  for (char c : state_dir) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", h);
  std::string out(kSlurmPilotPrefix);
  for (char c : user)
    out += (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ? c : '_';
  return out + "-" + hex;
}

std::vector<std::string> pilot_sbatch_argv(const PilotSpec& s, const std::string& name) {
  std::vector<std::string> a{"sbatch", "--parsable", "--job-name=" + name, "--nodes=" + std::to_string(s.nodes),
                             "--ntasks=" + std::to_string(s.cpus), "--output=/dev/null"};
  if (!s.partition.empty()) a.push_back("--partition=" + s.partition);
  if (!s.account.empty()) a.push_back("--account=" + s.account);
  if (!s.qos.empty()) a.push_back("--qos=" + s.qos);
  if (s.walltime_s > 0) a.push_back("--time=" + format_walltime(s.walltime_s));
  if (s.mem_bytes > 0) a.push_back("--mem=" + std::to_string(ceil_div(s.mem_bytes, std::uint64_t{1} << 20)) + "M");
  if (s.gpus > 0) a.push_back("--gpus=" + std::to_string(s.gpus));
  // Holds the allocation; the steps are started by the daemon with srun --jobid.
  a.push_back("--wrap=exec sleep infinity");
  return a;
}

std::vector<std::string> pilot_find_argv(const std::string& name) {
  return {"squeue", "--me", "-h", "-n", name, "-o", std::string(kSqueueFormat)};
}

std::optional<std::string> live_pilot(const std::vector<NativeStatus>& listing, const std::string& name) {
  std::optional<std::string> best;
  for (auto& s : listing) {
    if (s.name != name) continue;
    if (s.raw_state != "PENDING" && s.raw_state != "CONFIGURING" && s.raw_state != "RUNNING") continue;
    const std::string id = slurm_base_id(s.native_id);
    if (!best || id.size() > best->size() || (id.size() == best->size() && id > *best)) best = id;
  }
  return best;
}

}  // namespace yard

#include "backends/slurm/slurm_partitions.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

#include "core/duration.h"
#include "core/text.h"

namespace yard {
namespace {

bool unlimited(const std::string& v) { return v.empty() || v == "UNLIMITED" || v == "INFINITE" || v == "NONE"; }

// A count ("16"), or 0 for none stated; nullopt when it does not read.
std::optional<std::int64_t> number(const std::string& v) {
  if (unlimited(v)) return 0;
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || n < 0) return std::nullopt;
  return n;
}

}  // namespace

std::vector<std::string> slurm_partitions_argv() { return {"scontrol", "show", "partition", "--oneliner"}; }

Result<QueueListing> parse_slurm_partitions(std::string_view out) {
  QueueListing listing;
  listing.complete = true;  // every partition is listed
  std::size_t line_no = 0;
  for (std::string_view line : split(out, '\n')) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    std::map<std::string, std::string> kv;
    std::size_t at = 0;
    while (at < line.size()) {
      const std::size_t end = std::min(line.find(' ', at), line.size());
      std::string_view word = line.substr(at, end - at);
      if (auto eq = word.find('='); eq != std::string_view::npos)
        kv.emplace(std::string(word.substr(0, eq)), std::string(word.substr(eq + 1)));
      at = end + 1;
    }
    const std::string where = "scontrol show partition, line " + std::to_string(line_no) + ": ";
    auto name = kv.find("PartitionName");
    if (name == kv.end() || name->second.empty()) return err(where + "no PartitionName=");
    QueueLimits q;
    if (!unlimited(kv["MaxTime"])) {
      auto t = parse_walltime(kv["MaxTime"]);
      if (!t) return err(where + "MaxTime=" + kv["MaxTime"] + ": " + t.error());
      q.time_s = *t;
    }
    std::map<std::string, std::int64_t> n;
    for (const char* key : {"TotalCPUs", "TotalNodes", "MaxNodes", "MaxCPUsPerNode", "MaxMemPerNode", "MaxMemPerCPU"}) {
      auto v = number(kv[key]);
      if (!v) return err(where + key + "=" + kv[key] + ": expected a number or UNLIMITED");
      n[key] = *v;
    }
    const std::int64_t *total_cpus = &n["TotalCPUs"], *total_nodes = &n["TotalNodes"], *max_nodes = &n["MaxNodes"],
                       *per_node = &n["MaxCPUsPerNode"], *mem_node = &n["MaxMemPerNode"], *mem_cpu = &n["MaxMemPerCPU"];
    const std::int64_t nodes = *max_nodes && *total_nodes ? std::min(*max_nodes, *total_nodes) : *total_nodes;
    q.cpus = *total_cpus;
    if (*max_nodes && *per_node) q.cpus = q.cpus ? std::min(q.cpus, *max_nodes * *per_node) : *max_nodes * *per_node;
    constexpr std::uint64_t kMiB = 1024 * 1024;
    if (*mem_node && nodes) q.mem_bytes = static_cast<std::uint64_t>(*mem_node) * static_cast<std::uint64_t>(nodes) * kMiB;
    else if (*mem_cpu && q.cpus) q.mem_bytes = static_cast<std::uint64_t>(*mem_cpu) * static_cast<std::uint64_t>(q.cpus) * kMiB;
    listing.queues[name->second] = q;
  }
  return listing;
}

std::vector<std::string> slurm_config_argv() { return {"scontrol", "show", "config"}; }

std::optional<std::int64_t> parse_slurm_max_array_size(std::string_view out) {
  for (std::size_t at = 0; at < out.size();) {
    const std::size_t nl = std::min(out.find('\n', at), out.size());
    const std::string_view line = out.substr(at, nl - at);
    at = nl + 1;
    if (line.rfind("MaxArraySize", 0) != 0) continue;
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    std::string value(line.substr(eq + 1));
    value.erase(0, value.find_first_not_of(' '));
    auto n = number(value);
    if (!n || *n <= 0) return std::nullopt;
    return n;
  }
  return std::nullopt;
}

}  // namespace yard

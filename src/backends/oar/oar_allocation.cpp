#include "backends/oar/oar_allocation.h"

#include <set>

#include "core/text.h"

namespace yard {

int OarAllocation::nodes() const { return static_cast<int>(std::set<std::string>(slots.begin(), slots.end()).size()); }

std::vector<std::string> oarstat_resources_argv(const std::string& id) { return {"oarstat", "-p", "-j", id}; }

std::vector<std::string> oarstat_allocation_argv(const std::string& id) { return {"oarstat", "-J", "-f", "-j", id}; }

Result<std::vector<std::pair<std::string, std::string>>> parse_oar_resource_line(std::string_view line) {
  // OAR writes `key = 'value'` pairs joined by " , "; values are quoted, keys are not.
  std::vector<std::pair<std::string, std::string>> props;
  std::size_t i = 0;
  auto skip_blanks = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  };
  while (true) {
    skip_blanks();
    if (i >= line.size()) break;
    const std::size_t eq = line.find('=', i);
    if (eq == std::string_view::npos) return err("no '=' after '" + std::string(line.substr(i, 40)) + "'");
    const std::string key(trim(line.substr(i, eq - i)));
    if (key.empty()) return err("a property without a name at column " + std::to_string(i + 1));
    i = eq + 1;
    skip_blanks();
    if (i >= line.size() || line[i] != '\'') return err("property '" + key + "': its value is not quoted");
    const std::size_t close = line.find('\'', i + 1);
    if (close == std::string_view::npos) return err("property '" + key + "': unterminated value");
    props.emplace_back(key, std::string(line.substr(i + 1, close - i - 1)));
    i = close + 1;
    skip_blanks();
    if (i < line.size()) {
      if (line[i] != ',') return err("property '" + key + "': ',' expected after its value");
      ++i;
    }
  }
  return props;
}

Result<OarAllocation> parse_oar_resources(std::string_view text, const std::string& id, const std::string& gpu_resource) {
  OarAllocation a;
  a.job_id = id;
  std::vector<std::string> order;  // hosts in the order OAR first lists them
  std::vector<std::vector<std::string>> cores;
  std::set<std::pair<std::string, std::string>> gpus;
  int lineno = 0;
  for (std::string_view line : split(text, '\n')) {
    ++lineno;
    if (trim(line).empty()) continue;
    auto props = parse_oar_resource_line(line);
    if (!props) return err("OAR job " + id + "'s resources, line " + std::to_string(lineno) + ": " + props.error());
    std::string host, gpu;
    for (auto& [k, v] : *props) {
      if (k == "network_address") host = v;
      else if (!gpu_resource.empty() && k == gpu_resource) gpu = v;
    }
    if (host.empty())
      return err("OAR job " + id + "'s resources, line " + std::to_string(lineno) + ": no network_address");
    std::size_t k = 0;
    while (k < order.size() && order[k] != host) ++k;
    if (k == order.size()) order.push_back(host), cores.emplace_back();
    cores[k].push_back(host);
    if (!gpu.empty() && gpu != "NULL") gpus.emplace(host, gpu);  // 0 may be a GPU (a device index)
  }
  if (order.empty()) return err("OAR knows no resources of job " + id + " (is it running, and yours?)");
  for (auto& c : cores) a.slots.insert(a.slots.end(), c.begin(), c.end());
  a.gpus = static_cast<int>(gpus.size());
  return a;
}

}  // namespace yard

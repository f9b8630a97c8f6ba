// sinfo: each of yard's backends in use (the local machine, the targets of routes.yaml,
// any with jobs) as a partition, the default (local) marked '*', in sinfo's default
// format: PARTITION AVAIL TIMELIMIT NODES STATE NODELIST. A backend that is down
// (its calls fail: `yard routes` says why) is AVAIL down.
#include <algorithm>
#include <iostream>

#include <nlohmann/json.hpp>

#include "frontends/slurm/front.h"

namespace yard::slurm_front {
namespace {

std::string right(const std::string& s, std::size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }
std::string left(const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

struct Partition {
  std::string name;
  bool down = false;
  long running = 0, pending = 0;
};

}  // namespace

int sinfo_main(const Args& args) {
  bool header = true;
  for (const auto& a : args) {
    if (a == "-h" || a == "--noheader") header = false;
    else if (a == "-V" || a == "--version") {
      std::cout << "slurm 22.05.8 (yard front end)\n";
      return 0;
    } else if (a != "-a" && a != "--all" && a != "-l" && a != "--long" && a != "-s" && a != "--summarize") {
      return fail("sinfo", "yard's sinfo prints its default format only; not supported: " + a);
    }
  }
  auto c = client("sinfo");
  auto routes = c.routes();
  if (!routes) return fail("sinfo", routes.error());
  const auto& r = routes->routes;
  std::vector<std::string> used{"local"};
  auto use = [&](const std::string& b) {
    if (!b.empty() && std::find(used.begin(), used.end(), b) == used.end()) used.push_back(b);
  };
  for (const auto& t : r.value("targets", nlohmann::json::array())) use(t.value("backend", ""));
  for (const auto& w : r.value("wishes", nlohmann::json::array())) use(w.value("backend", ""));
  std::vector<Partition> parts;
  for (const auto& b : r.value("backends", nlohmann::json::array())) {
    const std::string name = b.value("backend", "");
    const long pending = b.value("pending", 0L), running = b.value("running", 0L);
    if (pending + running > 0) use(name);
    const auto& down = b.contains("down") ? b["down"] : nlohmann::json();
    const bool is_down = down.is_boolean() ? down.get<bool>() : down.is_string() ? !down.get<std::string>().empty() : false;
    parts.push_back({name, is_down, running, pending});
  }
  std::size_t width = 9;  // "PARTITION"
  for (const auto& u : used) width = std::max(width, u.size() + (u == "local" ? 1 : 0));
  if (header)
    std::cout << left("PARTITION", width) << " AVAIL  TIMELIMIT  NODES  STATE NODELIST\n";
  const std::string host = host_name();
  for (const auto& u : used) {
    Partition p{u, false, 0, 0};
    for (const auto& q : parts)
      if (q.name == u) p = q;
    const std::string state = p.down ? "down*" : p.running > 0 ? "mix" : "idle";
    std::cout << left(u + (u == "local" ? "*" : ""), width) << " " << right(p.down ? "down" : "up", 5) << " "
              << right("infinite", 10) << " " << right("1", 6) << " " << right(state, 6) << " "
              << (u == "local" ? host : u) << "\n";
  }
  return 0;
}

}  // namespace yard::slurm_front

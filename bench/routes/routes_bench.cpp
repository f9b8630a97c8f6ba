// Routing decisions: 100,000 jobs of mixed sizes and wishes through a routes file of about
// 50 lines (30 wishes, two thirds through other wishes; 6 size classes; 10 targets with queues,
// one drained), beside the same jobs put on the backend they name (no routes). Also the
// reading of that file, which the daemon does again when it changes.
//   routes_bench FILE_DIR   -> "decisions_per_s us_per_decision direct_us read_ms check_us"
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "routes/queue_limits_check.h"
#include "routes/routes.h"

using namespace yard;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: routes_bench DIR\n");
    return 2;
  }
  const std::string file = std::string(argv[1]) + "/routes.yaml";
  std::ofstream out(file);
  out << "wishes:\n";
  for (int i = 0; i < 10; ++i) out << "  team" << i << ": b" << i << "\n";
  for (int i = 0; i < 10; ++i) out << "  alias" << i << ": team" << (9 - i) << "\n";
  for (int i = 0; i < 10; ++i) out << "  proj" << i << ": alias" << i << "\n";
  out << "classes:\n"
         "  tiny: {time: 0:10:00, cpus: 1, mem: 1G}\n  small: {time: 1:00:00, cpus: 4, mem: 8G}\n"
         "  medium: {time: 1-00:00:00, cpus: 16, mem: 64G}\n  large: {time: 3-00:00:00, cpus: 64, mem: 256G}\n"
         "  huge: {time: 7-00:00:00, cpus: 1024}\n  any: {time: 30-00:00:00}\n";
  out << "targets:\n";
  for (int i = 0; i < 10; ++i)
    out << "  b" << i << ": {queues: {tiny: q1, small: q2, medium: q3, large: q4, huge: q5, any: q6}, account: acct" << i
        << (i == 3 ? ", drain: true, fallback: b4" : "") << "}\n";
  out.close();
  auto is_backend = [](const std::string& b) { return b.size() == 2 && b[0] == 'b'; };
  const auto r0 = std::chrono::steady_clock::now();
  auto routes = load_routes({file}, is_backend);
  const double read_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - r0).count();
  if (!routes) {
    std::fprintf(stderr, "%s\n", routes.error().c_str());
    return 1;
  }
  // The classes against each target's queues as its scheduler lists them (within limits).
  QueueListing listing;
  listing.complete = true;
  listing.version = 1;
  for (int q = 1; q <= 6; ++q) listing.queues["q" + std::to_string(q)] = {60 * 86400, 4096, 0};
  const auto c0 = std::chrono::steady_clock::now();
  auto checked = check_queue_limits(*routes, [&](const std::string&) { return &listing; });
  const double check_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - c0).count();
  if (!checked) {
    std::fprintf(stderr, "%s\n", checked.error().c_str());
    return 1;
  }
  constexpr int kJobs = 100000;
  std::mt19937 rng(7);
  std::vector<JobSpec> jobs(kJobs);
  for (auto& j : jobs) {
    const char* kinds[] = {"team", "alias", "proj"};
    j.backend = kinds[rng() % 3] + std::to_string(rng() % 10);
    j.res.ntasks = 1 + static_cast<int>(rng() % 64);
    j.res.walltime_s = 60 * static_cast<std::int64_t>(1 + rng() % 4000);
  }
  auto copy = jobs;
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t routed = 0;
  for (auto& j : copy) routed += route_job(*routes, j, "").ok();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // The same jobs put where they say, without routes: the floor of any decision.
  copy = jobs;
  const auto d0 = std::chrono::steady_clock::now();
  std::size_t direct = 0;
  for (auto& j : copy) direct += is_backend(j.backend) ? 1 : j.backend.size();
  const double ds = std::chrono::duration<double>(std::chrono::steady_clock::now() - d0).count();
  if (routed != kJobs) {
    std::fprintf(stderr, "only %zu of %d jobs routed\n", routed, kJobs);
    return 1;
  }
  std::printf("%.0f %.3f %.3f %.3f %.1f %zu\n", kJobs / s, s * 1e6 / kJobs, ds * 1e6 / kJobs, read_ms, check_us,
              direct % 2);
  return 0;
}

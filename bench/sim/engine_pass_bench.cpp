// Times one pass of the PolicyEngine (what the local backend runs, with priorities,
// tiers and co-allocation) over a large queue, on the same scenario as pass_bench: a
// machine of NODES single-processor nodes almost full of running jobs, QUEUED waiting
// jobs with a wide one at the head. Median over repetitions, in milliseconds.
//   engine_pass_bench QUEUED NODES DEPTH [REPS]      (DEPTH: 0, 1, ... or unlimited)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "sched/engine.h"

namespace {

using namespace yard::sched;

Procs random_size(std::mt19937_64& rng, Procs nodes) {
  const int log2 = std::geometric_distribution<int>(0.35)(rng);
  return std::min<Procs>(Procs{1} << std::min(log2, 12), std::max<Procs>(nodes / 8, 1));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: engine_pass_bench QUEUED NODES DEPTH|unlimited [REPS]\n");
    return 2;
  }
  const auto queued = static_cast<std::size_t>(std::strtoull(argv[1], nullptr, 10));
  const Procs nodes = std::strtoll(argv[2], nullptr, 10);
  const std::string depth = argv[3];
  const int reps = argc > 4 ? std::atoi(argv[4]) : 7;
  PolicyConfig config;
  config.reservation_depth = depth == "unlimited" ? Policy::kUnlimited : std::atoi(depth.c_str());
  PolicyEngine engine(config, {Pool(nodes)});
  Accounts accounts;

  std::mt19937_64 rng(42);
  std::vector<RunningJob> running;
  std::vector<QueuedJob> queue;
  JobId id = 0;
  Procs used = 0;
  while (used < nodes - nodes / 50) {
    const Procs p = std::min(random_size(rng, nodes), nodes - nodes / 50 - used);
    const Time est = std::uniform_int_distribution<Time>(600, 2 * 86400)(rng);
    running.push_back({id++, "a", 0, est, {Component{0, p}}});
    used += p;
  }
  queue.push_back({id++, "a", 1, 86400, {Component{0, nodes / 2}}});
  for (std::size_t i = 1; i < queued; ++i) {
    const Time est = std::uniform_int_distribution<Time>(60, 2 * 86400)(rng);
    queue.push_back({id++, "a", static_cast<Time>(1 + i), est, {Component{0, random_size(rng, nodes)}}});
  }
  std::vector<double> ms;
  std::size_t started = 0;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    auto result = engine.schedule(queue, running, accounts, 100);
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    started = result.start.size();
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%zu %lld %.3f %zu\n", queued, static_cast<long long>(nodes), ms[ms.size() / 2], started);
  return 0;
}

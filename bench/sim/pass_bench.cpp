// Times one scheduling pass over a large queue: a machine of NODES single-processor nodes
// almost full of running jobs, QUEUED waiting jobs, then one pass at a time when a few
// nodes have just come free. Reports the median over repetitions, in milliseconds.
//   pass_bench QUEUED NODES [fcfs|easy|sjbf] [REPS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "sched/backfill.h"

namespace {

using yard::sched::Backfiller;
using yard::sched::Decision;
using yard::sched::Procs;
using yard::sched::Time;

// Job sizes: mostly small, some wide, as in production logs (powers of two).
Procs random_size(std::mt19937_64& rng, Procs nodes) {
  const int log2 = std::geometric_distribution<int>(0.35)(rng);
  return std::min<Procs>(Procs{1} << std::min(log2, 12), std::max<Procs>(nodes / 8, 1));
}

Backfiller make_state(std::size_t queued, Procs nodes, yard::sched::Policy policy) {
  std::mt19937_64 rng(42);
  Backfiller b(nodes, policy);
  std::vector<Decision> out;
  std::int64_t id = 0;
  // Running jobs with various estimated ends fill the machine but for ~2% of it.
  Procs used = 0;
  while (used < nodes - nodes / 50) {
    const Procs p = std::min(random_size(rng, nodes), nodes - nodes / 50 - used);
    const Time est = std::uniform_int_distribution<Time>(600, 2 * 86400)(rng);
    b.submit({id++, p, est}, 0, out);
    used += p;
  }
  // The first waiting job is wide so it must wait: the others are candidates to backfill.
  b.enqueue({id++, nodes / 2, 86400});
  for (std::size_t i = 1; i < queued; ++i) {
    const Time est = std::uniform_int_distribution<Time>(60, 2 * 86400)(rng);
    b.enqueue({id++, random_size(rng, nodes), est});
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: pass_bench QUEUED NODES [fcfs|easy|sjbf] [REPS]\n");
    return 2;
  }
  const auto queued = static_cast<std::size_t>(std::strtoull(argv[1], nullptr, 10));
  const Procs nodes = std::strtoll(argv[2], nullptr, 10);
  const auto policy = yard::sched::policy_by_name(argc > 3 ? argv[3] : "easy");
  const int reps = argc > 4 ? std::atoi(argv[4]) : 15;
  if (queued == 0 || nodes < 50 || !policy || policy->unlimited() || reps < 1) {
    std::fprintf(stderr, "pass_bench: QUEUED > 0, NODES >= 50, policy fcfs|easy|sjbf\n");
    return 2;
  }
  const Backfiller state = make_state(queued, nodes, *policy);
  std::vector<double> ms;
  std::size_t started = 0;
  for (int r = 0; r < reps; ++r) {
    Backfiller b = state;  // each pass starts from the same state
    std::vector<Decision> out;
    const auto t0 = std::chrono::steady_clock::now();
    b.schedule(1, out);
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    started = out.size();
  }
  std::sort(ms.begin(), ms.end());
  // queued nodes ms_per_pass started profile_breakpoints
  std::printf("%zu %lld %.3f %zu %zu\n", queued, static_cast<long long>(nodes),
              ms[ms.size() / 2], started, state.profile().breakpoints());
  return 0;
}

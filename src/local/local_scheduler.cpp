#include "local/local_scheduler.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace yard {

Result<sched::PolicyConfig> load_local_policy(const std::string& path) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec)) return sched::PolicyConfig{};
  return sched::load_policy_config(path);
}

LocalScheduler::LocalScheduler(sched::PolicyConfig config, int cpus)
    : engine_(std::move(config), {static_cast<sched::Procs>(cpus > 0 ? cpus : 1)}),
      accounts_(sched::Accounts::from_config(engine_.config())) {}

std::string LocalScheduler::account_of(std::string_view requested) const {
  if (!requested.empty()) return std::string(requested);
  if (!config().default_account.empty()) return config().default_account;
  return std::string(kDefaultAccount);
}

sched::Time LocalScheduler::estimate(std::int64_t walltime_s) const {
  return walltime_s > 0 ? walltime_s : std::max<sched::Time>(1, config().default_walltime);
}

LocalScheduler::Plan LocalScheduler::pass(const JobQueue& queue, std::span<const RunningJobView> running,
                                          ResourcePool& pool, int slots, double now) const {
  Plan plan;
  const auto& ready = queue.ready();
  if (ready.empty() || slots <= 0) return plan;
  const auto t = static_cast<sched::Time>(std::floor(now));

  // The jobs this pass considers: all of them, or, with many queued, the first
  // max_jobs_per_pass in the engine's own order. That order is cheap to know only when
  // the policy weighs nothing but --priority (the default): then it is --priority, then
  // submit second, then id, and the cut is exact; else every job is considered.
  std::vector<const QueuedJob*> considered;
  considered.reserve(ready.size());
  for (const auto& [id, j] : ready) considered.push_back(&j);
  const auto& c = config();
  const bool plain = c.tiers.empty() && c.weights.tier == 0 && c.weights.age == 0 && c.weights.fairshare == 0 &&
                     c.weights.size == 0;
  if (plain && c.max_jobs_per_pass > 0 && considered.size() > c.max_jobs_per_pass) {
    auto first = [](const QueuedJob* a, const QueuedJob* b) {
      if (a->priority != b->priority) return a->priority > b->priority;
      const auto sa = std::floor(a->submit_time), sb = std::floor(b->submit_time);
      if (sa != sb) return sa < sb;
      return a->id < b->id;
    };
    auto cut = considered.begin() + static_cast<std::ptrdiff_t>(c.max_jobs_per_pass);
    std::nth_element(considered.begin(), cut, considered.end(), first);
    considered.erase(cut, considered.end());
  }
  std::vector<sched::QueuedJob> queued;
  queued.reserve(considered.size());
  for (const QueuedJob* jp : considered) {
    const QueuedJob& j = *jp;
    const std::int64_t id = j.id;
    sched::QueuedJob q;
    q.id = id;
    q.account = j.account;
    q.submit = static_cast<sched::Time>(std::floor(j.submit_time));
    q.estimate = estimate(j.walltime_s);
    q.components = {{0, j.cpus}};
    q.user_priority = j.priority;
    queued.push_back(std::move(q));
  }
  std::vector<sched::RunningJob> run;
  run.reserve(running.size());
  for (const RunningJobView& r : running) {
    sched::RunningJob x;
    x.id = r.id;
    x.account = r.account;
    x.start = static_cast<sched::Time>(std::floor(r.start_time));
    x.end = x.start + estimate(r.walltime_s);
    x.components = {{0, r.cpus}};
    run.push_back(std::move(x));
  }
  const sched::PassResult result = engine_.schedule(queued, run, accounts_, t);
  plan.preempt = result.preempt;

  // Memory and GPUs held for the first chosen job that does not fit now.
  bool holding = false;
  std::uint64_t held_mem = 0;
  int held_gpus = 0;
  for (sched::JobId id : result.start) {
    if (slots <= 0) break;
    auto it = ready.find(id);
    if (it == ready.end()) continue;
    const QueuedJob& j = it->second;
    // A job that takes no memory (or no GPU) takes nothing the held job waits for.
    const bool room = (j.mem_bytes == 0 || j.mem_bytes + held_mem <= pool.free_mem()) &&
                      (j.gpus == 0 || j.gpus + held_gpus <= pool.free_gpus());
    std::optional<Allocation> alloc;
    if (room) alloc = pool.allocate(j.cpus, j.mem_bytes, j.gpus);
    if (!alloc) {
      if (!holding) {
        holding = true;
        held_mem = j.mem_bytes;
        held_gpus = j.gpus;
      }
      continue;
    }
    plan.start.push_back({id, std::move(*alloc)});
    --slots;
  }
  return plan;
}

}  // namespace yard

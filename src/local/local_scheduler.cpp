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

bool LocalScheduler::plain() const {
  const auto& c = config();
  return c.tiers.empty() && c.weights.tier == 0 && c.weights.age == 0 && c.weights.fairshare == 0 &&
         c.weights.size == 0;
}

LocalScheduler::Plan LocalScheduler::pass(const JobQueue& queue, std::span<const RunningJobView> running,
                                          ResourcePool& pool, int slots, double now) const {
  Plan plan;
  const auto& ready = queue.ready();
  if (ready.empty() || slots <= 0) return plan;
  const auto t = static_cast<sched::Time>(std::floor(now));

  const auto& c = config();
  const bool plain = this->plain();

  // Under a policy that weighs nothing but --priority (the default), the engine's order is
  // the queue's plain order, and the first job starts whenever it fits, whatever the
  // reservation depth: so the head jobs that fit start here, without building the
  // engine's view of the queue. That is the common case of a long queue draining onto
  // freed CPUs. The engine runs only when CPUs stay free behind a head that does not fit.
  std::size_t fast = 0;
  std::vector<sched::RunningJob> run;
  if (plain) {
    for (const auto& key : queue.plain_order()) {
      if (slots <= 0) break;
      const QueuedJob& j = ready.at(key.id);
      auto alloc = pool.allocate(j.cpus, j.mem_bytes, j.gpus);
      if (!alloc) break;
      plan.start.push_back({j.id, std::move(*alloc)});
      --slots;
      ++fast;
      sched::RunningJob x;
      x.id = j.id;
      x.account = j.account;
      x.start = t;
      x.end = x.start + estimate(j.walltime_s);
      x.components = {{0, j.cpus}};
      run.push_back(std::move(x));
    }
    // Every job asks for a CPU: with none free (or no slot) nothing else can start.
    if (slots <= 0 || pool.free_cpus() == 0 || fast == ready.size()) return plan;
  }

  // The jobs the engine considers: all of them, or, with many queued, the first
  // max_jobs_per_pass in its own order. That order is cheap to know only for the plain
  // policy: then the cut is exact (and the jobs started above are skipped); else every
  // job is considered.
  std::vector<const QueuedJob*> considered;
  if (plain) {
    const std::size_t limit = c.max_jobs_per_pass > 0 ? c.max_jobs_per_pass : ready.size();
    considered.reserve(std::min(limit, ready.size()));
    std::size_t skip = fast;
    for (const auto& key : queue.plain_order()) {
      if (skip > 0) {
        --skip;
        continue;
      }
      if (considered.size() == limit) break;
      considered.push_back(&ready.at(key.id));
    }
  } else {
    considered.reserve(ready.size());
    for (const auto& [id, j] : ready) considered.push_back(&j);
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
  run.reserve(run.size() + running.size());
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

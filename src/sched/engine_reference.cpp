// The policy engine's pass as first written (a flat profile per pool and resource,
// every check a walk along it), kept as the reference that the engine's pass must match
// exactly (engine_equivalence_test.cpp).
#include "sched/engine_reference.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <limits>
#include <map>
#include <numeric>

#include "sched/needs.h"

namespace yard::sched::reference {

namespace {

constexpr double kNoTier = -std::numeric_limits<double>::infinity();

// The state of one pass: a profile per pool and the running jobs that may be preempted.
class Pass {
 public:
  struct Running {
    const RunningJob* job;
    std::vector<Need> needs;
    Time hold_end;
    double tier_priority;
    bool best_effort;
    bool preempted = false;
  };

  Pass(const PolicyEngine& engine, std::span<const RunningJob> running, Time now) : now_(now) {
    const std::vector<Pool>& pools = engine.pools();
    profiles_.reserve(pools.size() * kResources);
    for (std::size_t i = 0; i < pools.size() * kResources; ++i) profiles_.emplace_back(capacity(pools, i));
    running_.reserve(running.size());
    std::vector<Need> needs;
    for (const RunningJob& r : running) {
      // Running jobs are taken as they are: components that could not be had are ignored,
      // and what they hold is capped at what the pool has.
      needs.clear();
      for (const Component& c : r.components) {
        std::vector<Need> one;
        if (!add_component(c, pools, one)) continue;
        for (const Need& n : one) {
          auto it = std::find_if(needs.begin(), needs.end(), [&](const Need& m) { return m.profile == n.profile; });
          if (it == needs.end()) {
            needs.push_back(n);
          } else {
            it->amount += n.amount;
          }
        }
      }
      for (Need& n : needs) n.amount = std::min(n.amount, capacity(pools, n.profile));
      const TierConfig* tier = engine.tier_of(r.account);
      Running run{&r, needs, std::max(r.end, now + 1), tier ? tier->priority : kNoTier,
                  tier && tier->best_effort};
      take(run.needs, now, run.hold_end - now);
      running_.push_back(std::move(run));
    }
  }

  bool fits_now(const std::vector<Need>& needs, Time estimate) const {
    for (const Need& n : needs) {
      if (profiles_[n.profile].min_free(now_, estimate) < n.amount) return false;
    }
    return true;
  }

  // The earliest common start of every component; kNever if one can never start.
  Time earliest(const std::vector<Need>& needs, Time estimate) const {
    Time t = now_;
    for (;;) {
      bool agreed = true;
      for (const Need& n : needs) {
        const Time s = profiles_[n.profile].earliest_start(t, n.amount, estimate);
        if (s == kNever) return kNever;
        if (s > t) {
          t = s;
          agreed = false;
        }
      }
      if (agreed) return t;
    }
  }

  void take(const std::vector<Need>& needs, Time start, Time duration) {
    for (const Need& n : needs) profiles_[n.profile].allocate(start, duration, n.amount);
  }
  void give(const std::vector<Need>& needs, Time start, Time duration) {
    for (const Need& n : needs) profiles_[n.profile].release(start, duration, n.amount);
  }

  // Stops running best-effort jobs below the given tier until the job fits now; false
  // (and nothing stopped) when stopping all of them would not be enough. Written as
  // plainly as it is said, not as the engine does it (a filter, a check with all of them
  // stopped, a sort): victims are taken one at a time, the preferred one found by a scan
  // each time (the lowest tier, then the latest start: the least work lost, then the
  // highest id), and all of them given back if the job never fits.
  bool preempt_for(const std::vector<Need>& needs, Time estimate, bool best_effort,
                   double tier_priority, PassResult& out) {
    auto may_stop = [&](const Running& r) {
      if (r.preempted || !r.best_effort) return false;
      if (best_effort && r.tier_priority >= tier_priority) return false;
      for (const Need& a : r.needs)
        for (const Need& b : needs)
          if (a.pool() == b.pool()) return true;
      return false;
    };
    auto preference = [](const Running& r) { return std::make_tuple(r.tier_priority, -r.job->start, -r.job->id); };
    std::vector<std::size_t> stopped;
    while (stopped.empty() || !fits_now(needs, estimate)) {
      std::optional<std::size_t> pick;
      for (std::size_t i = 0; i < running_.size(); ++i) {
        if (!may_stop(running_[i]) || std::count(stopped.begin(), stopped.end(), i)) continue;
        if (!pick || preference(running_[i]) < preference(running_[*pick])) pick = i;
      }
      if (!pick) {
        for (std::size_t i : stopped) take(running_[i].needs, now_, running_[i].hold_end - now_);
        return false;
      }
      give(running_[*pick].needs, now_, running_[*pick].hold_end - now_);
      stopped.push_back(*pick);
    }
    for (std::size_t i : stopped) {
      running_[i].preempted = true;
      out.preempt.push_back(running_[i].job->id);
    }
    return true;
  }

 private:
  Time now_;
  std::vector<Profile> profiles_;
  std::vector<Running> running_;
};

}  // namespace

std::vector<RankedJob> reference_rank(const PolicyEngine& engine, std::span<const QueuedJob> queue,
                                      const Accounts& accounts, Time now) {
  const PolicyConfig& config = engine.config();
  const std::vector<Pool>& pools = engine.pools();
  Procs total = 0;
  for (const Pool& p : pools) total += p.cores();
  auto tier_of = [&](std::string_view a) { return engine.tier_of(a); };
  std::map<std::string, double, std::less<>> fairshare;  // per account, once per call
  std::vector<RankedJob> ranked;
  ranked.reserve(queue.size());
  for (const QueuedJob& job : queue) {
    RankedJob r;
    r.id = job.id;
    const TierConfig* tier = tier_of(job.account);
    r.best_effort = tier && tier->best_effort;
    r.factors.tier = tier ? tier_factor(config, tier->name) : 0;
    r.factors.age = age_factor(now - job.submit, config.max_age);
    auto it = fairshare.find(job.account);
    if (it == fairshare.end()) {
      it = fairshare.emplace(job.account, accounts.fairshare(job.account, now)).first;
    }
    r.factors.fairshare = it->second;
    r.factors.size = size_factor(total_procs(job.components), total);
    r.priority = weighted_priority(config.weights, r.factors);
    ranked.push_back(r);
  }
  std::vector<std::size_t> index(queue.size());
  std::iota(index.begin(), index.end(), std::size_t{0});
  std::sort(index.begin(), index.end(), [&](std::size_t a, std::size_t b) {
    const RankedJob& x = ranked[a];
    const RankedJob& y = ranked[b];
    if (x.best_effort != y.best_effort) return y.best_effort;
    if (queue[a].user_priority != queue[b].user_priority) return queue[a].user_priority > queue[b].user_priority;
    if (x.priority != y.priority) return x.priority > y.priority;
    if (queue[a].submit != queue[b].submit) return queue[a].submit < queue[b].submit;
    return queue[a].id < queue[b].id;
  });
  std::vector<RankedJob> sorted;
  sorted.reserve(ranked.size());
  for (std::size_t i : index) sorted.push_back(ranked[i]);
  return sorted;
}

PassResult reference_schedule(const PolicyEngine& engine, std::span<const QueuedJob> queue,
                              std::span<const RunningJob> running, const Accounts& accounts, Time now) {
  const PolicyConfig& config = engine.config();
  const std::vector<Pool>& pools = engine.pools();
  auto tier_of = [&](std::string_view a) { return engine.tier_of(a); };
  PassResult out;
  if (queue.empty()) return out;
  const std::vector<RankedJob> ranked = reference_rank(engine, queue, accounts, now);
  std::map<JobId, std::size_t> by_id;
  for (std::size_t i = 0; i < queue.size(); ++i) by_id.emplace(queue[i].id, i);

  Pass pass(engine, running, now);
  const int depth = config.reservation_depth;
  int holds = 0;
  bool stopped = false;
  std::vector<std::size_t> rest;         // non-best-effort jobs after the last reservation
  std::vector<std::size_t> best_effort;  // in queue order
  std::vector<Need> needs;

  auto tier_priority = [&](const QueuedJob& job) {
    const TierConfig* t = tier_of(job.account);
    return t ? t->priority : kNoTier;
  };
  // Starts the job now if it fits, preempting best-effort jobs below it if needed.
  auto try_now = [&](const QueuedJob& job, bool is_best_effort) {
    if (!pass.fits_now(needs, job.estimate) &&
        !pass.preempt_for(needs, job.estimate, is_best_effort, tier_priority(job), out)) {
      return false;
    }
    pass.take(needs, now, job.estimate);
    out.start.push_back(job.id);
    return true;
  };

  for (const RankedJob& r : ranked) {
    const std::size_t i = by_id.at(r.id);
    if (r.best_effort) {
      best_effort.push_back(i);
      continue;
    }
    if (stopped) continue;
    if (depth > 0 && holds >= depth) {
      rest.push_back(i);
      continue;
    }
    const QueuedJob& job = queue[i];
    if (!merge(job.components, pools, needs)) continue;  // can never start
    if (try_now(job, false)) continue;
    if (depth == 0) {
      stopped = true;  // strict order: nothing behind it starts
      continue;
    }
    const Time start = pass.earliest(needs, job.estimate);
    if (start == kNever) continue;
    pass.take(needs, start, job.estimate);
    out.reserved.emplace_back(job.id, start);
    ++holds;
  }

  if (config.backfill_order == BackfillOrder::kShortestEstimate) {
    std::stable_sort(rest.begin(), rest.end(),
                     [&](std::size_t a, std::size_t b) { return queue[a].estimate < queue[b].estimate; });
  }
  for (std::size_t i : rest) {
    if (merge(queue[i].components, pools, needs)) try_now(queue[i], false);
  }
  for (std::size_t i : best_effort) {
    if (merge(queue[i].components, pools, needs)) try_now(queue[i], true);
  }
  return out;
}

}  // namespace yard::sched::reference

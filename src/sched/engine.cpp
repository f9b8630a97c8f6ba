#include "sched/engine.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string_view>
#include <unordered_map>

#include "sched/floors.h"
#include "sched/needs.h"

namespace yard::sched {

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
    const std::size_t count = pools.size() * kResources;
    profiles_.reserve(count);
    for (std::size_t i = 0; i < count; ++i) profiles_.emplace_back(capacity(pools, i));
    floors_.resize(count);
    floors_state_.assign(count, kStale);
    running_.reserve(running.size());
    // What the running jobs hold, per profile, added in one sweep each.
    std::vector<std::vector<Profile::Hold>> holds(count);
    std::vector<Need> needs;
    std::vector<Need> one;
    for (const RunningJob& r : running) {
      // Running jobs are taken as they are: components that could not be had are ignored,
      // and what they hold is capped at what the pool has.
      needs.clear();
      for (const Component& c : r.components) {
        one.clear();
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
      for (const Need& n : run.needs) holds[n.profile].push_back({now, run.hold_end - now, n.amount});
      if (run.best_effort) best_effort_.push_back(running_.size());
      running_.push_back(std::move(run));
    }
    for (std::size_t i = 0; i < count; ++i) profiles_[i].allocate_all(holds[i]);
  }

  // Whether every need is free over [now, now + estimate). A profile's floors (floors.h)
  // answer in a binary search; they are rebuilt when a profile changes other than by a
  // start now, and only once a second question comes before the next such change, so
  // that a pass placing a reservation after every question walks the profile once each.
  bool fits_now(const std::vector<Need>& needs, Time estimate) {
    for (const Need& n : needs) {
      if (min_free_now(n.profile, estimate) < n.amount) return false;
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
    for (const Need& n : needs) {
      profiles_[n.profile].allocate(start, duration, n.amount);
      if (start == now_ && floors_state_[n.profile] == kBuilt) {
        floors_[n.profile].take(n.amount, duration);
      } else {
        floors_state_[n.profile] = kStale;
      }
    }
  }
  void give(const std::vector<Need>& needs, Time start, Time duration) {
    for (const Need& n : needs) {
      profiles_[n.profile].release(start, duration, n.amount);
      floors_state_[n.profile] = kStale;
    }
  }

  // Stops running best-effort jobs below the given tier until the job fits now; false
  // (and nothing stopped) when stopping all of them would not be enough.
  bool preempt_for(const std::vector<Need>& needs, Time estimate, bool best_effort,
                   double tier_priority, PassResult& out) {
    if (best_effort_.empty()) return false;
    std::vector<std::size_t> victims;
    for (std::size_t i : best_effort_) {
      const Running& r = running_[i];
      if (r.preempted) continue;
      if (best_effort && !(r.tier_priority < tier_priority)) continue;
      const bool shares_pool = std::any_of(r.needs.begin(), r.needs.end(), [&](const Need& a) {
        return std::any_of(needs.begin(), needs.end(), [&](const Need& b) { return a.pool() == b.pool(); });
      });
      if (shares_pool) victims.push_back(i);
    }
    if (victims.empty()) return false;
    for (std::size_t i : victims) give(running_[i].needs, now_, running_[i].hold_end - now_);
    const bool enough = fits_now(needs, estimate);
    for (std::size_t i : victims) take(running_[i].needs, now_, running_[i].hold_end - now_);
    if (!enough) return false;
    // Lowest tier first, then the most recently started (least work lost), then id.
    std::sort(victims.begin(), victims.end(), [&](std::size_t a, std::size_t b) {
      const Running& x = running_[a];
      const Running& y = running_[b];
      if (x.tier_priority != y.tier_priority) return x.tier_priority < y.tier_priority;
      if (x.job->start != y.job->start) return x.job->start > y.job->start;
      return x.job->id > y.job->id;
    });
    for (std::size_t i : victims) {
      Running& r = running_[i];
      give(r.needs, now_, r.hold_end - now_);
      r.preempted = true;
      out.preempt.push_back(r.job->id);
      if (fits_now(needs, estimate)) break;
    }
    return true;
  }

 private:
  enum FloorsState : unsigned char { kStale, kAsked, kBuilt };

  Procs min_free_now(std::size_t profile, Time estimate) {
    switch (floors_state_[profile]) {
      case kBuilt: return floors_[profile].min_free(estimate);
      case kStale:
        floors_state_[profile] = kAsked;
        return profiles_[profile].min_free(now_, estimate);
      case kAsked: break;
    }
    floors_[profile].build(profiles_[profile], now_);
    floors_state_[profile] = kBuilt;
    return floors_[profile].min_free(estimate);
  }

  Time now_;
  std::vector<Profile> profiles_;
  std::vector<Floors> floors_;  // per profile, valid where floors_state_ is kBuilt
  std::vector<FloorsState> floors_state_;
  std::vector<Running> running_;
  std::vector<std::size_t> best_effort_;  // indices in running_ of best-effort jobs
};

}  // namespace

PolicyEngine::PolicyEngine(PolicyConfig config, std::vector<Pool> pools)
    : config_(std::move(config)), pools_(std::move(pools)) {
  for (const Pool& p : pools_) total_ += p.cores();
}

const TierConfig* PolicyEngine::tier_of(std::string_view account) const {
  const AccountConfig* a = config_.account(account);
  if (a == nullptr && !config_.default_account.empty()) a = config_.account(config_.default_account);
  return a ? config_.tier(a->tier) : nullptr;
}

namespace {

// A queued job in scheduling order: its ranking, its index in the queue and its tier's
// priority (for preemption).
struct Ordered {
  RankedJob ranked;
  std::size_t index;
  double tier_priority;
};

struct AccountFactors {
  const TierConfig* tier;
  double tier_factor;
  double fairshare;
};

// The queue in scheduling order. Tier, tier factor and fair-share are looked up once per
// account; the sort compares compact keys rather than the queued jobs.
std::vector<Ordered> order(const PolicyEngine& engine, Procs total, std::span<const QueuedJob> queue,
                           const Accounts& accounts, Time now) {
  const PolicyConfig& config = engine.config();
  std::unordered_map<std::string_view, AccountFactors> by_account;
  std::string_view last_name;
  const AccountFactors* last = nullptr;
  auto factors_of = [&](const std::string& account) -> const AccountFactors& {
    if (last != nullptr && account == last_name) return *last;
    auto it = by_account.find(account);
    if (it == by_account.end()) {
      const TierConfig* tier = engine.tier_of(account);
      it = by_account
               .emplace(account, AccountFactors{tier, tier ? tier_factor(config, tier->name) : 0,
                                                accounts.fairshare(account, now)})
               .first;
    }
    last_name = it->first;
    last = &it->second;
    return *last;
  };

  struct Key {
    bool best_effort;
    int user_priority;
    double priority;
    Time submit;
    JobId id;
    std::uint32_t entry;
  };
  std::vector<Ordered> entries;
  entries.reserve(queue.size());
  std::vector<Key> keys;
  keys.reserve(queue.size());
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const QueuedJob& job = queue[i];
    const AccountFactors& a = factors_of(job.account);
    Ordered o;
    o.index = i;
    o.tier_priority = a.tier ? a.tier->priority : kNoTier;
    RankedJob& r = o.ranked;
    r.id = job.id;
    r.best_effort = a.tier && a.tier->best_effort;
    r.factors.tier = a.tier_factor;
    r.factors.age = age_factor(now - job.submit, config.max_age);
    r.factors.fairshare = a.fairshare;
    r.factors.size = size_factor(total_procs(job.components), total);
    r.priority = weighted_priority(config.weights, r.factors);
    keys.push_back({r.best_effort, job.user_priority, r.priority, job.submit, job.id,
                    static_cast<std::uint32_t>(i)});
    entries.push_back(o);
  }
  std::sort(keys.begin(), keys.end(), [](const Key& x, const Key& y) {
    if (x.best_effort != y.best_effort) return y.best_effort;
    if (x.user_priority != y.user_priority) return x.user_priority > y.user_priority;
    if (x.priority != y.priority) return x.priority > y.priority;
    if (x.submit != y.submit) return x.submit < y.submit;
    return x.id < y.id;
  });
  std::vector<Ordered> sorted;
  sorted.reserve(entries.size());
  for (const Key& k : keys) sorted.push_back(entries[k.entry]);
  return sorted;
}

}  // namespace

std::vector<RankedJob> PolicyEngine::rank(std::span<const QueuedJob> queue, const Accounts& accounts,
                                          Time now) const {
  std::vector<RankedJob> ranked;
  ranked.reserve(queue.size());
  for (const Ordered& o : order(*this, total_, queue, accounts, now)) ranked.push_back(o.ranked);
  return ranked;
}

PassResult PolicyEngine::schedule(std::span<const QueuedJob> queue, std::span<const RunningJob> running,
                                  const Accounts& accounts, Time now) const {
  PassResult out;
  if (queue.empty()) return out;
  std::vector<Ordered> ordered = order(*this, total_, queue, accounts, now);
  std::vector<double> tier_priority(queue.size());
  for (const Ordered& o : ordered) tier_priority[o.index] = o.tier_priority;
  // A job is looked up by id: with an id queued twice, both entries stand for the first.
  bool ascending = true;
  for (std::size_t i = 1; i < queue.size() && ascending; ++i) ascending = queue[i - 1].id < queue[i].id;
  if (!ascending) {
    std::map<JobId, std::size_t> by_id;
    for (std::size_t i = 0; i < queue.size(); ++i) by_id.emplace(queue[i].id, i);
    for (Ordered& o : ordered) o.index = by_id.at(o.ranked.id);
  }
  Pass pass(*this, running, now);
  const int depth = config_.reservation_depth;
  int holds = 0;
  bool stopped = false;
  std::vector<std::size_t> rest;         // non-best-effort jobs after the last reservation
  std::vector<std::size_t> best_effort;  // in queue order
  std::vector<Need> needs;

  // Starts the job now if it fits, preempting best-effort jobs below it if needed.
  auto try_now = [&](std::size_t i, bool is_best_effort) {
    const QueuedJob& job = queue[i];
    if (!pass.fits_now(needs, job.estimate) &&
        !pass.preempt_for(needs, job.estimate, is_best_effort, tier_priority[i], out)) {
      return false;
    }
    pass.take(needs, now, job.estimate);
    out.start.push_back(job.id);
    return true;
  };

  for (const Ordered& o : ordered) {
    const std::size_t i = o.index;
    if (o.ranked.best_effort) {
      best_effort.push_back(i);
      continue;
    }
    if (stopped) continue;
    if (depth > 0 && holds >= depth) {
      rest.push_back(i);
      continue;
    }
    const QueuedJob& job = queue[i];
    if (!merge(job.components, pools_, needs)) continue;  // can never start
    if (try_now(i, false)) continue;
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

  if (config_.backfill_order == BackfillOrder::kShortestEstimate) {
    std::stable_sort(rest.begin(), rest.end(),
                     [&](std::size_t a, std::size_t b) { return queue[a].estimate < queue[b].estimate; });
  }
  for (std::size_t i : rest) {
    if (merge(queue[i].components, pools_, needs)) try_now(i, false);
  }
  for (std::size_t i : best_effort) {
    if (merge(queue[i].components, pools_, needs)) try_now(i, true);
  }
  return out;
}

}  // namespace yard::sched

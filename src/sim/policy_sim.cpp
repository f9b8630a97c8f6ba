#include "sim/policy_sim.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <queue>

namespace yard::sim {

Result<std::vector<sched::Pool>> pool_sizes(const sched::PolicyConfig& config, Procs machine) {
  std::vector<sched::Pool> pools;
  if (config.pools.empty()) {
    if (machine <= 0) return err("the machine needs at least one processor");
    pools.emplace_back(machine);
    return pools;
  }
  for (const sched::PoolConfig& p : config.pools) {
    sched::Pool pool(p.procs > 0 ? p.procs : machine);
    if (p.nodes > 0) {
      pool.nodes = p.nodes;
      pool.cores_per_node = p.cores_per_node;
    }
    if (pool.cores() <= 0) {
      return err("pool '" + p.name + "' has no size and the machine size is unknown");
    }
    pool.memory_per_node = p.memory_per_node;
    pool.gpus_per_node = p.gpus_per_node;
    pools.push_back(pool);
  }
  return pools;
}

namespace {

Result<std::string> account_of(const SwfRecord& r, const sched::PolicyConfig& config) {
  std::int64_t key = r.user;
  const char* field = "user";
  if (config.account_from == sched::AccountFrom::kGroup) {
    key = r.group;
    field = "group";
  } else if (config.account_from == sched::AccountFrom::kQueue) {
    key = r.queue;
    field = "queue";
  }
  if (auto it = config.account_map.find(key); it != config.account_map.end()) return it->second;
  if (!config.default_account.empty()) return config.default_account;
  // Without configured accounts, every id is an account of its own with an equal share.
  if (config.accounts.empty()) return std::string(field) + ":" + std::to_string(key);
  return err("job " + std::to_string(r.id) + ": " + field + " " + std::to_string(key) +
             " has no account (add it to account_map or set default_account)");
}

}  // namespace

Result<std::vector<PolicyJob>> policy_jobs_from_swf(const SwfTrace& trace,
                                                    const sched::PolicyConfig& config,
                                                    const std::vector<sched::Pool>& pools,
                                                    std::size_t first) {
  std::vector<PolicyJob> jobs;
  bool extending = false;  // the previous record's job was kept
  for (std::size_t k = 0; k < trace.records.size(); ++k) {
    const SwfRecord& r = trace.records[k];
    const bool more = k > 0 && trace.records[k - 1].id == r.id;
    if (more && !extending) continue;
    if (!more) {
      extending = false;
      if (first > 0 && jobs.size() >= first) break;
    }
    const Procs procs = r.allocated > 0 ? r.allocated : r.requested;
    if (!more && (r.run <= 0 || procs <= 0)) continue;
    if (procs <= 0) return err("job " + std::to_string(r.id) + ": a component without processors");
    std::size_t pool = 0;
    if (r.partition > 0) {
      pool = static_cast<std::size_t>(r.partition - 1);
      if (pool >= pools.size()) {
        return err("job " + std::to_string(r.id) + ": partition " + std::to_string(r.partition) +
                   " has no pool (the config has " + std::to_string(pools.size()) + ")");
      }
    }
    sched::Component component{pool, std::min(procs, pools[pool].cores())};
    // Requested memory (KB per processor) counts only on a pool that accounts memory, and
    // like processors is capped at what the pool has.
    if (r.requested_memory > 0 && pools[pool].memory() > 0) {
      const double bytes = static_cast<double>(r.requested_memory) * 1024.0 * static_cast<double>(component.procs);
      component.memory = bytes >= static_cast<double>(pools[pool].memory())
                             ? pools[pool].memory()
                             : static_cast<std::int64_t>(bytes);
    }
    if (more) {
      jobs.back().components.push_back(component);
      jobs.back().job.procs += component.procs;
      continue;
    }
    auto account = account_of(r, config);
    if (!account) return err(account.error());
    PolicyJob job;
    job.job.id = r.id;
    job.job.submit = r.submit;
    job.job.procs = component.procs;
    job.job.estimate = r.requested_time > 0 ? r.requested_time : r.run;
    job.job.run = std::min(r.run, job.job.estimate);
    job.account = std::move(*account);
    job.components.push_back(component);
    jobs.push_back(std::move(job));
    extending = true;
  }
  return jobs;
}

std::vector<SimJob> sim_jobs(const std::vector<PolicyJob>& jobs) {
  std::vector<SimJob> out;
  out.reserve(jobs.size());
  for (const PolicyJob& j : jobs) out.push_back(j.job);
  return out;
}

namespace {

struct End {
  Time time;
  std::uint64_t seq;
  std::size_t job;
  std::uint32_t generation;  // a preempted run's end is stale
};

struct Later {
  bool operator()(const End& a, const End& b) const {
    if (a.time != b.time) return a.time > b.time;
    return a.seq > b.seq;
  }
};

Status check(const std::vector<PolicyJob>& jobs, const std::vector<sched::Pool>& pools) {
  if (pools.empty()) return err("no resource pool");
  for (const PolicyJob& p : jobs) {
    const SimJob& j = p.job;
    if (j.estimate < 1 || j.run < 1 || j.run > j.estimate || p.components.empty()) {
      return err("job " + std::to_string(j.id) + ": needs a component and 0 < run <= estimate");
    }
    for (const sched::Component& c : p.components) {
      if (c.pool >= pools.size() || c.procs < 1 || c.total_cores() > pools[c.pool].cores()) {
        return err("job " + std::to_string(j.id) + ": needs 1 <= procs <= its pool's size");
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Result<PolicySimResult> simulate_policy(const std::vector<PolicyJob>& jobs,
                                        const sched::PolicyConfig& config,
                                        const std::vector<sched::Pool>& pools) {
  if (Status st = check(jobs, pools); !st) return err(st.error());
  const sched::PolicyEngine engine(config, pools);
  sched::Accounts ledger = sched::Accounts::from_config(config);
  if (config.accounts.empty()) {
    for (const PolicyJob& j : jobs) {
      if (!ledger.has(j.account)) ledger.set(j.account, 1, 0);
    }
  }

  const std::size_t n = jobs.size();
  PolicySimResult out;
  out.result.start.assign(n, sched::kNever);
  out.preempted.assign(n, 0);
  std::vector<std::uint32_t> generation(n, 0);
  std::vector<sched::QueuedJob> queue;
  std::vector<sched::RunningJob> running;
  std::priority_queue<End, std::vector<End>, Later> ends;
  std::uint64_t seq = 0;

  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return jobs[a].job.submit < jobs[b].job.submit; });
  auto queued = [&](std::size_t j) {
    return sched::QueuedJob{static_cast<sched::JobId>(j), jobs[j].account, jobs[j].job.submit,
                            jobs[j].job.estimate, jobs[j].components};
  };
  auto remove_running = [&](std::size_t j) {
    auto it = std::find_if(running.begin(), running.end(),
                           [&](const sched::RunningJob& r) { return r.id == static_cast<sched::JobId>(j); });
    running.erase(it);
  };

  std::size_t next = 0;
  while (next < n || !ends.empty()) {
    Time now = sched::kNever;
    if (next < n) now = jobs[order[next]].job.submit;
    if (!ends.empty()) now = std::min(now, ends.top().time);
    while (!ends.empty() && ends.top().time == now) {
      const End e = ends.top();
      ends.pop();
      if (e.generation != generation[e.job]) continue;  // preempted before it ended
      remove_running(e.job);
      ledger.charge(jobs[e.job].account,
                    static_cast<double>(jobs[e.job].job.run) * static_cast<double>(jobs[e.job].job.procs), now);
    }
    while (next < n && jobs[order[next]].job.submit == now) queue.push_back(queued(order[next++]));

    for (int round = 0; round < 64; ++round) {
      const sched::PassResult pass = engine.schedule(queue, running, ledger, now);
      for (sched::JobId id : pass.preempt) {
        const auto j = static_cast<std::size_t>(id);
        ++generation[j];
        ++out.preempted[j];
        ++out.preemptions;
        remove_running(j);
        ledger.charge(jobs[j].account,
                      static_cast<double>(now - out.result.start[j]) * static_cast<double>(jobs[j].job.procs), now);
        queue.push_back(queued(j));
      }
      for (sched::JobId id : pass.start) {
        const auto j = static_cast<std::size_t>(id);
        queue.erase(std::find_if(queue.begin(), queue.end(),
                                 [&](const sched::QueuedJob& q) { return q.id == id; }));
        out.result.start[j] = now;
        running.push_back({id, jobs[j].account, now, now + jobs[j].job.estimate, jobs[j].components});
        ends.push({now + jobs[j].job.run, seq++, j, generation[j]});
      }
      if (pass.preempt.empty()) break;
    }
  }
  out.accounts = ledger.report(out.result.start.empty() ? 0 : [&] {
    Time last = 0;
    for (std::size_t j = 0; j < n; ++j) last = std::max(last, out.result.start[j] + jobs[j].job.run);
    return last;
  }());
  return out;
}

}  // namespace yard::sim

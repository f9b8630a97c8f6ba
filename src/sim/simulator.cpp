#include "sim/simulator.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <queue>
#include <string>

#include "sched/backfill.h"

namespace yard::sim {

namespace {

enum class Kind : std::uint8_t { kSubmit = 0, kTerminate = 1, kStart = 2 };

struct Event {
  Time time;
  Kind kind;
  std::uint64_t seq;
  std::size_t job;
};

struct Later {
  bool operator()(const Event& a, const Event& b) const {
    if (a.time != b.time) return a.time > b.time;
    if (a.kind != b.kind) return a.kind > b.kind;
    return a.seq > b.seq;
  }
};

Status check(const std::vector<SimJob>& jobs, Procs machine) {
  if (machine <= 0) return err("the machine needs at least one processor");
  for (const SimJob& j : jobs) {
    if (j.procs < 1 || j.procs > machine || j.estimate < 1 || j.run < 1 || j.run > j.estimate) {
      return err("job " + std::to_string(j.id) +
                 ": needs 1 <= procs <= machine size and 0 < run <= estimate");
    }
  }
  return Status::Ok();
}

class Run {
 public:
  Run(const std::vector<SimJob>& jobs, Procs machine, sched::Policy policy)
      : jobs_(jobs), sched_(machine, policy), planned_(jobs.size(), sched::kNever),
        started_(jobs.size(), 0) {}

  SimResult operator()() {
    // Submissions in time order, ties in trace order, merged with the other events.
    std::vector<std::size_t> order(jobs_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [this](std::size_t a, std::size_t b) { return jobs_[a].submit < jobs_[b].submit; });
    std::size_t next = 0;
    while (next < order.size() || !events_.empty()) {
      if (next < order.size() &&
          (events_.empty() || jobs_[order[next]].submit <= events_.top().time)) {
        const std::size_t j = order[next++];
        const SimJob& job = jobs_[j];
        sched_.submit({static_cast<sched::JobId>(j), job.procs, job.estimate}, job.submit, decided_);
        take_decisions();
        continue;
      }
      const Event e = events_.top();
      events_.pop();
      if (e.kind == Kind::kStart) {
        if (started_[e.job] || planned_[e.job] != e.time) continue;  // superseded
        started_[e.job] = 1;
        push(e.time + jobs_[e.job].run, Kind::kTerminate, e.job);
      } else {
        const SimJob& job = jobs_[e.job];
        sched_.finish(planned_[e.job], job.estimate, job.procs, e.time, decided_);
        take_decisions();
      }
    }
    return SimResult{std::move(planned_)};
  }

 private:
  void push(Time t, Kind kind, std::size_t job) { events_.push({t, kind, seq_++, job}); }

  void take_decisions() {
    for (const sched::Decision& d : decided_) {
      const auto j = static_cast<std::size_t>(d.id);
      planned_[j] = d.start;
      push(d.start, Kind::kStart, j);
    }
    decided_.clear();
  }

  const std::vector<SimJob>& jobs_;
  sched::Backfiller sched_;
  std::vector<Time> planned_;
  std::vector<char> started_;
  std::vector<sched::Decision> decided_;
  std::priority_queue<Event, std::vector<Event>, Later> events_;
  std::uint64_t seq_ = 0;
};

}  // namespace

Result<SimResult> simulate(const std::vector<SimJob>& jobs, Procs machine, sched::Policy policy) {
  if (Status st = check(jobs, machine); !st) return err(st.error());
  return Run(jobs, machine, policy)();
}

}  // namespace yard::sim

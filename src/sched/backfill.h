// Backfilling: one algorithm over an availability profile (profile.h), parameterised by a
// reservation depth and a backfill order (policy.h). It owns the queue of waiting jobs and
// the profile of running and reserved ones; its caller (the simulator's event loop, or the
// local backend) tells it when a job arrives and when a running job ends, and gets back
// the start decisions. A decision's start is "now", except under unlimited depth where a
// job may be given a future reservation: its caller starts it at that time unless a later
// decision for the same job moves it earlier. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "sched/floors.h"
#include "sched/policy.h"
#include "sched/profile.h"

namespace yard::sched {

using JobId = std::int64_t;

struct Request {
  JobId id = 0;
  Procs procs = 1;     // >= 1; a job wider than the machine never starts
  Time estimate = 1;   // > 0; the job holds its processors for this long at most
};

struct Decision {
  JobId id = 0;
  Time start = 0;
};

class Backfiller {
 public:
  Backfiller(Procs total, Policy policy) : profile_(total), policy_(policy) {}

  // A job arrives at `now`; appends start decisions to `out`.
  void submit(const Request& job, Time now, std::vector<Decision>& out);
  // Adds a job to the queue without a pass (a batch of arrivals, then one schedule()).
  void enqueue(const Request& job);
  // A running job that started at `start` with `estimate` ends at `now` (<= its
  // estimated end): the rest of its hold is released, then one pass runs.
  void finish(Time start, Time estimate, Procs procs, Time now, std::vector<Decision>& out);
  // One scheduling pass at `now` without any change (e.g. for benchmarks).
  void schedule(Time now, std::vector<Decision>& out);

  std::size_t waiting() const { return queue_.size(); }
  const Profile& profile() const { return profile_; }
  const Policy& policy() const { return policy_; }

 private:
  struct Waiting {
    Request job;
    Time reserved = kNever;  // unlimited depth: start of the job's hold in the profile
  };

  void pass(Time now, std::vector<Decision>& out);
  void compress(Time now, std::vector<Decision>& out);
  void backfill(Time now, std::size_t from, std::vector<Decision>& out);

  Profile profile_;
  Policy policy_;
  void drop_started();

  std::deque<Waiting> queue_;       // submission order
  std::vector<std::pair<Time, std::size_t>> by_estimate_;  // scratch: (estimate, index)
  std::vector<std::size_t> started_;  // scratch: indices started in this pass
  Floors floors_;                   // scratch: what can start now, during backfilling
};

}  // namespace yard::sched

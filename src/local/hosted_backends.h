// Local backends that share one job host: the machine's own ("local"), or the steps
// backends of a Slurm allocation (one per component). It owns the host link: reads the
// host's reports and gives each to the backend that ran the job, starts a new host if
// this one dies, and drives its backends through the daemon's loop (backends/backend.h).
#pragma once

#include <poll.h>

#include <memory>
#include <vector>

#include "local/job_host_link.h"
#include "local/local_backend.h"

namespace yard {

class HostedBackends {
 public:
  static Result<HostedBackends> start();
  void add(std::unique_ptr<LocalBackend> b);  // before recover()
  const std::vector<std::unique_ptr<LocalBackend>>& backends() const { return backends_; }
  bool empty() const { return backends_.empty(); }

  Status recover();
  std::vector<int> watched_fds() const;
  void ready(const std::vector<int>& fds);
  void coalesce(std::vector<pollfd>& fds);
  // Time-driven work; with `start_new`, choosing what to start.
  void step(double now, bool start_new);
  void after_commit();
  double next_wakeup_s(double now) const;
  std::size_t running() const;
  std::size_t pending() const;
  void cancel_all_running();
  Result<std::vector<std::int64_t>> cancel(const std::vector<std::int64_t>& ids);

 private:
  explicit HostedBackends(JobHostLink host) : host_(std::make_unique<JobHostLink>(std::move(host))) {}
  std::unique_ptr<JobHostLink> host_;  // stable address: the backends keep a pointer
  std::vector<std::unique_ptr<LocalBackend>> backends_;
};

}  // namespace yard

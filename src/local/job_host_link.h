// The daemon's end of its job host (job_host.h): starts the host, hands it jobs, reads
// what it reports, and starts a new one should it die.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "local/host_protocol.h"
#include "local/job_runner.h"
#include "local/launch_plan.h"

namespace yard {

class JobHostLink final : public JobRunner {
 public:
  // Starts a host: this program again (/proc/self/exe __job-host FD), so the host is a
  // small fresh process whatever the daemon has grown to, and starting it is safe from
  // a daemon with threads.
  static Result<JobHostLink> start();
  JobHostLink(JobHostLink&& o) noexcept;
  JobHostLink& operator=(JobHostLink&& o) noexcept;
  ~JobHostLink();  // closes the socket: the host finishes its jobs, then exits

  Status launch(std::int64_t job_id, const LaunchPlan& plan, int record_fd, std::int64_t after = 0) override;
  bool signal_job(std::int64_t job_id, int sig) const override { return signal_host(pidfd_, sig, job_id); }

  int socket_fd() const { return sock_; }  // readable: reports wait
  int pidfd() const { return pidfd_; }     // readable: the host has exited
  pid_t pid() const { return pid_; }
  // Every report waiting on the socket (never blocks).
  std::vector<Ended> take_reports();
  // After the host exited: reaps it.
  void reap();

 private:
  JobHostLink(int sock, pid_t pid, int pidfd) : sock_(sock), pid_(pid), pidfd_(pidfd) {}
  void close_all();
  int sock_ = -1;
  pid_t pid_ = 0;
  int pidfd_ = -1;
};

}  // namespace yard

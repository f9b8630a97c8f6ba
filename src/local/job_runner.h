// What LocalBackend runs its jobs with: the job host (JobHostLink) in the daemon, a fake
// in the backend's unit tests, which report ends by calling LocalBackend::job_ended().
#pragma once

#include <cstdint>

#include "core/result.h"
#include "local/launch_plan.h"

namespace yard {

class JobRunner {
 public:
  virtual ~JobRunner() = default;
  // Hands the job over; `record_fd` is its locked run record (the runner keeps a copy).
  // With `after`, a hand-off: started when that job ends (see job_host.h).
  virtual Status launch(std::int64_t job_id, const LaunchPlan& plan, int record_fd, std::int64_t after) = 0;
  // Queues a cancel, preemption or revoke signal for the job (see host_protocol.h).
  virtual bool signal_job(std::int64_t job_id, int sig) const = 0;
};

}  // namespace yard

// The pilot job of direct mode (slurm.yaml `allocation: pilot`): the daemon obtains its
// allocation itself. At start it looks for its pilot by name (after a crash the pilot is
// still there: found, not submitted twice), submits one if there is none, then checks it
// with `scontrol show job -o` every poll interval until it is RUNNING, and from then on
// every ten: a pilot that ended (time limit, cancelled) is replaced. All of it runs on a
// worker thread of its own: the daemon's loop never waits for Slurm. `cancel()` ends the
// pilot when the daemon is stopped.
#pragma once

#include <memory>
#include <string>

#include "backends/command_runner.h"
#include "backends/local/steps_entry.h"
#include "backends/pilot_spec.h"
#include "backends/slurm/slurm_allocation.h"

namespace yard {

class Pilot final : public AllocationKeeper {
 public:
  Pilot(PilotSpec spec, std::string name, double poll_interval_s, double command_timeout_s);

  int event_fd() const override { return commands_.event_fd(); }
  // Applies finished commands and posts the next one.
  void step(double now) override;
  double next_wakeup_s(double now) const override;

  // RUNNING, and `allocation()` describes it.
  bool ready() const override { return phase_ == Phase::Ready; }
  // Filled in once the pilot runs (the steps' srun --jobid reads it).
  std::shared_ptr<SlurmAllocation> allocation() const { return alloc_; }
  const std::string& name() const override { return name_; }
  const std::string& job_id() const override { return job_id_; }
  // Why there is no allocation (Slurm refused the pilot), empty otherwise.
  const std::string& problem() const override { return problem_; }
  std::string state() const override;

  // scancel of the pilot, waited for (the daemon is stopping).
  void cancel(double timeout_s) override;

 private:
  enum class Phase { Find, Submit, Wait, Ready, Refused };
  void apply(const CommandResult& r, double now);
  void retry(double now);

  PilotSpec spec_;
  std::string name_;
  double poll_s_, timeout_s_;
  CommandWorker commands_;
  Phase phase_ = Phase::Find;
  bool in_flight_ = false;
  double next_ = 0, backoff_ = 0;
  std::string job_id_, problem_, slurm_state_;
  std::shared_ptr<SlurmAllocation> alloc_ = std::make_shared<SlurmAllocation>();
};

}  // namespace yard

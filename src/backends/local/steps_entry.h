// Direct mode's backend, for any batch scheduler: jobs run as steps of an allocation the
// daemon was given (or obtained itself), by local schedulers sized to it whose launches
// are the scheduler's own way into the allocation (Slurm's srun, a scheduler's own
// remote shell, or mpirun). The supervision and crash survival are the local backend's
// (one job host of its own). The scheduler's folder builds the local backends and, where
// the daemon obtains the allocation itself, an AllocationKeeper (Slurm's pilot job).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "local/hosted_backends.h"

namespace yard {

// An allocation the daemon obtains and keeps (a pilot job): its steps start once it is ready.
class AllocationKeeper {
 public:
  virtual ~AllocationKeeper() = default;
  virtual int event_fd() const = 0;  // readable when step() has results to take
  virtual void step(double now) = 0;
  virtual double next_wakeup_s(double now) const = 0;
  virtual bool ready() const = 0;
  virtual const std::string& problem() const = 0;  // why there is no allocation; empty otherwise
  virtual const std::string& name() const = 0;
  virtual const std::string& job_id() const = 0;
  virtual std::string state() const = 0;
  virtual void cancel(double timeout_s) = 0;  // the daemon stops: the allocation ends with it
};

struct StepsEntrySettings {
  std::string name;        // "slurm-steps"
  std::string allocation_kind;  // "a Slurm allocation", in messages
  std::string how_to_get;  // how to give the daemon an allocation, for the error without one
  std::string allocation;  // the configured allocation's id, empty: the one the daemon runs in
  double command_timeout_s = 30;
};

class StepsEntry final : public Backend {
 public:
  // `hosted` is empty when there is no allocation (`problem` then says why, when known).
  StepsEntry(StepsEntrySettings settings, std::unique_ptr<AllocationKeeper> keeper,
             std::optional<HostedBackends> hosted, std::string problem)
      : settings_(std::move(settings)), keeper_(std::move(keeper)), hosted_(std::move(hosted)),
        problem_(std::move(problem)) {}

  const std::string& name() const override { return settings_.name; }
  bool has_components() const override { return true; }
  Status recover(double) override { return hosted_ ? hosted_->recover() : Status{}; }
  Result<std::vector<std::int64_t>> submit(JobSpec spec, double) override;
  Status check(const JobSpec& spec, double) const override;
  Result<std::vector<std::int64_t>> cancel(const std::vector<std::int64_t>& ids, double) override {
    return hosted_ ? hosted_->cancel(ids) : std::vector<std::int64_t>{};
  }
  std::vector<int> watched_fds() const override;
  void ready(const std::vector<int>& fds) override {
    if (hosted_) hosted_->ready(fds);
  }
  void coalesce(std::vector<pollfd>& fds) override {
    if (hosted_) hosted_->coalesce(fds);
  }
  void step(double now, bool start_new) override;
  void after_commit() override {
    if (hosted_) hosted_->after_commit();
  }
  double next_wakeup_s(double now) const override;
  std::size_t running() const override { return hosted_ ? hosted_->running() : 0; }
  void cancel_all_running() override {
    if (hosted_) hosted_->cancel_all_running();
  }
  // {"<name>" (dashes as underscores): the steps' figures, and "pilot": the keeper's if any}.
  nlohmann::json describe() const override;
  void stop() override {
    if (keeper_) keeper_->cancel(settings_.command_timeout_s);
  }
  std::string announce() const override;

 private:
  using Steps = std::vector<std::unique_ptr<LocalBackend>>;
  const Steps& backends() const;
  // The backend that runs `spec` (by its --het-group), or why none does (of kind
  // `no_allocation` when there is no allocation at all).
  Result<LocalBackend*> target_for(const JobSpec& spec, ErrorKind no_allocation) const;
  nlohmann::json steps_status() const;

  StepsEntrySettings settings_;
  std::unique_ptr<AllocationKeeper> keeper_;
  std::optional<HostedBackends> hosted_;
  std::string problem_;
};

}  // namespace yard

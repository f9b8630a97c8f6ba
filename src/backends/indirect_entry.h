// The Backend of an indirect scheduler (Slurm and the like): the shared engine
// (indirect_backend.h) over the scheduler's dialect, its commands run on a worker
// thread. Each scheduler's folder registers one, with its dialect and settings file.
#pragma once

#include <memory>
#include <string>

#include "backends/backend.h"
#include "backends/command_runner.h"
#include "backends/indirect_backend.h"
#include "backends/job_wrapper.h"

namespace yard {

class IndirectEntry final : public Backend {
 public:
  // The worker thread is started here, after the daemon blocked its signals, so that
  // SIGTERM reaches the daemon's signalfd, not that thread.
  IndirectEntry(const BackendContext& c, std::unique_ptr<Dialect> dialect, IndirectConfig config);

  const std::string& name() const override { return name_; }
  Status recover(double now) override { return engine_.recover(now); }
  Result<std::vector<std::int64_t>> submit(JobSpec spec, double now) override {
    return engine_.submit(std::move(spec), now);
  }
  Status check(const JobSpec& spec, double) const override { return engine_.check(spec); }
  // The variables the wrapper cannot hand over, and what the batch script says only nearly.
  std::vector<std::string> warnings(const JobSpec& spec) const override;
  bool honours(std::string_view option) const override { return dialect_->honours(option); }
  bool waits_on_other_backends() const override { return true; }
  bool packs_steps() const override { return true; }
  Result<std::vector<std::int64_t>> cancel(const std::vector<std::int64_t>& ids, double) override {
    return engine_.cancel(ids);
  }
  // Through the scheduler's command, where it has one (Dialect::action_argv).
  Result<std::vector<std::int64_t>> act(JobAction action, const std::vector<std::int64_t>& ids,
                                        const std::vector<JobRecord>& jobs, double now) override;
  Release release(std::int64_t id, const std::string& to, bool dry_run) override {
    return engine_.release(id, to, dry_run);
  }
  std::vector<std::int64_t> take_released() override { return engine_.take_released(); }
  Status adopt(const JobRecord& job, double) override { return engine_.adopt(job); }
  const JobClasses* job_classes() const override { return &config_.classes; }
  std::vector<int> watched_fds() const override { return {commands_.event_fd()}; }  // results taken by step()
  void step(double now, bool) override { engine_.step(now); }
  void after_commit() override { engine_.dispatch(); }
  double next_wakeup_s(double now) const override { return engine_.next_wakeup_s(now); }
  std::string down() const override { return engine_.down_reason(); }
  void want_queue_limits(const std::set<std::string>& queues) override { engine_.want_queue_limits(queues); }
  const QueueListing* queue_listing() const override { return &engine_.queue_listing(); }
  std::int64_t max_array_size() const override { return engine_.max_array_size(); }
  // Where classes moved, when its settings file still has some (they keep working).
  std::string announce() const override;
  // "<name>_active": jobs tracked; "<name>_down": why it is down ("" when up); "<name>_calls": scheduler commands run, by kind.
  nlohmann::json describe() const override;

 private:
  std::string name_;
  IndirectConfig config_;
  std::unique_ptr<Dialect> dialect_;
  CommandWorker commands_;
  IndirectBackend engine_;
};

}  // namespace yard

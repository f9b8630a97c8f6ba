#include "backends/local/local_entry.h"

#include "local/hosted_backends.h"
#include "local/local_scheduler.h"
#include "local/machine.h"

namespace yard {
namespace {

class LocalEntry final : public Backend {
 public:
  explicit LocalEntry(HostedBackends hosted) : hosted_(std::move(hosted)) {}

  const std::string& name() const override { return local().name(); }
  Status recover(double) override { return hosted_.recover(); }
  Result<std::vector<std::int64_t>> submit(JobSpec spec, double) override { return local().submit(std::move(spec)); }
  Status check(const JobSpec& spec, double) const override { return local().check(spec); }
  std::vector<std::string> warnings(const JobSpec& spec) const override { return local().warnings(spec); }
  bool honours(std::string_view option) const override { return local().honours(option); }
  bool waits_on_other_backends() const override { return true; }
  Result<std::vector<std::int64_t>> cancel(const std::vector<std::int64_t>& ids, double) override {
    return hosted_.cancel(ids);
  }
  Result<std::vector<std::int64_t>> act(JobAction action, const std::vector<std::int64_t>& ids,
                                        const std::vector<JobRecord>& jobs, double) override {
    return local().act(action, ids, jobs);
  }
  Release release(std::int64_t id, const std::string&, bool dry_run) override {
    auto why = local().release(id, dry_run);
    return {why.empty() ? Release::Given : Release::Stays, why};
  }
  Status adopt(const JobRecord& job, double) override { return local().adopt(job); }
  std::vector<int> watched_fds() const override { return hosted_.watched_fds(); }
  void ready(const std::vector<int>& fds) override { hosted_.ready(fds); }
  void coalesce(std::vector<pollfd>& fds) override { hosted_.coalesce(fds); }
  void step(double now, bool start_new) override { hosted_.step(now, start_new); }
  void after_commit() override { hosted_.after_commit(); }
  double next_wakeup_s(double now) const override { return hosted_.next_wakeup_s(now); }
  std::size_t running() const override { return hosted_.running(); }
  void cancel_all_running() override { hosted_.cancel_all_running(); }
  nlohmann::json describe() const override {
    const Machine& m = local().machine();
    return {{"running", local().running()}, {"pending", local().pending()}, {"cpus", m.cpus},
            {"mem_bytes", m.mem_bytes},     {"gpus", m.gpus}};
  }

 private:
  LocalBackend& local() const { return *hosted_.backends().front(); }
  HostedBackends hosted_;
};

Result<std::unique_ptr<Backend>> open_local(const BackendContext& c) {
  auto hosted = HostedBackends::start();
  if (!hosted) return Error{hosted.failure()};
  auto backend = std::make_unique<LocalBackend>(c.store, c.machine, c.state_dir, c.user, c.clock);
  auto policy = load_local_policy(c.policy_path);
  if (!policy) return Error{policy.failure()};
  backend->use_policy(std::move(*policy));
  hosted->add(std::move(backend));
  return std::unique_ptr<Backend>(std::make_unique<LocalEntry>(std::move(*hosted)));
}

}  // namespace

void register_local_backend(BackendRegistry& registry) { registry.add(kDefaultBackend, open_local); }

}  // namespace yard

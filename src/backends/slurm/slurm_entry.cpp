#include "backends/slurm/slurm_entry.h"

#include <cstdlib>
#include <iostream>

#include "backends/indirect_entry.h"
#include "backends/slurm/pilot.h"
#include "backends/slurm/slurm_dialect.h"
#include "backends/slurm/slurm_pilot.h"
#include "backends/slurm/steps_backend.h"
#include "local/hosted_backends.h"

namespace yard {
namespace {

Result<IndirectConfig> load_slurm_config(const BackendContext& c) {
  // sacct prints times in SLURM_TIME_FORMAT when set; the parsers read the standard form.
  ::unsetenv("SLURM_TIME_FORMAT");
  return load_indirect_config(c.config_dir + "/slurm.yaml");
}

// "slurm-steps": local backends sized to an allocation (one per component of a
// heterogeneous one), whose launches are srun steps; with `allocation: pilot`, the
// allocation is a pilot job the daemon keeps running.
class StepsEntry final : public Backend {
 public:
  StepsEntry(IndirectConfig config, std::unique_ptr<Pilot> pilot, std::optional<HostedBackends> hosted,
             std::string problem)
      : config_(std::move(config)), pilot_(std::move(pilot)), hosted_(std::move(hosted)), problem_(std::move(problem)) {}

  const std::string& name() const override { return name_; }
  bool has_components() const override { return true; }
  Status recover(double) override { return hosted_ ? hosted_->recover() : Status{}; }
  Result<std::vector<std::int64_t>> submit(JobSpec spec, double) override {
    if (!hosted_ || hosted_->empty())
      return err("backend slurm-steps runs jobs inside a Slurm allocation, and this daemon has none: set "
                 "`allocation: ID` in slurm.yaml, or start the daemon inside an allocation" +
                 (problem_.empty() ? std::string() : " (" + problem_ + ")"));
    if (pilot_ && !pilot_->problem().empty()) return err("backend slurm-steps has no allocation: " + pilot_->problem());
    auto target = steps_backend_for(backends(), spec);
    if (!target) return Error{target.failure()};
    return (*target)->submit(std::move(spec));
  }
  Status check(const JobSpec& spec, double) const override {
    if (!hosted_ || hosted_->empty())
      return Error{"backend slurm-steps runs jobs inside a Slurm allocation, and this daemon has none", ErrorKind::Unsatisfiable};
    auto target = steps_backend_for(backends(), spec);
    if (!target) return Error{target.failure()};
    return (*target)->check(spec);
  }
  Result<std::vector<std::int64_t>> cancel(const std::vector<std::int64_t>& ids, double) override {
    return hosted_ ? hosted_->cancel(ids) : std::vector<std::int64_t>{};
  }
  std::vector<int> watched_fds() const override {
    std::vector<int> fds = hosted_ ? hosted_->watched_fds() : std::vector<int>{};
    if (pilot_) fds.push_back(pilot_->event_fd());  // results taken by step()
    return fds;
  }
  void ready(const std::vector<int>& fds) override {
    if (hosted_) hosted_->ready(fds);
  }
  void coalesce(std::vector<pollfd>& fds) override {
    if (hosted_) hosted_->coalesce(fds);
  }
  void step(double now, bool start_new) override {
    if (pilot_) pilot_->step(now);
    if (hosted_) hosted_->step(now, start_new && (!pilot_ || pilot_->ready()));  // a pilot's steps wait for it
  }
  void after_commit() override {
    if (hosted_) hosted_->after_commit();
  }
  double next_wakeup_s(double now) const override {
    double wake = hosted_ ? hosted_->next_wakeup_s(now) : 3600;
    return pilot_ ? std::min(wake, pilot_->next_wakeup_s(now)) : wake;
  }
  std::size_t running() const override { return hosted_ ? hosted_->running() : 0; }
  void cancel_all_running() override {
    if (hosted_) hosted_->cancel_all_running();
  }
  nlohmann::json describe() const override {
    return {{"slurm_steps", steps_status()},
            {"pilot", pilot_ ? nlohmann::json{{"name", pilot_->name()}, {"job_id", pilot_->job_id()},
                                              {"state", pilot_->state()}, {"problem", pilot_->problem()}}
                             : nlohmann::json(nullptr)}};
  }
  // The daemon stops: the allocation it obtained ends with it (after a crash it is found again).
  void stop() override {
    if (pilot_) pilot_->cancel(config_.command_timeout_s);
  }
  std::string announce() const override {
    std::string out;
    if (!problem_.empty()) out += "slurm-steps: " + problem_;
    const auto& steps = backends();
    for (std::size_t k = 0; k < steps.size(); ++k) {
      out += (out.empty() ? "" : "\n") + std::string("slurm-steps: ") + std::to_string(steps[k]->machine().cpus) +
             " cpus on " + std::to_string(steps[k]->machine().nodes) + " nodes of allocation " +
             (pilot_ ? "(pilot " + pilot_->name() + ")"
                     : config_.allocation.empty() ? "(this one)" : config_.allocation) +
             (steps.size() > 1 ? ", component " + std::to_string(k) : std::string());
    }
    return out;
  }

 private:
  const StepsBackends& backends() const {
    static const StepsBackends none;
    return hosted_ ? hosted_->backends() : none;
  }
  // Component 0's figures (the allocation's, when it is not heterogeneous), and every
  // component's when there are several.
  nlohmann::json steps_status() const {
    const auto& steps = backends();
    if (steps.empty()) return nullptr;
    auto one = [](const LocalBackend& b) {
      return nlohmann::json{{"cpus", b.machine().cpus}, {"nodes", b.machine().nodes}, {"gpus", b.machine().gpus},
                            {"running", b.running()}, {"pending", b.pending()}};
    };
    auto j = one(*steps.front());
    if (steps.size() > 1) {
      j["components"] = nlohmann::json::array();
      for (auto& s : steps) j["components"].push_back(one(*s));
    }
    return j;
  }

  std::string name_ = kSlurmStepsBackend;
  IndirectConfig config_;
  std::unique_ptr<Pilot> pilot_;
  std::optional<HostedBackends> hosted_;
  std::string problem_;
};

// "slurm": the indirect engine over the Slurm dialect.
Result<std::unique_ptr<Backend>> open_slurm(const BackendContext& c) {
  auto config = load_slurm_config(c);
  if (!config) return Error{config.failure()};
  return std::unique_ptr<Backend>(std::make_unique<IndirectEntry>(c, std::make_unique<SlurmDialect>(), std::move(*config)));
}

Result<std::unique_ptr<Backend>> open_steps(const BackendContext& c) {
  auto config = load_slurm_config(c);
  if (!config) return Error{config.failure()};
  std::unique_ptr<Pilot> pilot;
  if (config->allocation == "pilot")
    pilot = std::make_unique<Pilot>(config->pilot, slurm_pilot_name(c.user, c.state_dir), config->poll_interval_s,
                                    config->command_timeout_s);
  std::string problem;
  StepsBackends steps;
  if (pilot) steps.push_back(open_slurm_pilot_steps(c.store, *config, c.machine, c.state_dir, c.user, *pilot));
  else steps = open_slurm_steps(c.store, *config, c.machine, c.state_dir, c.user, problem);
  std::optional<HostedBackends> hosted;
  if (!steps.empty()) {  // a job host of its own, only when there is an allocation
    auto started = HostedBackends::start();
    if (!started) return Error{started.failure()};
    hosted = std::move(*started);
    for (auto& s : steps) hosted->add(std::move(s));
  }
  return std::unique_ptr<Backend>(
      std::make_unique<StepsEntry>(std::move(*config), std::move(pilot), std::move(hosted), std::move(problem)));
}

}  // namespace

void register_slurm_backends(BackendRegistry& registry) {
  registry.add("slurm", open_slurm);
  registry.add(kSlurmStepsBackend, open_steps);
}

}  // namespace yard

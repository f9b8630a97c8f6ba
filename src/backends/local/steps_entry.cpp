#include "backends/local/steps_entry.h"

#include <algorithm>

namespace yard {

const StepsEntry::Steps& StepsEntry::backends() const {
  static const Steps none;
  return hosted_ ? hosted_->backends() : none;
}

Result<LocalBackend*> StepsEntry::target_for(const JobSpec& spec, ErrorKind no_allocation) const {
  const auto& steps = backends();
  if (steps.empty())
    return Error{"backend " + settings_.name + " runs jobs inside " + settings_.allocation_kind +
                     ", and this daemon has none: " + settings_.how_to_get +
                     (problem_.empty() ? std::string() : " (" + problem_ + ")"),
                 no_allocation};
  if (keeper_ && !keeper_->problem().empty())
    return err("backend " + settings_.name + " has no allocation: " + keeper_->problem());
  const int k = std::max(0, spec.het_group);
  if (static_cast<std::size_t>(k) < steps.size()) return steps[static_cast<std::size_t>(k)].get();
  if (steps.size() == 1)
    return err("--het-group " + std::to_string(k) +
               ": the allocation is not heterogeneous; its steps run in its only component (0)");
  return err("--het-group " + std::to_string(k) + ": the allocation has " + std::to_string(steps.size()) +
             " components (0 to " + std::to_string(steps.size() - 1) + ")");
}

Result<std::vector<std::int64_t>> StepsEntry::submit(JobSpec spec, double) {
  auto target = target_for(spec, ErrorKind::Invalid);
  if (!target) return Error{target.failure()};
  return (*target)->submit(std::move(spec));
}

Status StepsEntry::check(const JobSpec& spec, double) const {
  // --test-only: a valid job this daemon cannot run now, as sbatch's allocation failures.
  auto target = target_for(spec, ErrorKind::Unsatisfiable);
  if (!target) return Error{target.failure()};
  return (*target)->check(spec);
}

std::vector<int> StepsEntry::watched_fds() const {
  std::vector<int> fds = hosted_ ? hosted_->watched_fds() : std::vector<int>{};
  if (keeper_) fds.push_back(keeper_->event_fd());  // results taken by step()
  return fds;
}

void StepsEntry::step(double now, bool start_new) {
  if (keeper_) keeper_->step(now);
  // A kept allocation's steps wait for it.
  if (hosted_) hosted_->step(now, start_new && (!keeper_ || keeper_->ready()));
}

double StepsEntry::next_wakeup_s(double now) const {
  double wake = hosted_ ? hosted_->next_wakeup_s(now) : 3600;
  return keeper_ ? std::min(wake, keeper_->next_wakeup_s(now)) : wake;
}

nlohmann::json StepsEntry::describe() const {
  std::string key = settings_.name;
  std::replace(key.begin(), key.end(), '-', '_');
  nlohmann::json j = {{key, steps_status()}};
  // Only a backend with a pilot says "pilot": the daemon's status merges every backend's.
  if (keeper_)
    j["pilot"] = {{"name", keeper_->name()}, {"job_id", keeper_->job_id()}, {"state", keeper_->state()},
                  {"problem", keeper_->problem()}};
  return j;
}

std::string StepsEntry::announce() const {
  std::string out;
  if (!problem_.empty()) out += settings_.name + ": " + problem_;
  const auto& steps = backends();
  for (std::size_t k = 0; k < steps.size(); ++k) {
    out += (out.empty() ? "" : "\n") + settings_.name + ": " + std::to_string(steps[k]->machine().cpus) + " cpus on " +
           std::to_string(steps[k]->machine().nodes) + " nodes of allocation " +
           (keeper_ ? "(pilot " + keeper_->name() + ")"
                    : settings_.allocation.empty() ? "(this one)" : settings_.allocation) +
           (steps.size() > 1 ? ", component " + std::to_string(k) : std::string());
  }
  return out;
}

// Component 0's figures (the allocation's, when it is not heterogeneous), and every
// component's when there are several.
nlohmann::json StepsEntry::steps_status() const {
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

}  // namespace yard

#include "backends/indirect_entry.h"

namespace yard {

IndirectEntry::IndirectEntry(const BackendContext& c, std::unique_ptr<Dialect> dialect, IndirectConfig config)
    : name_(dialect->name()),
      config_(config),
      dialect_(std::move(dialect)),
      engine_(c.store, *dialect_, commands_, std::move(config), c.state_dir, c.user) {}

std::vector<std::string> IndirectEntry::warnings(const JobSpec& spec) const {
  auto out = unwrappable_variables(spec);
  for (auto& line : engine_.approximations(spec)) out.push_back(std::move(line));
  return out;
}

std::string IndirectEntry::announce() const {
  if (config_.classes.empty()) return {};
  return name_ + ".yaml: classes: size classes, and each one's queue on every scheduler, are now routes.yaml's "
                 "(docs/ROUTES.md); the classes here still work";
}

nlohmann::json IndirectEntry::describe() const {
  const auto& s = engine_.stats();
  return {{name_ + "_active", engine_.active()},
          {name_ + "_down", engine_.down_reason()},
          {name_ + "_calls",
           {{"submit", s.submit_calls}, {"poll", s.poll_calls}, {"history", s.history_calls},
            {"find", s.find_calls}, {"cancel", s.cancel_calls}, {"probe", s.probe_calls}, {"act", s.action_calls}, {"queues", s.queue_calls},
            {"failed", s.failed_calls}}}};
}

}  // namespace yard

namespace yard {

Result<std::vector<std::int64_t>> IndirectEntry::act(JobAction action, const std::vector<std::int64_t>& ids,
                                                     const std::vector<JobRecord>& jobs, double now) {
  std::vector<JobRecord> mine;
  for (const auto& j : jobs)
    if (j.backend == name_) mine.push_back(j);
  if (mine.empty()) return std::vector<std::int64_t>{};
  // A scheduler without the command: the refusal every such backend gives. A requeue is
  // yard's own (its run cancelled, then submitted again) on every scheduler.
  const bool requeue = action == JobAction::Requeue || action == JobAction::RequeueHold;
  if (!requeue && dialect_->action_argv(action, {"0"}).empty()) return Backend::act(action, ids, mine, now);
  return engine_.act(action, ids, mine, now);
}

}  // namespace yard

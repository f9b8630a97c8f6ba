#include "backends/indirect_entry.h"

namespace yard {

IndirectEntry::IndirectEntry(const BackendContext& c, std::unique_ptr<Dialect> dialect, IndirectConfig config)
    : name_(dialect->name()),
      config_(config),
      dialect_(std::move(dialect)),
      engine_(c.store, *dialect_, commands_, std::move(config), c.state_dir, c.user) {}

nlohmann::json IndirectEntry::describe() const {
  const auto& s = engine_.stats();
  return {{name_ + "_active", engine_.active()},
          {name_ + "_calls",
           {{"submit", s.submit_calls}, {"poll", s.poll_calls}, {"history", s.history_calls},
            {"find", s.find_calls}, {"cancel", s.cancel_calls}, {"failed", s.failed_calls}}}};
}

}  // namespace yard

#include "backends/htcondor/htcondor_entry.h"

#include "backends/htcondor/htcondor_dialect.h"
#include "backends/indirect_entry.h"

namespace yard {
namespace {

// htcondor.yaml: the engine's settings (poll_interval, lost_after, ...); HTCondor needs
// no site settings of its own.
Result<std::unique_ptr<Backend>> open_htcondor(const BackendContext& c) {
  auto config = load_indirect_config(c.config_dir + "/htcondor.yaml", {});
  if (!config) return Error{config.failure()};
  return std::unique_ptr<Backend>(
      std::make_unique<IndirectEntry>(c, std::make_unique<HtcondorDialect>(c.user), std::move(*config)));
}

}  // namespace

void register_htcondor_backend(BackendRegistry& registry) { registry.add("htcondor", open_htcondor); }

}  // namespace yard

#include "backends/flux/flux_entry.h"

#include "backends/flux/flux_dialect.h"
#include "backends/indirect_entry.h"

namespace yard {
namespace {

// flux.yaml: the engine's settings (poll_interval, lost_after, ...); Flux needs no site
// settings of its own.
Result<std::unique_ptr<Backend>> open_flux(const BackendContext& c) {
  auto config = load_indirect_config(c.config_dir + "/flux.yaml", {});
  if (!config) return Error{config.failure()};
  return std::unique_ptr<Backend>(
      std::make_unique<IndirectEntry>(c, std::make_unique<FluxDialect>(), std::move(*config)));
}

}  // namespace

void register_flux_backend(BackendRegistry& registry) { registry.add("flux", open_flux); }

}  // namespace yard

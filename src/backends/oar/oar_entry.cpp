#include "backends/oar/oar_entry.h"

#include "backends/indirect_entry.h"
#include "backends/oar/oar_dialect.h"

namespace yard {
namespace {

// oar.yaml: the engine's settings (poll_interval, lost_after, ...) and the site's
// resource names (oar_script.h).
Result<std::unique_ptr<Backend>> open_oar(const BackendContext& c) {
  auto config = load_indirect_config(c.config_dir + "/oar.yaml", {"host_resource", "gpu_resource"});
  if (!config) return Error{config.failure()};
  OarSettings settings;
  const auto& own = config->scheduler_settings;
  if (auto it = own.find("host_resource"); it != own.end()) settings.host_resource = it->second;
  if (auto it = own.find("gpu_resource"); it != own.end()) settings.gpu_resource = it->second;
  return std::unique_ptr<Backend>(
      std::make_unique<IndirectEntry>(c, std::make_unique<OarDialect>(c.user, std::move(settings)), std::move(*config)));
}

}  // namespace

void register_oar_backend(BackendRegistry& registry) { registry.add("oar", open_oar); }

}  // namespace yard

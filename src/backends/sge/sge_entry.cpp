#include "backends/sge/sge_entry.h"

#include <cstdlib>

#include "backends/indirect_entry.h"
#include "backends/sge/sge_dialect.h"

namespace yard {
namespace {

// sge.yaml: the engine's settings (poll_interval, lost_after, ...) and the site's
// parallel environments and GPU complex (sge_script.h).
Result<std::unique_ptr<Backend>> open_sge(const BackendContext& c) {
  const std::string path = c.config_dir + "/sge.yaml";
  auto config = load_indirect_config(path, setting_keys(kSgeSettings));
  if (!config) return Error{config.failure()};
  auto settings = sge_settings_from(config->scheduler_settings, path);
  if (!settings) return settings.failure();
  return std::unique_ptr<Backend>(
      std::make_unique<IndirectEntry>(c, std::make_unique<SgeDialect>(c.user, std::move(*settings)), std::move(*config)));
}

}  // namespace

void register_sge_backend(BackendRegistry& registry) { registry.add("sge", open_sge); }

}  // namespace yard

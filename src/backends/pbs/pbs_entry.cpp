#include "backends/pbs/pbs_entry.h"

#include "backends/indirect_entry.h"
#include "backends/pbs/pbs_dialect.h"

namespace yard {
namespace {

// pbs.yaml: the engine's settings (poll_interval, lost_after, ...) and the site's GPU
// resource (pbs_script.h).
Result<std::unique_ptr<Backend>> open_pbs(const BackendContext& c) {
  const std::string path = c.config_dir + "/pbs.yaml";
  auto config = load_indirect_config(path, {std::begin(kPbsSettingKeys), std::end(kPbsSettingKeys)});
  if (!config) return Error{config.failure()};
  auto settings = pbs_settings_from(config->scheduler_settings, path);
  if (!settings) return settings.failure();
  return std::unique_ptr<Backend>(
      std::make_unique<IndirectEntry>(c, std::make_unique<PbsDialect>(std::move(*settings)), std::move(*config)));
}

}  // namespace

void register_pbs_backend(BackendRegistry& registry) { registry.add("pbs", open_pbs); }

}  // namespace yard

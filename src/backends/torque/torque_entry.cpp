#include "backends/torque/torque_entry.h"

#include "backends/indirect_entry.h"
#include "backends/pbs/pbs_language.h"
#include "backends/torque/torque_dialect.h"

namespace yard {
namespace {

// torque.yaml: the engine's settings (poll_interval, lost_after, ...) and whether the
// site's nodes count GPUs (torque_script.h).
Result<std::unique_ptr<Backend>> open_torque(const BackendContext& c) {
  const std::string path = c.config_dir + "/torque.yaml";
  auto config = load_indirect_config(path, setting_keys(kTorqueSettings));
  if (!config) return Error{config.failure()};
  auto settings = torque_settings_from(config->scheduler_settings, path);
  if (!settings) return settings.failure();
  return std::unique_ptr<Backend>(
      std::make_unique<IndirectEntry>(c, std::make_unique<TorqueDialect>(*settings), std::move(*config)));
}

}  // namespace

void register_torque_backend(BackendRegistry& registry) { registry.add("torque", open_torque); }

}  // namespace yard

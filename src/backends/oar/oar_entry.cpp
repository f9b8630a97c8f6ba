#include "backends/oar/oar_entry.h"

#include "backends/indirect_entry.h"
#include "backends/local/steps_entry.h"
#include "backends/oar/oar_dialect.h"
#include "backends/oar/oar_language.h"
#include "backends/oar/oar_steps.h"

namespace yard {
namespace {

// oar.yaml: the engine's settings (poll_interval, lost_after, ...), the site's
// resource names (oar_script.h) and direct mode's `allocation: ID`.
Result<IndirectConfig> load_oar_config(const BackendContext& c, OarSettings& settings) {
  auto config = load_indirect_config(c.config_dir + "/oar.yaml", setting_keys(kOarSettings));
  if (!config) return Error{config.failure()};
  const auto& own = config->scheduler_settings;
  if (auto it = own.find("host_resource"); it != own.end()) settings.host_resource = it->second;
  if (auto it = own.find("gpu_resource"); it != own.end()) settings.gpu_resource = it->second;
  return config;
}

Result<std::unique_ptr<Backend>> open_oar(const BackendContext& c) {
  OarSettings settings;
  auto config = load_oar_config(c, settings);
  if (!config) return Error{config.failure()};
  return std::unique_ptr<Backend>(
      std::make_unique<IndirectEntry>(c, std::make_unique<OarDialect>(c.user, std::move(settings)), std::move(*config)));
}

// "oar-steps": a local scheduler sized to an OAR job the daemon is given (oar_steps.h).
// An allocation that cannot be used is not fatal to the daemon: each job is told why.
Result<std::unique_ptr<Backend>> open_oar_steps(const BackendContext& c) {
  OarSettings settings;
  auto config = load_oar_config(c, settings);
  if (!config) return Error{config.failure()};
  std::string id, problem;
  std::optional<HostedBackends> hosted;
  auto alloc = find_oar_allocation(*config, settings.gpu_resource, id);
  if (!alloc) {
    problem = alloc.error();
  } else if (!alloc->slots.empty()) {  // a job host of its own, only when there is an allocation
    auto started = HostedBackends::start();
    if (!started) return Error{started.failure()};
    hosted = std::move(*started);
    hosted->add(make_oar_steps(c.store, *alloc, *config, c.machine, c.state_dir, c.user));
  }
  StepsEntrySettings steps{kOarStepsBackend, "an OAR job",
                           "set `allocation: ID` (an OAR job of yours that runs) in oar.yaml, or start the daemon "
                           "inside an OAR job",
                           config->allocation, config->command_timeout_s};
  return std::unique_ptr<Backend>(std::make_unique<StepsEntry>(std::move(steps), nullptr, std::move(hosted), std::move(problem)));
}

}  // namespace

void register_oar_backend(BackendRegistry& registry) {
  registry.add("oar", open_oar);
  registry.add(kOarStepsBackend, open_oar_steps);
}

}  // namespace yard

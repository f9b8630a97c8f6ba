#include "backends/lsf/lsf_entry.h"

#include "backends/indirect_entry.h"
#include "backends/local/hostfile_steps.h"
#include "backends/lsf/lsf_dialect.h"
#include "backends/lsf/lsf_language.h"

namespace yard {
namespace {

// lsf.yaml: the engine's settings (poll_interval, lost_after, ...) and whether the
// site's LSF schedules GPUs (lsf_script.h).
Result<std::unique_ptr<Backend>> open_lsf(const BackendContext& c) {
  const std::string path = c.config_dir + "/lsf.yaml";
  auto config = load_indirect_config(path, setting_keys(kLsfSettings));
  if (!config) return Error{config.failure()};
  auto settings = lsf_settings_from(config->scheduler_settings, path);
  if (!settings) return settings.failure();
  return std::unique_ptr<Backend>(
      std::make_unique<IndirectEntry>(c, std::make_unique<LsfDialect>(c.user, *settings), std::move(*config)));
}

// "lsf-steps": direct mode inside the LSF job the daemon runs in (local/hostfile_steps.h):
// LSB_DJOB_HOSTFILE's hosts, blaunch onto the others and as mpirun's agent.
const HostfileScheduler kLsfSteps{"lsf-steps", "an LSF job", "LSB_JOBID", "LSB_DJOB_HOSTFILE", {"blaunch"}, "blaunch"};

Result<std::unique_ptr<Backend>> open_lsf_steps(const BackendContext& c) {
  auto config = load_indirect_config(c.config_dir + "/lsf.yaml", setting_keys(kLsfSettings));
  if (!config) return Error{config.failure()};
  return open_hostfile_steps(c, kLsfSteps, *config);
}

}  // namespace

void register_lsf_backend(BackendRegistry& registry) {
  registry.add("lsf", open_lsf);
  registry.add(kLsfSteps.backend, open_lsf_steps);
}

}  // namespace yard

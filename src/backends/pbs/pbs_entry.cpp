#include "backends/pbs/pbs_entry.h"

#include "backends/indirect_entry.h"
#include "backends/local/hostfile_steps.h"
#include "backends/pbs/pbs_dialect.h"
#include "backends/pbs/pbs_language.h"

namespace yard {
namespace {

// pbs.yaml: the engine's settings (poll_interval, lost_after, ...) and the site's GPU
// resource (pbs_script.h).
Result<std::unique_ptr<Backend>> open_pbs(const BackendContext& c) {
  const std::string path = c.config_dir + "/pbs.yaml";
  auto config = load_indirect_config(path, setting_keys(kPbsSettings));
  if (!config) return Error{config.failure()};
  auto settings = pbs_settings_from(config->scheduler_settings, path);
  if (!settings) return settings.failure();
  return std::unique_ptr<Backend>(
      std::make_unique<IndirectEntry>(c, std::make_unique<PbsDialect>(std::move(*settings)), std::move(*config)));
}

// "pbs-steps": direct mode inside the PBS Pro, OpenPBS or Torque job the daemon runs in
// (local/hostfile_steps.h): PBS_NODEFILE's hosts, pbsdsh onto the others, mpirun over
// PBS's TM.
const HostfileScheduler kPbsSteps{"pbs-steps", "a PBS job", "PBS_JOBID", "PBS_NODEFILE", {"pbsdsh", "-h"}, ""};

Result<std::unique_ptr<Backend>> open_pbs_steps(const BackendContext& c) {
  auto config = load_indirect_config(c.config_dir + "/pbs.yaml", setting_keys(kPbsSettings));
  if (!config) return Error{config.failure()};
  return open_hostfile_steps(c, kPbsSteps, *config);
}

}  // namespace

void register_pbs_backend(BackendRegistry& registry) {
  registry.add("pbs", open_pbs);
  registry.add(kPbsSteps.backend, open_pbs_steps);
}

}  // namespace yard

#include "backends/slurm/slurm_entry.h"

#include <cstdlib>
#include <iostream>

#include "backends/indirect_entry.h"
#include "backends/slurm/pilot.h"
#include "backends/slurm/slurm_dialect.h"
#include "backends/slurm/slurm_pilot.h"
#include "backends/slurm/steps_backend.h"
#include "backends/local/steps_entry.h"

namespace yard {
namespace {

Result<IndirectConfig> load_slurm_config(const BackendContext& c) {
  // sacct prints times in SLURM_TIME_FORMAT when set; the parsers read the standard form.
  ::unsetenv("SLURM_TIME_FORMAT");
  return load_indirect_config(c.config_dir + "/slurm.yaml");
}

// "slurm": the indirect engine over the Slurm dialect.
Result<std::unique_ptr<Backend>> open_slurm(const BackendContext& c) {
  auto config = load_slurm_config(c);
  if (!config) return Error{config.failure()};
  return std::unique_ptr<Backend>(std::make_unique<IndirectEntry>(c, std::make_unique<SlurmDialect>(), std::move(*config)));
}

Result<std::unique_ptr<Backend>> open_steps(const BackendContext& c) {
  auto config = load_slurm_config(c);
  if (!config) return Error{config.failure()};
  std::unique_ptr<Pilot> pilot;
  if (config->allocation == "pilot")
    pilot = std::make_unique<Pilot>(config->pilot, slurm_pilot_name(c.user, c.state_dir), config->poll_interval_s,
                                    config->command_timeout_s);
  std::string problem;
  StepsBackends steps;
  if (pilot) steps.push_back(open_slurm_pilot_steps(c.store, *config, c.machine, c.state_dir, c.user, *pilot));
  else steps = open_slurm_steps(c.store, *config, c.machine, c.state_dir, c.user, problem);
  std::optional<HostedBackends> hosted;
  if (!steps.empty()) {  // a job host of its own, only when there is an allocation
    auto started = HostedBackends::start();
    if (!started) return Error{started.failure()};
    hosted = std::move(*started);
    for (auto& s : steps) hosted->add(std::move(s));
  }
  StepsEntrySettings settings{kSlurmStepsBackend, "a Slurm allocation",
                              "set `allocation: ID` in slurm.yaml, or start the daemon inside an allocation",
                              config->allocation == "pilot" ? "" : config->allocation, config->command_timeout_s};
  return std::unique_ptr<Backend>(
      std::make_unique<StepsEntry>(std::move(settings), std::move(pilot), std::move(hosted), std::move(problem)));
}

}  // namespace

void register_slurm_backends(BackendRegistry& registry) {
  registry.add("slurm", open_slurm);
  registry.add(kSlurmStepsBackend, open_steps);
}

}  // namespace yard

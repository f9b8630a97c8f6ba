#include "backends/slurm/steps_backend.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "backends/command_runner.h"
#include "backends/slurm/slurm_allocation.h"
#include "backends/native_names.h"
#include "core/text.h"

namespace yard {

StepsBackends open_slurm_steps(Store& store, const IndirectConfig& config, const Machine& host,
                               const std::string& state_dir, const std::string& user, std::string& problem) {
  std::string id = config.allocation == "pilot" ? "" : config.allocation;
  if (id.empty())
    if (const char* env = std::getenv("SLURM_JOB_ID")) id = env;
  if (id.empty()) return {};
  auto out = run_command(scontrol_show_job_argv(id), config.command_timeout_s);
  if (!out.ok()) {
    problem = "allocation " + id + ": scontrol failed (" + out.summary() + ")";
    return {};
  }
  auto alloc = parse_scontrol_job(out.out);
  if (!alloc) {
    problem = "allocation " + id + ": " + alloc.error();
    return {};
  }
  if (alloc->state != "RUNNING") {
    problem = "allocation " + id + " is " + alloc->state + ", not RUNNING";
    return {};
  }
  auto shared = std::make_shared<SlurmAllocation>(*alloc);
  auto sized = [&](const SlurmAllocation& part) {
    Machine m;
    m.cpus = part.cpus;
    m.nodes = part.nodes;
    m.mem_bytes = part.mem_bytes;
    m.gpus = part.gpus;
    m.job_limit = config.step_job_limit;  // per component
    m.kill_grace_s = host.kill_grace_s;
    return m;
  };
  StepsBackends backends;
  if (alloc->components.empty()) {
    backends.push_back(make_slurm_steps(store, sized(*alloc), state_dir, user, shared));
  } else {
    for (std::size_t k = 0; k < alloc->components.size(); ++k)
      backends.push_back(
          make_slurm_steps(store, sized(alloc->components[k]), state_dir, user, shared, static_cast<int>(k)));
  }
  return backends;
}

std::unique_ptr<LocalBackend> open_slurm_pilot_steps(Store& store, const IndirectConfig& config, const Machine& host,
                                                     const std::string& state_dir, const std::string& user,
                                                     const Pilot& pilot) {
  // Sized as asked: Slurm grants a batch job what it asks for (whole tasks of one CPU).
  Machine m;
  m.cpus = config.pilot.cpus;
  m.nodes = config.pilot.nodes;
  m.mem_bytes = config.pilot.mem_bytes * static_cast<std::uint64_t>(config.pilot.nodes);
  m.gpus = config.pilot.gpus;
  m.job_limit = config.step_job_limit;
  m.kill_grace_s = host.kill_grace_s;
  return make_slurm_steps(store, m, state_dir, user, pilot.allocation());
}

std::unique_ptr<LocalBackend> make_slurm_steps(Store& store, Machine m, const std::string& state_dir,
                                               const std::string& user, std::shared_ptr<const SlurmAllocation> alloc,
                                               int component) {
  // Without a memory figure in the allocation, memory is not what limits the steps.
  if (m.mem_bytes == 0) m.mem_bytes = std::uint64_t{1} << 50;
  auto b = std::make_unique<LocalBackend>(store, m, state_dir, user);
  const char* conf = std::getenv("SLURM_CONF");
  const std::string slurm_conf = conf ? conf : "";
  const bool as_root = ::geteuid() == 0;
  b->serve_as(kSlurmStepsBackend, [alloc, slurm_conf, as_root, component](LaunchPlan& plan, const JobSpec& spec) {
    // mpirun sees the job's component; srun names the whole allocation and the component.
    const SlurmAllocation& a =
        component > 0 && static_cast<std::size_t>(component) < alloc->components.size()
            ? alloc->components[static_cast<std::size_t>(component)]
            : *alloc;
    const std::string step = native_job_name(plan.uid, spec.name);
    if (spec.launcher == "mpirun") {
      // MPMD (slurm-openmpi): one mpirun that finds the allocation in its environment
      // and starts its daemons as a step of it.
      plan.argv = mpirun_mpmd_argv(spec);
      for (auto& e : mpirun_environment(a, spec, step, as_root)) {
        const std::string key = e.substr(0, e.find('=') + 1);
        std::erase_if(plan.env, [&](const std::string& x) { return starts_with(x, key); });
        plan.env.push_back(e);
      }
    } else {
      plan.argv = srun_step_argv(*alloc, spec, step, plan.argv);
    }
    // Slurm places, pins, limits memory and hands out GPUs inside its allocation.
    plan.pus.clear();
    plan.mem_limit_bytes = 0;
    std::erase_if(plan.env, [](const std::string& e) { return starts_with(e, "CUDA_VISIBLE_DEVICES="); });
    // srun must find the cluster; the job's other SLURM_* variables stay stripped.
    if (!slurm_conf.empty()) plan.env.push_back("SLURM_CONF=" + slurm_conf);
  }, component);
  return b;
}

}  // namespace yard

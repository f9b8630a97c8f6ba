#include "local/launch_plan.h"

#include "core/shell_words.h"

#include <map>

#include "core/output_pattern.h"
#include "core/text.h"
#include "core/slurm_variables.h"
#include "core/warning_signal.h"

namespace yard {
namespace {

// Variables that make MPI libraries and tools believe they run inside a Slurm job or
// step. A local job is not in Slurm, whatever the submitting shell was in.
bool is_scheduler_variable(const std::string& name) {
  if (starts_with(name, "SLURM_") || starts_with(name, "SLURMD_")) return true;
  if (starts_with(name, "PMI_") || starts_with(name, "PMIX_") || starts_with(name, "OMPI_COMM_WORLD")) return true;
  return false;
}

std::string absolute(const std::string& path, const std::string& workdir) {
  if (!path.empty() && path[0] == '/') return path;
  return workdir + (workdir.size() > 1 ? "/" : "") + path;
}

std::string join(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

// Slurm's variables for a job submitted through Slurm's commands (core/slurm_variables.h):
// one task's view, on this machine, as the tools that submitted it read them.
void set_slurm_variables(std::map<std::string, std::string>& env, const JobIdentity& who, const JobSpec& spec,
                         std::size_t cpus, const std::string& host) {
  SlurmValues v{std::to_string(who.id), spec.name, std::to_string(spec.res.ntasks),
                std::to_string(spec.res.cpus_per_task), std::to_string(cpus), "1", host, spec.workdir, spec.partition};
  for (auto& [name, value] : slurm_variables(v)) env[name] = value;
}

}  // namespace

std::string default_output_pattern(bool is_array) { return is_array ? "yard-%A_%a.out" : "yard-%j.out"; }

LaunchPlan make_launch_plan(const JobSpec& spec, const JobIdentity& who, const Allocation& alloc,
                            const Machine& machine, const std::string& script_path, const std::string& user) {
  LaunchPlan p;
  p.job_id = who.id;
  p.uid = who.uid;
  p.workdir = spec.workdir;
  if (!spec.script.empty()) {
    // The kernel honours the script's #!; without one it runs under /bin/sh, as sbatch would refuse.
    if (starts_with(spec.script, "#!")) p.argv = {script_path};
    else p.argv = {"/bin/sh", script_path};
    p.argv.insert(p.argv.end(), spec.argv.begin(), spec.argv.end());
  } else {
    p.argv = without_needless_shell(spec.argv);  // a flow step's `true`, run without a shell's start
  }

  PatternValues pv{who.id, spec.name, who.array_job_id.value_or(0), who.array_index, user, machine.hostname};
  const std::string out = spec.stdout_path.empty() ? default_output_pattern(who.array_index.has_value())
                                                   : spec.stdout_path;
  p.stdout_path = absolute(expand_output_pattern(out, pv), spec.workdir);
  p.stderr_path = spec.stderr_path.empty() ? p.stdout_path
                                           : absolute(expand_output_pattern(spec.stderr_path, pv), spec.workdir);
  p.append_output = spec.open_mode() == OpenMode::Append;

  // yard's own variables, over the job's environment (which the spec keeps sorted): the
  // two merged in order below, without copying the whole environment into another map
  // for each job started.
  std::map<std::string, std::string> env;
  auto set = [&](const std::string& k, const std::string& v) { env[k] = v; };
  set("YARD_JOB_ID", std::to_string(who.id));
  set("YARD_JOB_UID", who.uid);
  set("YARD_JOB_NAME", spec.name);
  set("YARD_CPUS", std::to_string(alloc.cpus.size()));
  set("YARD_NTASKS", std::to_string(spec.res.ntasks));
  set("YARD_CPUS_PER_TASK", std::to_string(spec.res.cpus_per_task));
  set("YARD_SUBMIT_DIR", spec.workdir);
  if (who.array_index) {
    set("YARD_ARRAY_JOB_ID", std::to_string(who.array_job_id.value_or(who.id)));
    set("YARD_ARRAY_TASK_ID", std::to_string(*who.array_index));
    // Existing Slurm array scripts read these; they do not make MPI think it is in Slurm.
    set("SLURM_ARRAY_JOB_ID", std::to_string(who.array_job_id.value_or(who.id)));
    set("SLURM_ARRAY_TASK_ID", std::to_string(*who.array_index));
  }
  if (!alloc.gpus.empty() || machine.gpus > 0) set("CUDA_VISIBLE_DEVICES", join(alloc.gpus));
  if (spec.env.count(kSlurmVariablesWanted)) set_slurm_variables(env, who, spec, alloc.cpus.size(), machine.hostname);

  p.env.reserve(spec.env.size() + env.size());
  auto add = [&](const std::string& k, const std::string& v) {
    std::string line;
    line.reserve(k.size() + 1 + v.size());
    line.append(k).append(1, '=').append(v);
    p.env.push_back(std::move(line));
  };
  auto own = env.begin();
  for (const auto& [k, v] : spec.env) {
    if (is_scheduler_variable(k) || k == kOpenModeVariable || k == kSlurmVariablesWanted) continue;
    for (; own != env.end() && own->first < k; ++own) add(own->first, own->second);
    if (own != env.end() && own->first == k) continue;  // yard's own wins, added next
    add(k, v);
  }
  for (; own != env.end(); ++own) add(own->first, own->second);

  for (int c : alloc.cpus) p.pus.push_back(machine.pu_for(c));
  p.mem_limit_bytes = alloc.mem_bytes;
  p.memory_poll = machine.memory_poll;
  p.walltime_s = spec.res.walltime_s;
  for (auto& [name, value] : spec.slurm_options)
    if (name == "signal")
      if (auto w = parse_warning_signal(value)) {
        p.warn_signal = w->signal;
        p.warn_before_s = w->seconds_before;
        p.warn_batch_only = w->batch_only;
      }
  p.kill_grace_s = machine.kill_grace_s;
  return p;
}

}  // namespace yard

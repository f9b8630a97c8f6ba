// Writes a job as #SBATCH lines (sbatch 22.05), every value in sbatch's own words:
//   name (when the source gave one)  --job-name     nodes, tasks, CPUs  --nodes (N or MIN-MAX) --ntasks --cpus-per-task
//   memory  --mem or --mem-per-cpu (K, M, G, T)  GPUs  --gpus, other generic resources --gres
//   time limit  --time ([D-]HH:MM:SS)
//   files   --output --error (yard's patterns are Slurm's) --open-mode
//   queue, account, QOS  --partition --account --qos     array  --array (ranges, steps, %throttle)
//   dependencies  --dependency=afterok:1:2,afterany:3    directory  --chdir    --export (when not ALL)
//   priority  --nice (a lower one, as users may) or --priority    --requeue / --no-requeue
//   sbatch's other options (exclusive, mail, constraint, ...) as they were given
//   heterogeneous components  #SBATCH hetjob, then each one's resources, partition and options
// Lost: OAR's job types (--job-type is yard's, not sbatch's).
#include "backends/slurm/slurm_language.h"
#include "core/array_spec.h"  // array_text
#include "core/duration.h"
#include "core/sbatch_options.h"
#include "jobtext/directive_writer.h"

namespace yard::jobtext {
namespace {

void option(Writer& w, std::string_view name, const std::string& value) { w.add("--" + std::string(name) + "=" + quoted(value)); }

// One of sbatch's other options as it was given: alone when it takes no value; an empty
// value of one that needs a value as '' (alone, sbatch would find its value missing).
std::string other(const std::string& name, const std::string& value) {
  const SbatchOption* o = find_sbatch_option(name);
  if (value.empty() && (!o || o->value != SbatchValue::Required)) return "--" + name;
  return "--" + name + "=" + quoted(value);
}

// A component's resources (component 0's are the job's).
void resources(Writer& w, const Resources& r, const std::string& partition, bool component = false) {
  if (r.nodes != 1 || r.max_nodes > 0)
    option(w, "nodes", std::to_string(r.nodes) + (r.max_nodes > 0 ? "-" + std::to_string(r.max_nodes) : ""));
  if (r.ntasks != 1 || component) option(w, "ntasks", std::to_string(r.ntasks));  // a component needs a line
  if (r.cpus_per_task != 1) option(w, "cpus-per-task", std::to_string(r.cpus_per_task));
  const std::vector<std::string_view> units = {"K", "M", "G", "T"};
  if (r.mem_bytes) option(w, "mem", size_in(r.mem_bytes, units));
  if (r.mem_per_cpu_bytes) option(w, "mem-per-cpu", size_in(r.mem_per_cpu_bytes, units));
  if (r.gpus) option(w, "gpus", std::to_string(r.gpus));
  if (!r.other_gres.empty()) option(w, "gres", r.other_gres);
  if (r.walltime_s) option(w, "time", format_walltime(r.walltime_s));
  if (!partition.empty()) option(w, "partition", partition);
}

}  // namespace

Directives write_slurm(const Job& job) {
  Writer w(job, kSlurmTitle, "#SBATCH", false);
  const JobSpec& s = job.spec;
  if (job.name_given) option(w, "job-name", s.name);
  resources(w, s.res, s.partition);
  if (!s.account.empty()) option(w, "account", s.account);
  if (!s.qos.empty()) option(w, "qos", s.qos);
  if (!s.stdout_path.empty()) option(w, "output", s.stdout_path);
  if (!s.stderr_path.empty()) option(w, "error", s.stderr_path);
  if (auto mode = s.open_mode()) option(w, "open-mode", *mode == OpenMode::Append ? "append" : "truncate");
  if (s.array) option(w, "array", array_text(*s.array));
  if (!s.dependencies.empty()) option(w, "dependency", dependency_text(s.dependencies, s.dependency_any));
  if (!job.chdir.empty()) option(w, "chdir", job.chdir);
  if (job.exports != "ALL") option(w, "export", job.exports);
  if (s.priority < 0 && s.priority >= -2147483645) option(w, "nice", std::to_string(-static_cast<long long>(s.priority)));
  else if (s.priority != 0) option(w, "priority", std::to_string(s.priority));
  if (s.requeue) w.add(*s.requeue ? "--requeue" : "--no-requeue");
  std::vector<std::string_view> handled;
  for (const auto& [name, value] : job.options) {
    if (name == "nice") continue;  // the priority, above
    w.add(other(name, value));
    handled.push_back(name);
  }
  for (const auto& c : s.components) {
    w.add("hetjob");
    resources(w, c.res, c.partition, true);
    for (const auto& [name, value] : c.slurm_options) w.add(other(name, value));
  }
  w.lose_unsaid({.qos = true, .components = true, .append = true, .requeue = true, .node_range = true, .gres = true,
                 .handled = handled});
  return std::move(w).done();
}

}  // namespace yard::jobtext

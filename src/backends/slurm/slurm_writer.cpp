// Writes a job as #SBATCH lines (sbatch 22.05), every value in sbatch's own words: one
// writer, which `yard translate --to slurm` (write_slurm) and the Slurm backend's batch
// script (slurm_script.cpp) share, so that a job carries the same directives either way.
// Both (write_slurm_job, then the caller's own lines, then write_slurm_components):
//   nodes, tasks, CPUs  --nodes (N or MIN-MAX) --ntasks --cpus-per-task, where they differ
//     from sbatch's defaults (a --nodes=1 sbatch was not given would keep Slurm from
//     spreading the tasks as it may)
//   memory  --mem or --mem-per-cpu (K, M, G, T)
//   GPUs  --gres=gpu:N on one node (every Slurm with GPUs takes it; --gpus needs
//     select/cons_tres), --gpus=N over several; other generic resources --gres
//   time limit  --time ([D-]HH:MM:SS)   queue, account, QOS  --partition --account --qos
//   --open-mode   array  --array (ranges, steps, %throttle)   --requeue / --no-requeue
//   priority  --nice for a lower one; a higher one is the site's to give (sbatch
//     --priority is for operators), left out: the nearest
//   sbatch's other options (exclusive, mail, constraint, ...) as they were given
//   heterogeneous components  #SBATCH hetjob, then each one's resources, partition and options
// Translate's alone (the backend writes its own: its job name, output paths with the name
// expanded, dependencies on native ids, its directory, --export=ALL):
//   name (when the source gave one) --job-name   files  --output --error (yard's patterns
//   are Slurm's)   dependencies  --dependency=afterok:1:2,afterany:3   --chdir
//   --export (when not ALL)
// Values go in double quotes when not plain (slurm_quote.h: sbatch's splitter); a control
// character cannot be on a line at all, a loss. Lost: job types (--job-type).
#include "backends/slurm/slurm_language.h"
#include <cstdint>

#include "core/array_spec.h"  // array_text
#include "core/duration.h"
#include "core/sbatch_options.h"
#include "core/shell_quote.h"  // excerpt
#include "jobtext/directive_writer.h"

namespace yard::jobtext {
namespace {

// A value for sbatch's splitter: as it is when plain, else in double quotes with its
// backslashes and double quotes escaped (outside quotes sbatch 22.05 does not take a
// backslash before a blank). Nullopt for a control character but a tab, which no line holds.
std::optional<std::string> sbatch_value(std::string_view value) {
  for (char c : value)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) return std::nullopt;
  if (!value.empty() && value.find_first_of(" \t'\"\\#") == std::string_view::npos) return std::string(value);
  std::string out = "\"";
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

// `--name=value`; a value no line can hold is a loss of the option that gave it.
void option(Writer& w, std::string_view name, std::string_view value, std::string_view from = {}) {
  auto v = sbatch_value(value);
  if (!v)
    return w.lose(from.empty() ? name : from, "--" + std::string(name) + " " + excerpt(value),
                  "it contains a control character (e.g. a newline), which an #SBATCH line cannot hold");
  w.add("--" + std::string(name) + "=" + *v);
}

// One of sbatch's other options as it was given: alone when it takes no value; an empty
// value of one that needs a value as "" (alone, sbatch would find its value missing).
void other(Writer& w, const std::string& name, const std::string& value) {
  const SbatchOption* o = find_sbatch_option(name);
  if (value.empty() && (!o || o->value != SbatchValue::Required)) return w.add("--" + name);
  if (value.empty()) return w.add("--" + name + "=\"\"");
  option(w, name, value);
}

// A component's resources (component 0's are the job's). A further component states every
// count: what it leaves out, sbatch may take from the components before it.
void resources(Writer& w, const Resources& r, const std::string& partition, bool component) {
  if (component || r.nodes != 1 || r.max_nodes > 0)
    option(w, "nodes", std::to_string(r.nodes) + (r.max_nodes > r.nodes ? "-" + std::to_string(r.max_nodes) : ""));
  if (component || r.ntasks != 1) option(w, "ntasks", std::to_string(r.ntasks));
  if (component || r.cpus_per_task != 1) option(w, "cpus-per-task", std::to_string(r.cpus_per_task));
  // Slurm counts memory in MiB: rounded up to one, in the largest unit that holds it whole.
  auto mib = [](std::uint64_t bytes) {
    constexpr std::uint64_t kMiB = 1 << 20;
    const bool up = bytes % kMiB && bytes <= UINT64_MAX - kMiB;
    return size_in(bytes / kMiB * kMiB + (up ? kMiB : bytes % kMiB), {"K", "M", "G", "T"});
  };
  if (r.mem_bytes) option(w, "mem", mib(r.mem_bytes));
  if (r.mem_per_cpu_bytes) option(w, "mem-per-cpu", mib(r.mem_per_cpu_bytes));
  const std::string others = r.other_gres.empty() ? "" : "," + r.other_gres;
  if (r.gpus > 0 && r.nodes == 1 && r.max_nodes <= 1) {
    option(w, "gres", "gpu:" + std::to_string(r.gpus) + others, "gpus");
  } else {
    if (r.gpus > 0) option(w, "gpus", std::to_string(r.gpus));
    if (!r.other_gres.empty()) option(w, "gres", r.other_gres);
  }
  if (r.walltime_s) option(w, "time", format_walltime(r.walltime_s));
  if (!partition.empty()) option(w, "partition", partition);
}

}  // namespace

void write_slurm_job(Writer& w) {
  const JobSpec& s = w.job.spec;
  resources(w, s.res, s.partition, false);
  if (!s.account.empty()) option(w, "account", s.account);
  if (!s.qos.empty()) option(w, "qos", s.qos);
  if (auto mode = s.open_mode()) option(w, "open-mode", *mode == OpenMode::Append ? "append" : "truncate");
  if (s.array) option(w, "array", array_text(*s.array));
  if (s.priority < 0 && s.priority >= -2147483645) {
    option(w, "nice", std::to_string(-static_cast<long long>(s.priority)), "priority");
  } else if (s.priority != 0) {
    w.approximate("priority", "priority " + std::to_string(s.priority),
                  s.priority > 0 ? "a user cannot raise a job's priority in Slurm (sbatch --priority is for "
                                   "operators): left to the site's policy"
                                 : "beyond --nice's range: left out");
  }
  if (s.requeue) w.add(*s.requeue ? "--requeue" : "--no-requeue");
  for (const auto& [name, value] : w.job.options)
    if (name != "nice") other(w, name, value);  // --nice is the priority, above
}

void write_slurm_components(Writer& w) {
  for (const auto& c : w.job.spec.components) {
    w.add("hetjob");
    resources(w, c.res, c.partition, true);
    for (const auto& [name, value] : c.slurm_options) other(w, name, value);
  }
}

Directives write_slurm(const Job& job) {
  Writer w(job, kSlurmTitle, "#SBATCH", false);
  const JobSpec& s = job.spec;
  if (job.name_given) option(w, "job-name", s.name);
  write_slurm_job(w);
  if (!s.stdout_path.empty()) option(w, "output", s.stdout_path);
  if (!s.stderr_path.empty()) option(w, "error", s.stderr_path);
  if (!s.dependencies.empty()) option(w, "dependency", dependency_text(s.dependencies, s.dependency_any));
  if (!job.chdir.empty()) option(w, "chdir", job.chdir);
  if (job.exports != "ALL") option(w, "export", job.exports);
  write_slurm_components(w);
  std::vector<std::string_view> handled;
  for (const auto& [name, value] : job.options)
    if (name != "nice") handled.push_back(name);
  w.lose_unsaid({.qos = true, .components = true, .append = true, .requeue = true, .priority = true,
                 .node_range = true, .gres = true, .handled = handled});
  return std::move(w).done();
}

}  // namespace yard::jobtext

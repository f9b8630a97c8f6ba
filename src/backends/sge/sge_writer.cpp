// Writes a job as #$ lines for Grid Engine (qsub, sge_directives.h): one writer, which
// `yard translate --to sge` and the Grid Engine backend's batch script (sge_script.cpp)
// share, so that a job carries the same directives either way. A site's settings
// (sge.yaml: its parallel environments, its GPU complex) are its inputs; translate takes
// their defaults.
// Both (write_sge_resources):
//   -pe PE SLOTS  several tasks or nodes in pe_multi_node (mpi), whose allocation rule
//     spreads them (the node count is the nearest Grid Engine has); one task's CPUs in
//     pe_single_node (smp); tasks of several CPUs are T*C slots (the nearest)
//   -l h_vmem=X  a slot's memory: --mem-per-cpu, or --mem's share rounded up (K M G T)
//   -l h_rt=H:MM:SS   -l GPU=N  a slot's GPUs in the site's complex (gpu_resource)
//   -q QUEUE  -P PROJECT (--account): names qsub reads as they are
//   -t X-Y[:Z] and -tc MAX  (one range with a step from 1; other indices are numbered from
//     1, a loss)   -p PRIORITY  from -1023 to 0: a user may only lower a job's priority
// Translate's alone (the backend writes its own: its job name, output through its
// wrapper, dependencies on native ids):
//   -N NAME   files  -o -e, -j y when stderr goes with stdout ($JOB_ID for %A, and for %j
//     but in an array, whose tasks share it: a loss; $TASK_ID %a, $JOB_NAME %x, $USER %u,
//     $HOSTNAME %N)   dependencies  -hold_jid 1,2 (Grid Engine waits for any end: afterok
//     and afternotok become afterany, a loss)   directory  -wd DIR, else -cwd (the directory
//     it is submitted from, as Slurm)   --export  -V, -v A=1,B   -m, -M   -r y|n
//   --wait  -sync y
// A path whose own text holds $HOME, $USER or another of Grid Engine's pseudo variables is
// written as it is, a loss: Grid Engine puts a value in.
// Lost: the append mode, QOS, job types, components, sbatch's other options.
#include <algorithm>

#include "backends/sge/sge_language.h"  // sge_task_range, kSgeTitle
#include "backends/sge/sge_directives.h"  // sge_path_words
#include "core/shell_quote.h"  // excerpt
#include "jobtext/directive_writer.h"

namespace yard::jobtext {
namespace {

// A name qsub takes as it is on a #$ line (it splits on blanks and reads quotes its own
// way): a queue may be "all.q@host" or "*@host".
bool plain(std::string_view value) {
  auto ok = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_.-@*,:+").find(c) != std::string_view::npos;
  };
  return !value.empty() && value[0] != '-' && std::all_of(value.begin(), value.end(), ok);
}
constexpr const char* kNames = "Grid Engine names are letters, digits and _ . - @ * , : + (not starting with -)";

// Several tasks, or several nodes, in pe_multi_node (its allocation rule may spread them, as
// Slurm may place -n 16 on any nodes); one task's CPUs in pe_single_node (one host). So
// yard's reader, and Grid Engine's users, read mpi as tasks and smp as one task's CPUs.
void slots(Writer& w, const SgeSettings& settings) {
  const Resources& r = w.res();
  const std::int64_t n = r.total_cpus();
  if (r.nodes <= 1 && n <= 1) return;
  const bool tasks = r.nodes > 1 || r.ntasks > 1;
  const std::string& pe = tasks ? settings.pe_multi_node : settings.pe_single_node;
  const std::string_view option = r.nodes > 1 ? "nodes" : tasks ? "ntasks" : "cpus-per-task";
  const std::string what = r.nodes > 1 ? "--nodes " + std::to_string(r.nodes)
                           : tasks     ? "--ntasks " + std::to_string(r.ntasks)
                                       : "--cpus-per-task " + std::to_string(r.cpus_per_task);
  if (pe.empty())
    return w.lose(option, what,
                  std::string("no parallel environment is set for ") +
                      (tasks ? "jobs of several tasks or nodes (pe_multi_node" : "jobs of several CPUs (pe_single_node") +
                      " in sge.yaml)");
  if (!plain(pe)) return w.lose(option, "parallel environment " + excerpt(pe), kNames);
  w.add("-pe " + pe + " " + std::to_string(n));
  if (r.ntasks > 1 && r.cpus_per_task > 1)
    w.approximate("cpus-per-task", "--cpus-per-task " + std::to_string(r.cpus_per_task),
                  "a Grid Engine slot is one CPU: " + tasks_of_cpus(r) + ", written as -pe " + pe + " " + std::to_string(n));
  if (r.nodes > 1)
    w.approximate("nodes", "--nodes " + std::to_string(r.nodes),
                  "Grid Engine has no node count (the parallel environment " + pe + " spreads the slots)");
}

void memory_time_gpus(Writer& w, const SgeSettings& settings) {
  const Resources& r = w.res();
  const std::int64_t n = r.total_cpus();
  const std::vector<std::string_view> units = {"K", "M", "G", "T"};
  std::uint64_t per_slot = r.mem_per_cpu_bytes;
  if (r.mem_bytes) {
    const std::uint64_t total = r.mem_bytes * static_cast<std::uint64_t>(r.nodes), slots = static_cast<std::uint64_t>(n);
    per_slot = (total + slots - 1) / slots;
    if (total % slots != 0 || per_slot % 1024 != 0)
      w.approximate("mem", "--mem " + size_in(r.mem_bytes, units), "Grid Engine's memory is a slot's; " +
                    std::to_string(n) + " slots get " + size_in(per_slot, units) + " each, rounded up");
  }
  if (per_slot) w.add("-l h_vmem=" + size_in(per_slot, units));
  if (r.walltime_s > 0) w.add("-l h_rt=" + hms(r.walltime_s));
  if (r.gpus <= 0) return;
  const std::string what = "--gpus " + std::to_string(r.gpus);
  if (settings.gpu_resource.empty())
    return w.lose("gpus", what, "Grid Engine has no GPU request but a site's own complex (gpu_resource in sge.yaml); left out");
  if (!plain(settings.gpu_resource)) return w.lose("gpus", "GPU resource " + excerpt(settings.gpu_resource), kNames);
  if (r.gpus % n != 0)
    return w.lose("gpus", what, std::to_string(r.gpus) + " GPUs cannot be shared evenly by " + std::to_string(n) +
                                    " slots (Grid Engine counts consumables per slot)");
  w.add("-l " + settings.gpu_resource + "=" + std::to_string(r.gpus / n));
}

void array(Writer& w) {
  const ArraySpec& a = *w.job.spec.array;
  auto range = sge_task_range(a);
  if (!range) {
    range = "1-" + std::to_string(a.indices.size());
    w.lose("array", "--array " + idset(a.indices),
           "Grid Engine's -t takes one range with a step from 1; written as " + *range);
  }
  w.add("-t " + *range);
  if (a.max_running > 0) w.add("-tc " + std::to_string(a.max_running));
}

}  // namespace

void write_sge_resources(Writer& w, const SgeSettings& settings) {
  const JobSpec& s = w.job.spec;
  slots(w, settings);
  memory_time_gpus(w, settings);
  if (!s.partition.empty()) {
    if (plain(s.partition)) w.add("-q " + s.partition);
    else w.lose("partition", "queue " + excerpt(s.partition), kNames);
  }
  if (!s.account.empty()) {
    if (plain(s.account)) w.add("-P " + s.account);
    else w.lose("account", "project (--account) " + excerpt(s.account), kNames);
  }
  if (s.array) array(w);
  if (s.priority < 0) w.add("-p " + std::to_string(std::max(-1023, s.priority)));
  if (s.priority < -1023)
    w.approximate("priority", "--priority " + std::to_string(s.priority), "Grid Engine's lowest is -1023; written so");
  if (s.priority > 0)
    w.approximate("priority", "--priority " + std::to_string(s.priority),
                  "Grid Engine lets a user only lower a job's priority (-p from -1023 to 0); left out");
}

Directives write_sge(const Job& job, const SgeSettings& settings) {
  Writer w(job, kSgeTitle, "#$", false);
  const JobSpec& s = job.spec;
  if (job.name_given) w.add("-N " + quoted(s.name));
  write_sge_resources(w, settings);
  // An array's tasks share its $JOB_ID: the array's id.
  const TokenMap tokens = [&](char c, std::string& note) -> std::optional<std::string> {
    if (c == 'j' && s.array) note = "an element's own id: Grid Engine's $JOB_ID is the array's; written as $JOB_ID";
    if (c == 'j' || c == 'A') return "$JOB_ID";
    if (c == 'a') return "$TASK_ID";
    if (c == 'x') return "$JOB_NAME";
    if (c == 'u') return "$USER";
    if (c == 'N') return "$HOSTNAME";
    return std::nullopt;
  };
  if (!s.stdout_path.empty()) w.add("-o " + quoted(target_path(w, "output", s.stdout_path, tokens, "%", sge_path_words())));
  if (!s.stderr_path.empty()) w.add("-e " + quoted(target_path(w, "error", s.stderr_path, tokens, "%", sge_path_words())));
  else w.add("-j y");
  std::string holds;
  all_for_any(w);
  for (const auto& d : s.dependencies) {
    holds += (holds.empty() ? "" : ",") + std::to_string(d.job_id);
    if (d.kind != DependencyKind::AfterAny)
      w.lose("dependency", "--dependency " + std::string(to_string(d.kind)) + ":" + std::to_string(d.job_id),
             "Grid Engine waits for a job's end however it ends (-hold_jid); written as afterany");
  }
  if (!holds.empty()) w.add("-hold_jid " + holds);
  w.add(job.chdir.empty() ? "-cwd" : "-wd " + quoted(job.chdir));
  const Exports e = exports_of(job.exports);
  if (e.all) w.add("-V");
  std::string list;
  for (const auto& v : e.variables) list += (list.empty() ? "" : ",") + v;
  if (!list.empty()) w.add("-v " + quoted(list));
  mail_and_rerun_letters(w);
  bool given = false;
  job.option("wait", &given);
  if (given) w.add("-sync y");
  w.lose_unsaid({.requeue = true, .handled = {"mail-type", "mail-user", "wait"}});
  return std::move(w).done();
}

}  // namespace yard::jobtext

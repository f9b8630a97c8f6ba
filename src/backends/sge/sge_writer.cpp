// Writes a job as #$ lines for Grid Engine (qsub, sge_directives.h):
//   -N NAME   the job's slots  -pe mpi T (tasks) or -pe smp C (one task's CPUs); tasks of
//     several CPUs are T*C slots of mpi (a loss). Parallel environments are a site's own:
//     mpi and smp are the usual names, which yard's reader also knows.
//   memory  -l h_vmem=X a slot's: --mem-per-cpu, or --mem's share (K M G T)
//   time limit  -l h_rt=H:MM:SS   -q QUEUE  -P ACCOUNT (Grid Engine's project)
//   files  -o -e, -j y when stderr goes with stdout ($JOB_ID for %A, and for %j but in an
//     array, whose tasks share it: a loss; $TASK_ID %a, $JOB_NAME %x, $USER %u, $HOSTNAME %N)
//   array  -t X-Y[:Z] and -tc MAX (one range with a step from 1; other indices are numbered
//     from 1, a loss)   dependencies  -hold_jid 1,2 (Grid Engine waits for any end: afterok
//     and afternotok become afterany, a loss)   directory  -wd DIR, else -cwd (the directory
//     it is submitted from, as Slurm)   --export  -V, -v A=1,B   -p PRIORITY   -m, -M
//   -r y|n   --wait  -sync y
// A path whose own text holds $HOME, $USER or another of Grid Engine's pseudo variables is
// written as it is, a loss: Grid Engine puts a value in.
// Lost: nodes (the parallel environment's allocation rule spreads the slots), GPUs (no
// GPU request; sites' complexes differ), the append mode, QOS, job types, components,
// sbatch's other options.
#include "backends/sge/sge_language.h"  // sge_task_range, kSgeTitle
#include "backends/sge/sge_directives.h"  // sge_path_words
#include "jobtext/directive_writer.h"

namespace yard::jobtext {
namespace {

void shape(Writer& w) {
  const Resources& r = w.res();
  const std::int64_t slots = r.total_cpus();
  if (r.ntasks > 1 && r.cpus_per_task > 1)
    w.lose("cpus-per-task", "--cpus-per-task " + std::to_string(r.cpus_per_task),
           "a Grid Engine slot is one CPU: " + tasks_of_cpus(r) + ", written as -pe mpi " + std::to_string(slots));
  if (slots > 1) w.add(std::string("-pe ") + (r.ntasks > 1 ? "mpi " : "smp ") + std::to_string(slots));
  if (r.nodes > 1)
    w.lose("nodes", "--nodes " + std::to_string(r.nodes),
           "Grid Engine has no node count (the parallel environment spreads the slots); left out");
  const std::vector<std::string_view> units = {"K", "M", "G", "T"};
  std::uint64_t per_slot = r.mem_per_cpu_bytes;
  if (r.mem_bytes) {
    const std::uint64_t total = r.mem_bytes * static_cast<std::uint64_t>(r.nodes), n = static_cast<std::uint64_t>(slots);
    per_slot = (total + n - 1) / n;
    if (total % n != 0 || per_slot % 1024 != 0)
      w.lose("mem", "--mem " + size_in(r.mem_bytes, units), "Grid Engine's memory is a slot's; " +
             std::to_string(slots) + " slots get " + size_in(per_slot, units) + " each, rounded up");
  }
  if (per_slot) w.add("-l h_vmem=" + size_in(per_slot, units));
  if (r.walltime_s > 0) w.add("-l h_rt=" + hms(r.walltime_s));
  if (r.gpus > 0) w.lack("gpus", "--gpus " + std::to_string(r.gpus), "GPU request");
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

Directives write_sge(const Job& job) {
  Writer w(job, kSgeTitle, "#$", false);
  const JobSpec& s = job.spec;
  if (job.name_given) w.add("-N " + quoted(s.name));
  shape(w);
  if (!s.partition.empty()) w.add("-q " + quoted(s.partition));
  if (!s.account.empty()) w.add("-P " + quoted(s.account));
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
  if (s.array) array(w);
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
  if (s.priority >= -1023 && s.priority <= 1024 && s.priority != 0) w.add("-p " + std::to_string(s.priority));
  else if (s.priority != 0) w.lose("priority", "--priority " + std::to_string(s.priority), "Grid Engine's priorities run from -1023 to 1024; left out");
  qsub_mail_and_rerun(w);
  bool given = false;
  job.option("wait", &given);
  if (given) w.add("-sync y");
  w.lose_unsaid({.requeue = true, .handled = {"mail-type", "mail-user", "wait"}});
  return std::move(w).done();
}

}  // namespace yard::jobtext

// Writes a job as #PBS lines for PBS Pro and OpenPBS (qsub, pbs_resources.7B):
//   the job's shape  -l select=CHUNKS:ncpus=C:mpiprocs=M[:mem=X][:ngpus=G] and -l place=
//     N nodes, T tasks of C CPUs: N chunks of T/N tasks (mpiprocs) and T/N*C CPUs, place=scatter;
//     one node: one chunk of every task; tasks that do not divide among the nodes: one
//     chunk a task and the nodes PBS's choice (a loss)
//   memory  a chunk's mem: --mem-per-cpu times its CPUs, or --mem (a node's) when a chunk is
//     a node (qsub's select takes no job-wide mem); GPUs  a chunk's ngpus
//   --exclusive  place=...:excl      array  -J X-Y[:Z][%MAX] (one range with a step;
//     other indices are numbered on from the first, a loss); %a in a path is ^array_index^
//   the rest as pbs_common.h: -N -q -A walltime -o -e -j oe -W depend -W block -m -M -r -p -V -v
// Lost: --chdir (PBS Pro starts a job in the home directory; the script cds), the append
// mode, QOS, job types, components, sbatch's other options.
#include "backends/pbs/pbs_common.h"
#include "backends/pbs/pbs_language.h"

namespace yard::jobtext {
namespace {

void shape(Writer& w) {
  const Resources& r = w.res();
  const std::int64_t tasks = r.ntasks, cpus = r.cpus_per_task, nodes = r.nodes;
  std::int64_t chunks = 1, mpiprocs = tasks, ncpus = tasks * cpus;
  bool scatter = false;
  if (nodes > 1 && tasks % nodes == 0) {
    chunks = nodes, mpiprocs = tasks / nodes, ncpus = mpiprocs * cpus, scatter = true;
  } else if (nodes > 1) {
    w.lose("nodes", "--nodes " + std::to_string(nodes),
           std::to_string(tasks) + " tasks do not divide among the nodes, and PBS Pro's chunks are of one shape: one "
           "chunk a task, the nodes PBS's choice");
    chunks = tasks, mpiprocs = 1, ncpus = cpus;
  }
  std::string select = "select=" + std::to_string(chunks) + ":ncpus=" + std::to_string(ncpus);
  if (mpiprocs != 1) select += ":mpiprocs=" + std::to_string(mpiprocs);
  if (r.mem_per_cpu_bytes) {
    select += ":mem=" + pbs_size(r.mem_per_cpu_bytes * static_cast<std::uint64_t>(ncpus));
  } else if (r.mem_bytes) {
    const std::uint64_t total = r.mem_bytes * static_cast<std::uint64_t>(nodes);
    const auto per = static_cast<std::uint64_t>(chunks);
    if (total % per != 0 && !scatter && chunks > 1)
      w.lose("mem", "--mem " + pbs_size(r.mem_bytes), "divided among " + std::to_string(chunks) + " chunks, rounded up");
    select += ":mem=" + pbs_size((total + per - 1) / per);
  }
  if (r.gpus > 0) {
    if (r.gpus % chunks != 0)
      w.lose("gpus", "--gpus " + std::to_string(r.gpus),
             "does not divide among " + std::to_string(chunks) + " chunks; each asks for the next whole number");
    select += ":ngpus=" + std::to_string((r.gpus + chunks - 1) / chunks);
  }
  if (select != "select=1:ncpus=1") w.add("-l " + select);
  bool exclusive = false;
  w.job.option("exclusive", &exclusive);
  std::string place = scatter ? "scatter" : "";
  if (exclusive) place += place.empty() ? "excl" : ":excl";
  if (!place.empty()) w.add("-l place=" + place);
}

void array(Writer& w) {
  const ArraySpec& a = *w.job.spec.array;
  const auto& ix = a.indices;
  auto step = regular_step(ix);
  std::int64_t first = ix.front(), last = ix.back();
  if (!step || first < 0) {
    first = std::max<std::int64_t>(first, 0), last = first + static_cast<std::int64_t>(ix.size()) - 1, step = 1;
    w.lose("array", "--array " + idset(ix),
           "PBS Pro's -J takes one range with a step; written as " + std::to_string(first) + "-" + std::to_string(last));
  }
  std::string range = std::to_string(first) + "-" + std::to_string(last);
  if (*step != 1) range += ":" + std::to_string(*step);
  if (a.max_running > 0) range += "%" + std::to_string(a.max_running);
  w.add("-J " + range);
}

}  // namespace

void write_pbs_resources(Writer& w) {
  write_pbs_place(w, shape);
  if (w.job.spec.array) array(w);
  write_pbs_priority(w);
}

Directives write_pbs(const Job& job) {
  Writer w(job, kPbsTitle, "#PBS", true);
  write_pbs_common(w, "^array_index^", {"exclusive"}, shape);
  if (job.spec.array) array(w);
  if (!job.chdir.empty())
    w.lose("chdir", "--chdir " + job.chdir, "PBS Pro starts a job in the home directory and has no option for another; "
           "left out (cd in the script)");
  return std::move(w).done();
}

}  // namespace yard::jobtext

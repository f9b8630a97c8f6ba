// Writes a job as #PBS lines for Torque (qsub.1, pbs_resources.7):
//   the job's shape  -l nodes=N:ppn=P[:gpus=G]: P processors on each of N nodes, a task's
//     CPUs counted among them (T tasks of C CPUs are T*C processors: a loss when C > 1);
//     processors that do not divide among the nodes: nodes=R:ppn=P+1+(N-R):ppn=P
//   memory  -l mem=X (the job's: --mem times the nodes), -l pmem=X (--mem-per-cpu)
//   --exclusive  -n       array  -t 1-3,6,9%MAX (any indices; %a is $PBS_ARRAYID)
//   --chdir  -d DIR
//   the rest as pbs_common.h: -N -q -A walltime -o -e -j oe -W depend -W block -m -M -r -p -V -v
// Lost: the append mode, QOS, job types, components, sbatch's other options.
#include "backends/pbs/pbs_common.h"
#include "backends/pbs/pbs_language.h"

namespace yard::jobtext {
namespace {

void shape(Writer& w) {
  const Resources& r = w.res();
  const std::int64_t processors = r.total_cpus(), nodes = r.nodes;
  // One task of C CPUs is ppn=C, said so; several such tasks lose their shape.
  if (r.cpus_per_task > 1) {
    std::string what = "--cpus-per-task " + std::to_string(r.cpus_per_task);
    std::string why = "Torque counts processors per node (ppn): " + tasks_of_cpus(r) + ", written as " +
                      std::to_string(processors) + " processors";
    if (r.ntasks == 1) w.approximate("cpus-per-task", std::move(what), std::move(why));
    else w.lose("cpus-per-task", std::move(what), std::move(why));
  }
  std::string gpus;
  if (r.gpus > 0) {
    if (r.gpus % nodes != 0)
      w.lose("gpus", "--gpus " + std::to_string(r.gpus), "does not divide among the nodes; each asks for the next whole number");
    gpus = ":gpus=" + std::to_string((r.gpus + nodes - 1) / nodes);
  }
  std::string spec;
  if (processors % nodes == 0) {
    spec = std::to_string(nodes) + ":ppn=" + std::to_string(processors / nodes) + gpus;
  } else if (processors > nodes) {
    const std::int64_t each = processors / nodes, more = processors % nodes;
    spec = std::to_string(more) + ":ppn=" + std::to_string(each + 1) + gpus + "+" + std::to_string(nodes - more) +
           ":ppn=" + std::to_string(each) + gpus;
  } else {
    w.lose("nodes", "--nodes " + std::to_string(nodes), "more nodes than processors; one node a processor");
    spec = std::to_string(processors) + ":ppn=1" + gpus;
  }
  if (spec != "1:ppn=1") w.add("-l nodes=" + spec);
  if (r.mem_bytes) w.add("-l mem=" + pbs_size(r.mem_bytes * static_cast<std::uint64_t>(nodes)));
  if (r.mem_per_cpu_bytes) w.add("-l pmem=" + pbs_size(r.mem_per_cpu_bytes));
  bool exclusive = false;
  w.job.option("exclusive", &exclusive);
  if (exclusive) w.add("-n");
}

}  // namespace

void write_torque_resources(Writer& w) {
  write_pbs_place(w, shape);
  if (const auto& a = w.job.spec.array)
    w.add("-t " + idset(a->indices) + (a->max_running > 0 ? "%" + std::to_string(a->max_running) : ""));
  write_pbs_priority(w);
}

Directives write_torque(const Job& job) {
  Writer w(job, kTorqueTitle, "#PBS", true);
  write_pbs_common(w, "${PBS_ARRAYID}", {"exclusive"}, shape);
  if (const auto& a = job.spec.array)
    w.add("-t " + idset(a->indices) + (a->max_running > 0 ? "%" + std::to_string(a->max_running) : ""));
  if (!job.chdir.empty()) w.add("-d " + quoted(job.chdir));
  return std::move(w).done();
}

}  // namespace yard::jobtext

#include "backends/sge/sge_script.h"

#include <algorithm>

#include "backends/job_wrapper.h"
#include "backends/native_names.h"
#include "backends/output_word.h"
#include "core/shell_quote.h"
#include "core/checked.h"
#include "core/uid.h"

namespace yard {
namespace {

// The variables Grid Engine sets for a job (sge_execd's job environment), kept when the
// wrapper clears what it inherited.
constexpr const char* kSgeVariables =
    "SGE_* | JOB_ID | JOB_NAME | JOB_SCRIPT | NHOSTS | NQUEUES | NSLOTS | PE | PE_HOSTFILE | QUEUE | REQUEST | "
    "RESTARTED | ENVIRONMENT | ARC | TMPDIR | TMP";

// A value for a #$ line. qsub splits those lines on blanks and reads quotes its own way,
// so only values made of characters that need no quoting are written; queue and project
// names never need more (a queue may be "all.q@host" or "*@host").
Status directive_word(std::string_view value, std::string_view what) {
  auto plain = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_.-@*,:+").find(c) != std::string_view::npos;
  };
  if (value.empty() || value[0] == '-' || !std::all_of(value.begin(), value.end(), plain))
    return err(std::string(what) + " " + excerpt(value) +
               " for backend sge: Grid Engine names are letters, digits and _ . - @ * , : + (not starting with -)");
  return {};
}

class Directives {
 public:
  void add(std::string_view line) { text_ += "#$ " + std::string(line) + "\n"; }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// Slots, memory, GPUs, walltime, queue.
Status resource_directives(Directives& d, const JobSpec& spec, const SgeSettings& settings) {
  const Resources& r = spec.res;
  const std::int64_t slots = r.total_cpus();
  if (r.nodes > 1 || slots > 1) {
    const std::string& pe = r.nodes > 1 ? settings.pe_multi_node : settings.pe_single_node;
    if (pe.empty())
      return err(sge_cannot(r.nodes > 1 ? "--nodes" : "--ntasks/--cpus-per-task",
                        std::string("no parallel environment is set for ") +
                            (r.nodes > 1 ? "jobs over several nodes (pe_multi_node" : "jobs of several slots (pe_single_node") +
                            " in sge.yaml)"));
    if (auto s = directive_word(pe, "parallel environment"); !s) return s;
    d.add("-pe " + pe + " " + std::to_string(slots));
  }
  // h_vmem and consumables are per slot in Grid Engine: the job's figure is divided.
  std::uint64_t per_slot_mem = 0;
  if (r.mem_per_cpu_bytes) per_slot_mem = r.mem_per_cpu_bytes;
  else if (r.mem_bytes) per_slot_mem = ceil_div(r.mem_bytes * static_cast<std::uint64_t>(r.nodes), static_cast<std::uint64_t>(slots));
  std::string resources;
  auto add = [&](const std::string& item) { resources += (resources.empty() ? "" : ",") + item; };
  if (r.walltime_s > 0) add("h_rt=" + std::to_string(r.walltime_s));
  if (per_slot_mem) add("h_vmem=" + std::to_string(ceil_div(per_slot_mem, std::uint64_t{1024})) + "K");
  if (r.gpus > 0) {
    if (settings.gpu_resource.empty())
      return err(sge_cannot("--gpus", "this cluster has no GPU resource (set gpu_resource in sge.yaml to the name of "
                                  "its GPU complex)"));
    if (auto s = directive_word(settings.gpu_resource, "GPU resource"); !s) return s;
    if (r.gpus % slots != 0)
      return err(sge_cannot("--gpus", std::to_string(r.gpus) + " GPUs cannot be shared evenly by " +
                                      std::to_string(slots) + " slots (Grid Engine counts consumables per slot)"));
    add(settings.gpu_resource + "=" + std::to_string(r.gpus / slots));
  }
  if (!resources.empty()) d.add("-l " + resources);
  if (!spec.partition.empty()) {
    if (auto s = directive_word(spec.partition, "queue"); !s) return s;
    d.add("-q " + spec.partition);
  }
  return {};
}

// What Grid Engine has no way to express, each named with its option.
Status expressible(const JobSpec& spec) {
  if (!spec.launcher.empty())
    return err(sge_cannot("--launcher " + spec.launcher, "direct mode runs inside an allocation, and backend sge has none"));
  if (!spec.components.empty())
    return err(sge_cannot("heterogeneous job components", "Grid Engine has no heterogeneous jobs"));
  if (!spec.qos.empty()) return err(sge_cannot("--qos", "Grid Engine has no QOS"));
  return {};
}

}  // namespace

Result<std::string> sge_batch_script(const JobSpec& spec, const SubmitContext& ctx, const SgeSettings& settings) {
  if (auto s = spec.validate(); !s) return err(s.error());
  if (auto s = expressible(spec); !s) return err(s.error());
  // The UID goes into the job name, a comment and a here-document delimiter.
  if (!is_uid(ctx.uid)) return err("batch script for Switchyard UID " + excerpt(ctx.uid) + ", which is not a UID");
  if (auto s = check_wrappable(spec); !s) return err(s.error());

  Directives d;
  d.add("-N " + native_job_name(ctx.uid, spec.name));
  d.add("-S /bin/bash");
  // The wrapper opens the job's files itself: Grid Engine's -o takes no quoting (a path
  // with a blank, ':' or '$' means something else to it) and cannot pad an index.
  d.add("-o /dev/null");
  d.add("-j y");
  if (auto s = resource_directives(d, spec, settings); !s) return err(s.error());
  if (!spec.account.empty()) {
    if (auto s = directive_word(spec.account, "project (--account)"); !s) return err(s.error());
    d.add("-P " + spec.account);
  }
  // A user may only lower a job's priority (-p from -1023 to 0).
  if (spec.priority < 0) d.add("-p " + std::to_string(std::max(-1023, spec.priority)));
  // Whether Grid Engine may run it again after a failure of its host.
  if (spec.requeue) d.add(*spec.requeue ? "-r y" : "-r n");
  if (spec.array) {
    auto range = sge_task_range(*spec.array);
    if (!range) return err(range.error());
    d.add("-t " + *range);
    if (spec.array->max_running > 0) d.add("-tc " + std::to_string(spec.array->max_running));
  }
  std::string holds;
  for (auto& dep : ctx.dependencies) {
    if (dep.native_id.empty() || dep.native_id.find_first_not_of("0123456789") != std::string::npos)
      return err("dependency on native job id " + excerpt(dep.native_id) + ", which is not a Grid Engine job id");
    if (dep.kind != DependencyKind::AfterAny)
      return err(sge_cannot("--dependency", "Grid Engine holds a job only until another ends (afterany)"));
    holds += (holds.empty() ? "" : ",") + dep.native_id;
  }
  if (!holds.empty()) d.add("-hold_jid " + holds);

  std::string out = "#!/bin/bash\n";
  out += "# Switchyard job " + ctx.uid + "\n";
  out += d.text();
  out += "\n";
  WrapperStyle style;
  style.scheduler_variables = kSgeVariables;
  const bool append = spec.open_mode() == OpenMode::Append;
  const std::string to = append ? ">>" : ">";
  style.first = "exec " + to + output_word(ctx.stdout_path, "SGE_TASK_ID") + " 2>" +
                (ctx.stderr_path.empty() ? std::string("&1") : (append ? ">" : "") + output_word(ctx.stderr_path, "SGE_TASK_ID")) +
                " || exit 1\n";
  // The array index under yard's name and Slurm's, so scripts written for either run.
  if (spec.array)
    style.after_clear = "export YARD_ARRAY_TASK_ID=\"$SGE_TASK_ID\" SLURM_ARRAY_TASK_ID=\"$SGE_TASK_ID\"\n";
  out += job_wrapper(spec, ctx.uid, style);
  return out;
}

}  // namespace yard

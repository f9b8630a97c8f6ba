#include "backends/oar/oar_script.h"

#include <algorithm>

#include "backends/job_wrapper.h"
#include "backends/native_names.h"
#include "backends/output_word.h"
#include "core/shell_quote.h"
#include "core/checked.h"
#include "core/uid.h"

namespace yard {
namespace {

// The variables OAR sets for a job (oarexec's job environment), kept when the wrapper
// clears what it inherited.
constexpr const char* kOarVariables = "OAR_* | OARDO_* | SUDO_* | TMPDIR";

// What OAR has no way to express, each named with its option.
Status expressible(const JobSpec& spec) {
  if (!spec.launcher.empty())
    return err(oar_cannot("--launcher " + spec.launcher, "direct mode runs inside an allocation, and backend oar has none"));
  if (!spec.components.empty()) return err(oar_cannot("heterogeneous job components", "OAR has no heterogeneous jobs"));
  if (!spec.qos.empty()) return err(oar_cannot("--qos", "OAR has no QOS"));
  if (spec.array && spec.array->max_running > 0)
    return err(oar_cannot("--array %" + std::to_string(spec.array->max_running),
                      "OAR has no limit on the running elements of an array"));
  return {};
}

// The bash lines that give an element its index (in a variable that is not exported,
// whatever the environment handed down): OAR numbers elements 1..N (OAR_ARRAY_INDEX),
// yard by the array's own indices, element k being the k-th index.
std::string array_index_lines(const ArraySpec& array) {
  const auto& ix = array.indices;
  const std::int64_t step = ix.size() > 1 ? ix[1] - ix[0] : 1;
  bool regular = true;
  for (std::size_t i = 1; i < ix.size(); ++i) regular = regular && ix[i] - ix[i - 1] == step;
  std::string out;
  if (regular) {
    out = "declare +x yard_array_index=$(( " + std::to_string(ix.front()) + " + (OAR_ARRAY_INDEX - 1) * " +
          std::to_string(step) + " ))\n";
  } else {
    out = "yard_indices=(";
    for (std::size_t i = 0; i < ix.size(); ++i) out += (i ? " " : "") + std::to_string(ix[i]);
    out += ")\ndeclare +x yard_array_index=${yard_indices[OAR_ARRAY_INDEX - 1]}\nunset yard_indices\n";
  }
  return out;
}

}  // namespace

Result<std::string> oar_batch_script(const JobSpec& spec, const SubmitContext& ctx, const OarSettings& settings) {
  if (auto s = spec.validate(); !s) return err(s.error());
  if (auto s = expressible(spec); !s) return err(s.error());
  // The UID goes into the job name, a comment and a here-document delimiter.
  if (!is_uid(ctx.uid)) return err("batch script for Switchyard UID " + excerpt(ctx.uid) + ", which is not a UID");
  if (auto s = check_wrappable(spec); !s) return err(s.error());
  auto resources = oar_resource_request(spec, settings);
  if (!resources) return err(resources.error());

  // oarsub -S reads #OAR lines from the second line on, when the first is a comment.
  std::string out = "#!/bin/bash\n";
  out += "#OAR -n " + native_job_name(ctx.uid, spec.name) + "\n";
  out += "#OAR -l " + *resources + "\n";
  // The wrapper opens the job's files itself: OAR's -O/-E take no quoting and cannot
  // pad an index.
  out += "#OAR -O /dev/null\n#OAR -E /dev/null\n";
  if (!spec.partition.empty()) {
    if (auto s = oar_directive_word(spec.partition, "queue (--partition)"); !s) return err(s.error());
    out += "#OAR -q " + spec.partition + "\n";
  }
  if (!spec.account.empty()) {
    if (auto s = oar_directive_word(spec.account, "project (--account)"); !s) return err(s.error());
    out += "#OAR --project " + spec.account + "\n";
  }
  for (auto& type : spec.job_types) {
    if (auto s = oar_directive_word(type, "--job-type"); !s && type.find('=') == std::string::npos) return err(s.error());
    out += "#OAR -t " + type + "\n";
  }
  if (spec.array) out += "#OAR --array " + std::to_string(spec.array->indices.size()) + "\n";
  for (auto& dep : ctx.dependencies) {
    if (dep.native_id.empty() || dep.native_id.find_first_not_of("0123456789") != std::string::npos)
      return err("dependency on native job id " + excerpt(dep.native_id) + ", which is not an OAR job id");
    if (dep.kind != DependencyKind::AfterAny)
      return err(oar_cannot("--dependency", "OAR holds a job only until another ends (afterany)"));
    out += "#OAR -a " + dep.native_id + "\n";
  }
  out += "# Switchyard job " + ctx.uid + "\n\n";

  const std::string index_variable = "yard_array_index";
  WrapperStyle style = opening_output(spec, ctx, kOarVariables, index_variable);
  if (spec.array) style.first = array_index_lines(*spec.array) + style.first;
  // --mem as a virtual memory limit is enforced: a limit on each process's address space
  // (OAR itself allocates memory only with the cores).
  std::uint64_t per_node = spec.res.mem_bytes;
  if (spec.res.mem_per_cpu_bytes)
    per_node = spec.res.mem_per_cpu_bytes * static_cast<std::uint64_t>(spec.res.total_cpus() / spec.res.nodes);
  if (per_node) style.first += "ulimit -v " + std::to_string(ceil_div(per_node, std::uint64_t{1024})) + " || exit 1\n";
  out += job_wrapper(spec, ctx.uid, style);
  return out;
}

}  // namespace yard

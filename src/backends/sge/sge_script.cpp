#include "backends/sge/sge_script.h"

#include <algorithm>

#include "backends/batch_script.h"
#include "backends/native_names.h"
#include "core/shell_quote.h"
#include "core/checked.h"
#include "core/uid.h"
#include "jobtext/directive_writer.h"

namespace yard {
namespace {

// The variables Grid Engine sets for a job (sge_execd's job environment), kept when the
// wrapper clears what it inherited.
constexpr const char* kSgeVariables =
    "SGE_* | JOB_ID | JOB_NAME | JOB_SCRIPT | NHOSTS | NQUEUES | NSLOTS | PE | PE_HOSTFILE | QUEUE | REQUEST | "
    "RESTARTED | ENVIRONMENT | ARC | TMPDIR | TMP";

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
  // The job's shape and place through Grid Engine's one writer (sge_writer.cpp), as
  // `yard translate --to sge` writes them; what it cannot say is a refusal here.
  BatchScriptKind kind{"sge", kSgeTitle, "#$", kSgeVariables, "SGE_TASK_ID"};
  kind.joins_lines = false;
  return indirect_batch_script(
      spec, ctx, kind, [&] { return expressible(spec); },
      [&](jobtext::Writer& w) -> Status {
        w.add("-N " + native_job_name(ctx.uid, spec.name));
        w.add("-S /bin/bash");
        // The wrapper opens the job's files itself: Grid Engine's -o takes no quoting (a
        // path with a blank, ':' or '$' means something else to it) and cannot pad an index.
        w.add("-o /dev/null");
        w.add("-j y");
        jobtext::write_sge_resources(w, settings);
        // Whether Grid Engine may run it again after a failure of its host.
        if (spec.requeue) w.add(*spec.requeue ? "-r y" : "-r n");
        std::string holds;
        for (auto& dep : ctx.dependencies) {
          if (dep.native_id.empty() || dep.native_id.find_first_not_of("0123456789") != std::string::npos)
            return err("dependency on native job id " + excerpt(dep.native_id) + ", which is not a Grid Engine job id");
          if (dep.kind != DependencyKind::AfterAny)
            return err(sge_cannot("--dependency", "Grid Engine holds a job only until another ends (afterany)"));
          holds += (holds.empty() ? "" : ",") + dep.native_id;
        }
        if (!holds.empty()) w.add("-hold_jid " + holds);
        return {};
      });
}

}  // namespace yard

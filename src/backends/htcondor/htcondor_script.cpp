#include "backends/htcondor/htcondor_script.h"

#include "backends/batch_script.h"
#include "backends/htcondor/htcondor_language.h"
#include "backends/job_wrapper.h"
#include "backends/native_names.h"
#include "core/shell_quote.h"
#include "core/uid.h"
#include "jobtext/script_job.h"

namespace yard {
namespace {

// What HTCondor sets for a job (its scratch directory, its ad), kept when the wrapper
// clears what the job inherited.
constexpr const char* kHtcondorVariables = "_CONDOR_* | YARD_HTCONDOR_ID | YARD_HTCONDOR_INDEX | TMPDIR";

Status checked(const JobSpec& spec, const SubmitContext& ctx) {
  if (auto s = spec.validate(); !s) return err(s.error());
  if (!spec.launcher.empty())
    return err(htcondor_cannot("--launcher " + spec.launcher,
                               "direct mode runs inside an allocation, and backend htcondor has none"));
  if (!spec.components.empty())
    return err(htcondor_cannot("heterogeneous job components", "HTCondor has no heterogeneous jobs"));
  if (!spec.qos.empty()) return err(htcondor_cannot("--qos", "HTCondor has no QOS"));
  if (!is_uid(ctx.uid)) return err("batch script for Switchyard UID " + excerpt(ctx.uid) + ", which is not a UID");
  return check_wrappable(spec);
}

}  // namespace

std::string htcondor_cannot(std::string_view option, std::string_view why) { return cannot_run("htcondor", option, why); }

Result<std::string> htcondor_batch_script(const JobSpec& spec, const SubmitContext& ctx) {
  if (auto s = checked(spec, ctx); !s) return err(s.error());
  return "#!/bin/bash\n# Switchyard job " + ctx.uid + " (its HTCondor submit description is beside it: " + ctx.uid +
         ".sub)\n\n" + job_wrapper(spec, ctx.uid, opening_output(spec, ctx, kHtcondorVariables, kHtcondorIndexVariable));
}

Result<std::string> htcondor_description(const JobSpec& spec, const SubmitContext& ctx, const std::string& script_path) {
  if (auto s = checked(spec, ctx); !s) return err(s.error());
  jobtext::Job job;
  job.spec = spec;
  job.spec.name = native_job_name(ctx.uid, spec.name);
  job.name_given = true;
  // The wrapper opens the job's files; the engine holds the job until its parents end.
  job.spec.stdout_path = "/dev/null";
  job.spec.stderr_path.clear();
  job.spec.dependencies.clear();
  // The wrapper sets the job's environment; HTCondor's own variables are all it needs.
  job.exports = "NONE";
  job.options = spec.slurm_options;
  jobtext::Directives d = jobtext::write_htcondor(job, script_path, {kHtcondorIdVariable, kHtcondorIndexVariable});
  for (const auto& loss : d.losses)
    if (!loss.nearest) return err(htcondor_cannot(loss.what, loss.why));
  return d.text;
}

}  // namespace yard

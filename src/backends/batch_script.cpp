#include "backends/batch_script.h"

#include "backends/job_wrapper.h"
#include "core/shell_quote.h"
#include "core/uid.h"
#include "jobtext/directive_writer.h"

namespace yard {

namespace {

// A writer's loss says what yard translate did instead ("...; left out", "..., written as
// 4 processors"); a job refused did nothing of the kind: that part goes.
std::string_view without_outcome(std::string_view why) {
  for (std::string_view tail : {"; left out", "; written as ", ", written as "}) {
    const auto at = why.rfind(tail);
    if (at != std::string_view::npos && (tail != "; left out" || at + tail.size() == why.size()))
      return why.substr(0, at);
  }
  return why;
}

}  // namespace

std::string cannot_run(std::string_view backend, std::string_view option, std::string_view why) {
  return std::string(option) + ": backend " + std::string(backend) + " cannot run this job: " +
         std::string(without_outcome(why));
}

Result<std::string> indirect_batch_script(const JobSpec& spec, const SubmitContext& ctx, const BatchScriptKind& kind,
                                          const std::function<Status()>& expressible,
                                          const std::function<Status(jobtext::Writer&)>& directives,
                                          const std::function<void(std::string&)>& edit) {
  if (auto s = spec.validate(); !s) return err(s.error());
  if (auto s = expressible(); !s) return err(s.error());
  // The UID goes into the job name, a comment and a here-document delimiter.
  if (!is_uid(ctx.uid)) return err("batch script for Switchyard UID " + excerpt(ctx.uid) + ", which is not a UID");
  if (auto s = check_wrappable(spec); !s) return err(s.error());

  jobtext::Job job;
  job.spec = spec;
  job.options = spec.slurm_options;
  jobtext::Writer w(job, kind.title, std::string(kind.prefix), kind.joins_lines);
  if (auto s = directives(w); !s) return err(s.error());
  jobtext::Directives d = std::move(w).done();
  for (const auto& loss : d.losses) {
    if (!loss.nearest) return err(cannot_run(kind.backend, loss.what, loss.why));
    if (ctx.nearest) ctx.nearest->push_back(loss.what + ": " + loss.why);
  }
  if (edit) edit(d.text);

  std::string out = "#!/bin/bash\n";
  out += "# Switchyard job " + ctx.uid + "\n";
  out += d.text;
  out += "\n";
  out += job_wrapper(spec, ctx.uid, opening_output(spec, ctx, kind.scheduler_variables, kind.index_variable));
  return out;
}

}  // namespace yard

// The batch script of a job on a scheduler that reads directives from it and hands the
// job's output to the wrapper (every such scheduler's alike): the checks every one makes,
// the scheduler's directive lines written through its one writer (as `yard translate`
// writes them) with what the writer cannot say refused, then the wrapper (job_wrapper.h)
// opening the job's output itself.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {
namespace jobtext {
class Writer;
}

// What tells one scheduler's scripts from another's.
struct BatchScriptKind {
  std::string_view backend;         // the backend's name, in refusals
  std::string_view title;           // the writer's name for the scheduler
  std::string_view prefix;          // its directives' prefix (like Slurm's "#SBATCH")
  std::string scheduler_variables;  // a bash case pattern of its job's variables (WrapperStyle)
  std::string_view index_variable;  // the variable holding an array element's index
  bool joins_lines = true;          // its reader joins a line ending in a backslash to the next
};

// "--qos: backend NAME cannot run this job: SCHEDULER has no QOS"; `why` a writer's loss,
// without what yard translate does instead ("; left out", "; written as ...").
std::string cannot_run(std::string_view backend, std::string_view option, std::string_view why);

// The script for `spec`: valid, then what `expressible` refuses, a UID in ctx, nothing
// the wrapper cannot hand over; `directives` writes the scheduler's lines (and refuses
// what only it knows it cannot say); a loss of the writer that is not a near equivalent
// is refused naming its option and the backend, a near one told to ctx.nearest; `edit` may rewrite the directives' text
// (a site's resource names). "#!/bin/bash", a comment naming the UID, the directives,
// then the wrapper.
Result<std::string> indirect_batch_script(const JobSpec& spec, const SubmitContext& ctx, const BatchScriptKind& kind,
                                          const std::function<Status()>& expressible,
                                          const std::function<Status(jobtext::Writer&)>& directives,
                                          const std::function<void(std::string&)>& edit = {});

}  // namespace yard

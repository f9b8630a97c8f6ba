// A Flux job as the backend submits it: the script, which is the shared bash wrapper
// alone (backends/job_wrapper.h), and the submit command's line, which alone carries the
// job's options: Flux's one writer (flux_writer.cpp, as `yard translate --to flux` writes
// its `# flux:` lines) says them, and each line's words go on the command line. A job of
// one task is `flux submit` (its copies --cc=IDSET: Flux has no arrays, each copy is a job
// of its own with FLUX_JOB_CC its index); a job of several tasks or nodes is `flux batch`
// (an instance of its own on them, running the script once, as sbatch does).
#pragma once

#include <string>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

Result<std::string> flux_batch_script(const JobSpec& spec, const SubmitContext& ctx);
// The submit command for the job whose script is at `script_path`: its name carries the
// UID, its output goes to the wrapper, its dependencies are on native ids.
Result<std::vector<std::string>> flux_submit_argv(const JobSpec& spec, const SubmitContext& ctx,
                                                  const std::string& script_path);

// "--mem: backend flux cannot run this job: ...".
std::string flux_cannot(std::string_view option, std::string_view why);

}  // namespace yard

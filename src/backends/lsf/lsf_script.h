// The LSF batch script of a job: #BSUB directives (the job's shape written by LSF's one
// writer, lsf_writer.cpp, as `yard translate --to lsf` writes it), then the shared bash
// wrapper (backends/job_wrapper.h), which opens the job's output files itself. bsub
// reads it on its stdin; it is saved beside the job and can be rerun by hand (bsub < FILE).
#pragma once

#include <map>
#include <string>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

// A site's words, from lsf.yaml.
struct LsfSettings {
  // Whether the site's LSF schedules GPUs (-gpu, LSF 10.1 with GPU support configured).
  // False: a job asking for GPUs is refused.
  bool gpus = false;
};
Result<LsfSettings> lsf_settings_from(const std::map<std::string, std::string>& values, const std::string& path);

Result<std::string> lsf_batch_script(const JobSpec& spec, const SubmitContext& ctx, const LsfSettings& settings);

// "--qos: backend lsf cannot run this job: LSF has no QOS".
std::string lsf_cannot(std::string_view option, std::string_view why);

}  // namespace yard

// The PBS Pro / OpenPBS batch script of a job: #PBS directives (the job's shape written
// by PBS Pro's one writer, pbs_writer.cpp, as `yard translate --to pbs` writes it), then
// the shared bash wrapper (backends/job_wrapper.h), which opens the job's output files
// itself. Every user value is quoted or checked; the script is saved beside the job and
// can be rerun by hand (qsub FILE).
#pragma once

#include <map>
#include <string>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

// A site's words, from pbs.yaml.
struct PbsSettings {
  // The consumable resource that counts a chunk's GPUs (ngpus on most sites; OpenPBS
  // defines none itself). Empty: the site has none, and a job asking for GPUs is refused.
  std::string gpu_resource;
};
Result<PbsSettings> pbs_settings_from(const std::map<std::string, std::string>& values, const std::string& path);

Result<std::string> pbs_batch_script(const JobSpec& spec, const SubmitContext& ctx, const PbsSettings& settings);

// "pbs: --qos: backend pbs cannot run this job: PBS Pro has no QOS".
std::string pbs_cannot(std::string_view option, std::string_view why);

}  // namespace yard

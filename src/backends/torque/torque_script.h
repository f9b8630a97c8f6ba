// The Torque batch script of a job: #PBS directives (the job's shape written by Torque's
// one writer, pbs/torque_writer.cpp, as `yard translate --to torque` writes it), then
// the shared bash wrapper (backends/job_wrapper.h), which opens the job's output files
// itself. The script is saved beside the job and can be rerun by hand (qsub FILE).
#pragma once

#include <map>
#include <string>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

// A site's words, from torque.yaml.
struct TorqueSettings {
  // Whether the site's nodes count GPUs (nodes=N:ppn=P:gpus=G needs the server built
  // with them and its nodes declaring them). False: a job asking for GPUs is refused.
  bool gpus = false;
};
Result<TorqueSettings> torque_settings_from(const std::map<std::string, std::string>& values, const std::string& path);

Result<std::string> torque_batch_script(const JobSpec& spec, const SubmitContext& ctx, const TorqueSettings& settings);

// "--qos: backend torque cannot run this job: Torque has no QOS".
std::string torque_cannot(std::string_view option, std::string_view why);

}  // namespace yard

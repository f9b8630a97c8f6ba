// The OAR batch script of a job: #OAR directives (read by `oarsub -S`, one option a
// line, as OAR's scan_script reads them), then the shared bash wrapper
// (backends/job_wrapper.h), which opens the job's output files itself and gives an
// array element its index. Every user value is quoted or checked; the script is saved
// beside the job and can be rerun by hand (`oarsub -S FILE`).
#pragma once

#include <string>

#include "backends/dialect.h"
#include "core/result.h"

namespace yard {

// What differs between OAR sites (oar.yaml).
struct OarSettings {
  // The resource level of a machine in the site's hierarchy (OAR's default `host`;
  // `nodes`, an alias of network_address, works everywhere).
  std::string host_resource = "host";
  // The resource type that counts GPUs (`gpu` on Grid'5000). Empty: the cluster has
  // none, and a job asking for GPUs is refused.
  std::string gpu_resource;
};

// The job's resource request: "/host=2/core=4" or "/host=1/gpu=2/core=1", and
// ",walltime=H:MM:SS" when it has a time limit.
Result<std::string> oar_resource_request(const JobSpec& spec, const OarSettings& settings);

Result<std::string> oar_batch_script(const JobSpec& spec, const SubmitContext& ctx, const OarSettings& settings);

}  // namespace yard

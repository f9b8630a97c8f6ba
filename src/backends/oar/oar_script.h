// The OAR batch script of a job: #OAR directives (read by `oarsub -S`, one option a
// line, as OAR's scan_script reads them), then the shared bash wrapper
// (backends/job_wrapper.h), which opens the job's output files itself and gives an
// array element its index. Every user value is quoted or checked; the script is saved
// beside the job and can be rerun by hand (`oarsub -S FILE`).
#pragma once

#include <string>

#include "backends/dialect.h"
#include "backends/oar/oar_language.h"  // OarSettings, oar_resource_request
#include "core/result.h"

namespace yard {

Result<std::string> oar_batch_script(const JobSpec& spec, const SubmitContext& ctx, const OarSettings& settings);

}  // namespace yard

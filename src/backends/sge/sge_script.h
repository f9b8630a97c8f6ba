// The Grid Engine batch script of a job: #$ directives, then the shared bash wrapper
// (backends/job_wrapper.h), which also opens the job's output files itself. Every user
// value is quoted or checked; the script is saved beside the job and can be rerun by
// hand (qsub FILE).
#pragma once

#include <string>

#include "backends/dialect.h"
#include "backends/sge/sge_language.h"  // SgeSettings
#include "core/array_spec.h"
#include "core/result.h"

namespace yard {

Result<std::string> sge_batch_script(const JobSpec& spec, const SubmitContext& ctx, const SgeSettings& settings);

}  // namespace yard

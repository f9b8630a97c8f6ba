// The Slurm batch script of a job: #SBATCH directives, then a bash wrapper that sets
// the job's environment and working directory and starts the job. Every user value is
// quoted (slurm_quote.h); the script is saved beside the job and can be rerun by hand.
#pragma once

#include <string>

#include "backends/dialect.h"
#include "core/array_spec.h"
#include "core/result.h"

namespace yard {

Result<std::string> slurm_batch_script(const JobSpec& spec, const SubmitContext& ctx);

// A yard output pattern (core/output_pattern.h) as an sbatch --output pattern with the
// same meaning: %j %A %a %u %% are the same in both and pass through; %x means the
// user's job name to yard but the native name to Slurm, so it is replaced by
// `job_name` here; any other '%' is literal to yard and becomes %%. A backslash is
// refused: Slurm would drop it and stop expanding every pattern in the path.
Result<std::string> slurm_output_pattern(std::string_view path, std::string_view job_name);

}  // namespace yard

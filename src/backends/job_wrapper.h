// The bash wrapper every batch script of an indirect scheduler ends with: it clears the
// environment the scheduler handed down (but for the scheduler's own variables), sets
// the job's variables, changes to its working directory and starts the job, its script
// body (written to a private temporary file and run by its own #! line) or its command.
// Every user value is quoted (shell_quote.h), so names, arguments and environment reach
// the job byte for byte. Each dialect writes its directives above it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/dialect.h"
#include "core/job_spec.h"
#include "core/result.h"

namespace yard {

// What differs between schedulers.
struct WrapperStyle {
  // A bash case pattern of the variables the scheduler sets for the job, which are kept
  // when the inherited environment is cleared: "SLURM_* | SLURMD_*".
  std::string scheduler_variables;
  // Lines run before anything else (e.g. opening the job's output files).
  std::string first;
  // Lines run once the inherited environment is cleared, before the job's variables.
  std::string after_clear;
  // Lines run after the job's variables (job_variables()): yard's own, over any the
  // submitter's environment carried (a job submitted from inside another).
  std::string job_variables;
};

// The variables every job gets on every backend, as the local backend sets them:
// YARD_JOB_ID (an array element's own id, from the scheduler's `index_variable`),
// YARD_JOB_UID, YARD_JOB_NAME, YARD_NTASKS, YARD_CPUS_PER_TASK, YARD_SUBMIT_DIR and an
// element's YARD_ARRAY_JOB_ID. With `slurm_too`, a job submitted through Slurm's commands
// as front ends (core/slurm_variables.h) also gets Slurm's, with yard's ids, as the tools
// that submitted it read them. Nothing when ctx has no job id yet (a probe, yard translate).
std::string job_variables(const JobSpec& spec, const SubmitContext& ctx, std::string_view index_variable,
                          bool slurm_too);

// Refuses, naming it, what no wrapper can hand to a job: a NUL byte in an argument, the
// script or a value; DOS line breaks in the script; a variable that bash keeps for
// itself.
Status check_wrappable(const JobSpec& spec);

// True for variables the wrapper leaves out rather than refusing them: `_` and exported
// bash functions, which every shell hands on, yard's own settings carried in `env` (the
// open mode), and names that are not shell identifiers (which no script can export).
bool skipped_by_wrapper(std::string_view name);
// One warning line for each variable of `spec` left out because its name is not a shell
// identifier (the user did not ask for it to be dropped).
std::vector<std::string> unwrappable_variables(const JobSpec& spec);

// The style of a scheduler that hands the job's output to the wrapper (its own files to
// /dev/null): the wrapper opens ctx's stdout and stderr paths first (truncated, or
// appended in the append mode; an array element's index from `index_variable`), and
// exports that index as YARD_ARRAY_TASK_ID and SLURM_ARRAY_TASK_ID, so that scripts
// written for either run. `scheduler_variables` as WrapperStyle's.
WrapperStyle opening_output(const JobSpec& spec, const SubmitContext& ctx, std::string scheduler_variables,
                            std::string_view index_variable);

// The wrapper for `spec` (checked by check_wrappable), `uid` being its Switchyard UID.
std::string job_wrapper(const JobSpec& spec, std::string_view uid, const WrapperStyle& style);

}  // namespace yard

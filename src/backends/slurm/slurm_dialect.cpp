#include "backends/slurm/slurm_dialect.h"

#include "backends/slurm/slurm_argv.h"
#include "backends/slurm/slurm_errors.h"
#include "backends/native_names.h"
#include "backends/slurm/slurm_parse.h"
#include "backends/slurm/slurm_script.h"
#include "backends/slurm/slurm_states.h"

namespace yard {

Result<std::string> SlurmDialect::batch_script(const JobSpec& spec, const SubmitContext& ctx) const {
  return slurm_batch_script(spec, ctx);
}

std::vector<std::string> SlurmDialect::submit_argv(const std::string& script_path) const {
  return sbatch_argv(script_path);
}

Result<std::string> SlurmDialect::parse_submit(std::string_view out) const { return parse_sbatch_parsable(out); }

std::vector<std::string> SlurmDialect::poll_argv(const std::vector<std::string>& /*native_ids*/) const {
  return squeue_argv();
}

Result<std::vector<NativeStatus>> SlurmDialect::parse_poll(std::string_view out) const { return parse_squeue(out); }

std::vector<std::string> SlurmDialect::history_argv(const std::vector<std::string>& native_ids, double) const {
  return sacct_argv(native_ids);
}

Result<std::vector<NativeStatus>> SlurmDialect::parse_history(std::string_view out) const { return parse_sacct(out); }

// squeue, not sacct: a time window in sacct leaves out jobs that were never eligible
// (held, or waiting on a dependency), which are exactly the lost submissions to find.
std::vector<std::string> SlurmDialect::find_argv() const { return squeue_argv(); }

std::vector<std::string> SlurmDialect::find_history_argv(const std::vector<std::string>& native_names,
                                                         double since) const {
  return sacct_find_argv(native_names, since);
}

std::vector<std::string> SlurmDialect::cancel_argv(const std::vector<std::string>& native_ids) const {
  return scancel_argv(native_ids);
}

std::vector<std::string> SlurmDialect::cancel_pending_argv(const std::vector<std::string>& native_ids) const {
  return scancel_pending_argv(native_ids);
}

MappedState SlurmDialect::map_state(const NativeStatus& s) const { return map_slurm_state(s); }

std::string SlurmDialect::native_name(std::string_view uid, std::string_view job_name) const {
  return native_job_name(uid, job_name);
}

std::optional<std::string> SlurmDialect::uid_from_native_name(std::string_view native_name) const {
  return uid_from_native_job_name(native_name);
}

bool SlurmDialect::transient_failure(int exit_code, std::string_view err) const {
  return slurm_transient_failure(exit_code, err);
}

}  // namespace yard

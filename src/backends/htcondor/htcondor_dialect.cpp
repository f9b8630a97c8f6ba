#include "backends/htcondor/htcondor_dialect.h"

#include "backends/htcondor/htcondor_argv.h"
#include "backends/htcondor/htcondor_errors.h"
#include "backends/htcondor/htcondor_parse.h"
#include "backends/htcondor/htcondor_script.h"
#include "backends/htcondor/htcondor_states.h"
#include "backends/native_names.h"

namespace yard {

Result<std::string> HtcondorDialect::batch_script(const JobSpec& spec, const SubmitContext& ctx) const {
  return htcondor_batch_script(spec, ctx);
}

Result<Submission> HtcondorDialect::submission(const JobSpec& spec, const SubmitContext& ctx,
                                               const std::string& script_path) const {
  auto description = htcondor_description(spec, ctx, script_path);
  if (!description) return description.failure();
  return Submission{std::move(*description), condor_submit_argv(companion_path(script_path))};
}

Result<std::string> HtcondorDialect::parse_submit(std::string_view out) const { return parse_condor_submit(out); }

std::vector<std::string> HtcondorDialect::poll_argv(const std::vector<std::string>& native_ids) const {
  return condor_q_argv(native_ids);
}

Result<std::vector<NativeStatus>> HtcondorDialect::parse_poll(std::string_view out) const { return parse_condor_ads(out); }

std::vector<std::string> HtcondorDialect::history_argv(const std::vector<std::string>& native_ids, double since) const {
  return condor_history_argv(native_ids, since);
}

Result<std::vector<NativeStatus>> HtcondorDialect::parse_history(std::string_view out) const {
  return parse_condor_ads(out);
}

std::vector<std::string> HtcondorDialect::find_argv() const { return condor_q_user_argv(user_); }

// The user's whole history since then: condor_history matches owners and ids, not names.
std::vector<std::string> HtcondorDialect::find_history_argv(const std::vector<std::string>& /*native_names*/,
                                                            double since) const {
  return condor_history_user_argv(user_, since);
}

std::vector<std::string> HtcondorDialect::cancel_argv(const std::vector<std::string>& native_ids) const {
  return condor_rm_argv(native_ids);
}

std::string HtcondorDialect::job_id(std::string_view submission_id) const { return std::string(submission_id) + ".0"; }

std::string HtcondorDialect::element_id(std::string_view base, std::int64_t /*index*/, std::size_t position) const {
  return std::string(base) + "." + std::to_string(position);
}

bool HtcondorDialect::expresses(DependencyKind /*kind*/) const { return false; }

MappedState HtcondorDialect::map_state(const NativeStatus& s) const { return map_htcondor_state(s); }

bool HtcondorDialect::transient_failure(int exit_code, std::string_view err) const {
  return htcondor_transient_failure(exit_code, err);
}

std::string HtcondorDialect::native_name(std::string_view uid, std::string_view job_name) const {
  return native_job_name(uid, job_name);
}

std::optional<std::string> HtcondorDialect::uid_from_native_name(std::string_view native_name) const {
  return uid_from_native_job_name(native_name);
}

}  // namespace yard

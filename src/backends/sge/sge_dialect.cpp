#include "backends/sge/sge_dialect.h"

#include "backends/native_names.h"
#include "backends/sge/sge_argv.h"
#include "backends/sge/sge_errors.h"
#include "backends/sge/sge_parse.h"
#include "backends/sge/sge_states.h"

namespace yard {

Result<std::string> SgeDialect::batch_script(const JobSpec& spec, const SubmitContext& ctx) const {
  return sge_batch_script(spec, ctx, settings_);
}

std::vector<std::string> SgeDialect::submit_argv(const std::string& script_path) const { return qsub_argv(script_path); }

Result<std::string> SgeDialect::parse_submit(std::string_view out) const { return parse_qsub_terse(out); }

std::vector<std::string> SgeDialect::poll_argv(const std::vector<std::string>& /*native_ids*/) const {
  return qstat_argv(user_);
}

Result<std::vector<NativeStatus>> SgeDialect::parse_poll(std::string_view out) const { return parse_qstat_xml(out); }

std::vector<std::string> SgeDialect::history_argv(const std::vector<std::string>& /*native_ids*/, double since) const {
  return qacct_argv(user_, since);
}

Result<std::vector<NativeStatus>> SgeDialect::parse_history(std::string_view out) const { return parse_qacct(out); }

std::vector<std::string> SgeDialect::find_argv() const { return qstat_argv(user_); }

// The same accounting call: its records carry the names, and so the UIDs.
std::vector<std::string> SgeDialect::find_history_argv(const std::vector<std::string>& /*native_names*/,
                                                       double since) const {
  return qacct_argv(user_, since);
}

std::vector<std::string> SgeDialect::cancel_argv(const std::vector<std::string>& native_ids) const {
  return qdel_argv(native_ids);
}

std::string SgeDialect::element_id(std::string_view base, std::int64_t index, std::size_t /*position*/) const {
  return std::string(base) + "." + std::to_string(index);
}

MappedState SgeDialect::map_state(const NativeStatus& s) const { return map_sge_state(s); }

bool SgeDialect::found_nothing(int exit_code, std::string_view err) const { return sge_found_nothing(exit_code, err); }

std::string SgeDialect::native_name(std::string_view uid, std::string_view job_name) const {
  return native_job_name(uid, job_name);
}

std::optional<std::string> SgeDialect::uid_from_native_name(std::string_view native_name) const {
  return uid_from_native_job_name(native_name);
}

bool SgeDialect::transient_failure(int exit_code, std::string_view err) const {
  return sge_transient_failure(exit_code, err);
}

}  // namespace yard

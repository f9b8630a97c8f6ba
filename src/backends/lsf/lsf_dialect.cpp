#include "backends/lsf/lsf_dialect.h"

#include <ctime>

#include "backends/lsf/lsf_argv.h"
#include "backends/lsf/lsf_errors.h"
#include "backends/lsf/lsf_parse.h"
#include "backends/lsf/lsf_states.h"
#include "backends/native_names.h"

namespace yard {

Result<std::string> LsfDialect::batch_script(const JobSpec& spec, const SubmitContext& ctx) const {
  return lsf_batch_script(spec, ctx, settings_);
}

std::vector<std::string> LsfDialect::submit_argv(const std::string& /*script_path*/) const { return lsf_bsub_argv(); }

Result<std::string> LsfDialect::parse_submit(std::string_view out) const { return parse_bsub(out); }

std::vector<std::string> LsfDialect::poll_argv(const std::vector<std::string>& native_ids) const {
  return lsf_bjobs_argv(native_ids);
}

Result<std::vector<NativeStatus>> LsfDialect::parse_poll(std::string_view out) const {
  return parse_bjobs_json(out, std::time(nullptr));
}

std::vector<std::string> LsfDialect::history_argv(const std::vector<std::string>& native_ids, double /*since*/) const {
  return lsf_bjobs_argv(native_ids);
}

Result<std::vector<NativeStatus>> LsfDialect::parse_history(std::string_view out) const {
  return parse_bjobs_json(out, std::time(nullptr));
}

std::vector<std::string> LsfDialect::find_argv() const { return lsf_bjobs_user_argv(user_); }

std::vector<std::string> LsfDialect::cancel_argv(const std::vector<std::string>& native_ids) const {
  return lsf_bkill_argv(native_ids);
}

std::string LsfDialect::element_id(std::string_view base, std::int64_t index, std::size_t /*position*/) const {
  return std::string(base) + "[" + std::to_string(index) + "]";
}

// -w's done(), exit(), ended() and started(), on a job, an element or a whole array.
bool LsfDialect::expresses(DependencyKind kind) const {
  return kind == DependencyKind::AfterOk || kind == DependencyKind::AfterNotOk || kind == DependencyKind::AfterAny ||
         kind == DependencyKind::After;
}

MappedState LsfDialect::map_state(const NativeStatus& s) const { return map_lsf_state(s); }

bool LsfDialect::usable_despite(int exit_code, std::string_view err) const { return lsf_usable_despite(exit_code, err); }

bool LsfDialect::transient_failure(int exit_code, std::string_view err) const {
  return lsf_transient_failure(exit_code, err);
}

std::string LsfDialect::native_name(std::string_view uid, std::string_view job_name) const {
  return native_job_name(uid, job_name);
}

std::optional<std::string> LsfDialect::uid_from_native_name(std::string_view native_name) const {
  return uid_from_native_job_name(native_name.substr(0, native_name.find('[')));
}

}  // namespace yard

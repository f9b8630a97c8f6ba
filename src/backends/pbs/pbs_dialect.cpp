#include "backends/pbs/pbs_dialect.h"

#include "backends/native_names.h"
#include "backends/pbs/pbs_argv.h"
#include "backends/pbs/pbs_errors.h"
#include "backends/pbs/pbs_parse.h"
#include "backends/pbs/pbs_states.h"

namespace yard {

Result<std::string> PbsDialect::batch_script(const JobSpec& spec, const SubmitContext& ctx) const {
  return pbs_batch_script(spec, ctx, settings_);
}

std::vector<std::string> PbsDialect::submit_argv(const std::string& script_path) const {
  return pbs_qsub_argv(script_path);
}

Result<std::string> PbsDialect::parse_submit(std::string_view out) const { return parse_pbs_qsub(out); }

std::vector<std::string> PbsDialect::poll_argv(const std::vector<std::string>& native_ids) const {
  return pbs_qstat_argv(native_ids);
}

Result<std::vector<NativeStatus>> PbsDialect::parse_poll(std::string_view out) const {
  return parse_pbs_qstat_json(out);
}

std::vector<std::string> PbsDialect::history_argv(const std::vector<std::string>& native_ids, double /*since*/) const {
  return pbs_qstat_argv(native_ids);
}

Result<std::vector<NativeStatus>> PbsDialect::parse_history(std::string_view out) const {
  return parse_pbs_qstat_json(out);
}

std::vector<std::string> PbsDialect::find_argv() const { return pbs_qstat_all_argv(); }

std::vector<std::string> PbsDialect::cancel_argv(const std::vector<std::string>& native_ids) const {
  return pbs_qdel_argv(native_ids);
}

std::string PbsDialect::element_id(std::string_view base, std::int64_t index, std::size_t /*position*/) const {
  return std::string(base) + "[" + std::to_string(index) + "]";
}

// -W depend has after, afterok, afternotok and afterany, on a job or a whole array; not
// element by element.
bool PbsDialect::expresses(DependencyKind kind) const {
  return kind == DependencyKind::AfterOk || kind == DependencyKind::AfterNotOk || kind == DependencyKind::AfterAny ||
         kind == DependencyKind::After;
}

MappedState PbsDialect::map_state(const NativeStatus& s) const { return map_pbs_state(s); }

bool PbsDialect::usable_despite(int exit_code, std::string_view err) const { return pbs_usable_despite(exit_code, err); }

bool PbsDialect::transient_failure(int exit_code, std::string_view err) const {
  return pbs_transient_failure(exit_code, err);
}

std::string PbsDialect::native_name(std::string_view uid, std::string_view job_name) const {
  return native_job_name(uid, job_name);
}

std::optional<std::string> PbsDialect::uid_from_native_name(std::string_view native_name) const {
  return uid_from_native_job_name(native_name);
}

}  // namespace yard

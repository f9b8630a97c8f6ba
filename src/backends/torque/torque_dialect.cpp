#include "backends/torque/torque_dialect.h"

#include "backends/native_names.h"
#include "backends/pbs/pbs_parse.h"
#include "backends/torque/torque_argv.h"
#include "backends/torque/torque_errors.h"
#include "backends/torque/torque_parse.h"
#include "backends/torque/torque_states.h"

namespace yard {

Result<std::string> TorqueDialect::batch_script(const JobSpec& spec, const SubmitContext& ctx) const {
  return torque_batch_script(spec, ctx, settings_);
}

std::vector<std::string> TorqueDialect::submit_argv(const std::string& script_path) const {
  return torque_qsub_argv(script_path);
}

// Torque's qsub answers as PBS Pro's: "141.server", "142[].server".
Result<std::string> TorqueDialect::parse_submit(std::string_view out) const { return parse_pbs_qsub(out); }

std::vector<std::string> TorqueDialect::poll_argv(const std::vector<std::string>& /*native_ids*/) const {
  return torque_qstat_argv();
}

Result<std::vector<NativeStatus>> TorqueDialect::parse_poll(std::string_view out) const {
  return parse_torque_qstat_xml(out);
}

std::vector<std::string> TorqueDialect::history_argv(const std::vector<std::string>& /*native_ids*/, double /*since*/) const {
  return torque_qstat_argv();
}

Result<std::vector<NativeStatus>> TorqueDialect::parse_history(std::string_view out) const {
  return parse_torque_qstat_xml(out);
}

std::vector<std::string> TorqueDialect::find_argv() const { return torque_qstat_argv(); }

std::vector<std::string> TorqueDialect::cancel_argv(const std::vector<std::string>& native_ids) const {
  return torque_qdel_argv(native_ids);
}

std::string TorqueDialect::element_id(std::string_view base, std::int64_t index, std::size_t /*position*/) const {
  return std::string(base) + "[" + std::to_string(index) + "]";
}

// -W depend's after, afterok, afternotok, afterany, on a job or (their *array forms) a
// whole array; not element by element.
bool TorqueDialect::expresses(DependencyKind kind) const {
  return kind == DependencyKind::AfterOk || kind == DependencyKind::AfterNotOk || kind == DependencyKind::AfterAny ||
         kind == DependencyKind::After;
}

MappedState TorqueDialect::map_state(const NativeStatus& s) const { return map_torque_state(s); }

bool TorqueDialect::usable_despite(int exit_code, std::string_view err) const {
  return torque_usable_despite(exit_code, err);
}

bool TorqueDialect::transient_failure(int exit_code, std::string_view err) const {
  return torque_transient_failure(exit_code, err);
}

std::string TorqueDialect::native_name(std::string_view uid, std::string_view job_name) const {
  return native_job_name(uid, job_name);
}

// A subjob's name is its array's with "-INDEX" after it, which the UID's reading allows.
std::optional<std::string> TorqueDialect::uid_from_native_name(std::string_view native_name) const {
  return uid_from_native_job_name(native_name);
}

}  // namespace yard

#include "backends/oar/oar_dialect.h"

#include "backends/native_names.h"
#include "backends/oar/oar_argv.h"
#include "backends/oar/oar_errors.h"
#include "backends/oar/oar_parse.h"
#include "backends/oar/oar_states.h"

namespace yard {

Result<std::string> OarDialect::batch_script(const JobSpec& spec, const SubmitContext& ctx) const {
  return oar_batch_script(spec, ctx, settings_);
}

std::vector<std::string> OarDialect::submit_argv(const std::string& script_path) const {
  return oarsub_argv(script_path);
}

Result<std::string> OarDialect::parse_submit(std::string_view out) const {
  auto s = parse_oarsub(out, "");
  if (!s) return err(s.error());
  return s->array_id.empty() ? s->job_ids.front() : s->array_id;
}

std::vector<std::string> OarDialect::element_ids_from_submit(std::string_view out) const {
  auto s = parse_oarsub(out, "");
  if (!s || s->array_id.empty()) return {};
  return s->job_ids;
}

std::vector<std::string> OarDialect::poll_argv(const std::vector<std::string>& /*native_ids*/) const {
  return oarstat_queue_argv(user_);
}

Result<std::vector<NativeStatus>> OarDialect::parse_poll(std::string_view out) const { return parse_oarstat_json(out); }

std::vector<std::string> OarDialect::history_argv(const std::vector<std::string>& native_ids, double /*since*/) const {
  return oarstat_history_argv(native_ids);
}

Result<std::vector<NativeStatus>> OarDialect::parse_history(std::string_view out) const {
  return parse_oarstat_json(out);
}

std::vector<std::string> OarDialect::find_argv() const { return oarstat_queue_argv(user_); }

// OAR keeps ended jobs in its database: the same listing by name finds them.
std::vector<std::string> OarDialect::find_history_argv(const std::vector<std::string>& native_names,
                                                       double since) const {
  return oarstat_named_argv(user_, native_names, since);
}

std::vector<std::string> OarDialect::cancel_argv(const std::vector<std::string>& native_ids) const {
  return oardel_argv(native_ids);
}

std::string OarDialect::element_id(std::string_view base, std::int64_t /*index*/, std::size_t position) const {
  return std::to_string(std::stoll(std::string(base)) + static_cast<long long>(position));
}

MappedState OarDialect::map_state(const NativeStatus& s) const { return map_oar_state(s); }

std::string OarDialect::native_name(std::string_view uid, std::string_view job_name) const {
  return native_job_name(uid, job_name);
}

std::optional<std::string> OarDialect::uid_from_native_name(std::string_view native_name) const {
  return uid_from_native_job_name(native_name);
}

bool OarDialect::transient_failure(int exit_code, std::string_view err) const {
  return oar_transient_failure(exit_code, err);
}

}  // namespace yard

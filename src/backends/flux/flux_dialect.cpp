#include "backends/flux/flux_dialect.h"

#include "backends/flux/flux_argv.h"
#include "backends/flux/flux_errors.h"
#include "backends/flux/flux_parse.h"
#include "backends/flux/flux_script.h"
#include "backends/flux/flux_states.h"
#include "backends/native_names.h"

namespace yard {

Result<std::string> FluxDialect::batch_script(const JobSpec& spec, const SubmitContext& ctx) const {
  return flux_batch_script(spec, ctx);
}

Result<Submission> FluxDialect::submission(const JobSpec& spec, const SubmitContext& ctx,
                                           const std::string& script_path) const {
  auto argv = flux_submit_argv(spec, ctx, script_path);
  if (!argv) return argv.failure();
  return Submission{"", std::move(*argv)};
}

Result<std::string> FluxDialect::parse_submit(std::string_view out) const {
  auto ids = parse_flux_submit(out);
  if (!ids) return ids.failure();
  return ids->front();
}

std::vector<std::string> FluxDialect::element_ids_from_submit(std::string_view out) const {
  auto ids = parse_flux_submit(out);
  return ids ? *ids : std::vector<std::string>{};
}

std::vector<std::string> FluxDialect::poll_argv(const std::vector<std::string>& native_ids) const {
  return flux_jobs_argv(native_ids);
}

Result<std::vector<NativeStatus>> FluxDialect::parse_poll(std::string_view out) const { return parse_flux_jobs(out); }

std::vector<std::string> FluxDialect::history_argv(const std::vector<std::string>& native_ids, double /*since*/) const {
  return flux_jobs_argv(native_ids);
}

Result<std::vector<NativeStatus>> FluxDialect::parse_history(std::string_view out) const { return parse_flux_jobs(out); }

std::vector<std::string> FluxDialect::find_argv() const { return flux_jobs_all_argv(); }

std::vector<std::string> FluxDialect::cancel_argv(const std::vector<std::string>& native_ids) const {
  return flux_cancel_argv(native_ids);
}

std::string FluxDialect::element_id(std::string_view base, std::int64_t index, std::size_t /*position*/) const {
  return std::string(base) + "-copy-" + std::to_string(index);
}

// --dependency=afterok, afterany, afternotok, afterstart.
bool FluxDialect::expresses(DependencyKind kind) const {
  return kind == DependencyKind::AfterOk || kind == DependencyKind::AfterNotOk || kind == DependencyKind::AfterAny ||
         kind == DependencyKind::After;
}

MappedState FluxDialect::map_state(const NativeStatus& s) const { return map_flux_state(s); }

bool FluxDialect::usable_despite(int exit_code, std::string_view err) const { return flux_usable_despite(exit_code, err); }

bool FluxDialect::transient_failure(int exit_code, std::string_view err) const {
  return flux_transient_failure(exit_code, err);
}

bool FluxDialect::refused_for_a_dependency(std::string_view err) const { return flux_refused_for_a_dependency(err); }

std::string FluxDialect::native_name(std::string_view uid, std::string_view job_name) const {
  return native_job_name(uid, job_name);
}

std::optional<std::string> FluxDialect::uid_from_native_name(std::string_view native_name) const {
  return uid_from_native_job_name(native_name);
}

}  // namespace yard

// The OAR dialect: batch scripts with #OAR directives (oarsub -S), one `oarstat -J -u`
// per status cycle, one `oarstat -J -f --sql` for jobs that left the current ones (OAR
// keeps every job in its database), oardel, and OAR's states. Each method forwards to
// the small file that does that one thing.
#pragma once

#include <string>

#include "backends/dialect.h"
#include "backends/oar/oar_argv.h"
#include "backends/oar/oar_script.h"

namespace yard {

class OarDialect : public Dialect {
 public:
  // `user`: whose jobs are listed (the daemon's).
  OarDialect(std::string user, OarSettings settings) : user_(std::move(user)), settings_(std::move(settings)) {}
  std::string_view name() const override { return "oar"; }

  Result<std::string> batch_script(const JobSpec& spec, const SubmitContext& ctx) const override;
  std::vector<std::string> submit_argv(const std::string& script_path) const override;
  // The first job's id: an array's OAR_ARRAY_ID.
  Result<std::string> parse_submit(std::string_view out) const override;
  // An array's jobs, one OAR_JOB_ID line each: not always consecutive numbers.
  std::vector<std::string> element_ids_from_submit(std::string_view out) const override;

  // Ignores `native_ids`: the poll lists all of the user's current jobs.
  std::vector<std::string> poll_argv(const std::vector<std::string>& native_ids) const override;
  Result<std::vector<NativeStatus>> parse_poll(std::string_view out) const override;
  std::vector<std::string> history_argv(const std::vector<std::string>& native_ids, double since) const override;
  Result<std::vector<NativeStatus>> parse_history(std::string_view out) const override;
  std::vector<std::string> find_argv() const override;
  std::vector<std::string> find_history_argv(const std::vector<std::string>& native_names,
                                             double since) const override;
  std::vector<std::string> cancel_argv(const std::vector<std::string>& native_ids) const override;
  std::vector<std::string> action_argv(JobAction action, const std::vector<std::string>& native_ids) const override {
    return oar_action_argv(action, native_ids);
  }

  // Array elements are jobs of their own, numbered on from the first: OAR computes
  // their ids so itself (IO.pm, add_micheline_simple_array_job) and prints them so.
  std::string element_id(std::string_view base, std::int64_t index, std::size_t position) const override;
  bool array_dependency_by_elements() const override { return true; }
  // -a holds a job until the other ends, whatever its outcome: afterany only.
  bool expresses(DependencyKind kind) const override { return kind == DependencyKind::AfterAny; }
  // OAR's kinds of job (oarsub -t): besteffort, container, inner=ID, idempotent.
  bool honours(std::string_view option) const override { return option == "job-type"; }
  MappedState map_state(const NativeStatus& s) const override;
  std::string native_name(std::string_view uid, std::string_view job_name) const override;
  std::optional<std::string> uid_from_native_name(std::string_view native_name) const override;
  bool transient_failure(int exit_code, std::string_view err) const override;

 private:
  std::string user_;
  OarSettings settings_;
};

}  // namespace yard

// The HTCondor dialect: a submit description beside the wrapper script (condor_submit
// -terse), one condor_q per status cycle for every tracked job and one condor_history for
// those that left the queue (completed and removed jobs leave it at once), condor_rm,
// and HTCondor's states with its hold codes. It has no dependencies outside DAGMan: the
// engine holds a job until its parents have ended. Each method forwards to the small
// file that does that one thing.
#pragma once

#include <string>

#include "backends/dialect.h"
#include "backends/htcondor/htcondor_argv.h"

namespace yard {

class HtcondorDialect : public Dialect {
 public:
  // `user`: whose jobs a look-up lists (the daemon's).
  explicit HtcondorDialect(std::string user) : user_(std::move(user)) {}
  std::string_view name() const override { return "htcondor"; }

  Result<std::string> batch_script(const JobSpec& spec, const SubmitContext& ctx) const override;
  Result<Submission> submission(const JobSpec& spec, const SubmitContext& ctx,
                                const std::string& script_path) const override;
  // The cluster.
  Result<std::string> parse_submit(std::string_view out) const override;
  std::vector<std::string> poll_argv(const std::vector<std::string>& native_ids) const override;
  Result<std::vector<NativeStatus>> parse_poll(std::string_view out) const override;
  std::vector<std::string> history_argv(const std::vector<std::string>& native_ids, double since) const override;
  Result<std::vector<NativeStatus>> parse_history(std::string_view out) const override;
  std::vector<std::string> find_argv() const override;
  std::vector<std::string> find_history_argv(const std::vector<std::string>& native_names, double since) const override;
  std::vector<std::string> cancel_argv(const std::vector<std::string>& native_ids) const override;
  std::vector<std::string> action_argv(JobAction action, const std::vector<std::string>& native_ids) const override {
    return condor_action_argv(action, native_ids);
  }

  // Cluster 6's one job is 6.0; an array's elements are its procs, 6.0, 6.1, ... by position.
  std::string job_id(std::string_view submission_id) const override;
  std::string element_id(std::string_view base, std::int64_t index, std::size_t position) const override;
  bool expresses(DependencyKind kind) const override;
  MappedState map_state(const NativeStatus& s) const override;
  // A held job: it stays in the queue until removed, and reaches the history only then.
  bool ended_in_queue(const NativeStatus& s) const override { return s.raw_state == "5"; }
  bool transient_failure(int exit_code, std::string_view err) const override;
  std::string native_name(std::string_view uid, std::string_view job_name) const override;
  std::optional<std::string> uid_from_native_name(std::string_view native_name) const override;

 private:
  std::string user_;
};

}  // namespace yard

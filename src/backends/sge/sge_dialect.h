// The Grid Engine dialect: qsub batch scripts with #$ directives, one `qstat -xml` per
// status cycle, qacct for jobs that left the queue, qdel, and Grid Engine's states. Each
// method forwards to the small file that does that one thing.
#pragma once

#include <string>

#include "backends/dialect.h"
#include "backends/sge/sge_queues.h"
#include "backends/sge/sge_argv.h"
#include "backends/sge/sge_script.h"

namespace yard {

class SgeDialect : public Dialect {
 public:
  // `user`: whose queue and accounting are read (the daemon's).
  SgeDialect(std::string user, SgeSettings settings) : user_(std::move(user)), settings_(std::move(settings)) {}
  std::string_view name() const override { return "sge"; }

  Result<std::string> batch_script(const JobSpec& spec, const SubmitContext& ctx) const override;
  std::vector<std::string> submit_argv(const std::string& script_path) const override;
  Result<std::string> parse_submit(std::string_view out) const override;

  // Ignores `native_ids`: the poll lists all of the user's jobs (sge_argv.cpp).
  std::vector<std::string> poll_argv(const std::vector<std::string>& native_ids) const override;
  Result<std::vector<NativeStatus>> parse_poll(std::string_view out) const override;
  // The accounting of the user's Switchyard jobs ended since `since`.
  std::vector<std::string> history_argv(const std::vector<std::string>& native_ids, double since) const override;
  Result<std::vector<NativeStatus>> parse_history(std::string_view out) const override;
  std::vector<std::string> find_argv() const override;
  std::vector<std::string> find_history_argv(const std::vector<std::string>& native_names,
                                             double since) const override;
  std::vector<std::string> cancel_argv(const std::vector<std::string>& native_ids) const override;
  // Every cluster queue's h_rt (the queues of routes.yaml's targets).
  std::vector<std::string> queue_limits_argv(const std::vector<std::string>&) const override { return sge_queues_argv(); }
  Result<QueueListing> parse_queue_limits(std::string_view out) const override { return parse_sge_queues(out); }
  // max_aj_tasks (qconf -sconf).
  std::vector<std::string> array_limit_argv() const override { return sge_config_argv(); }
  std::optional<std::int64_t> parse_array_limit(std::string_view out) const override {
    return parse_sge_max_aj_tasks(out);
  }
  std::int64_t default_array_limit() const override { return 75000; }
  std::vector<std::string> action_argv(JobAction action, const std::vector<std::string>& native_ids) const override {
    return sge_action_argv(action, native_ids);
  }
  double history_lag_s() const override { return settings_.accounting_lag_s; }

  std::string element_id(std::string_view base, std::int64_t index, std::size_t position) const override;
  // -hold_jid holds a job until the other ends, whatever its outcome: afterany only.
  bool expresses(DependencyKind kind) const override { return kind == DependencyKind::AfterAny; }
  MappedState map_state(const NativeStatus& s) const override;
  bool found_nothing(int exit_code, std::string_view err) const override;
  std::string native_name(std::string_view uid, std::string_view job_name) const override;
  std::optional<std::string> uid_from_native_name(std::string_view native_name) const override;
  bool transient_failure(int exit_code, std::string_view err) const override;

 private:
  std::string user_;
  SgeSettings settings_;
};

}  // namespace yard

// The PBS Pro / OpenPBS dialect: qsub batch scripts with #PBS directives, one
// `qstat -x -f -F json -t` per status cycle for every tracked job (ended ones are in it
// while the server keeps their history), qdel, and PBS's states and exit codes. Each
// method forwards to the small file that does that one thing.
#pragma once

#include <string>

#include "backends/dialect.h"
#include "backends/pbs/pbs_queues.h"
#include "backends/pbs/pbs_argv.h"
#include "backends/pbs/pbs_script.h"

namespace yard {

class PbsDialect : public Dialect {
 public:
  explicit PbsDialect(PbsSettings settings) : settings_(std::move(settings)) {}
  std::string_view name() const override { return "pbs"; }

  Result<std::string> batch_script(const JobSpec& spec, const SubmitContext& ctx) const override;
  std::vector<std::string> submit_argv(const std::string& script_path) const override;
  Result<std::string> parse_submit(std::string_view out) const override;

  std::vector<std::string> poll_argv(const std::vector<std::string>& native_ids) const override;
  Result<std::vector<NativeStatus>> parse_poll(std::string_view out) const override;
  // The same qstat: with -x it lists ended jobs for as long as the server keeps them
  // (job_history_duration); there is no other record a client can read.
  std::vector<std::string> history_argv(const std::vector<std::string>& native_ids, double since) const override;
  Result<std::vector<NativeStatus>> parse_history(std::string_view out) const override;
  std::vector<std::string> find_argv() const override;
  std::vector<std::string> cancel_argv(const std::vector<std::string>& native_ids) const override;
  // Every queue's resources_max (the queues of routes.yaml's targets).
  std::vector<std::string> queue_limits_argv(const std::vector<std::string>&) const override { return pbs_queues_argv(); }
  Result<QueueListing> parse_queue_limits(std::string_view out) const override { return parse_pbs_queues(out); }
  // PBS Pro's max_array_size default (a server attribute only its manager lists): max_array_size in the settings file for another.
  std::int64_t default_array_limit() const override { return 10000; }
  std::vector<std::string> action_argv(JobAction action, const std::vector<std::string>& native_ids) const override {
    return pbs_action_argv(action, native_ids);
  }

  // "123[4]": a subjob of array 123.
  std::string element_id(std::string_view base, std::int64_t index, std::size_t position) const override;
  bool expresses(DependencyKind kind) const override;
  MappedState map_state(const NativeStatus& s) const override;
  bool usable_despite(int exit_code, std::string_view err) const override;
  bool transient_failure(int exit_code, std::string_view err) const override;
  std::string native_name(std::string_view uid, std::string_view job_name) const override;
  std::optional<std::string> uid_from_native_name(std::string_view native_name) const override;

 private:
  PbsSettings settings_;
};

}  // namespace yard

// The LSF dialect: #BSUB batch scripts read by bsub on its stdin, one `bjobs -a -json`
// per status cycle for every tracked job (ended ones are in it for CLEAN_PERIOD), bkill,
// and LSF's states and TERM_* exit reasons. Each method forwards to the small file that
// does that one thing.
#pragma once

#include <string>

#include "backends/dialect.h"
#include "backends/lsf/lsf_argv.h"
#include "backends/lsf/lsf_queues.h"
#include "backends/lsf/lsf_script.h"

namespace yard {

class LsfDialect : public Dialect {
 public:
  // `user`: whose jobs a look-up lists (the daemon's).
  LsfDialect(std::string user, LsfSettings settings) : user_(std::move(user)), settings_(settings) {}
  std::string_view name() const override { return "lsf"; }

  Result<std::string> batch_script(const JobSpec& spec, const SubmitContext& ctx) const override;
  std::vector<std::string> submit_argv(const std::string& script_path) const override;
  bool submit_reads_script_on_stdin() const override { return true; }
  Result<std::string> parse_submit(std::string_view out) const override;
  std::vector<std::string> poll_argv(const std::vector<std::string>& native_ids) const override;
  Result<std::vector<NativeStatus>> parse_poll(std::string_view out) const override;
  // The same bjobs -a: LSF's history (bhist, bacct) reads log files of the cluster's.
  std::vector<std::string> history_argv(const std::vector<std::string>& native_ids, double since) const override;
  Result<std::vector<NativeStatus>> parse_history(std::string_view out) const override;
  std::vector<std::string> find_argv() const override;
  std::vector<std::string> cancel_argv(const std::vector<std::string>& native_ids) const override;
  // Every queue's RUNLIMIT and TASKLIMIT (the queues of routes.yaml's targets).
  std::vector<std::string> queue_limits_argv(const std::vector<std::string>&) const override { return lsf_queues_argv(); }
  Result<QueueListing> parse_queue_limits(std::string_view out) const override { return parse_lsf_queues(out); }
  // LSF's MAX_JOB_ARRAY_SIZE default (lsb.params): max_array_size in the settings file for another.
  std::int64_t default_array_limit() const override { return 1000; }
  std::vector<std::string> action_argv(JobAction action, const std::vector<std::string>& native_ids) const override {
    return lsf_action_argv(action, native_ids);
  }

  // "123[4]": element 4 of array 123.
  std::string element_id(std::string_view base, std::int64_t index, std::size_t position) const override;
  bool expresses(DependencyKind kind) const override;
  MappedState map_state(const NativeStatus& s) const override;
  bool usable_despite(int exit_code, std::string_view err) const override;
  bool transient_failure(int exit_code, std::string_view err) const override;
  std::string native_name(std::string_view uid, std::string_view job_name) const override;
  // An array's name carries its indices ("yard-UID-name[1-4]%2"), an element's its own.
  std::optional<std::string> uid_from_native_name(std::string_view native_name) const override;

 private:
  std::string user_;
  LsfSettings settings_;
};

}  // namespace yard

// The Slurm dialect: sbatch batch scripts, squeue polls, sacct history, scancel, and
// Slurm's states. Each method forwards to the small file that does that one thing.
#pragma once

#include "backends/dialect.h"
#include "backends/slurm/slurm_argv.h"
#include "backends/slurm/slurm_partitions.h"

namespace yard {

class SlurmDialect : public Dialect {
 public:
  // Every sbatch option reaches sbatch as it was given; --job-type is not Slurm's.
  bool honours(std::string_view option) const override { return option != "job-type"; }
  std::string_view name() const override { return "slurm"; }

  Result<std::string> batch_script(const JobSpec& spec, const SubmitContext& ctx) const override;
  std::vector<std::string> submit_argv(const std::string& script_path) const override;
  Result<std::string> parse_submit(std::string_view out) const override;

  // Ignores `native_ids`: the poll lists all of the user's jobs (see slurm_argv.cpp).
  std::vector<std::string> poll_argv(const std::vector<std::string>& native_ids) const override;
  Result<std::vector<NativeStatus>> parse_poll(std::string_view out) const override;
  std::vector<std::string> history_argv(const std::vector<std::string>& native_ids, double since) const override;
  Result<std::vector<NativeStatus>> parse_history(std::string_view out) const override;
  // The same listing as the poll, read with parse_poll.
  std::vector<std::string> find_argv() const override;
  // sacct by job name, from a little before the jobs' submit time.
  std::vector<std::string> find_history_argv(const std::vector<std::string>& native_names,
                                             double since) const override;

  std::vector<std::string> cancel_argv(const std::vector<std::string>& native_ids) const override;
  std::vector<std::string> cancel_pending_argv(const std::vector<std::string>& native_ids) const override;
  std::vector<std::string> action_argv(JobAction action, const std::vector<std::string>& native_ids) const override {
    return scontrol_action_argv(action, native_ids);
  }

  // Every partition's limits (the queues of routes.yaml's targets).
  std::vector<std::string> queue_limits_argv(const std::vector<std::string>&) const override {
    return slurm_partitions_argv();
  }
  Result<QueueListing> parse_queue_limits(std::string_view out) const override { return parse_slurm_partitions(out); }

  // MaxArraySize (scontrol show config): every index below it.
  std::vector<std::string> array_limit_argv() const override { return slurm_config_argv(); }
  std::optional<std::int64_t> parse_array_limit(std::string_view out) const override {
    return parse_slurm_max_array_size(out);
  }
  std::int64_t default_array_limit() const override { return 1001; }
  bool array_limit_is_on_indices() const override { return true; }

  MappedState map_state(const NativeStatus& s) const override;
  std::string native_name(std::string_view uid, std::string_view job_name) const override;
  std::optional<std::string> uid_from_native_name(std::string_view native_name) const override;
  bool transient_failure(int exit_code, std::string_view err) const override;
};

}  // namespace yard

// The Flux dialect: the wrapper script and a submit command whose line carries the
// job's options (flux submit, or flux batch for several tasks or nodes), one `flux jobs
// --json` per status cycle for every tracked job (inactive ones are listed until Flux
// purges them), flux cancel, and Flux's states, results and exceptions. Flux has no
// arrays: each copy of --cc is a job with an id of its own, printed in order. Each
// method forwards to the small file that does that one thing.
#pragma once

#include <string>

#include "backends/dialect.h"
#include "backends/flux/flux_argv.h"
#include "backends/flux/flux_queues.h"

namespace yard {

class FluxDialect : public Dialect {
 public:
  std::string_view name() const override { return "flux"; }

  Result<std::string> batch_script(const JobSpec& spec, const SubmitContext& ctx) const override;
  Result<Submission> submission(const JobSpec& spec, const SubmitContext& ctx,
                                const std::string& script_path) const override;
  // The first copy's id; element_ids_from_submit gives each copy's.
  Result<std::string> parse_submit(std::string_view out) const override;
  std::vector<std::string> element_ids_from_submit(std::string_view out) const override;
  std::vector<std::string> poll_argv(const std::vector<std::string>& native_ids) const override;
  Result<std::vector<NativeStatus>> parse_poll(std::string_view out) const override;
  // The same flux jobs: Flux lists inactive jobs until it purges them.
  std::vector<std::string> history_argv(const std::vector<std::string>& native_ids, double since) const override;
  Result<std::vector<NativeStatus>> parse_history(std::string_view out) const override;
  std::vector<std::string> find_argv() const override;
  std::vector<std::string> cancel_argv(const std::vector<std::string>& native_ids) const override;
  // Every queue's time and core limits (the queues of routes.yaml's targets).
  std::vector<std::string> queue_limits_argv(const std::vector<std::string>&) const override { return flux_queues_argv(); }
  Result<QueueListing> parse_queue_limits(std::string_view out) const override { return parse_flux_queues(out); }
  std::vector<std::string> action_argv(JobAction action, const std::vector<std::string>& native_ids) const override {
    return flux_action_argv(action, native_ids);
  }

  // Copies have ids of their own, known only from the submit command's answer: one
  // that cannot be had is no id Flux knows (the element is LOST rather than mistaken).
  std::string element_id(std::string_view base, std::int64_t index, std::size_t position) const override;
  bool array_dependency_by_elements() const override { return true; }
  bool expresses(DependencyKind kind) const override;
  MappedState map_state(const NativeStatus& s) const override;
  bool usable_despite(int exit_code, std::string_view err) const override;
  bool transient_failure(int exit_code, std::string_view err) const override;
  bool refused_for_a_dependency(std::string_view err) const override;
  std::string native_name(std::string_view uid, std::string_view job_name) const override;
  std::optional<std::string> uid_from_native_name(std::string_view native_name) const override;
};

}  // namespace yard

#include "server/flow_runs.h"

#include <sys/stat.h>

namespace yard {
namespace {

bool all_there(const std::vector<std::string>& paths) {
  struct stat st{};
  for (const auto& p : paths)
    if (::stat(p.c_str(), &st) != 0) return false;
  return true;
}

}  // namespace

Result<FlowPlan> plan_flow(Store& store, const SubmitManyRequest& r) {
  FlowPlan plan;
  plan.origins.resize(r.jobs.size(), StepOrigin::Submitted);
  plan.ids.resize(r.jobs.size());
  for (std::size_t i = 0; i < r.jobs.size(); ++i) {
    const auto& job = r.jobs[i];
    if (job.rerun || job.key.empty()) continue;
    // A step after one submitted anew runs anew: its inputs are being made again, and a
    // job of the same key waiting on the old one would wait for ever.
    bool after_fresh = false;
    for (auto n : job.needs) after_fresh = after_fresh || plan.origins[static_cast<std::size_t>(n)] == StepOrigin::Submitted;
    if (after_fresh) continue;
    auto found = store.latest_step_with_key(job.key);
    if (!found) return found.failure();
    if (!*found) continue;
    const JobState s = (*found)->step.state;
    if (s == JobState::Completed && all_there(job.outputs)) plan.origins[i] = StepOrigin::UpToDate;
    else if (s == JobState::Pending || s == JobState::Running) plan.origins[i] = StepOrigin::Attached;
    else continue;  // failed, cancelled, or its outputs are gone: run again
    plan.ids[i] = std::move((*found)->ids);
  }
  return plan;
}

Result<std::optional<SubmitManyReply>> replayed_flow(Store& store, const std::string& key) {
  auto flow = store.flow_with_key(key);
  if (!flow) return flow.failure();
  if (!*flow) return std::optional<SubmitManyReply>();
  SubmitManyReply reply;
  reply.flow_id = **flow;
  auto steps = store.flow_steps(**flow, &reply.ids);
  if (!steps) return steps.failure();
  for (const auto& s : *steps) reply.origins.push_back(s.origin);
  return std::optional<SubmitManyReply>(std::move(reply));
}

Result<std::int64_t> record_flow(Store& store, const SubmitManyRequest& r, const std::vector<std::string>& names,
                                 const SubmitManyReply& reply, double now) {
  const auto& run = *r.flow;
  auto id = store.insert_flow({run.name, run.file, run.run_dir, r.key}, now);
  if (!id) return id.failure();
  for (std::size_t i = 0; i < r.jobs.size(); ++i) {
    FlowStepRecord step;
    step.index = static_cast<std::int32_t>(i);
    step.name = names[i];
    step.key = r.jobs[i].key;
    step.parts = r.jobs[i].parts;
    step.job_id = reply.ids[i].front();
    step.alone = reply.ids[i].size() == 1;  // a packed step is the element it got
    step.origin = reply.origins[i];
    if (auto s = store.insert_flow_step(*id, step); !s) return s.failure();
  }
  for (const auto& d : run.digests)
    if (!d.digest.empty())
      if (auto s = store.record_file_digest(d); !s) return s.failure();
  return *id;
}

}  // namespace yard

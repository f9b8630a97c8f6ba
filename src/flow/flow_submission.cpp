#include "flow/flow_submission.h"

#include <filesystem>

#include "core/output_pattern.h"
#include "flow/file_digest.h"
#include "flow/step_key.h"

namespace yard {
namespace {

// A step's log in the run directory: its name as a file name ('%' doubled: an output
// path is a pattern; an array's elements apart).
std::string log_in(const std::string& dir, const FlowStep& step) {
  return dir + "/" + name_in_pattern(step.name) + (step.spec.array ? "_%a" : "") + ".out";
}

// Makes the parent directory of each of the step's log files and outputs (a directory
// named by a pattern, %j and the like, is the job's to have).
Status make_output_directories(const FlowStep& step) {
  std::vector<std::filesystem::path> files{step.outputs.begin(), step.outputs.end()};
  for (const auto* log : {&step.spec.stdout_path, &step.spec.stderr_path})
    if (!log->empty()) files.push_back(std::filesystem::path(step.spec.workdir) / *log);
  for (const auto& f : files) {
    const auto dir = f.parent_path();
    if (dir.empty() || dir.string().find('%') != std::string::npos) continue;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Error{"cannot make the directory " + dir.string() + ": " + ec.message(), ErrorKind::Internal};
  }
  return {};
}

}  // namespace

Status prepare_flow_run(Flow& flow, const std::string& run_dir, bool* logged_there) {
  for (auto& step : flow.steps)
    if (step.spec.stdout_path.empty()) {
      step.spec.stdout_path = log_in(run_dir, step);
      if (logged_there) *logged_there = true;
    } else if (step.group > 0) {
      // A grouped step's log is written by the job that runs its group, into the run's
      // directory; a pattern (%j) would name that job, not the step.
      return err("step '" + step.name + "' (" + step.where + "): steps in series log into the run's directory "
                 "(output: and error: do not go with group: or pack: {under: ...})");
    } else {
      step.packable = false;  // a log the file names is the step's: an element's would differ
    }
  for (const auto& step : flow.steps)
    if (auto made = make_output_directories(step); !made)
      return Error{"step '" + step.name + "' (" + step.where + "): " + made.error(), made.kind()};
  return {};
}

Result<SubmitManyRequest> flow_submission(const Flow& flow, const std::string& run_dir, const std::set<std::string>& again,
                                          const std::vector<FileDigest>& known,
                                          const std::function<void(const std::string&, std::int64_t)>& reading) {
  auto digests = digest_inputs(external_inputs(flow), known, reading);
  if (!digests) return digests.failure();
  std::vector<std::string> parts;
  const auto keys = step_keys(flow, digests->by_path, &parts);
  SubmitManyRequest request;
  request.env = flow.env;
  request.jobs.reserve(flow.steps.size());
  for (std::size_t i = 0; i < flow.steps.size(); ++i) {
    const FlowStep& step = flow.steps[i];
    request.jobs.push_back({step.spec, step.job_class, step.needs, step.own_env, keys[i], std::move(parts[i]),
                            step.outputs, again.count(step.name) || again.count(step.rule),
                            step.packable ? step.rule : std::string(), step.group});
  }
  std::error_code ec;
  const auto file = std::filesystem::absolute(flow.file, ec).lexically_normal().string();
  request.flow = SubmitManyRequest::FlowRun{flow.name, file, run_dir, std::move(digests->fresh)};
  return request;
}

}  // namespace yard

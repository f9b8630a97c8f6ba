// yard flow why FILE STEP: whether `yard run FILE` would run the step again, and why: what
// changed since the last run of the file (its command, an input's content, a step it
// needs...), or how its last job ended, or that an output is gone.
#include <sys/stat.h>

#include <filesystem>
#include <iostream>

#include "cli/cli_client.h"
#include "cli/commands.h"
#include "cli/flow_request.h"
#include "core/environment.h"
#include "core/text.h"
#include "flow/flow_file.h"
#include "flow/step_key.h"

namespace yard {
namespace {

// Why the step at `i` of `flow` would run again, or nothing when it would not (`why` then
// says what it is).
std::vector<std::string> reasons(DaemonClient& client, const Flow& flow, const SubmitManyRequest& now, std::size_t i,
                                 std::string& status, int& rc) {
  std::error_code ec;
  const std::string file = std::filesystem::absolute(flow.file, ec).lexically_normal().string();
  auto flows = client.flows(0);
  if (!flows) {
    rc = exit_code_for(flows.kind());
    return {flows.error()};
  }
  const FlowRecord* last = nullptr;
  for (const auto& f : flows->flows)
    if (f.file == file) {
      last = &f;  // newest first
      break;
    }
  if (!last) return {"it never ran from " + file};
  auto shown = client.flow(last->id);
  if (!shown) {
    rc = exit_code_for(shown.kind());
    return {shown.error()};
  }
  const auto& job = now.jobs[i];
  for (const auto& before : shown->steps) {
    if (before.name != job.spec.name) continue;
    if (before.key != job.key) {
      auto diff = key_differences(before.parts, job.parts);
      if (diff.empty()) diff.push_back("what makes its result changed");
      for (auto& d : diff) d += " since flow " + std::to_string(last->id);
      return diff;
    }
    const std::string as = " (job " + std::to_string(before.job_id) + ", flow " + std::to_string(last->id) + ")";
    if (before.state == JobState::Pending || before.state == JobState::Running) {
      status = "running already" + as + ": it would be followed, not submitted again";
      return {};
    }
    if (before.state != JobState::Completed) return {"its last job ended " + std::string(to_string(before.state)) + as};
    for (const auto& o : job.outputs) {
      struct stat st{};
      if (::stat(o.c_str(), &st) != 0) return {"its output " + o + " is gone"};
    }
    status = "up to date" + as;
    return {};
  }
  return {"it was not a step of the last run (flow " + std::to_string(last->id) + ")"};
}

}  // namespace

void add_flow_why_command(CLI::App& flow, int& rc) {
  auto* why = flow.add_subcommand("why", "Whether yard run FILE would run a step again, and what changed since the "
                                         "file's last run (its command, an input's content, a step it needs...)");
  static std::string file, step_name;
  why->add_option("file", file, "Workflow file")->required();
  why->add_option("step", step_name, "A step's name (simulate[3]), or a step of the file (simulate: each value)")->required();
  why->callback([&rc] {
    auto loaded = load_flow(file, current_environment());
    if (!loaded) {
      std::cerr << "yard flow why: " << loaded.error() << "\n";
      rc = kExitBadInput;
      return;
    }
    std::vector<std::size_t> chosen;
    for (std::size_t i = 0; i < loaded->steps.size(); ++i)
      if (loaded->steps[i].name == step_name || loaded->steps[i].rule == step_name) chosen.push_back(i);
    if (chosen.empty()) {
      std::cerr << "yard flow why: " << escape_for_terminal(file) << " has no step '" << escape_for_terminal(step_name)
                << "'\n";
      rc = kExitBadInput;
      return;
    }
    DaemonClient client = cli_client("flow why");
    auto request = flow_request(client, *loaded, "", {}, rc, "flow why");
    if (!request) return;
    for (auto i : chosen) {
      std::string status;
      const auto because = reasons(client, *loaded, *request, i, status, rc);
      const std::string name = escape_for_terminal(loaded->steps[i].name);
      if (because.empty()) {
        std::cout << name << ": " << status << "\n";
        continue;
      }
      std::cout << name << ": would run again:\n";
      for (const auto& b : because) std::cout << "  - " << escape_for_terminal(b) << "\n";
    }
  });
}

}  // namespace yard

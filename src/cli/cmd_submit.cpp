#include <iostream>

#include <nlohmann/json.hpp>

#include "backends/all_languages.h"
#include "cli/commands.h"
#include "cli/cli_client.h"
#include "jobtext/submit_options.h"

namespace yard {
namespace {

// --test-only: the job as the daemon would submit it, every field resolved.
int print_checked(const SubmitReply& reply, bool json) {
  if (!reply.job) {
    std::cerr << "yard submit: the daemon did not return the checked job\n";
    return 1;
  }
  const nlohmann::json job = *reply.job;
  if (json) {
    nlohmann::json out{{"accepted", true}, {"backend", reply.job->backend}, {"job", job}};
    if (!reply.route.empty()) out["route"] = reply.route;
    std::cout << out.dump() << "\n";
    return 0;
  }
  std::cout << "yard submit: the job would be accepted by backend " << reply.job->backend
            << " (--test-only: nothing submitted)\n";
  if (!reply.route.empty()) std::cout << "  route: " << reply.route << "\n";
  for (const auto& [key, value] : job.items()) {
    std::cout << "  " << key << ": ";
    if (key == "env")  // the whole environment the job gets: long, and in --json
      std::cout << value.size() << " variables (--json lists them)\n";
    else
      std::cout << (value.is_string() ? value.get<std::string>() : value.dump()) << "\n";
  }
  return 0;
}

}  // namespace

int cmd_submit(const std::vector<std::string>& args, const std::vector<std::string>& command) {
  bool json = false, help = false;
  auto flags = parse_submit_args(args, all_script_languages(), json, help);
  if (help) return 0;
  if (!flags) {
    std::cerr << "yard submit: " << flags.error() << "\n";
    return kExitBadInput;
  }
  auto spec = make_spec(*flags, command);
  if (!spec) {
    std::cerr << "yard submit: " << spec.error() << "\n";
    return kExitBadInput;
  }
  bool wait = false;
  for (auto& [name, value] : flags->sbatch_options) wait = wait || name == "wait";
  SubmitRequest request{std::move(*spec), flags->job_class, "", flags->test_only};
  auto reply = cli_client("submit").submit(std::move(request));
  if (!reply) {
    std::cerr << "yard submit: " << reply.error() << "\n";
    // The daemon refuses bad requests (unknown dependency, too large) without storing
    // them (2); a daemon that cannot be reached, or a store that cannot record the job
    // (full disk), is a failure (1), and nothing was submitted either; so is a valid job
    // larger than anything the backend has (1, as sbatch).
    return exit_code_for(reply.kind());
  }
  for (const auto& w : reply->warnings) std::cerr << "yard submit: warning: " << w << "\n";
  if (flags->test_only) return print_checked(*reply, json);
  const auto& ids = reply->ids;
  if (json) {
    nlohmann::json out{{"id", ids.front()}, {"ids", ids}};
    if (!reply->route.empty()) out["route"] = reply->route;  // how routes.yaml routed it
    std::cout << out.dump() << "\n";
  } else
    std::cout << ids.front() << "\n";
  // -W/--wait, as sbatch: until the job ends; its outcome is the exit status.
  if (wait) {
    std::cout.flush();
    return wait_for_jobs({std::to_string(ids.front())}, 0, false);
  }
  return 0;
}

}  // namespace yard

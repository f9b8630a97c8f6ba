#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "client/daemon_client.h"
#include "cli/submit_options.h"

namespace yard {

int cmd_submit(const std::vector<std::string>& args, const std::vector<std::string>& command) {
  bool json = false, help = false;
  auto flags = parse_submit_args(args, json, help);
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
  auto reply = DaemonClient(default_paths(), true).submit(SubmitRequest{std::move(*spec), flags->job_class, ""});
  if (!reply) {
    std::cerr << "yard submit: " << reply.error() << "\n";
    // The daemon refuses bad requests (unknown dependency, too large) without storing
    // them (2); a daemon that cannot be reached, or a store that cannot record the job
    // (full disk), is a failure (1), and nothing was submitted either.
    return exit_code_for(reply.kind());
  }
  const auto& ids = reply->ids;
  if (json)
    std::cout << nlohmann::json{{"id", ids.front()}, {"ids", ids}}.dump() << "\n";
  else
    std::cout << ids.front() << "\n";
  return 0;
}

}  // namespace yard

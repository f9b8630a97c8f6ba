// yard watch: the daemon's event stream (client/daemon_client.h, DaemonClient::watch), a
// line per state change, or a JSON object per line with --json. Each event carries its
// id: `--since ID` goes on after it, missing nothing and repeating nothing.
#include <iostream>

#include "cli/cli_client.h"
#include "cli/commands.h"
#include "cli/job_refs.h"
#include "cli/job_view.h"
#include "core/byte_json.h"
#include "core/json_text.h"
#include "core/text.h"

namespace yard {
void add_watch_command(CLI::App& app, int& rc) {
  auto* watch = app.add_subcommand(
      "watch", "Print every job state change as it happens (from the start of the log, or after --since ID)");
  static std::vector<std::string> ids;
  static std::vector<std::string> states;
  static bool json = false, no_follow = false;
  static WatchRequest request;
  watch->add_option("ids", ids, "Only these jobs: ID (an array id: all its elements)");
  watch->add_option("--since", request.since, "Only events after this event id (the last one seen)");
  watch->add_option("--state", states, "Only changes to these states (RUNNING, COMPLETED, ...)")
      ->delimiter(',')
      ->allow_extra_args(false);
  watch->add_option("--name", request.filter.name, "Only jobs of this name");
  watch->add_option("--backend", request.filter.backend, "Only jobs of this backend");
  watch->add_flag("--no-follow", no_follow, "Print the log up to now and exit");
  watch->add_flag("--json", json, "One JSON object per line: id, job, name, backend, state, time, detail");
  watch->callback([&rc] {
    auto refs = parse_job_refs(ids);
    if (!refs) {
      std::cerr << "yard watch: " << refs.error() << "\n";
      rc = kExitBadInput;
      return;
    }
    request.filter.ids = store_ids(*refs);
    for (auto& s : states) {
      auto state = parse_job_state(s);
      if (!state) {
        std::cerr << "yard watch: --state: unknown state '" << s << "'\n";
        rc = kExitBadInput;
        return;
      }
      request.filter.states.push_back(*state);
    }
    request.follow = !no_follow;
    std::string out;
    auto print = [&out](const LoggedEvent& e) {
      out.clear();
      if (json) {
        out = dump_json(event_json(e));
      } else {
        out = rfc3339(e.event.time) + " " + std::to_string(e.id) + " " + display_id(e) + " " +
              escape_for_terminal(e.name) + " " + std::string(to_string(e.event.state));
        if (!e.event.detail.empty()) out += " (" + escape_for_terminal(e.event.detail) + ")";
      }
      out += '\n';
      std::cout << out;
      if (request.follow) std::cout.flush();
      return static_cast<bool>(std::cout);
    };
    if (auto s = cli_client("watch").watch(request, print); !s) {
      std::cerr << "yard watch: " << s.error() << "\n";
      rc = exit_code_for(s.kind());
    }
  });
}

}  // namespace yard

// yard routes: the routes in force (routes.yaml, docs/ROUTES.md) as the daemon read them:
// each wish and the backend it leads to now, the size classes and their limits, each
// target's queues, account, QOS and drain, why the last reading was refused, and each
// backend's health (down: why) and jobs not ended.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/backend_names.h"
#include "cli/cli_client.h"
#include "client/paths.h"
#include "routes/routes.h"
#include "routes/queue_limits_check.h"
#include "routes/routes_file.h"
#include "cli/commands.h"
#include "core/duration.h"
#include "core/json_text.h"
#include "core/size.h"
#include "core/text.h"

namespace yard {
namespace {

std::string text_of(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// Each backend: up or down (and why), its jobs pending, running and of unknown state.
void print_backends(const nlohmann::json& r) {
  if (!r.contains("backends")) return;
  std::cout << "\nBACKEND              STATE    PENDING  RUNNING  UNKNOWN  WHY DOWN\n";
  for (const auto& b : r["backends"]) {
    const std::string down = b["down"].get<std::string>();
    std::cout << pad_right(escape_for_terminal(b["backend"].get<std::string>()), 20) << " "
              << pad_right(down.empty() ? "up" : "down", 8) << " " << pad_right(std::to_string(b["pending"].get<std::int64_t>()), 8)
              << " " << pad_right(std::to_string(b["running"].get<std::int64_t>()), 8) << " "
              << pad_right(std::to_string(b["unknown"].get<std::int64_t>()), 8) << " "
              << (down.empty() ? "" : escape_for_terminal(down)) << "\n";
  }
}

// The limits of the queues the targets name, as each backend's scheduler lists them, a
// line per queue; a backend whose listing failed says why on one line.
void print_queue_limits(const nlohmann::json& r) {
  if (!r.contains("backends")) return;
  bool header = false;
  for (const auto& t : r["targets"]) {
    const std::string backend = t["backend"];
    if (t["queues"].empty()) continue;
    for (const auto& b : r["backends"]) {
      if (b["backend"] != backend || !b.contains("queue_listing")) continue;
      if (!header) std::cout << "\nQUEUE                TIME         CPUS     MEMORY   (AS THE SCHEDULER LISTS IT)\n";
      header = true;
      const QueueListing l = queue_listing_from_json(b["queue_listing"]);
      if (l.version == 0) {
        // A daemon just started reads its listings a moment later: not yet, and not a failure.
        std::cout << pad_right(escape_for_terminal(backend), 20) << " not read"
                  << (l.problem.empty() ? " yet" : ": " + escape_for_terminal(l.problem)) << "\n";
        continue;
      }
      std::set<std::string> queues;
      for (const auto& [cls, q] : t["queues"].items()) queues.insert(q.get<std::string>());
      for (const auto& q : queues) {
        std::cout << pad_right(escape_for_terminal(backend + ":" + q), 20) << " ";
        auto it = l.queues.find(q);
        if (it == l.queues.end()) {
          std::cout << "not listed\n";
          continue;
        }
        const QueueLimits& ql = it->second;
        std::cout << pad_right(ql.time_s ? format_walltime(ql.time_s) : "-", 12) << " "
                  << pad_right(ql.cpus ? std::to_string(ql.cpus) : "-", 8) << " "
                  << (ql.mem_bytes ? format_bytes(ql.mem_bytes) : "-") << "\n";
      }
    }
  }
}

void print_table(const nlohmann::json& r) {
  for (const auto& f : r["files"]) std::cout << "file: " << escape_for_terminal(text_of(f)) << "\n";
  if (!r["problem"].get<std::string>().empty())
    std::cout << "refused (the routes before stay in force): " << escape_for_terminal(r["problem"].get<std::string>())
              << "\n";
  if (r["wishes"].empty() && r["classes"].empty() && r["targets"].empty()) {
    std::cout << "no routes: each job goes to the backend it names\n";
    print_backends(r);
    return;
  }
  if (!r["wishes"].empty()) std::cout << "\nWISH                 GOES TO              WHERE\n";
  for (const auto& w : r["wishes"]) {
    std::string to = w["backend"];
    if (w["to"] != w["backend"]) to += " (via " + w["to"].get<std::string>() + ")";
    std::cout << pad_right(escape_for_terminal(w["wish"].get<std::string>()), 20) << " "
              << pad_right(escape_for_terminal(to), 20) << " " << escape_for_terminal(w["where"].get<std::string>()) << "\n";
  }
  if (!r["classes"].empty()) std::cout << "\nCLASS                TIME         CPUS     MEMORY   WHERE\n";
  for (const auto& c : r["classes"]) {
    const auto t = c["time_s"].get<std::int64_t>(), n = c["cpus"].get<std::int64_t>();
    const auto m = c["mem_bytes"].get<std::uint64_t>();
    std::cout << pad_right(escape_for_terminal(c["name"].get<std::string>()), 20) << " "
              << pad_right(t ? format_walltime(t) : "-", 12) << " " << pad_right(n ? std::to_string(n) : "-", 8) << " "
              << pad_right(m ? format_bytes(m) : "-", 8) << " " << escape_for_terminal(c["where"].get<std::string>())
              << "\n";
  }
  if (!r["targets"].empty()) std::cout << "\nTARGET               QUEUES (CLASS=QUEUE)           ACCOUNT  QOS      DRAIN\n";
  for (const auto& t : r["targets"]) {
    std::string queues;
    for (const auto& [cls, q] : t["queues"].items()) queues += (queues.empty() ? "" : ",") + cls + "=" + q.get<std::string>();
    std::string drain = t["drain"].get<bool>() ? "yes" : "no";
    if (!t["fallback"].get<std::string>().empty())
      drain += (t["drain"].get<bool>() ? ", new jobs to " : ", when down new jobs to ") + t["fallback"].get<std::string>();
    std::cout << pad_right(escape_for_terminal(t["backend"].get<std::string>()), 20) << " "
              << pad_right(escape_for_terminal(queues.empty() ? "-" : queues), 30) << " "
              << pad_right(escape_for_terminal(t["account"].get<std::string>().empty() ? "-" : t["account"].get<std::string>()), 8)
              << " " << pad_right(escape_for_terminal(t["qos"].get<std::string>().empty() ? "-" : t["qos"].get<std::string>()), 8)
              << " " << drain << "\n";
  }
  print_queue_limits(r);
  print_backends(r);
}

// `yard routes move FROM TO`: what moved and, grouped by why, what stays.
void print_moves(const RoutesMoveReply& r, const std::string& from, const std::string& to, bool dry_run) {
  std::cout << (dry_run ? "would move " : "moved ") << r.moved.size() << " job" << (r.moved.size() == 1 ? "" : "s")
            << " from " << escape_for_terminal(from) << " to " << escape_for_terminal(to);
  if (dry_run) std::cout << " (--dry-run: nothing moved)";
  std::cout << (r.moved.empty() ? "\n" : ":");
  for (std::size_t i = 0; i < r.moved.size(); ++i) std::cout << (i ? ", " : " ") << r.moved[i];
  if (!r.moved.empty()) std::cout << "\n";
  if (!r.leaving.empty()) {
    std::cout << (dry_run ? "would leave " : "leaving ") << escape_for_terminal(from)
              << "'s queue, to move once it took them out (those that start there first stay):";
    for (std::size_t i = 0; i < r.leaving.size(); ++i) std::cout << (i ? ", " : " ") << r.leaving[i];
    std::cout << "\n";
  }
  std::map<std::string, std::vector<std::int64_t>> by_why;
  for (const auto& s : r.stay) by_why[s.why].push_back(s.id);
  for (const auto& [why, ids] : by_why) {
    std::cout << "stay" << (dry_run ? "" : "ed") << " in " << escape_for_terminal(from) << ", " << escape_for_terminal(why)
              << ":";
    for (std::size_t i = 0; i < ids.size() && i < 20; ++i) std::cout << (i ? ", " : " ") << ids[i];
    if (ids.size() > 20) std::cout << " and " << ids.size() - 20 << " more";
    std::cout << "\n";
  }
}

// `yard routes check [FILE...]`: the files read as the daemon reads them (every backend
// this build has known), without a daemon: exit 2 naming the file, line and value.
void add_check_command(CLI::App& parent, int& rc) {
  auto* cmd = parent.add_subcommand(
      "check", "Check routes files as the daemon reads them (default: the site's, then yours), naming the file, line "
               "and value of what is wrong (exit 2); nothing is changed");
  static std::vector<std::string> files;
  cmd->add_option("files", files, "routes.yaml files, read in this order (the later ones add to the earlier)");
  cmd->callback([&rc] {
    if (files.empty()) files = routes_files(std::filesystem::path(default_paths().config).parent_path().string());
    const auto& known = backend_names();
    for (const auto& f : files) {
      std::error_code ec;
      if (!std::filesystem::exists(f, ec)) std::cout << "not there (none): " << escape_for_terminal(f) << "\n";
    }
    auto routes = load_routes(files, [&](const std::string& b) {
      return std::find(known.begin(), known.end(), b) != known.end();
    });
    if (!routes) {
      std::cerr << "yard routes check: " << routes.error() << "\n";
      rc = 2;
      return;
    }
    // The queues' limits are the schedulers': known to a daemon that read them (none is
    // started for a check).
    auto daemon = DaemonClient(default_paths(), false).routes();
    std::map<std::string, QueueListing> listings;
    if (daemon && daemon->routes.contains("backends"))
      for (const auto& b : daemon->routes["backends"])
        if (b.contains("queue_listing")) listings[b["backend"].get<std::string>()] = queue_listing_from_json(b["queue_listing"]);
    if (auto s = check_queue_limits(*routes, [&](const std::string& backend) -> const QueueListing* {
          auto it = listings.find(backend);
          return it == listings.end() ? nullptr : &it->second;
        });
        !s) {
      std::cerr << "yard routes check: " << s.error() << "\n";
      rc = 2;
      return;
    }
    std::cout << (listings.empty() ? std::string("queue limits: not checked (") +
                                         (daemon ? "the daemon has read none yet" : "no daemon runs to ask for them") + ")\n"
                                   : "queue limits: checked against the daemon's reading of " +
                                         std::to_string(listings.size()) + " backend" + (listings.size() == 1 ? "" : "s") +
                                         "'s queues\n");
    std::cout << "good: " << routes->wishes.size() << " wishes, " << routes->classes.size() << " classes, "
              << routes->targets.size() << " targets\n";
  });
}

void add_move_command(CLI::App& routes, int& rc) {
  auto* cmd = routes.add_subcommand(
      "move",
      "Move the pending jobs of backend FROM to backend TO, keeping their ids, history and dependencies; on TO's "
      "queue for their class, with TO's account and QOS. Jobs in FROM's scheduler's queue leave it first where it can "
      "cancel them only if they have not started (Slurm); one that starts there first stays");
  static std::string from, to;
  static bool dry_run = false, json = false;
  cmd->add_option("from", from, "The backend the jobs are on")->required();
  cmd->add_option("to", to, "The backend they go to")->required();
  cmd->add_flag("--dry-run", dry_run, "List what would move and what would stay, and why; move nothing");
  cmd->add_flag("--json", json, "Print {\"moved\": [ids], \"leaving\": [ids], \"stay\": [{\"id\", \"why\"}]}");
  cmd->callback([&rc] {
    auto reply = cli_client("routes move").move_jobs(RoutesMoveRequest{from, to, dry_run});
    if (!reply) {
      std::cerr << "yard routes move: " << reply.error() << "\n";
      rc = reply.kind() == ErrorKind::Invalid ? 2 : 1;
      return;
    }
    if (json) {
      nlohmann::json stay = nlohmann::json::array();
      for (const auto& s : reply->stay) stay.push_back({{"id", s.id}, {"why", s.why}});
      std::cout << dump_json({{"moved", reply->moved}, {"leaving", reply->leaving}, {"stay", stay}, {"dry_run", dry_run}}, 2)
                << "\n";
      return;
    }
    print_moves(*reply, from, to, dry_run);
  });
}

}  // namespace

void add_routes_command(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("routes",
                                 "Show the routes in force (routes.yaml: wishes to backends, size classes, each "
                                 "target's queues, account, QOS and drain) as the daemon read them, and each "
                                 "backend's health and jobs not ended");
  static bool json = false;
  cmd->add_flag("--json", json, "Print the routes as one JSON object");
  cmd->require_subcommand(0, 1);
  add_move_command(*cmd, rc);
  add_check_command(*cmd, rc);
  cmd->callback([&rc, cmd] {
    if (!cmd->get_subcommands().empty()) return;  // `yard routes move` said its own
    auto reply = cli_client("routes").routes();
    if (!reply) {
      std::cerr << "yard routes: " << reply.error() << "\n";
      rc = 1;
      return;
    }
    if (json) {
      std::cout << dump_json(reply->routes, 2) << "\n";
      return;
    }
    print_table(reply->routes);
  });
}

}  // namespace yard

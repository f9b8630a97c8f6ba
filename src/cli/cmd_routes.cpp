// yard routes: the routes in force (routes.yaml, docs/ROUTES.md) as the daemon read them:
// each wish and the backend it leads to now, the size classes and their limits, each
// target's queues, account, QOS and drain, and why the last reading was refused.
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/cli_client.h"
#include "cli/commands.h"
#include "core/duration.h"
#include "core/json_text.h"
#include "core/size.h"
#include "core/text.h"

namespace yard {
namespace {

std::string text_of(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

void print_table(const nlohmann::json& r) {
  for (const auto& f : r["files"]) std::cout << "file: " << escape_for_terminal(text_of(f)) << "\n";
  if (!r["problem"].get<std::string>().empty())
    std::cout << "refused (the routes before stay in force): " << escape_for_terminal(r["problem"].get<std::string>())
              << "\n";
  if (r["wishes"].empty() && r["classes"].empty() && r["targets"].empty()) {
    std::cout << "no routes: each job goes to the backend it names\n";
    return;
  }
  std::cout << "\nWISH                 GOES TO              WHERE\n";
  for (const auto& w : r["wishes"]) {
    std::string to = w["backend"];
    if (w["to"] != w["backend"]) to += " (via " + w["to"].get<std::string>() + ")";
    std::cout << pad_right(escape_for_terminal(w["wish"].get<std::string>()), 20) << " "
              << pad_right(escape_for_terminal(to), 20) << " " << escape_for_terminal(w["where"].get<std::string>()) << "\n";
  }
  std::cout << "\nCLASS                TIME         CPUS     MEMORY   WHERE\n";
  for (const auto& c : r["classes"]) {
    const auto t = c["time_s"].get<std::int64_t>(), n = c["cpus"].get<std::int64_t>();
    const auto m = c["mem_bytes"].get<std::uint64_t>();
    std::cout << pad_right(escape_for_terminal(c["name"].get<std::string>()), 20) << " "
              << pad_right(t ? format_walltime(t) : "-", 12) << " " << pad_right(n ? std::to_string(n) : "-", 8) << " "
              << pad_right(m ? format_bytes(m) : "-", 8) << " " << escape_for_terminal(c["where"].get<std::string>())
              << "\n";
  }
  std::cout << "\nTARGET               QUEUES (CLASS=QUEUE)           ACCOUNT  QOS      DRAIN\n";
  for (const auto& t : r["targets"]) {
    std::string queues;
    for (const auto& [cls, q] : t["queues"].items()) queues += (queues.empty() ? "" : ",") + cls + "=" + q.get<std::string>();
    std::string drain = t["drain"].get<bool>() ? "yes" : "no";
    if (t["drain"].get<bool>() && !t["fallback"].get<std::string>().empty())
      drain += ", new jobs to " + t["fallback"].get<std::string>();
    std::cout << pad_right(escape_for_terminal(t["backend"].get<std::string>()), 20) << " "
              << pad_right(escape_for_terminal(queues.empty() ? "-" : queues), 30) << " "
              << pad_right(escape_for_terminal(t["account"].get<std::string>().empty() ? "-" : t["account"].get<std::string>()), 8)
              << " " << pad_right(escape_for_terminal(t["qos"].get<std::string>().empty() ? "-" : t["qos"].get<std::string>()), 8)
              << " " << drain << "\n";
  }
}

}  // namespace

void add_routes_command(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("routes",
                                 "Show the routes in force (routes.yaml: wishes to backends, size classes, each "
                                 "target's queues, account, QOS and drain) as the daemon read them");
  static bool json = false;
  cmd->add_flag("--json", json, "Print the routes as one JSON object");
  cmd->callback([&rc] {
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

// yard accounts: the scheduling policy's accounts with their tier, share, fair-share factor,
// usage, allocation and what remains of it, as the daemon computes them from its policy
// and every charge it recorded when a job ended or was preempted; with --by target, the
// usage of every backend (route target) by account.
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/cli_client.h"
#include "cli/commands.h"
#include "core/json_text.h"
#include "core/text.h"

namespace yard {
namespace {

std::string hours(double core_seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", core_seconds / 3600);
  return buf;
}

// Usage by account and target: each row's jobs charged and core-hours.
void print_by_target(const std::vector<AccountTargetRow>& rows, bool json) {
  if (json) {
    auto arr = nlohmann::json::array();
    for (auto& r : rows)
      arr.push_back({{"account", r.account}, {"target", r.target}, {"jobs", r.jobs}, {"usage_core_hours", r.core_seconds / 3600}});
    std::cout << dump_json(arr, 2) << "\n";
    return;
  }
  std::cout << terminal_cell("ACCOUNT", 16) << " " << terminal_cell("TARGET", 16) << " " << pad_left("JOBS", 8) << " "
            << pad_left("USAGE(c-h)", 12) << "\n";
  for (auto& r : rows)
    std::cout << terminal_cell(r.account.empty() ? "-" : r.account, 16) << " " << terminal_cell(r.target, 16) << " "
              << pad_left(std::to_string(r.jobs), 8) << " " << pad_left(hours(r.core_seconds), 12) << "\n";
}

}  // namespace

void add_accounts_command(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand(
      "accounts", "Show the scheduling policy's accounts: tier, share, fair-share, usage and allocation (core-hours)");
  static bool json = false;
  static std::string by;
  cmd->add_flag("--json", json, "Print a JSON array of account objects");
  cmd->add_option("--by", by,
                  "'target': the usage by account and by the backend (route target, routes.yaml) its jobs ran on, "
                  "every backend's")
      ->check(CLI::IsMember({"target"}));
  cmd->callback([&rc] {
    auto reply = cli_client("accounts").accounts();
    if (!reply) {
      std::cerr << "yard accounts: " << reply.error() << "\n";
      rc = 1;
      return;
    }
    if (by == "target") {
      print_by_target(reply->by_target, json);
      return;
    }
    const auto& rows = reply->accounts;
    if (json) {
      auto arr = nlohmann::json::array();
      for (auto& s : rows) {
        const bool allocated = s.allocation_core_seconds > 0;
        arr.push_back({{"account", s.account},
                       {"tier", s.tier.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.tier)},
                       {"best_effort", s.best_effort},
                       {"share", s.share},
                       {"fairshare", s.fairshare},
                       {"usage_core_hours", s.used_core_seconds / 3600},
                       {"decayed_usage_core_hours", s.decayed_usage_core_seconds / 3600},
                       {"allocation_core_hours", allocated ? nlohmann::json(s.allocation_core_seconds / 3600)
                                                           : nlohmann::json(nullptr)},
                       {"remaining_core_hours", allocated ? nlohmann::json(s.remaining_core_seconds / 3600)
                                                          : nlohmann::json(nullptr)}});
      }
      std::cout << dump_json(arr, 2) << "\n";
      return;
    }
    // Built as strings, not in a fixed buffer: no row is ever cut. Names are cut at
    // character boundaries and escaped for the terminal (core/text.h).
    auto row = [](const std::string& account, const std::string& tier, const std::string& share,
                  const std::string& fairshare, const std::string& usage, const std::string& alloc,
                  const std::string& remain) {
      return terminal_cell(account, 16) + " " + terminal_cell(tier, 12) + " " + pad_left(share, 6) + " " +
             pad_left(fairshare, 9) + " " + pad_left(usage, 12) + " " + pad_left(alloc, 12) + " " +
             pad_left(remain, 12) + "\n";
    };
    std::cout << row("ACCOUNT", "TIER", "SHARE", "FAIRSHARE", "USAGE(c-h)", "ALLOC(c-h)", "REMAIN(c-h)");
    for (auto& s : rows) {
      const bool allocated = s.allocation_core_seconds > 0;
      const std::string tier = s.tier.empty() ? "-" : s.tier + (s.best_effort ? "*" : "");
      char share[32], fairshare[32];  // %g and %.3f of a share stay short; hours() may not
      std::snprintf(share, sizeof share, "%g", s.share);
      std::snprintf(fairshare, sizeof fairshare, "%.3f", s.fairshare);
      std::cout << row(s.account, tier, share, fairshare, hours(s.used_core_seconds),
                       allocated ? hours(s.allocation_core_seconds) : "-",
                       allocated ? hours(s.remaining_core_seconds) : "-");
    }
  });
}

}  // namespace yard

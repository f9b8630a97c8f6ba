// yard accounts: the scheduling policy's accounts with their tier, share, fair-share factor,
// usage, allocation and what remains of it. Reads the policy file and the store directly
// (read-only, like yard status): the usage is every charge recorded by the daemon when a
// job ended or was preempted, so it is current without asking the daemon.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "local/local_scheduler.h"
#include "sched/accounts.h"
#include "sched/engine.h"
#include "server/paths.h"
#include "store/store.h"

namespace yard {
namespace {

struct Row {
  std::string account, tier;
  bool best_effort = false;
  sched::AccountStatus status;
};

Result<std::vector<Row>> account_rows() {
  const Paths paths = default_paths();
  auto config = load_local_policy(paths.policy);
  if (!config) return Error{config.error()};
  sched::Accounts ledger = sched::Accounts::from_config(*config);
  if (std::filesystem::exists(paths.store)) {
    auto st = Store::open(paths.store, Store::Mode::ReadOnly);
    if (!st) return Error{st.error()};
    auto usage = st->usage();
    if (!usage) return err("cannot read the accounts' usage from " + paths.store + ": " + usage.error());
    for (auto& c : *usage) ledger.charge(c.account, c.core_seconds, static_cast<sched::Time>(c.time));
  }
  const auto now = static_cast<sched::Time>(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count());
  const sched::PolicyEngine engine(*config, {1});
  std::vector<Row> rows;
  for (auto& s : ledger.report(now)) {
    Row r;
    r.account = s.name;
    if (const sched::TierConfig* t = engine.tier_of(s.name)) {
      r.tier = t->name;
      r.best_effort = t->best_effort;
    }
    r.status = s;
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string hours(double core_seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", core_seconds / 3600);
  return buf;
}

}  // namespace

void add_accounts_command(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand(
      "accounts", "Show the scheduling policy's accounts: tier, share, fair-share, usage and allocation (core-hours)");
  static bool json = false;
  cmd->add_flag("--json", json, "Print a JSON array of account objects");
  cmd->callback([&rc] {
    auto rows = account_rows();
    if (!rows) {
      std::cerr << "yard accounts: " << rows.error() << "\n";
      rc = 1;
      return;
    }
    if (json) {
      auto arr = nlohmann::json::array();
      for (auto& r : *rows) {
        const auto& s = r.status;
        const bool allocated = s.allocation_core_seconds > 0;
        arr.push_back({{"account", r.account},
                       {"tier", r.tier.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.tier)},
                       {"best_effort", r.best_effort},
                       {"share", s.share},
                       {"fairshare", s.fairshare},
                       {"usage_core_hours", s.used_core_seconds / 3600},
                       {"decayed_usage_core_hours", s.decayed_usage / 3600},
                       {"allocation_core_hours", allocated ? nlohmann::json(s.allocation_core_seconds / 3600)
                                                           : nlohmann::json(nullptr)},
                       {"remaining_core_hours", allocated ? nlohmann::json(s.remaining_core_seconds / 3600)
                                                          : nlohmann::json(nullptr)}});
      }
      std::cout << arr.dump(2) << "\n";
      return;
    }
    char line[256];
    std::snprintf(line, sizeof line, "%-16s %-12s %6s %9s %12s %12s %12s\n", "ACCOUNT", "TIER", "SHARE", "FAIRSHARE",
                  "USAGE(c-h)", "ALLOC(c-h)", "REMAIN(c-h)");
    std::cout << line;
    for (auto& r : *rows) {
      const auto& s = r.status;
      const bool allocated = s.allocation_core_seconds > 0;
      const std::string tier = r.tier.empty() ? "-" : r.tier + (r.best_effort ? "*" : "");
      std::snprintf(line, sizeof line, "%-16.16s %-12.12s %6g %9.3f %12s %12s %12s\n", r.account.c_str(),
                    tier.c_str(), s.share, s.fairshare, hours(s.used_core_seconds).c_str(),
                    allocated ? hours(s.allocation_core_seconds).c_str() : "-",
                    allocated ? hours(s.remaining_core_seconds).c_str() : "-");
      std::cout << line;
    }
  });
}

}  // namespace yard

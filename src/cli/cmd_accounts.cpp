// yard accounts: the scheduling policy's accounts with their tier, share, fair-share factor,
// usage, allocation and what remains of it. Reads the policy file and the store directly
// (read-only, like yard status): the usage is every charge recorded by the daemon when a
// job ended or was preempted, so it is current without asking the daemon.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/clock.h"
#include "core/json_text.h"
#include "core/text.h"
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
  if (!config) return config.failure();
  sched::Accounts ledger = sched::Accounts::from_config(*config);
  if (std::filesystem::exists(paths.store)) {
    auto st = Store::open(paths.store, Store::Mode::ReadOnly);
    if (!st) return st.failure();
    auto usage = st->usage();
    if (!usage) return err("cannot read the accounts' usage from " + paths.store + ": " + usage.error());
    for (auto& c : *usage) ledger.charge(c.account, c.core_seconds, static_cast<sched::Time>(c.time));
  }
  const auto now = static_cast<sched::Time>(wall_now());
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
    for (auto& r : *rows) {
      const auto& s = r.status;
      const bool allocated = s.allocation_core_seconds > 0;
      const std::string tier = r.tier.empty() ? "-" : r.tier + (r.best_effort ? "*" : "");
      char share[32], fairshare[32];  // %g and %.3f of a share stay short; hours() may not
      std::snprintf(share, sizeof share, "%g", s.share);
      std::snprintf(fairshare, sizeof fairshare, "%.3f", s.fairshare);
      std::cout << row(r.account, tier, share, fairshare, hours(s.used_core_seconds),
                       allocated ? hours(s.allocation_core_seconds) : "-",
                       allocated ? hours(s.remaining_core_seconds) : "-");
    }
  });
}

}  // namespace yard

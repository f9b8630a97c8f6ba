// Accounts ledger: for every account its share, its allocation, what it has used and its
// usage decayed with a half-life, from which the fair-share factor is computed. Usage is
// charged in core-seconds (run time x processors) when a job ends or is preempted. Pure
// and deterministic: the caller passes the time of every charge and query.
//
//   decayed usage  D_a(now) = sum over charges c of a: c.core_seconds * 2^(-(now - c.time) / H)
//                  (H the half-life; H = 0: no decay)
//   fair-share     F_a = 2^(-U_a / S_a), U_a = D_a / sum_b D_b, S_a = share_a / sum_b share_b
//                  (F_a = 1 while nobody has used anything; F_a = 0 for a zero share
//                  with usage)
//
// Not thread-safe: one owner mutates it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sched/policy_config.h"

namespace yard::sched {

struct AccountStatus {
  std::string name;
  double share = 0;
  double allocation_core_seconds = 0;  // 0: no allocation recorded
  double used_core_seconds = 0;        // everything charged, undecayed
  double remaining_core_seconds = 0;   // allocation - used (negative when overdrawn)
  double decayed_usage = 0;            // core-seconds, decayed to the query time
  double fairshare = 1;                // the fair-share factor at the query time
};

class Accounts {
 public:
  explicit Accounts(Time half_life = 0) : half_life_(half_life) {}
  // Every account of the config with its share and allocation, nothing used yet.
  static Accounts from_config(const PolicyConfig& config);

  // Adds an account, or changes the share and allocation of an existing one.
  void set(std::string_view name, double share, double allocation_core_seconds);
  bool has(std::string_view name) const { return find(name) != nullptr; }
  std::size_t size() const { return entries_.size(); }
  Time half_life() const { return half_life_; }

  // Charges `core_seconds` used by a job of `account` that ended (or was preempted) at
  // `when`. An account not yet known is added with share 0 and no allocation.
  void charge(std::string_view account, double core_seconds, Time when);

  double used(std::string_view account) const;
  double allocation(std::string_view account) const;
  double remaining(std::string_view account) const { return allocation(account) - used(account); }
  double decayed_usage(std::string_view account, Time now) const;
  // The fair-share factor in [0, 1]; 1 for an unknown account while nobody has used anything.
  double fairshare(std::string_view account, Time now) const;

  // Every account in the order added, evaluated at `now`.
  std::vector<AccountStatus> report(Time now) const;

 private:
  struct Entry {
    std::string name;
    double share = 0;
    double allocation = 0;
    double used = 0;
    double decayed = 0;  // decayed usage as of `as_of`
    Time as_of = 0;
  };
  const Entry* find(std::string_view name) const;
  Entry& get(std::string_view name);
  double decay(const Entry& e, Time now) const;
  double total_decayed(Time now) const;
  double fairshare(const Entry* e, double total_usage, Time now) const;

  Time half_life_;
  double total_share_ = 0;
  std::vector<Entry> entries_;  // few accounts: linear search keeps the order stable
};

}  // namespace yard::sched

// Scheduling policy configuration (YAML): reservation depth, priority weights, fair-share
// decay, tiers, accounts, resource pools, and how a trace's jobs map onto accounts. The
// parser is pure (text in, value or error out); an error names the source, the line and
// the key. The keys and formulas are described in docs/SCHEDULING.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "sched/policy.h"
#include "sched/profile.h"

namespace yard::sched {

struct Weights {
  double tier = 0;
  double age = 0;
  double fairshare = 0;
  double size = 0;
};

struct TierConfig {
  std::string name;
  double priority = 0;       // higher runs first
  bool best_effort = false;  // runs only on otherwise idle resources; may be preempted
};

struct AccountConfig {
  std::string name;
  std::string tier;                  // a TierConfig name
  double share = 1;                  // >= 0, relative to the other accounts' shares
  double allocation_core_hours = 0;  // 0: no allocation recorded
};

// A resource pool (partition, module) of identical nodes; jobs' components each ask for
// resources in one. Either `procs` (shorthand: one node of that many cores) or `nodes` and
// `cores_per_node`; neither: one node of the machine size given by the caller (e.g. a
// trace's MaxProcs).
struct PoolConfig {
  std::string name;
  Procs procs = 0;
  std::int64_t nodes = 0;
  Procs cores_per_node = 0;
  std::int64_t memory_per_node = 0;  // bytes; 0: memory is not accounted
  std::int64_t gpus_per_node = 0;
};

// Where a trace job's account comes from (simulator only).
enum class AccountFrom { kUser, kGroup, kQueue };

struct PolicyConfig {
  int reservation_depth = 1;  // Policy::kUnlimited for "unlimited"
  BackfillOrder backfill_order = BackfillOrder::kQueue;
  Weights weights;
  Time half_life = 7 * 86400;  // fair-share usage decay; 0: no decay
  Time max_age = 7 * 86400;    // the age factor saturates at this wait
  std::vector<TierConfig> tiers;
  std::vector<AccountConfig> accounts;
  std::vector<PoolConfig> pools;  // empty: one pool, the whole machine
  // The estimate of a job that gives no walltime (local backend); not a limit.
  Time default_walltime = 3600;
  // Local backend: a pass considers the first N queued jobs in priority order (as
  // Slurm's bf_max_job_test); 0: all. Jobs further back wait for a later pass.
  std::size_t max_jobs_per_pass = 500;
  // Simulator: trace field -> account.
  AccountFrom account_from = AccountFrom::kUser;
  std::map<std::int64_t, std::string> account_map;  // trace id -> account name
  std::string default_account;                      // for ids not in account_map

  const TierConfig* tier(std::string_view name) const;
  const AccountConfig* account(std::string_view name) const;
  // The backfilling policy this config describes.
  Policy policy() const { return {reservation_depth, backfill_order}; }
};

// Parses a policy config; `source_name` (a file name) prefixes error messages, as in
// "policy.yaml:7: weights.age: expected a number, got 'high'".
Result<PolicyConfig> parse_policy_config(std::string_view text, std::string_view source_name);
// Reads and parses a file.
Result<PolicyConfig> load_policy_config(const std::string& path);

// A duration as "7d", "12h", "30m", "45s" or a Slurm walltime ("7-00:00:00", "90" = 90
// minutes); "0" is zero.
Result<Time> parse_policy_duration(std::string_view text);

}  // namespace yard::sched

#include "sched/policy_config.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <set>
#include <span>

#include "core/duration.h"
#include "core/file_text.h"
#include "core/size.h"
#include "core/yaml_file.h"
#include "core/text.h"
#include "sched/policy_keys.h"

namespace yard::sched {

const TierConfig* PolicyConfig::tier(std::string_view name) const {
  for (const TierConfig& t : tiers) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

const AccountConfig* PolicyConfig::account(std::string_view name) const {
  for (const AccountConfig& a : accounts) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

Result<Time> parse_policy_duration(std::string_view text) {
  const std::string_view t = trim(text);
  if (t.size() >= 2) {
    const char unit = t.back();
    Time scale = 0;
    if (unit == 'd') scale = 86400;
    if (unit == 'h') scale = 3600;
    if (unit == 'm') scale = 60;
    if (unit == 's') scale = 1;
    if (scale > 0) {
      const std::string_view digits = t.substr(0, t.size() - 1);
      Time v = 0;
      auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (ec != std::errc() || p != digits.data() + digits.size() || v < 0 ||
          v > Time{36500} * 86400 / scale) {
        return err("invalid duration '" + std::string(t) +
                   "': expected a number followed by d, h, m or s, or a Slurm walltime");
      }
      return v * scale;
    }
  }
  if (t == "0") return Time{0};
  auto walltime = parse_walltime(t);
  if (!walltime) {
    return err("invalid duration '" + std::string(t) +
               "': expected 7d, 12h, 30m, 45s or a Slurm walltime such as 7-00:00:00");
  }
  if (*walltime == 0) return err("invalid duration '" + std::string(t) + "': must be finite");
  return *walltime;
}

namespace {

// Errors are thrown inside the parser as this type and turned into a Result at its edge;
// nothing escapes parse_policy_config.
struct ConfigError {
  std::string message;
};

class Parser {
 public:
  explicit Parser(std::string_view source) : source_(source) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& key, const std::string& what) const {
    throw ConfigError{yaml_where(source_, at) + ": " + key + ": " + what};
  }

  // Every key of `map` is in `accepted` (policy_keys.h), or an error naming the ones there are.
  void only_keys(const YAML::Node& map, const std::string& key, std::span<const SettingDoc> accepted) const {
    if (!map.IsMap()) fail(map, key, "expected a mapping");
    for (auto it = map.begin(); it != map.end(); ++it) {
      const std::string name = it->first.Scalar();
      if (!has_setting(accepted, name))
        fail(it->first, key.empty() ? name : key + "." + name, "unknown key (accepted: " + setting_names(accepted) + ")");
    }
  }

  std::string scalar(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, key, "expected a single value");
    return n.Scalar();
  }

  double number(const YAML::Node& n, const std::string& key, bool non_negative = true) const {
    const std::string s = std::string(trim(scalar(n, key)));
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v)) {
      fail(n, key, "expected a number, got '" + s + "'");
    }
    if (non_negative && v < 0) fail(n, key, "must not be negative, got '" + s + "'");
    return v;
  }

  std::int64_t integer(const YAML::Node& n, const std::string& key) const {
    const std::string s = std::string(trim(scalar(n, key)));
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size()) {
      fail(n, key, "expected a whole number, got '" + s + "'");
    }
    return v;
  }

  bool boolean(const YAML::Node& n, const std::string& key) const {
    const std::string s = to_lower(scalar(n, key));
    if (s == "true" || s == "yes") return true;
    if (s == "false" || s == "no") return false;
    fail(n, key, "expected true or false, got '" + n.Scalar() + "'");
  }

  Time duration(const YAML::Node& n, const std::string& key) const {
    auto d = parse_policy_duration(scalar(n, key));
    if (!d) fail(n, key, d.error());
    return *d;
  }

  std::string name(const YAML::Node& item, const std::string& key) const {
    if (!item["name"]) fail(item, key, "missing 'name'");
    const std::string s = std::string(trim(scalar(item["name"], key + ".name")));
    if (s.empty()) fail(item["name"], key + ".name", "must not be empty");
    return s;
  }

  PolicyConfig parse(const YAML::Node& root) {
    PolicyConfig c;
    if (!root.IsDefined() || root.IsNull()) return c;
    only_keys(root, "", kPolicyKeys);
    if (const YAML::Node n = root["reservation_depth"]) {
      const std::string s = to_lower(trim(scalar(n, "reservation_depth")));
      if (s == "unlimited") {
        c.reservation_depth = Policy::kUnlimited;
      } else {
        const std::int64_t d = integer(n, "reservation_depth");
        if (d < 0 || d > 1000000) fail(n, "reservation_depth", "expected 0, 1, N or unlimited");
        c.reservation_depth = static_cast<int>(d);
      }
    }
    if (const YAML::Node n = root["backfill_order"]) {
      const std::string s = scalar(n, "backfill_order");
      if (s == "queue") {
        c.backfill_order = BackfillOrder::kQueue;
      } else if (s == "shortest") {
        c.backfill_order = BackfillOrder::kShortestEstimate;
      } else {
        fail(n, "backfill_order", "expected queue or shortest, got '" + s + "'");
      }
    }
    if (const YAML::Node n = root["weights"]) {
      only_keys(n, "weights", kPolicyWeightKeys);
      if (n["tier"]) c.weights.tier = number(n["tier"], "weights.tier");
      if (n["age"]) c.weights.age = number(n["age"], "weights.age");
      if (n["fairshare"]) c.weights.fairshare = number(n["fairshare"], "weights.fairshare");
      if (n["size"]) c.weights.size = number(n["size"], "weights.size");
    }
    if (const YAML::Node n = root["fairshare"]) {
      only_keys(n, "fairshare", kPolicyFairshareKeys);
      if (n["half_life"]) c.half_life = duration(n["half_life"], "fairshare.half_life");
    }
    if (const YAML::Node n = root["age"]) {
      only_keys(n, "age", kPolicyAgeKeys);
      if (n["max"]) c.max_age = duration(n["max"], "age.max");
      if (c.max_age <= 0) fail(n["max"], "age.max", "must be longer than zero");
    }
    if (const YAML::Node n = root["default_walltime"]) {
      c.default_walltime = duration(n, "default_walltime");
      if (c.default_walltime <= 0) fail(n, "default_walltime", "must be longer than zero");
    }
    if (const YAML::Node n = root["max_jobs_per_pass"]) {
      const std::int64_t m = integer(n, "max_jobs_per_pass");
      if (m < 0) fail(n, "max_jobs_per_pass", "expected a number of jobs >= 0 (0: all)");
      c.max_jobs_per_pass = static_cast<std::size_t>(m);
    }
    parse_tiers(root["tiers"], c);
    parse_accounts(root["accounts"], c);
    parse_pools(root["pools"], c);
    if (const YAML::Node n = root["account_from"]) {
      const std::string s = scalar(n, "account_from");
      if (s == "user") {
        c.account_from = AccountFrom::kUser;
      } else if (s == "group") {
        c.account_from = AccountFrom::kGroup;
      } else if (s == "queue") {
        c.account_from = AccountFrom::kQueue;
      } else {
        fail(n, "account_from", "expected user, group or queue, got '" + s + "'");
      }
    }
    if (const YAML::Node n = root["account_map"]) {
      if (!n.IsMap()) fail(n, "account_map", "expected a mapping of trace ids to account names");
      for (auto it = n.begin(); it != n.end(); ++it) {
        const std::string key = "account_map." + it->first.Scalar();
        const std::int64_t id = integer(it->first, key);
        const std::string account = scalar(it->second, key);
        if (c.account(account) == nullptr) fail(it->second, key, "unknown account '" + account + "'");
        c.account_map[id] = account;
      }
    }
    if (const YAML::Node n = root["default_account"]) {
      c.default_account = scalar(n, "default_account");
      if (c.account(c.default_account) == nullptr) {
        fail(n, "default_account", "unknown account '" + c.default_account + "'");
      }
    }
    return c;
  }

 private:
  void parse_tiers(const YAML::Node& list, PolicyConfig& c) const {
    if (!list) return;
    if (!list.IsSequence()) fail(list, "tiers", "expected a list");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const YAML::Node item = list[i];
      const std::string key = "tiers[" + std::to_string(i) + "]";
      only_keys(item, key, kPolicyTierKeys);
      TierConfig t;
      t.name = name(item, key);
      if (c.tier(t.name) != nullptr) fail(item, key, "duplicate tier '" + t.name + "'");
      if (!item["priority"]) fail(item, key, "missing 'priority'");
      t.priority = number(item["priority"], key + ".priority");
      if (item["best_effort"]) t.best_effort = boolean(item["best_effort"], key + ".best_effort");
      c.tiers.push_back(t);
    }
  }

  void parse_accounts(const YAML::Node& list, PolicyConfig& c) const {
    if (!list) return;
    if (!list.IsSequence()) fail(list, "accounts", "expected a list");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const YAML::Node item = list[i];
      const std::string key = "accounts[" + std::to_string(i) + "]";
      only_keys(item, key, kPolicyAccountKeys);
      AccountConfig a;
      a.name = name(item, key);
      if (c.account(a.name) != nullptr) fail(item, key, "duplicate account '" + a.name + "'");
      if (!item["tier"]) fail(item, key, "missing 'tier'");
      a.tier = scalar(item["tier"], key + ".tier");
      if (c.tier(a.tier) == nullptr) fail(item["tier"], key + ".tier", "unknown tier '" + a.tier + "'");
      if (item["share"]) a.share = number(item["share"], key + ".share");
      if (item["allocation_core_hours"]) {
        a.allocation_core_hours = number(item["allocation_core_hours"], key + ".allocation_core_hours");
      }
      c.accounts.push_back(a);
    }
  }

  void parse_pools(const YAML::Node& list, PolicyConfig& c) const {
    if (!list) return;
    if (!list.IsSequence()) fail(list, "pools", "expected a list");
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const YAML::Node item = list[i];
      const std::string key = "pools[" + std::to_string(i) + "]";
      only_keys(item, key, kPolicyPoolKeys);
      PoolConfig p;
      p.name = name(item, key);
      if (!names.insert(p.name).second) fail(item, key, "duplicate pool '" + p.name + "'");
      auto at_least = [&](const char* field, std::int64_t low) {
        const std::int64_t v = integer(item[field], key + "." + field);
        if (v < low || v > (std::int64_t{1} << 40)) {
          fail(item[field], key + "." + field, "must be at least " + std::to_string(low));
        }
        return v;
      };
      if (item["procs"]) {
        if (item["nodes"] || item["cores_per_node"]) {
          fail(item["procs"], key + ".procs", "give either procs or nodes and cores_per_node, not both");
        }
        p.procs = at_least("procs", 1);
      }
      if (item["nodes"] || item["cores_per_node"]) {
        if (!item["nodes"] || !item["cores_per_node"]) {
          fail(item, key, "nodes and cores_per_node go together");
        }
        p.nodes = at_least("nodes", 1);
        p.cores_per_node = at_least("cores_per_node", 1);
      }
      if (item["memory_per_node"]) {
        const YAML::Node n = item["memory_per_node"];
        auto bytes = parse_memory_size(scalar(n, key + ".memory_per_node"));
        if (!bytes) fail(n, key + ".memory_per_node", bytes.error());
        if (*bytes > (std::uint64_t{1} << 60)) fail(n, key + ".memory_per_node", "too large");
        p.memory_per_node = static_cast<std::int64_t>(*bytes);
      }
      if (item["gpus_per_node"]) p.gpus_per_node = at_least("gpus_per_node", 0);
      c.pools.push_back(p);
    }
  }

  std::string source_;
};

}  // namespace

Result<PolicyConfig> parse_policy_config(std::string_view text, std::string_view source_name) {
  auto root = parse_yaml(text, std::string(source_name));
  if (!root) return Error{root.failure()};
  try {
    return Parser(source_name).parse(*root);
  } catch (const ConfigError& e) {
    return err(e.message);
  } catch (const YAML::Exception& e) {
    return err(yaml_error(std::string(source_name), e));
  }
}

Result<PolicyConfig> load_policy_config(const std::string& path) {
  auto text = read_file(path);
  if (!text) return err("cannot read policy config '" + path + "'");
  return parse_policy_config(*text, path);
}

}  // namespace yard::sched

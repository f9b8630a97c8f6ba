#include "core/sbatch_options.h"

#include <algorithm>

namespace yard {
namespace {

using V = SbatchValue;
using U = SbatchUse;

// sbatch 22.05's man page, but for the options yard has flags of its own for (-A -a -c
// -D -d -e -G -J -N -n -o -p -q -t --export --gres --mem --mem-per-cpu --open-mode
// --priority --requeue --no-requeue --test-only --help).
const std::vector<SbatchOption> kOptions = {
    {"acctg-freq", 0, V::Required, U::Pass, ""},
    {"batch", 0, V::Required, U::Pass, ""},
    {"bb", 0, V::Required, U::Pass, ""},
    {"bbf", 0, V::Required, U::Pass, ""},
    {"begin", 'b', V::Required, U::Refuse, "it would start later than now"},
    {"cluster-constraint", 0, V::Required, U::Pass, ""},
    {"clusters", 'M', V::Required, U::Refuse, "it names clusters of Slurm's"},
    {"comment", 0, V::Required, U::Pass, ""},
    {"constraint", 'C', V::Required, U::Pass, ""},
    {"container", 0, V::Required, U::Refuse, "it would run in an OCI container"},
    {"contiguous", 0, V::None, U::Pass, ""},
    {"core-spec", 'S', V::Required, U::Pass, ""},
    {"cores-per-socket", 0, V::Required, U::Pass, ""},
    {"cpu-freq", 0, V::Required, U::Pass, ""},
    {"cpus-per-gpu", 0, V::Required, U::Pass, ""},
    {"deadline", 0, V::Required, U::Refuse, "it would not run after its deadline"},
    {"delay-boot", 0, V::Required, U::Pass, ""},
    {"distribution", 'm', V::Required, U::Pass, ""},
    {"exclude", 'x', V::Required, U::Pass, ""},
    {"exclusive", 0, V::Optional, U::Pass, ""},
    {"export-file", 0, V::Required, U::Refuse, "its environment would come from a file"},
    {"extra-node-info", 'B', V::Required, U::Pass, ""},
    {"get-user-env", 0, V::Optional, U::Pass, ""},
    {"gid", 0, V::Required, U::Refuse, "it would run as another group"},
    {"gpu-bind", 0, V::Required, U::Pass, ""},
    {"gpu-freq", 0, V::Required, U::Pass, ""},
    {"gpus-per-node", 0, V::Required, U::Pass, ""},
    {"gpus-per-socket", 0, V::Required, U::Pass, ""},
    {"gpus-per-task", 0, V::Required, U::Pass, ""},
    {"gres-flags", 0, V::Required, U::Pass, ""},
    {"hint", 0, V::Required, U::Pass, ""},
    {"hold", 'H', V::None, U::Refuse, "it would be held until released"},
    {"ignore-pbs", 0, V::None, U::Client, ""},
    {"input", 'i', V::Required, U::Refuse, "its standard input would be a file"},
    {"kill-on-invalid-dep", 0, V::Required, U::Pass, ""},
    {"licenses", 'L', V::Required, U::Pass, ""},
    {"mail-type", 0, V::Required, U::Pass, ""},
    {"mail-user", 0, V::Required, U::Pass, ""},
    {"mcs-label", 0, V::Required, U::Pass, ""},
    {"mem-bind", 0, V::Required, U::Pass, ""},
    {"mem-per-gpu", 0, V::Required, U::Pass, ""},
    {"mincpus", 0, V::Required, U::Pass, ""},
    {"network", 0, V::Required, U::Pass, ""},
    {"nice", 0, V::Optional, U::Pass, ""},
    {"no-kill", 'k', V::Optional, U::Pass, ""},
    {"nodefile", 'F', V::Required, U::Pass, ""},
    {"nodelist", 'w', V::Required, U::Pass, ""},
    {"ntasks-per-core", 0, V::Required, U::Pass, ""},
    {"ntasks-per-gpu", 0, V::Required, U::Pass, ""},
    {"ntasks-per-node", 0, V::Required, U::Pass, ""},
    {"ntasks-per-socket", 0, V::Required, U::Pass, ""},
    {"overcommit", 'O', V::None, U::Pass, ""},
    {"oversubscribe", 's', V::None, U::Pass, ""},
    {"parsable", 0, V::None, U::Client, ""},
    {"power", 0, V::Required, U::Pass, ""},
    {"prefer", 0, V::Required, U::Pass, ""},
    {"profile", 0, V::Required, U::Pass, ""},
    {"propagate", 0, V::Optional, U::Pass, ""},
    {"quiet", 'Q', V::None, U::Client, ""},
    {"reboot", 0, V::None, U::Pass, ""},
    {"reservation", 0, V::Required, U::Pass, ""},
    {"signal", 0, V::Required, U::Pass, ""},
    {"sockets-per-node", 0, V::Required, U::Pass, ""},
    {"spread-job", 0, V::None, U::Pass, ""},
    {"switches", 0, V::Required, U::Pass, ""},
    {"tasks-per-node", 0, V::Required, U::Pass, ""},
    {"thread-spec", 0, V::Required, U::Pass, ""},
    {"threads-per-core", 0, V::Required, U::Pass, ""},
    {"time-min", 0, V::Required, U::Pass, ""},
    {"tmp", 0, V::Required, U::Pass, ""},
    {"uid", 0, V::Required, U::Refuse, "it would run as another user"},
    {"usage", 0, V::None, U::Client, ""},
    {"use-min-nodes", 0, V::None, U::Pass, ""},
    {"verbose", 'v', V::None, U::Client, ""},
    {"version", 'V', V::None, U::Client, ""},
    {"wait", 'W', V::None, U::Client, ""},
    {"wait-all-nodes", 0, V::Required, U::Pass, ""},
    {"wckey", 0, V::Required, U::Pass, ""},
    {"wrap", 0, V::Required, U::Pass, ""},
};

// A long name as written ("mem-per-c") -> the one it abbreviates, among `names`; an
// exact match wins, else a unique prefix.
Result<std::string> expand(std::string_view written, const std::vector<std::string_view>& names) {
  std::vector<std::string_view> hits;
  for (auto n : names) {
    if (n == written) return std::string(n);
    if (n.substr(0, written.size()) == written) hits.push_back(n);
  }
  if (hits.size() == 1) return std::string(hits[0]);
  if (hits.empty()) return err("unrecognized option '--" + std::string(written) + "'");
  std::string list;
  for (auto h : hits) list += " '--" + std::string(h) + "'";
  return err("option '--" + std::string(written) + "' is ambiguous; possibilities:" + list);
}

}  // namespace

const std::vector<SbatchOption>& sbatch_options() { return kOptions; }

const SbatchOption* find_sbatch_option(std::string_view long_name) {
  for (auto& o : kOptions)
    if (o.long_name == long_name) return &o;
  return nullptr;
}

Result<SbatchWords> take_sbatch_options(const std::vector<std::string>& words, const std::vector<KnownFlag>& known,
                                        bool strict) {
  std::vector<std::string_view> names;
  for (auto& k : known)
    if (!k.long_name.empty()) names.push_back(k.long_name);
  for (auto& o : kOptions) names.push_back(o.long_name);
  auto known_long = [&](std::string_view n) -> const KnownFlag* {
    for (auto& k : known)
      if (k.long_name == n) return &k;
    return nullptr;
  };
  auto known_short = [&](char c) -> const KnownFlag* {
    for (auto& k : known)
      if (k.short_name == c) return &k;
    return nullptr;
  };
  auto table_short = [](char c) -> const SbatchOption* {
    for (auto& o : kOptions)
      if (o.short_name == c) return &o;
    return nullptr;
  };

  SbatchWords out;
  std::size_t i = 0;
  for (; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == ":") {  // a heterogeneous job's separator
      out.rest.push_back(w);
      continue;
    }
    if (w.size() < 2 || w[0] != '-' || w == "--") break;  // the script or program: the rest is its
    const bool has_next = i + 1 < words.size();
    if (w[1] == '-') {
      const auto eq = w.find('=');
      const std::string_view written = std::string_view(w).substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      auto name = expand(written, names);
      if (!name && !strict) {
        out.rest.push_back(w);
        continue;
      }
      if (!name) return name.failure();
      const std::string glued = eq == std::string::npos ? "" : w.substr(eq + 1);
      if (const KnownFlag* k = known_long(*name)) {
        out.rest.push_back("--" + *name + (eq == std::string::npos ? "" : "=" + glued));
        if (k->takes_value && eq == std::string::npos && has_next) out.rest.push_back(words[++i]);
        continue;
      }
      const SbatchOption* o = find_sbatch_option(*name);
      std::string value;
      switch (o->value) {
        case SbatchValue::None:
          if (eq != std::string::npos) return err("option '--" + *name + "' doesn't allow an argument");
          break;
        case SbatchValue::Optional: value = glued; break;
        case SbatchValue::Required:
          if (eq != std::string::npos) value = glued;
          else if (has_next) value = words[++i];
          else return err("option '--" + *name + "' requires an argument");
          break;
      }
      if (o->use != SbatchUse::Client || o->long_name == "wait") out.options.emplace_back(*name, value);
      continue;
    }
    // A short option: -X, -Xvalue, -X value; -vvv.
    const char c = w[1];
    if (const KnownFlag* k = known_short(c)) {
      out.rest.push_back(w);
      if (k->takes_value && w.size() == 2 && has_next) out.rest.push_back(words[++i]);
      continue;
    }
    const SbatchOption* o = table_short(c);
    if (!o && !strict) {
      out.rest.push_back(w);
      continue;
    }
    if (!o) return err("invalid option -- '" + std::string(1, c) + "'");
    std::string value;
    if (o->value == SbatchValue::None) {
      if (w.find_first_not_of(c, 1) != std::string::npos)
        return err("invalid option -- '" + std::string(1, w[w.find_first_not_of(c, 1)]) + "'");
    } else if (w.size() > 2) {
      value = w.substr(2);
    } else if (o->value == SbatchValue::Required) {
      if (!has_next) return err("option requires an argument -- '" + std::string(1, c) + "'");
      value = words[++i];
    }
    if (o->use != SbatchUse::Client || o->long_name == "wait") out.options.emplace_back(std::string(o->long_name), value);
  }
  for (; i < words.size(); ++i) out.rest.push_back(words[i]);
  return out;
}

}  // namespace yard

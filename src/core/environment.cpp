#include "core/environment.h"

#include "core/text.h"

extern char** environ;

namespace yard {

Environment current_environment() {
  Environment all;
  for (char** e = environ; e && *e; ++e) {
    std::string_view kv(*e);
    auto eq = kv.find('=');
    if (eq != std::string_view::npos) all[std::string(kv.substr(0, eq))] = std::string(kv.substr(eq + 1));
  }
  return all;
}

Result<Environment> export_environment(const std::string& spec, const Environment& all) {
  if (spec.empty() || spec == "ALL") return all;
  Environment out;
  for (const char* keep : {"HOME", "USER", "LOGNAME"})
    if (auto it = all.find(keep); it != all.end()) out[keep] = it->second;
  out["PATH"] = "/usr/local/bin:/usr/bin:/bin";
  if (spec == "NONE") return out;
  for (auto item : split(spec, ',')) {
    if (item == "ALL") {
      for (auto& [k, v] : all) out[k] = v;
      continue;
    }
    if (item == "NONE" || item.empty()) continue;
    auto eq = item.find('=');
    std::string name(item.substr(0, eq));
    if (name.empty()) return err("--export: empty variable name in '" + spec + "'");
    if (eq != std::string_view::npos) out[name] = std::string(item.substr(eq + 1));
    else if (auto it = all.find(name); it != all.end()) out[name] = it->second;
  }
  return out;
}

}  // namespace yard

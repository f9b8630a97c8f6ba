#include "flow/retry_key.h"

#include <cstdlib>

#include "core/duration.h"
#include "flow/flow_keys.h"
#include "core/size.h"

namespace yard {
namespace {

// "2x", "1.5x" or a plain number.
Result<double> factor(std::string text) {
  if (!text.empty() && (text.back() == 'x' || text.back() == 'X')) text.pop_back();
  char* end = nullptr;
  const double f = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') return err("'" + text + "' is not a factor (2x, 1.5x)");
  return f;
}

}  // namespace

Result<RetryPolicy> read_retry(const std::string& path, const YamlNode& n) {
  auto fail = [&](const YamlNode& at, const std::string& why) { return err(yaml_where(path, at) + ": retry: " + why); };
  RetryPolicy p;
  p.on = {JobState::OutOfMemory, JobState::Timeout, JobState::NodeFail, JobState::Lost};
  try {
    if (n.is_scalar()) {
      p.times = n.integer();
    } else if (n.is_map()) {
      for (std::size_t i = 0; i < n.size(); ++i) {
        const std::string key = n.child(2 * i).str();
        if (!has_setting(kFlowRetryKeys, key))
          return fail(n.child(2 * i), "unknown key '" + key + "' (" + setting_names(kFlowRetryKeys) + ")");
      }
      p.times = n["times"] ? n["times"].integer() : 1;
      if (n["on"]) {
        p.on.clear();
        for (const auto& cause : n["on"].strings()) {
          auto c = retry_cause(cause);
          if (!c) return fail(n["on"], c.error().substr(7));
          p.on.push_back(*c);
        }
      }
      if (n["exit"]) {
        if (!n["on"]) p.on.clear();  // exit codes alone: only they
        for (const auto& code : n["exit"].items()) p.exit_codes.push_back(code.integer());
      }
      if (n["backoff"]) {
        auto s = parse_seconds(n["backoff"].str());
        if (!s) return fail(n["backoff"], "backoff: " + s.error());
        p.backoff_s = *s;
      }
      if (const auto grow = n["grow"]) {
        for (auto [key, out] : {std::pair{"mem", &p.grow_mem}, std::pair{"time", &p.grow_time}}) {
          if (!grow[key]) continue;
          auto f = factor(grow[key].str());
          if (!f) return fail(grow[key], std::string("grow: ") + key + ": " + f.error());
          *out = *f;
        }
      }
      if (const auto cap = n["cap"]) {
        if (cap["mem"]) {
          auto m = parse_memory_size(cap["mem"].str());
          if (!m) return fail(cap["mem"], "cap: mem: " + m.error());
          p.cap_mem_bytes = *m;
        }
        if (cap["time"]) {
          auto t = parse_walltime(cap["time"].str());
          if (!t) return fail(cap["time"], "cap: time: " + t.error());
          p.cap_time_s = *t;
        }
      }
    } else {
      return fail(n, "a number of tries, or a mapping (times, on, exit, backoff, grow, cap)");
    }
  } catch (const YamlValueError& e) {
    return fail(n, e.what());
  }
  if (auto s = validate(p); !s) return fail(n, s.error().substr(7));
  return p;
}

}  // namespace yard

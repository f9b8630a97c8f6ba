#include "flow/step_key.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <unordered_set>

namespace yard {
namespace {

// Fields written with their length, so that no two different steps write the same bytes.
class KeyText {
 public:
  void add(std::string_view tag, std::string_view value) {
    text_ += tag;
    text_ += ':';
    text_ += std::to_string(value.size());
    text_ += ':';
    text_ += value;
    text_ += '\n';
  }
  std::string digest() const {
    const XXH128_hash_t h = XXH3_128bits(text_.data(), text_.size());
    char buf[48];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                  static_cast<unsigned long long>(h.low64));
    return buf;
  }

 private:
  std::string text_;
};

}  // namespace

std::vector<std::string> external_inputs(const Flow& flow) {
  std::unordered_set<std::string> made;
  for (const auto& s : flow.steps) made.insert(s.outputs.begin(), s.outputs.end());
  std::vector<std::string> inputs;
  for (const auto& s : flow.steps)
    for (const auto& in : s.inputs)
      if (!made.count(in)) inputs.push_back(in);
  std::sort(inputs.begin(), inputs.end());
  inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
  return inputs;
}

std::vector<std::string> step_keys(const Flow& flow, const std::map<std::string, std::string>& digests,
                                   std::vector<std::string>* parts) {
  std::vector<std::string> keys;
  keys.reserve(flow.steps.size());
  if (parts) parts->reserve(flow.steps.size());
  for (const auto& step : flow.steps) {
    const JobSpec& spec = step.spec;
    KeyText k, command, env;
    k.add("yard-step-key", "1");
    for (const auto& a : spec.argv) command.add("argv", a);
    if (!spec.script.empty()) command.add("script", spec.script);
    if (!spec.launcher.empty()) command.add("launcher", spec.launcher);
    for (const auto& c : spec.components)
      for (const auto& a : c.argv) command.add("component-argv", a);
    k.add("command", command.digest());
    k.add("workdir", spec.workdir);
    const std::string array = spec.array ? array_text(ArraySpec{spec.array->indices, 0}) : "";
    if (spec.array) k.add("array", array);
    // The variables the step sets itself: those that differ from the flow's environment.
    if (step.own_env)
      for (const auto& [name, value] : spec.env) {
        auto it = flow.env.find(name);
        if (it == flow.env.end() || it->second != value) env.add("env", name + "=" + value);
      }
    k.add("env", env.digest());
    std::vector<std::string> outputs = step.outputs;
    std::sort(outputs.begin(), outputs.end());
    for (const auto& o : outputs) k.add("output", o);
    std::vector<std::string> inputs = step.inputs;
    std::sort(inputs.begin(), inputs.end());
    std::string input_parts;
    for (const auto& in : inputs) {
      auto d = digests.find(in);
      k.add("input", in);
      if (d != digests.end()) k.add("content", d->second);
      input_parts += "input " + in + " " + (d != digests.end() ? d->second : "made-here") + "\n";
    }
    std::string need_parts;
    for (auto n : step.needs) {
      const auto& key = keys[static_cast<std::size_t>(n)];
      k.add("needs", key);
      need_parts += "needs " + flow.steps[static_cast<std::size_t>(n)].name + " " + key + "\n";
    }
    keys.push_back(k.digest());
    if (parts) {
      std::string p = "command " + command.digest() + "\nworkdir " + spec.workdir + "\narray " + array + "\nenv " +
                      env.digest() + "\n";
      for (const auto& o : outputs) p += "output " + o + "\n";
      parts->push_back(p + input_parts + need_parts);
    }
  }
  return keys;
}

std::vector<std::string> key_differences(const std::string& before, const std::string& now) {
  // Each line is "<tag> <what> [<value>]": the same tag and what with another value
  // changed; one side only: added or gone.
  auto lines = [](const std::string& text) {
    std::map<std::string, std::string> m;
    std::size_t at = 0;
    while (at < text.size()) {
      auto nl = text.find('\n', at);
      if (nl == std::string::npos) nl = text.size();
      const std::string line = text.substr(at, nl - at);
      const auto sp = line.find(' ');
      const std::string tag = line.substr(0, sp);
      const bool keyed = tag == "input" || tag == "needs" || tag == "output";
      const auto sp2 = keyed && sp != std::string::npos ? line.find(' ', sp + 1) : std::string::npos;
      if (keyed) m[line.substr(0, sp2)] = sp2 == std::string::npos ? "" : line.substr(sp2 + 1);
      else m[tag] = sp == std::string::npos ? "" : line.substr(sp + 1);
      at = nl + 1;
    }
    return m;
  };
  const auto a = lines(before), b = lines(now);
  auto say = [](const std::string& what, const char* how) {
    const auto sp = what.find(' ');
    const std::string tag = what.substr(0, sp), rest = sp == std::string::npos ? "" : what.substr(sp + 1);
    if (tag == "input") return "input " + rest + " " + how;
    if (tag == "needs") return "step '" + rest + "', which it needs, " + how;
    if (tag == "output") return "output " + rest + " " + how;
    if (tag == "command") return std::string("its command ") + how;
    if (tag == "env") return std::string("the variables it sets ") + how;
    return "its " + tag + " " + how;
  };
  std::vector<std::string> out;
  for (const auto& [what, value] : b) {
    auto it = a.find(what);
    if (it == a.end()) out.push_back(say(what, "is new"));
    else if (it->second != value) out.push_back(say(what, "changed"));
  }
  for (const auto& [what, value] : a)
    if (!b.count(what)) out.push_back(say(what, "is gone"));
  return out;
}

}  // namespace yard

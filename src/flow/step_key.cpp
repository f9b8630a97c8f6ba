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

std::vector<std::string> step_keys(const Flow& flow, const std::map<std::string, std::string>& digests) {
  std::vector<std::string> keys;
  keys.reserve(flow.steps.size());
  for (const auto& step : flow.steps) {
    const JobSpec& spec = step.spec;
    KeyText k;
    k.add("yard-step-key", "1");
    for (const auto& a : spec.argv) k.add("argv", a);
    if (!spec.script.empty()) k.add("script", spec.script);
    k.add("workdir", spec.workdir);
    if (spec.array) k.add("array", array_text(ArraySpec{spec.array->indices, 0}));
    if (!spec.launcher.empty()) k.add("launcher", spec.launcher);
    for (const auto& c : spec.components)
      for (const auto& a : c.argv) k.add("component-argv", a);
    // The variables the step sets itself: those that differ from the flow's environment.
    if (step.own_env)
      for (const auto& [name, value] : spec.env) {
        auto it = flow.env.find(name);
        if (it == flow.env.end() || it->second != value) k.add("env", name + "=" + value);
      }
    std::vector<std::string> outputs = step.outputs;
    std::sort(outputs.begin(), outputs.end());
    for (const auto& o : outputs) k.add("output", o);
    std::vector<std::string> inputs = step.inputs;
    std::sort(inputs.begin(), inputs.end());
    for (const auto& in : inputs) {
      auto d = digests.find(in);
      k.add("input", in);
      if (d != digests.end()) k.add("content", d->second);
    }
    for (auto n : step.needs) k.add("needs", keys[static_cast<std::size_t>(n)]);
    keys.push_back(k.digest());
  }
  return keys;
}

}  // namespace yard

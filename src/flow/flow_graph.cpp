#include "flow/flow_graph.h"

#include <sys/stat.h>

#include <algorithm>
#include <functional>
#include <queue>
#include <unordered_map>

namespace yard {
namespace {

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// The cycle among `left` (steps not placed), walking from one of them along the needs
// that are left too, named step by step.
std::string cycle_text(const std::vector<NamedStep>& steps, const std::vector<std::vector<std::int32_t>>& needs,
                       const std::vector<int>& waiting, std::int32_t from, std::int32_t& closing) {
  std::vector<std::int32_t> walk;
  std::vector<int> seen_at(steps.size(), -1);
  std::int32_t at = from;
  while (seen_at[static_cast<std::size_t>(at)] < 0) {
    seen_at[static_cast<std::size_t>(at)] = static_cast<int>(walk.size());
    walk.push_back(at);
    for (auto n : needs[static_cast<std::size_t>(at)])
      if (waiting[static_cast<std::size_t>(n)] > 0) {
        at = n;
        break;
      }
  }
  std::string text;
  for (auto i = static_cast<std::size_t>(seen_at[static_cast<std::size_t>(at)]); i < walk.size(); ++i)
    text += steps[static_cast<std::size_t>(walk[i])].step.name + " -> ";
  closing = at;
  return text + steps[static_cast<std::size_t>(at)].step.name;
}

}  // namespace

Result<std::vector<FlowStep>> order_steps(std::vector<NamedStep> steps, const GraphWords& words) {
  const std::size_t n = steps.size();
  std::unordered_map<std::string_view, std::int32_t> by_name;
  std::unordered_map<std::string_view, std::vector<std::int32_t>> by_rule;
  std::unordered_map<std::string_view, std::int32_t> by_output;
  by_name.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& s = steps[i].step;
    const auto id = static_cast<std::int32_t>(i);
    if (!by_name.emplace(s.name, id).second)
      return err(s.where + ": two " + words.step + "s named '" + s.name + "'");
    if (s.rule != s.name) by_rule[s.rule].push_back(id);
    for (const auto& o : s.outputs) {
      auto [it, added] = by_output.emplace(o, id);
      if (!added)
        return err(s.where + ": outputs: " + o + " is an output of " + steps[static_cast<std::size_t>(it->second)].step.name +
                   " too");
    }
  }
  // Each step's needs as indices: named ones, then the makers of its inputs.
  std::vector<std::vector<std::int32_t>> needs(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto& out = needs[i];
    const auto& s = steps[i];
    for (const auto& name : s.needs) {
      if (auto it = by_name.find(name); it != by_name.end()) {
        out.push_back(it->second);
      } else if (auto r = by_rule.find(name); r != by_rule.end()) {
        out.insert(out.end(), r->second.begin(), r->second.end());
      } else {
        return err(s.needs_where + ": " + words.needs + ": " + words.step + " '" + s.step.name + "' " +
                   (words.needs == "after" ? "waits for" : "needs") + " unknown " + words.step + " '" + name + "'");
      }
    }
    for (const auto& input : s.step.inputs) {
      if (auto it = by_output.find(input); it != by_output.end()) {
        out.push_back(it->second);
      } else if (!exists(input)) {
        return err(s.inputs_where + ": inputs: " + input + " does not exist, and no step has it among its outputs");
      }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  // Kahn's order, the first ready step in the file's order taken first: a flow reads in
  // the order it was written wherever its needs allow.
  std::vector<int> waiting(n, 0);
  std::vector<std::vector<std::int32_t>> needed_by(n);
  for (std::size_t i = 0; i < n; ++i) {
    waiting[i] = static_cast<int>(needs[i].size());
    for (auto d : needs[i]) needed_by[static_cast<std::size_t>(d)].push_back(static_cast<std::int32_t>(i));
  }
  std::priority_queue<std::int32_t, std::vector<std::int32_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < n; ++i)
    if (waiting[i] == 0) ready.push(static_cast<std::int32_t>(i));
  std::vector<std::int32_t> order, place(n, -1);
  order.reserve(n);
  while (!ready.empty()) {
    const auto i = ready.top();
    ready.pop();
    place[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(order.size());
    order.push_back(i);
    for (auto j : needed_by[static_cast<std::size_t>(i)])
      if (--waiting[static_cast<std::size_t>(j)] == 0) ready.push(j);
  }
  if (order.size() < n) {
    std::int32_t from = 0;
    while (waiting[static_cast<std::size_t>(from)] == 0) ++from;
    std::int32_t closing = from;
    const std::string cycle = cycle_text(steps, needs, waiting, from, closing);
    return err(steps[static_cast<std::size_t>(closing)].needs_where + ": " + words.needs + ": a cycle: " + cycle);
  }
  std::vector<FlowStep> out;
  out.reserve(n);
  for (auto i : order) {
    FlowStep s = std::move(steps[static_cast<std::size_t>(i)].step);
    s.needs.clear();
    for (auto d : needs[static_cast<std::size_t>(i)]) s.needs.push_back(place[static_cast<std::size_t>(d)]);
    std::sort(s.needs.begin(), s.needs.end());
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace yard

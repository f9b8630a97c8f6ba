#include "flow/flow_file.h"

#include <algorithm>
#include <cstdlib>

#include <filesystem>
#include <set>

#include "core/duration.h"
#include "flow/flow_keys.h"
#include "flow/yaml_tree.h"
#include "flow/flow_graph.h"
#include "flow/foreach.h"
#include "flow/step_job.h"

namespace yard {
namespace {

// The most steps of one series (group: N, or what pack: {under: ...} makes).
constexpr long kMaxGroup = 100000;

// pack: {under: 60s}: the span that a series of short steps may take.
Result<double> read_pack_under(const std::string& path, const YamlNode& n) {
  for (std::size_t i = 0; i < n.size(); ++i)
    if (const auto key = n.child(2 * i).str(); key != "under")
      return err(yaml_where(path, n.child(2 * i)) + ": pack: unknown key '" + key + "' (pack: {under: 60s})");
  if (!n["under"]) return err(yaml_where(path, n) + ": pack: a mapping gives under: (pack: {under: 60s})");
  auto under = parse_seconds(n["under"].str());
  if (!under) return err(yaml_where(path, n["under"]) + ": pack: under: " + under.error());
  if (*under < 1) return err(yaml_where(path, n["under"]) + ": pack: under: is less than a second");
  return *under;
}

// How many steps of `step_s` seconds (their time:) fit one after another in `under`
// seconds: 1 or fewer is no series (each step a job, packed into an array as any other).
Result<std::int32_t> steps_that_fit(double under, std::int64_t step_s) {
  if (step_s <= 0)
    return err("pack: {under: ...} counts the steps that fit by their time:, and this step has none "
               "(give time:, e.g. time: \"0:10\" for ten seconds)");
  return static_cast<std::int32_t>(std::min<double>(static_cast<double>(kMaxGroup), under / static_cast<double>(step_s)));
}

// A list of strings, or one string, each through `expand`.
Result<std::vector<std::string>> strings(const std::string& path, const YamlNode& n, const char* key,
                                         const Expand& expand) {
  std::vector<std::string> raw = n.strings();
  for (auto& s : raw) {
    auto e = expand(s);
    if (!e) return err(yaml_where(path, n) + ": " + key + ": " + e.error());
    s = std::move(*e);
  }
  return raw;
}

std::string absolute(const std::string& base_dir, const std::string& p) {
  std::filesystem::path path(p);
  if (path.is_relative()) path = std::filesystem::path(base_dir) / path;
  return path.lexically_normal().string();
}

// The flow's params: variables of every step.
Result<Variables> read_params(const std::string& path, const YamlNode& n) {
  Variables vars;
  if (!n || n.is_null()) return vars;
  if (!n.is_map()) return err(yaml_where(path, n) + ": params: expected a mapping of names to values");
  for (std::size_t i = 0; i < n.size(); ++i) {
    const YamlNode k = n.child(2 * i), v = n.child(2 * i + 1);
    const auto key = k.str();
    if (key == "name" || key == "index") return err(yaml_where(path, k) + ": params: '" + key + "' is each step's own variable");
    if (!v.is_scalar()) return err(yaml_where(path, v) + ": params: " + key + ": expected one value");
    vars[key] = v.str();
  }
  return vars;
}

Result<Flow> flow_of(const YamlNode& root, const std::string& path, const std::string& base_dir,
                     const std::map<std::string, std::string>& env, std::size_t max_steps);

}  // namespace

Result<Flow> load_flow(const std::string& path, const std::string& base_dir, const std::map<std::string, std::string>& env,
                       std::size_t max_steps) {
  auto loaded = YamlTree::load(path);
  if (!loaded) return loaded.failure();
  return flow_of((*loaded)->root(), path, base_dir, env, max_steps);
}

Result<Flow> load_flow(const std::string& path, const std::map<std::string, std::string>& env) {
  std::error_code ec;
  const auto base = std::filesystem::absolute(std::filesystem::path(path), ec).parent_path().string();
  return load_flow(path, base, env);
}

Result<Flow> parse_flow(std::string_view text, const std::string& source, const std::string& base_dir,
                        const std::map<std::string, std::string>& env, std::size_t max_steps) {
  auto parsed = YamlTree::parse(text, source);
  if (!parsed) return parsed.failure();
  return flow_of((*parsed)->root(), source, base_dir, env, max_steps);
}

namespace {

Result<Flow> flow_of(const YamlNode& root, const std::string& path, const std::string& base_dir,
                     const std::map<std::string, std::string>& env, std::size_t max_steps) {
  const bool legacy = root.is_map() && root["jobs"];
  const char* list_key = legacy ? "jobs" : "steps";
  if (!root.is_map() || !root[list_key] || !root[list_key].is_sequence())
    return err(path + ": expected a mapping with a 'steps' list (or, as run files had, a 'jobs' list)");
  const GraphWords words = legacy ? GraphWords{"after", "job"} : GraphWords{};
  Flow flow;
  flow.file = path;
  flow.env = env;
  flow.name = std::filesystem::path(path).stem().string();
  std::vector<NamedStep> named;
  try {
    for (std::size_t i = 0; i < root.size(); ++i) {
      const YamlNode k = root.child(2 * i);
      const auto key = k.str();
      if (key != list_key && (legacy || !has_setting(kFlowKeys, key)))
        return err(yaml_where(path, k) + ": unknown key '" + key + "'");
    }
    if (root["name"]) flow.name = root["name"].str();
    auto params = read_params(path, root["params"]);
    if (!params) return params.failure();
    auto defaults = read_step_defaults(path, root["defaults"]);
    if (!defaults) return defaults.failure();
    std::map<std::string, std::vector<std::string>> outputs_of;
    std::set<std::string> rules;
    named.reserve(root[list_key].size());  // (grown again by a foreach: amortised)
    for (const YamlNode& n : root[list_key].items()) {
      const std::string at = yaml_where(path, n);
      if (!n.is_map()) return err(at + ": each " + words.step + " must be a mapping");
      for (std::size_t i = 0; i < n.size(); ++i) {
        const YamlNode k = n.child(2 * i);
        const auto key = k.str();
        const bool known = is_job_key(key) || (legacy ? key == "name" || key == "after" : has_setting(kFlowStepKeys, key));
        if (!known) return err(yaml_where(path, k) + ": unknown key '" + key + "'");
      }
      if (!n["name"]) return err(at + ": " + words.step + " without a name");
      const auto rule = n["name"].str();
      if (rule.empty()) return err(yaml_where(path, n["name"]) + ": " + words.step + " name is empty (name: \"\")");
      if (!legacy && rule.find_first_of("[]{}") != std::string::npos)
        return err(yaml_where(path, n["name"]) + ": step name '" + rule + "' holds [, ], { or }, which yard's names use");
      if (!rules.insert(rule).second) return err(at + ": duplicate " + words.step + " name '" + rule + "'");
      if (!n["command"]) return err(at + ": " + words.step + " '" + rule + "' has no command");
      std::optional<Foreach> foreach;
      if (!legacy) {
        auto f = read_foreach(path, n, base_dir, outputs_of);
        if (!f) return f.failure();
        foreach = std::move(*f);
      }
      const std::size_t count = foreach ? foreach->values.size() : 1;
      bool pack = true;  // pack: false keeps each step of the foreach a job of its own
      double pack_under = 0;  // pack: {under: 60s}: steps run in series, as many as fit in 60 s
      if (n["pack"] && n["pack"].is_map()) {
        auto under = read_pack_under(path, n["pack"]);
        if (!under) return under.failure();
        pack_under = *under;
      } else if (n["pack"]) {
        const auto v = n["pack"].str();
        if (v != "true" && v != "false")
          return err(yaml_where(path, n["pack"]) + ": pack: expected true, false or {under: 60s}, got '" + v + "'");
        pack = v == "true";
      }
      std::int32_t group = 0;  // group: N runs N steps of the foreach one after another in one job
      if (n["group"]) {
        const auto v = n["group"].str();
        char* end = nullptr;
        const long g = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end != '\0' || g < 1 || g > kMaxGroup)
          return err(yaml_where(path, n["group"]) + ": group: expected a number of steps from 1 to 100000, got '" + v +
                     "'");
        if (!pack) return err(yaml_where(path, n["group"]) + ": group: and pack: false do not go together");
        if (pack_under > 0)
          return err(yaml_where(path, n["group"]) + ": group: and pack: {under: ...} both say how many steps run "
                                                    "in series: give one");
        group = static_cast<std::int32_t>(g);
      }
      const YamlNode series_key = n["group"] ? n["group"] : n["pack"];
      if ((group > 0 || pack_under > 0) && !foreach)
        return err(yaml_where(path, series_key) + (group > 0 ? ": group:" : ": pack: {under: ...}:") +
                   " only a step with foreach: has steps to group");
      if (named.size() + count > max_steps)
        return err(at + ": " + words.step + " '" + rule + "' makes the flow more than " + std::to_string(max_steps) +
                   " steps");
      auto& made = outputs_of[rule];
      for (std::size_t i = 0; i < count; ++i) {
        NamedStep ns;
        FlowStep& s = ns.step;
        s.rule = rule;
        s.name = foreach ? step_name_for(rule, foreach->values[i]) : rule;
        s.where = at;
        s.packable = foreach && pack;
        s.group = s.packable && group > 1 ? group : 0;
        Variables vars = *params;
        vars["name"] = s.name;
        vars["index"] = std::to_string(i);
        if (foreach) vars[foreach->var] = foreach->values[i];
        const Expand expand = [&](const std::string& v) -> Result<std::string> {
          if (legacy) return v;
          return expand_variables(v, vars);
        };
        auto job = read_step_job(path, *defaults, n, base_dir, expand);
        if (!job) return job.failure();
        s.spec = std::move(job->spec);
        if (pack_under > 0) {
          auto fit = steps_that_fit(pack_under, s.spec.res.walltime_s);
          if (!fit) return err(yaml_where(path, n["pack"]) + ": step '" + s.name + "': " + fit.error());
          s.group = *fit > 1 ? *fit : 0;
        }
        if (s.group > 0 && s.spec.retry)
          return err(yaml_where(path, series_key) + (n["group"] ? ": group:" : ": pack:") +
                     " steps run one after another in one job are not tried again one by one (retry: and " +
                     (n["group"] ? "group:" : "pack: {under: ...}") + " do not go together)");
        s.spec.name = s.name;
        s.job_class = std::move(job->job_class);
        s.own_env = job->own_env;
        for (auto [key, out] : {std::pair{"inputs", &s.inputs}, std::pair{"outputs", &s.outputs}}) {
          if (!n[key]) continue;
          auto files = strings(path, n[key], key, expand);
          if (!files) return files.failure();
          for (auto& f : *files) out->push_back(absolute(base_dir, f));
        }
        if (n["inputs"]) ns.inputs_where = yaml_where(path, n["inputs"]);
        const char* needs_key = legacy ? "after" : "needs";
        if (n[needs_key]) {
          auto needs = strings(path, n[needs_key], needs_key, expand);
          if (!needs) return needs.failure();
          ns.needs = std::move(*needs);
          ns.needs_where = yaml_where(path, n[needs_key]);
        } else {
          ns.needs_where = at;
        }
        // A value that is another step's output is an input: the step that makes it is needed.
        if (foreach && !foreach->outputs_of.empty()) {
          s.inputs.push_back(foreach->values[i]);
          if (ns.inputs_where.empty()) ns.inputs_where = yaml_where(path, n["foreach"]);
        }
        if (auto st = s.spec.validate(); !st) return err(at + ": " + words.step + " '" + s.name + "': " + st.error());
        made.insert(made.end(), s.outputs.begin(), s.outputs.end());
        named.push_back(std::move(ns));
      }
    }
  } catch (const YamlValueError& e) {
    return err(path + ":" + std::to_string(e.line) + ": " + e.what());
  }
  auto ordered = order_steps(std::move(named), words);
  if (!ordered) return ordered.failure();
  flow.steps = std::move(*ordered);
  return flow;
}

}  // namespace
}  // namespace yard

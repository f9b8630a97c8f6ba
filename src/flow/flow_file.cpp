#include "flow/flow_file.h"

#include <filesystem>
#include <set>

#include "core/yaml_file.h"
#include "flow/flow_graph.h"
#include "flow/foreach.h"
#include "flow/step_job.h"

namespace yard {
namespace {

const std::set<std::string, std::less<>> kStepKeys = {"name", "needs", "inputs", "outputs", "foreach", "as"};

// A list of strings, or one string, each through `expand`.
Result<std::vector<std::string>> strings(const std::string& path, const YAML::Node& n, const char* key,
                                         const Expand& expand) {
  std::vector<std::string> raw = n.IsSequence() ? n.as<std::vector<std::string>>() : std::vector{n.as<std::string>()};
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
Result<Variables> read_params(const std::string& path, const YAML::Node& n) {
  Variables vars;
  if (!n || n.IsNull()) return vars;
  if (!n.IsMap()) return err(yaml_where(path, n) + ": params: expected a mapping of names to values");
  for (auto it = n.begin(); it != n.end(); ++it) {
    const auto key = it->first.as<std::string>();
    if (key == "name" || key == "index")
      return err(yaml_where(path, it->first) + ": params: '" + key + "' is each step's own variable");
    if (!it->second.IsScalar()) return err(yaml_where(path, it->second) + ": params: " + key + ": expected one value");
    vars[key] = it->second.as<std::string>();
  }
  return vars;
}

Result<Flow> flow_of(const YAML::Node& root, const std::string& path, const std::string& base_dir,
                     const std::map<std::string, std::string>& env, std::size_t max_steps);

}  // namespace

Result<Flow> load_flow(const std::string& path, const std::string& base_dir, const std::map<std::string, std::string>& env,
                       std::size_t max_steps) {
  auto loaded = load_yaml(path);
  if (!loaded) return Error{loaded.failure()};
  return flow_of(*loaded, path, base_dir, env, max_steps);
}

Result<Flow> parse_flow(std::string_view text, const std::string& source, const std::string& base_dir,
                        const std::map<std::string, std::string>& env, std::size_t max_steps) {
  auto parsed = parse_yaml(text, source);
  if (!parsed) return Error{parsed.failure()};
  return flow_of(*parsed, source, base_dir, env, max_steps);
}

namespace {

Result<Flow> flow_of(const YAML::Node& root, const std::string& path, const std::string& base_dir,
                     const std::map<std::string, std::string>& env, std::size_t max_steps) {
  const bool legacy = root.IsMap() && root["jobs"];
  const char* list_key = legacy ? "jobs" : "steps";
  if (!root.IsMap() || !root[list_key] || !root[list_key].IsSequence())
    return err(path + ": expected a mapping with a 'steps' list (or, as run files had, a 'jobs' list)");
  const GraphWords words = legacy ? GraphWords{"after", "job"} : GraphWords{};
  Flow flow;
  flow.file = path;
  flow.env = env;
  flow.name = std::filesystem::path(path).stem().string();
  std::vector<NamedStep> named;
  try {
    for (auto it = root.begin(); it != root.end(); ++it) {
      const auto key = it->first.as<std::string>();
      if (key != list_key && (legacy || (key != "name" && key != "params" && key != "defaults")))
        return err(yaml_where(path, it->first) + ": unknown key '" + key + "'");
    }
    if (root["name"]) flow.name = root["name"].as<std::string>();
    auto params = read_params(path, root["params"]);
    if (!params) return params.failure();
    auto defaults = read_step_defaults(path, root["defaults"]);
    if (!defaults) return defaults.failure();
    std::map<std::string, std::vector<std::string>> outputs_of;
    std::set<std::string> rules;
    for (const auto& n : root[list_key]) {
      const std::string at = yaml_where(path, n);
      if (!n.IsMap()) return err(at + ": each " + words.step + " must be a mapping");
      for (auto it = n.begin(); it != n.end(); ++it) {
        const auto key = it->first.as<std::string>();
        const bool known = is_job_key(key) || (legacy ? key == "name" || key == "after" : kStepKeys.count(key) > 0);
        if (!known) return err(yaml_where(path, it->first) + ": unknown key '" + key + "'");
      }
      if (!n["name"]) return err(at + ": " + words.step + " without a name");
      const auto rule = n["name"].as<std::string>();
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
  } catch (const YAML::Exception& e) {
    return err(yaml_error(path, e));
  }
  auto ordered = order_steps(std::move(named), words);
  if (!ordered) return ordered.failure();
  flow.steps = std::move(*ordered);
  return flow;
}

}  // namespace
}  // namespace yard

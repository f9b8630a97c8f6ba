#include "flow/step_job.h"

#include <filesystem>
#include <set>

#include "core/batch_directives.h"  // split_directive_words
#include "core/duration.h"
#include "core/size.h"
#include "core/yaml_file.h"
#include "jobtext/submit_options.h"

namespace yard {
namespace {

const std::set<std::string, std::less<>> kJobKeys = {"command", "flags", "ntasks", "cpus_per_task", "mem",
                                                     "mem_per_cpu", "gpus", "time", "array", "priority",
                                                     "output", "error", "chdir"};

// The words of a `flags:` value: a string split as an #SBATCH line, or a list.
Result<std::vector<std::string>> flag_words(const std::string& path, const YAML::Node& flags, const Expand* expand) {
  std::vector<std::string> words;
  if (flags.IsSequence()) {
    words = flags.as<std::vector<std::string>>();
  } else {
    auto split = split_directive_words(flags.as<std::string>());
    if (!split) return err(yaml_where(path, flags) + ": flags: " + split.error());
    words = std::move(*split);
  }
  if (expand)
    for (auto& w : words) {
      auto e = (*expand)(w);
      if (!e) return err(yaml_where(path, flags) + ": flags: " + e.error());
      w = std::move(*e);
    }
  return words;
}

Result<StepJob> flagged(const std::string& path, const YAML::Node& at, const std::vector<std::string>& words) {
  auto f = parse_job_flags(words, {"true"});
  if (!f) return err(yaml_where(path, at) + ": flags: " + f.error());
  StepJob job{std::move(f->spec), std::move(f->job_class)};
  for (const auto& w : words) job.own_env = job.own_env || w.rfind("--export", 0) == 0;
  if (!job.own_env) job.spec.env.clear();
  return job;
}

// The keys of `n` but flags and command onto `job`.
Status read_keys(const std::string& path, const YAML::Node& n, const std::string& base_dir, const Expand& expand,
                 StepJob& job) {
  JobSpec& s = job.spec;
  auto text = [&](const char* key) -> Result<std::string> {
    auto v = expand(n[key].as<std::string>());
    if (!v) return err(yaml_where(path, n[key]) + ": " + key + ": " + v.error());
    return v;
  };
  if (n["ntasks"]) s.res.ntasks = n["ntasks"].as<int>();
  if (n["cpus_per_task"]) s.res.cpus_per_task = n["cpus_per_task"].as<int>();
  if (n["gpus"]) s.res.gpus = n["gpus"].as<int>();
  if (n["priority"]) s.priority = n["priority"].as<int>();
  for (auto [key, out] : {std::pair{"mem", &s.res.mem_bytes}, std::pair{"mem_per_cpu", &s.res.mem_per_cpu_bytes}}) {
    if (!n[key]) continue;
    auto v = parse_memory_size(n[key].as<std::string>());
    if (!v) return err(yaml_where(path, n[key]) + ": " + key + ": " + v.error());
    *out = *v;
  }
  if (n["time"]) {
    auto t = parse_walltime(n["time"].as<std::string>());
    if (!t) return err(yaml_where(path, n["time"]) + ": time: " + t.error());
    s.res.walltime_s = *t;
  }
  if (n["array"]) {
    auto a = parse_array_spec(n["array"].as<std::string>());
    if (!a) return err(yaml_where(path, n["array"]) + ": array: " + a.error());
    s.array = *a;
  }
  for (auto [key, out] : {std::pair{"output", &s.stdout_path}, std::pair{"error", &s.stderr_path}}) {
    if (!n[key]) continue;
    auto v = text(key);
    if (!v) return v.failure();
    *out = std::move(*v);
  }
  if (n["chdir"]) {
    auto v = text("chdir");
    if (!v) return v.failure();
    const std::filesystem::path dir(*v);
    s.workdir = (dir.is_absolute() ? dir : std::filesystem::path(base_dir) / dir).lexically_normal().string();
    if (s.workdir.size() > 1 && s.workdir.back() == '/') s.workdir.pop_back();
  }
  return {};
}

}  // namespace

bool is_job_key(std::string_view key) { return kJobKeys.find(key) != kJobKeys.end(); }

Result<StepDefaults> read_step_defaults(const std::string& path, const YAML::Node& node) {
  StepDefaults d;
  if (node) d.node = node;  // (yaml-cpp throws on assigning a missing node)
  if (node && !node.IsNull()) {
    if (!node.IsMap()) return err(yaml_where(path, node) + ": defaults: expected a mapping of job keys");
    for (auto it = node.begin(); it != node.end(); ++it) {
      const auto key = it->first.as<std::string>();
      if (key == "command") return err(yaml_where(path, it->first) + ": defaults: a command is each step's own");
      if (!is_job_key(key)) return err(yaml_where(path, it->first) + ": defaults: unknown key '" + key + "'");
    }
    if (node["flags"]) {
      auto words = flag_words(path, node["flags"], nullptr);
      if (!words) return words.failure();
      d.flags = std::move(*words);
    }
  }
  auto f = flagged(path, d.node, d.flags);
  if (!f) return f.failure();
  d.flagged = std::move(*f);
  return d;
}

Result<StepJob> read_step_job(const std::string& path, const StepDefaults& defaults, const YAML::Node& n,
                              const std::string& base_dir, const Expand& expand) {
  std::vector<std::string> argv;
  if (n["command"].IsSequence()) {
    argv = n["command"].as<std::vector<std::string>>();
    if (argv.empty()) return err(yaml_where(path, n["command"]) + ": command: an empty list runs nothing");
    for (auto& a : argv) {
      auto e = expand(a);
      if (!e) return err(yaml_where(path, n["command"]) + ": command: " + e.error());
      a = std::move(*e);
    }
  } else {
    auto e = expand(n["command"].as<std::string>());
    if (!e) return err(yaml_where(path, n["command"]) + ": command: " + e.error());
    argv = {"/bin/sh", "-c", std::move(*e)};
  }
  StepJob job;
  if (n["flags"]) {
    auto words = flag_words(path, n["flags"], &expand);
    if (!words) return words.failure();
    words->insert(words->begin(), defaults.flags.begin(), defaults.flags.end());
    auto f = flagged(path, n["flags"], *words);
    if (!f) return f.failure();
    job = std::move(*f);
  } else {
    job = defaults.flagged;
  }
  job.spec.argv = std::move(argv);
  job.spec.workdir = base_dir;
  if (defaults.node && defaults.node.IsMap())
    if (auto s = read_keys(path, defaults.node, base_dir, expand, job); !s) return s.failure();
  if (auto s = read_keys(path, n, base_dir, expand, job); !s) return s.failure();
  return job;
}

}  // namespace yard

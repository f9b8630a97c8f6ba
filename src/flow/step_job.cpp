#include "flow/step_job.h"

#include <filesystem>
#include <set>

#include "core/batch_directives.h"  // split_directive_words
#include "core/duration.h"
#include "core/size.h"
#include "flow/flow_keys.h"
#include "flow/retry_key.h"
#include "jobtext/submit_options.h"

namespace yard {
namespace {


// The words of a `flags:` value: a string split as an #SBATCH line, or a list.
Result<std::vector<std::string>> flag_words(const std::string& path, const YamlNode& flags, const Expand* expand) {
  std::vector<std::string> words;
  if (flags.is_sequence()) {
    words = flags.strings();
  } else {
    auto split = split_directive_words(flags.str());
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

Result<StepJob> flagged(const std::string& path, const YamlNode& at, const std::vector<std::string>& words) {
  auto f = parse_job_flags(words, {"true"});
  if (!f) return err(yaml_where(path, at) + ": flags: " + f.error());
  StepJob job{std::move(f->spec), std::move(f->job_class)};
  for (const auto& w : words) job.own_env = job.own_env || w.rfind("--export", 0) == 0;
  if (!job.own_env) job.spec.env.clear();
  return job;
}

// The keys of `n` but flags and command onto `job`.
Status read_keys(const std::string& path, const YamlNode& n, const std::string& base_dir, const Expand& expand,
                 StepJob& job) {
  JobSpec& s = job.spec;
  auto text = [&](const char* key) -> Result<std::string> {
    auto v = expand(n[key].str());
    if (!v) return err(yaml_where(path, n[key]) + ": " + key + ": " + v.error());
    return v;
  };
  if (n["ntasks"]) s.res.ntasks = n["ntasks"].integer();
  if (n["cpus_per_task"]) s.res.cpus_per_task = n["cpus_per_task"].integer();
  if (n["gpus"]) s.res.gpus = n["gpus"].integer();
  if (n["priority"]) s.priority = n["priority"].integer();
  for (auto [key, out] : {std::pair{"mem", &s.res.mem_bytes}, std::pair{"mem_per_cpu", &s.res.mem_per_cpu_bytes}}) {
    if (!n[key]) continue;
    auto v = parse_memory_size(n[key].str());
    if (!v) return err(yaml_where(path, n[key]) + ": " + key + ": " + v.error());
    *out = *v;
  }
  if (n["time"]) {
    auto t = parse_walltime(n["time"].str());
    if (!t) return err(yaml_where(path, n["time"]) + ": time: " + t.error());
    s.res.walltime_s = *t;
  }
  if (n["retry"]) {
    auto r = read_retry(path, n["retry"]);
    if (!r) return r.failure();
    s.retry = *r;
  }
  if (n["array"]) {
    auto a = parse_array_spec(n["array"].str());
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

bool is_job_key(std::string_view key) { return has_setting(kFlowJobKeys, key); }

Result<StepDefaults> read_step_defaults(const std::string& path, const YamlNode& node) {
  StepDefaults d;
  d.node = node;
  if (node && !node.is_null()) {
    if (!node.is_map()) return err(yaml_where(path, node) + ": defaults: expected a mapping of job keys");
    for (std::size_t i = 0; i < node.size(); ++i) {
      const YamlNode k = node.child(2 * i);
      const auto key = k.str();
      if (key == "command") return err(yaml_where(path, k) + ": defaults: a command is each step's own");
      if (!is_job_key(key)) return err(yaml_where(path, k) + ": defaults: unknown key '" + key + "'");
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

Result<StepJob> read_step_job(const std::string& path, const StepDefaults& defaults, const YamlNode& n,
                              const std::string& base_dir, const Expand& expand) {
  std::vector<std::string> argv;
  if (n["command"].is_sequence()) {
    argv = n["command"].strings();
    if (argv.empty()) return err(yaml_where(path, n["command"]) + ": command: an empty list runs nothing");
    for (auto& a : argv) {
      auto e = expand(a);
      if (!e) return err(yaml_where(path, n["command"]) + ": command: " + e.error());
      a = std::move(*e);
    }
  } else {
    auto e = expand(n["command"].str());
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
  if (defaults.node && defaults.node.is_map())
    if (auto s = read_keys(path, defaults.node, base_dir, expand, job); !s) return s.failure();
  if (auto s = read_keys(path, n, base_dir, expand, job); !s) return s.failure();
  return job;
}

}  // namespace yard

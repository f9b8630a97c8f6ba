#include "flow/run_file.h"

#include <algorithm>
#include <map>

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <set>

#include "core/duration.h"
#include "core/size.h"
#include "core/batch_directives.h"  // split_directive_words
#include "core/yaml_file.h"
#include "jobtext/submit_options.h"

namespace yard {
namespace {

std::string where(const std::string& path, const YAML::Node& n) { return yaml_where(path, n); }

}  // namespace

Result<std::vector<RunJob>> load_run_file(const std::string& path, const std::string& base_dir,
                                          const std::map<std::string, std::string>& env) {
  auto loaded = load_yaml(path);
  if (!loaded) return Error{loaded.failure()};
  const YAML::Node root = *loaded;
  if (!root.IsMap() || !root["jobs"] || !root["jobs"].IsSequence())
    return err(path + ": expected a mapping with a 'jobs' list");
  std::vector<RunJob> jobs;
  std::map<std::string, std::string> after_at;  // job name -> where its 'after' is, for errors
  std::set<std::string> names;
  static const std::set<std::string> kKeys = {"name", "command", "ntasks", "cpus_per_task", "mem", "mem_per_cpu",
                                              "gpus", "time", "array", "priority", "output", "error", "chdir", "after",
                                              "flags"};
  try {
    for (const auto& n : root["jobs"]) {
      const std::string at = where(path, n);
      if (!n.IsMap()) return err(at + ": each job must be a mapping");
      for (auto it = n.begin(); it != n.end(); ++it) {
        auto key = it->first.as<std::string>();
        if (!kKeys.count(key)) return err(where(path, it->first) + ": unknown key '" + key + "'");
      }
      RunJob j;
      if (!n["name"]) return err(at + ": job without a name");
      j.name = n["name"].as<std::string>();
      if (j.name.empty()) return err(where(path, n["name"]) + ": job name is empty (name: \"\")");
      if (!names.insert(j.name).second) return err(at + ": duplicate job name '" + j.name + "'");
      if (!n["command"]) return err(at + ": job '" + j.name + "' has no command");
      std::vector<std::string> argv;
      if (n["command"].IsSequence()) argv = n["command"].as<std::vector<std::string>>();
      else argv = {"/bin/sh", "-c", n["command"].as<std::string>()};
      JobSpec& s = j.spec;
      if (n["flags"]) {
        // Every flag a job of yard submit takes, as on its command line (or a list of words);
        // the keys below, when given too, win.
        auto words = n["flags"].IsSequence() ? Result<std::vector<std::string>>(n["flags"].as<std::vector<std::string>>())
                                             : split_directive_words(n["flags"].as<std::string>());
        if (!words) return err(where(path, n["flags"]) + ": flags: " + words.error());
        auto flagged = parse_job_flags(*words, argv);
        if (!flagged) return err(where(path, n["flags"]) + ": flags: " + flagged.error());
        s = std::move(flagged->spec);
        j.job_class = std::move(flagged->job_class);
      } else {
        s.env = env;
        s.argv = argv;
      }
      s.name = j.name;
      if (n["ntasks"]) s.res.ntasks = n["ntasks"].as<int>();
      if (n["cpus_per_task"]) s.res.cpus_per_task = n["cpus_per_task"].as<int>();
      if (n["gpus"]) s.res.gpus = n["gpus"].as<int>();
      if (n["priority"]) s.priority = n["priority"].as<int>();
      auto size = [&](const char* key, std::uint64_t& out) -> Status {
        if (!n[key]) return {};
        auto v = parse_memory_size(n[key].as<std::string>());
        if (!v) return err(where(path, n[key]) + ": " + key + ": " + v.error());
        out = *v;
        return {};
      };
      if (auto st = size("mem", s.res.mem_bytes); !st) return st.failure();
      if (auto st = size("mem_per_cpu", s.res.mem_per_cpu_bytes); !st) return st.failure();
      if (n["time"]) {
        auto t = parse_walltime(n["time"].as<std::string>());
        if (!t) return err(where(path, n["time"]) + ": time: " + t.error());
        s.res.walltime_s = *t;
      }
      if (n["array"]) {
        auto a = parse_array_spec(n["array"].as<std::string>());
        if (!a) return err(where(path, n["array"]) + ": array: " + a.error());
        s.array = *a;
      }
      if (n["output"]) s.stdout_path = n["output"].as<std::string>();
      if (n["error"]) s.stderr_path = n["error"].as<std::string>();
      std::filesystem::path dir = n["chdir"] ? std::filesystem::path(n["chdir"].as<std::string>()) : "";
      s.workdir = (dir.is_absolute() ? dir : std::filesystem::path(base_dir) / dir).lexically_normal().string();
      if (s.workdir.size() > 1 && s.workdir.back() == '/') s.workdir.pop_back();
      if (n["after"]) {
        after_at[j.name] = where(path, n["after"]);
        if (n["after"].IsSequence()) j.after = n["after"].as<std::vector<std::string>>();
        else j.after = {n["after"].as<std::string>()};
      }
      if (auto st = s.validate(); !st) return err(at + ": job '" + j.name + "': " + st.error());
      jobs.push_back(std::move(j));
    }
  } catch (const YAML::Exception& e) {
    return err(yaml_error(path, e));
  }
  // Order so that every job follows the jobs it waits for; a cycle is an error.
  std::vector<RunJob> ordered;
  std::set<std::string> placed;
  while (ordered.size() < jobs.size()) {
    bool progress = false;
    for (auto& j : jobs) {
      if (placed.count(j.name)) continue;
      bool ready = true;
      for (auto& a : j.after) {
        if (!names.count(a))
          return err(after_at[j.name] + ": after: job '" + j.name + "' waits for unknown job '" + a + "'");
        ready = ready && placed.count(a);
      }
      if (ready) {
        placed.insert(j.name);
        ordered.push_back(j);
        progress = true;
      }
    }
    if (!progress) {
      // Every job left waits for another one left: walk from one until a job comes again,
      // and name that cycle step by step.
      const RunJob* at = nullptr;
      for (auto& j : jobs)
        if (!placed.count(j.name)) at = &j;
      std::vector<std::string> walk;
      while (std::find(walk.begin(), walk.end(), at->name) == walk.end()) {
        walk.push_back(at->name);
        for (auto& a : at->after)
          if (!placed.count(a)) {
            at = &*std::find_if(jobs.begin(), jobs.end(), [&](const RunJob& j) { return j.name == a; });
            break;
          }
      }
      std::string cycle;
      for (auto it = std::find(walk.begin(), walk.end(), at->name); it != walk.end(); ++it) cycle += *it + " -> ";
      return err(after_at[at->name] + ": after: a cycle: " + cycle + at->name);
    }
  }
  return ordered;
}

}  // namespace yard

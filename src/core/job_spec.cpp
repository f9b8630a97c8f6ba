#include "core/job_spec.h"

#include <nlohmann/json.hpp>

namespace yard {

std::uint64_t Resources::total_mem_bytes() const {
  if (mem_bytes) return mem_bytes * static_cast<std::uint64_t>(nodes);
  return mem_per_cpu_bytes * static_cast<std::uint64_t>(total_cpus());
}

Status JobSpec::validate() const {
  auto positive = [](int v, const char* flag) -> Status {
    if (v < 1) return err(std::string(flag) + " must be at least 1, got " + std::to_string(v));
    return {};
  };
  if (auto s = positive(res.nodes, "--nodes"); !s) return s;
  if (auto s = positive(res.ntasks, "--ntasks"); !s) return s;
  if (auto s = positive(res.cpus_per_task, "--cpus-per-task"); !s) return s;
  if (res.gpus < 0) return err("--gpus must not be negative, got " + std::to_string(res.gpus));
  if (res.walltime_s < 0) return err("--time must not be negative");
  if (res.mem_bytes && res.mem_per_cpu_bytes) return err("--mem and --mem-per-cpu are mutually exclusive");
  if (argv.empty() && script.empty()) return err("nothing to run: give a command after -- or a script file");
  if (script.empty() && argv[0].empty()) return err("the command is empty");
  if (workdir.empty() || workdir[0] != '/') return err("working directory must be an absolute path, got '" + workdir + "'");
  if (name.find('\n') != std::string::npos) return err("job name must not contain a newline");
  for (auto& d : dependencies)
    if (d.job_id <= 0) return err("dependency on invalid job id " + std::to_string(d.job_id));
  if (array && array->indices.empty()) return err("array has no indices");
  return {};
}

void to_json(nlohmann::json& j, const JobSpec& s) {
  j = nlohmann::json{
      {"name", s.name}, {"argv", s.argv}, {"script", s.script}, {"workdir", s.workdir},
      {"env", s.env}, {"stdout", s.stdout_path}, {"stderr", s.stderr_path},
      {"nodes", s.res.nodes}, {"ntasks", s.res.ntasks}, {"cpus_per_task", s.res.cpus_per_task},
      {"mem_bytes", s.res.mem_bytes}, {"mem_per_cpu_bytes", s.res.mem_per_cpu_bytes},
      {"gpus", s.res.gpus}, {"walltime_s", s.res.walltime_s}, {"partition", s.partition},
      {"account", s.account}, {"qos", s.qos}, {"backend", s.backend}, {"priority", s.priority},
  };
  auto deps = nlohmann::json::array();
  for (auto& d : s.dependencies) deps.push_back({{"type", to_string(d.kind)}, {"job", d.job_id}});
  j["dependencies"] = deps;
  if (s.array) j["array"] = {{"indices", s.array->indices}, {"max_running", s.array->max_running}};
}

void from_json(const nlohmann::json& j, JobSpec& s) {
  s = JobSpec{};
  s.name = j.value("name", "");
  s.argv = j.value("argv", std::vector<std::string>{});
  s.script = j.value("script", "");
  s.workdir = j.value("workdir", "");
  s.env = j.value("env", std::map<std::string, std::string>{});
  s.stdout_path = j.value("stdout", "");
  s.stderr_path = j.value("stderr", "");
  s.res.nodes = j.value("nodes", 1);
  s.res.ntasks = j.value("ntasks", 1);
  s.res.cpus_per_task = j.value("cpus_per_task", 1);
  s.res.mem_bytes = j.value("mem_bytes", std::uint64_t{0});
  s.res.mem_per_cpu_bytes = j.value("mem_per_cpu_bytes", std::uint64_t{0});
  s.res.gpus = j.value("gpus", 0);
  s.res.walltime_s = j.value("walltime_s", std::int64_t{0});
  s.partition = j.value("partition", "");
  s.account = j.value("account", "");
  s.qos = j.value("qos", "");
  s.backend = j.value("backend", "");
  s.priority = j.value("priority", 0);
  if (j.contains("dependencies"))
    for (auto& d : j.at("dependencies")) {
      auto kind = parse_dependency_kind(d.at("type").get<std::string>());
      if (!kind) throw nlohmann::json::other_error::create(501, kind.error(), &j);
      s.dependencies.push_back({*kind, d.at("job").get<std::int64_t>()});
    }
  if (j.contains("array"))
    s.array = ArraySpec{j["array"].at("indices").get<std::vector<std::int64_t>>(),
                        j["array"].value("max_running", 0)};
}

}  // namespace yard

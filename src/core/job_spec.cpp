#include "core/job_spec.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/byte_json.h"
#include "core/text.h"

namespace yard {

std::optional<std::uint64_t> Resources::checked_total_mem_bytes() const {
  // Negative counts are refused by validate(); here they count as none.
  if (mem_bytes) return checked_mul(mem_bytes, static_cast<std::uint64_t>(std::max(nodes, 0)));
  return checked_mul(mem_per_cpu_bytes, static_cast<std::uint64_t>(std::max<std::int64_t>(total_cpus(), 0)));
}

namespace {

// `where` prefixes messages: "" for an ordinary job, "component K: " for a het job's.
Status validate_resources(const Resources& res, const std::string& where) {
  auto positive = [&](int v, const char* flag) -> Status {
    if (v < 1) return err(where + flag + " must be at least 1, got " + std::to_string(v));
    return {};
  };
  if (auto s = positive(res.nodes, "--nodes"); !s) return s;
  if (res.max_nodes != 0 && res.max_nodes < res.nodes)
    return err(where + "--nodes " + std::to_string(res.nodes) + "-" + std::to_string(res.max_nodes) +
               ": the most nodes is below the least");
  if (auto s = positive(res.ntasks, "--ntasks"); !s) return s;
  if (auto s = positive(res.cpus_per_task, "--cpus-per-task"); !s) return s;
  if (res.gpus < 0) return err(where + "--gpus must not be negative, got " + std::to_string(res.gpus));
  if (res.walltime_s < 0) return err(where + "--time must not be negative");
  if (res.mem_bytes && res.mem_per_cpu_bytes) return err(where + "--mem and --mem-per-cpu are mutually exclusive");
  if (res.total_cpus() > kMaxJobCount)
    return err(where + "--ntasks " + std::to_string(res.ntasks) + " x --cpus-per-task " +
               std::to_string(res.cpus_per_task) + " is " + std::to_string(res.total_cpus()) +
               " CPUs, more than a job can have (at most " + std::to_string(kMaxJobCount) + ")");
  if (!res.checked_total_mem_bytes())
    return err(where + (res.mem_bytes ? "--mem " + std::to_string(res.mem_bytes) + " bytes x --nodes " +
                                            std::to_string(res.nodes)
                                      : "--mem-per-cpu " + std::to_string(res.mem_per_cpu_bytes) + " bytes x " +
                                            std::to_string(res.total_cpus()) + " CPUs") +
               " does not fit in 64 bits: more memory than any machine has");
  return {};
}

// The sums over the components, each checked (every component is valid on its own).
Status validate_totals(const JobSpec& s) {
  std::optional<std::int64_t> cpus = s.res.total_cpus(), tasks = s.res.ntasks, gpus = s.res.gpus;
  std::optional<std::uint64_t> mem = s.res.checked_total_mem_bytes();
  for (auto& c : s.components) {
    cpus = cpus ? checked_add(*cpus, c.res.total_cpus()) : cpus;
    tasks = tasks ? checked_add<std::int64_t>(*tasks, c.res.ntasks) : tasks;
    gpus = gpus ? checked_add<std::int64_t>(*gpus, c.res.gpus) : gpus;
    mem = mem ? checked_add(*mem, c.res.total_mem_bytes()) : mem;
  }
  auto over = [](const std::optional<std::int64_t>& v) { return !v || *v > kMaxJobCount; };
  const std::string most = " (at most " + std::to_string(kMaxJobCount) + ")";
  if (over(cpus)) return err("the components ask for more CPUs in all than a job can have" + most);
  if (over(tasks)) return err("the components ask for more tasks in all than a job can have" + most);
  if (over(gpus)) return err("the components ask for more GPUs in all than a job can have" + most);
  if (!mem) return err("the components' memory in all does not fit in 64 bits: more than any machine has");
  return {};
}

nlohmann::json resources_json(const Resources& r) {
  nlohmann::json j = {{"nodes", r.nodes}, {"ntasks", r.ntasks}, {"cpus_per_task", r.cpus_per_task},
          {"mem_bytes", r.mem_bytes}, {"mem_per_cpu_bytes", r.mem_per_cpu_bytes},
          {"gpus", r.gpus}, {"walltime_s", r.walltime_s}};
  if (r.max_nodes > 0) j["max_nodes"] = r.max_nodes;
  if (!r.other_gres.empty()) j["other_gres"] = bytes_to_json(r.other_gres);
  return j;
}

// sbatch's other options as [[name, value], ...], bytes kept.
nlohmann::json options_json(const SbatchSettings& options) {
  auto o = nlohmann::json::array();
  for (auto& [name, value] : options) o.push_back({bytes_to_json(name), bytes_to_json(value)});
  return o;
}

SbatchSettings options_from_json(const nlohmann::json& j) {
  SbatchSettings options;
  for (auto& o : j) options.emplace_back(bytes_from_json(o.at(0)), bytes_from_json(o.at(1)));
  return options;
}

void resources_from_json(const nlohmann::json& j, Resources& r) {
  r.nodes = j.value("nodes", 1);
  r.max_nodes = j.value("max_nodes", 0);
  if (j.contains("other_gres")) r.other_gres = bytes_from_json(j["other_gres"]);
  r.ntasks = j.value("ntasks", 1);
  r.cpus_per_task = j.value("cpus_per_task", 1);
  r.mem_bytes = j.value("mem_bytes", std::uint64_t{0});
  r.mem_per_cpu_bytes = j.value("mem_per_cpu_bytes", std::uint64_t{0});
  r.gpus = j.value("gpus", 0);
  r.walltime_s = j.value("walltime_s", std::int64_t{0});
}

}  // namespace

Status JobSpec::validate() const {
  if (auto s = validate_resources(res, components.empty() ? "" : "component 0: "); !s) return s;
  for (std::size_t i = 0; i < components.size(); ++i)
    if (auto s = validate_resources(components[i].res, "component " + std::to_string(i + 1) + ": "); !s) return s;
  if (auto s = validate_totals(*this); !s) return s;
  if (!components.empty() && array)
    return err("an array cannot be a heterogeneous job (components separated by ':'), as in Slurm");
  if (retry)
    if (auto s = yard::validate(*retry); !s) return s;
  if (het_group < -1) return err("--het-group: " + std::to_string(het_group) + " is not a component (0, 1, ...)");
  if (!launcher.empty() && launcher != "mpirun")
    return err("--launcher: unknown launcher '" + launcher + "' (accepted: mpirun)");
  for (std::size_t i = 0; i < components.size(); ++i) {
    const std::string where = "component " + std::to_string(i + 1) + ": ";
    if (launcher == "mpirun" && components[i].argv.empty())
      return err(where + "no program: with --launcher mpirun each app context is flags then a program (-n 2 ./b)");
    if (launcher != "mpirun" && !components[i].argv.empty())
      return err(where + "a program per component needs --launcher mpirun (MPMD); a heterogeneous job runs one command");
    if (!components[i].argv.empty() && components[i].argv[0].empty()) return err(where + "the program is empty");
  }
  if (launcher == "mpirun" && !script.empty())
    return err("--launcher mpirun runs programs (mpirun -np N PROGRAM), not a batch script");
  if (argv.empty() && script.empty()) return err("nothing to run: give a command after -- or a script file");
  if (script.empty() && argv[0].empty()) return err("the command is empty");
  if (workdir.empty() || workdir[0] != '/') return err("working directory must be an absolute path, got '" + workdir + "'");
  if (name.find('\n') != std::string::npos) return err("job name must not contain a newline");
  for (auto& d : dependencies) {
    if (d.job_id <= 0 && d.kind != DependencyKind::Singleton)
      return err("dependency on invalid job id " + std::to_string(d.job_id));
    if (d.kind == DependencyKind::AfterCorr && !array)
      return err("--dependency aftercorr:" + std::to_string(d.job_id) +
                 ": element by element is for an array job (--array); this job is not one");
  }
  if (array && array->indices.empty()) return err("array has no indices");
  for (auto& [option, value] : slurm_options)
    if (!find_sbatch_option(option) || value.find('\n') != std::string::npos)
      return err("sbatch option '--" + escape_for_terminal(option) + "': not one yard passes on, or a value with a newline");
  for (auto& t : job_types) {
    auto word = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             std::string_view("_=.-").find(c) != std::string_view::npos;
    };
    if (t.empty() || t[0] == '-' || !std::all_of(t.begin(), t.end(), word))
      return err("--job-type '" + escape_for_terminal(t) + "': a job type is letters, digits and _ = . - (besteffort, inner=12)");
  }
  return {};
}

std::optional<OpenMode> JobSpec::open_mode() const {
  auto it = env.find(kOpenModeVariable);
  if (it == env.end()) return std::nullopt;
  return it->second == "append" ? OpenMode::Append : OpenMode::Truncate;
}

void JobSpec::set_open_mode(std::optional<OpenMode> mode) {
  if (!mode) env.erase(kOpenModeVariable);
  else env[kOpenModeVariable] = *mode == OpenMode::Append ? "append" : "truncate";
}

namespace {

// The sum of `part(r)` over the job's components, saturated.
template <typename T, typename Part>
T sum_over(const JobSpec& s, Part part) {
  T n = part(s.res);
  for (auto& c : s.components) n = saturate(checked_add<T>(n, part(c.res)));
  return n;
}

}  // namespace

std::int64_t JobSpec::total_cpus() const {
  return sum_over<std::int64_t>(*this, [](const Resources& r) { return r.total_cpus(); });
}

std::uint64_t JobSpec::total_mem_bytes() const {
  return sum_over<std::uint64_t>(*this, [](const Resources& r) { return r.total_mem_bytes(); });
}

std::int64_t JobSpec::total_gpus() const {
  return sum_over<std::int64_t>(*this, [](const Resources& r) { return std::int64_t{r.gpus}; });
}

std::int64_t JobSpec::total_ntasks() const {
  return sum_over<std::int64_t>(*this, [](const Resources& r) { return std::int64_t{r.ntasks}; });
}

Status refuse_unhonoured_options(const JobSpec& spec, std::string_view backend,
                                 const std::function<bool(std::string_view)>& honours) {
  for (auto& [name, value] : spec.slurm_options) {
    const SbatchOption* o = find_sbatch_option(name);
    if (o && o->use == SbatchUse::Refuse && !honours(name))
      return err("--" + name + (value.empty() ? "" : "=" + escape_for_terminal(value)) + ": backend " +
                 std::string(backend) + " cannot run this job as asked: " + std::string(o->why) +
                 " (backend " + std::string(backend) + " does not honour it)");
  }
  return {};
}

std::vector<std::string> unhonoured_option_warnings(const JobSpec& spec, std::string_view backend,
                                                    const std::function<bool(std::string_view)>& honours) {
  std::vector<std::string> out;
  const std::string b(backend);
  if (!honours("job-type"))
    for (auto& type : spec.job_types)
      out.push_back("--job-type " + type + ": backend " + b + " has no kinds of job; ignored");
  if (!spec.res.other_gres.empty() && !honours("gres"))
    out.push_back("--gres=" + spec.res.other_gres + ": backend " + b + " has no generic resources but GPUs; ignored");
  for (auto& [name, value] : spec.slurm_options) {
    const SbatchOption* o = find_sbatch_option(name);
    // Tasks per node: yard spreads the tasks itself (Resources), whatever the backend.
    const bool spread = name == "ntasks-per-node" || name == "tasks-per-node";
    if (o && o->use == SbatchUse::Pass && !spread && !honours(name))
      out.push_back("--" + name + (value.empty() ? "" : "=" + value) + ": backend " + b + " does not honour it; ignored");
  }
  return out;
}

void to_json(nlohmann::json& j, const JobSpec& s) {
  j = spec_json_without_env(s);
  j["env"] = byte_map_to_json(s.env);
}

nlohmann::json spec_json_without_env(const JobSpec& s) {
  // Texts a user or the system chose travel as bytes (core/byte_json.h).
  nlohmann::json j{
      {"name", bytes_to_json(s.name)}, {"argv", byte_list_to_json(s.argv)}, {"script", bytes_to_json(s.script)},
      {"workdir", bytes_to_json(s.workdir)},
      {"stdout", bytes_to_json(s.stdout_path)}, {"stderr", bytes_to_json(s.stderr_path)},
      {"partition", bytes_to_json(s.partition)}, {"account", bytes_to_json(s.account)},
      {"qos", bytes_to_json(s.qos)}, {"backend", bytes_to_json(s.backend)}, {"priority", s.priority},
  };
  j.update(resources_json(s.res));
  if (!s.launcher.empty()) j["launcher"] = s.launcher;
  if (!s.job_types.empty()) j["job_types"] = byte_list_to_json(s.job_types);
  if (s.requeue) j["requeue"] = *s.requeue;
  if (s.retry) j["retry"] = retry_to_json(*s.retry);
  if (!s.slurm_options.empty()) j["slurm_options"] = options_json(s.slurm_options);
  if (s.het_group >= 0) j["het_group"] = s.het_group;
  if (!s.components.empty()) {
    auto comps = nlohmann::json::array();
    for (auto& c : s.components) {
      auto cj = resources_json(c.res);
      cj["partition"] = bytes_to_json(c.partition);
      if (!c.argv.empty()) cj["argv"] = byte_list_to_json(c.argv);
      if (!c.slurm_options.empty()) cj["slurm_options"] = options_json(c.slurm_options);
      comps.push_back(std::move(cj));
    }
    j["components"] = std::move(comps);
  }
  auto deps = nlohmann::json::array();
  for (auto& d : s.dependencies) deps.push_back({{"type", to_string(d.kind)}, {"job", d.job_id}});
  j["dependencies"] = deps;
  if (s.dependency_any) j["dependency_any"] = true;
  if (s.array) j["array"] = {{"indices", s.array->indices}, {"max_running", s.array->max_running}};
  return j;
}

void from_json(const nlohmann::json& j, JobSpec& s) {
  s = JobSpec{};
  auto text = [&j](const char* key) { return j.contains(key) ? bytes_from_json(j[key]) : std::string(); };
  s.name = text("name");
  if (j.contains("argv")) s.argv = byte_list_from_json(j["argv"]);
  s.script = text("script");
  s.workdir = text("workdir");
  if (j.contains("env")) s.env = byte_map_from_json(j["env"]);
  s.stdout_path = text("stdout");
  s.stderr_path = text("stderr");
  resources_from_json(j, s.res);
  s.launcher = j.value("launcher", "");
  if (j.contains("job_types")) s.job_types = byte_list_from_json(j["job_types"]);
  if (j.contains("requeue")) s.requeue = j["requeue"].get<bool>();
  if (j.contains("retry")) s.retry = retry_from_json(j["retry"]);
  if (j.contains("slurm_options")) s.slurm_options = options_from_json(j["slurm_options"]);
  s.het_group = j.value("het_group", -1);
  if (j.contains("components"))
    for (auto& cj : j.at("components")) {
      Component c;
      resources_from_json(cj, c.res);
      if (cj.contains("partition")) c.partition = bytes_from_json(cj["partition"]);
      if (cj.contains("argv")) c.argv = byte_list_from_json(cj["argv"]);
      if (cj.contains("slurm_options")) c.slurm_options = options_from_json(cj["slurm_options"]);
      s.components.push_back(std::move(c));
    }
  s.partition = text("partition");
  s.account = text("account");
  s.qos = text("qos");
  s.backend = text("backend");
  s.priority = j.value("priority", 0);
  if (j.contains("dependencies"))
    for (auto& d : j.at("dependencies")) {
      auto kind = parse_dependency_kind(d.at("type").get<std::string>());
      if (!kind) throw nlohmann::json::other_error::create(501, kind.error(), &j);
      s.dependencies.push_back({*kind, d.at("job").get<std::int64_t>()});
    }
  s.dependency_any = j.value("dependency_any", false);
  if (j.contains("array"))
    s.array = ArraySpec{j["array"].at("indices").get<std::vector<std::int64_t>>(),
                        j["array"].value("max_running", 0)};
}

}  // namespace yard

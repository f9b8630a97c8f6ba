// From parsed flags to a JobSpec: units, walltimes, arrays and dependencies parsed, the
// environment exported, the script or command placed, and the result validated.
#include <charconv>
#include <cstdlib>
#include <filesystem>

#include "jobtext/submit_internal.h"
#include "core/gpus.h"
#include "core/duration.h"
#include "core/size.h"
#include "core/mail_request.h"
#include "core/warning_signal.h"

namespace yard {
namespace {

// sbatch's -N: "N" or "MIN-MAX" (a positive count each); MAX is 0 when not given.
Result<std::pair<int, int>> parse_node_count(const std::string& text) {
  auto count = [&](std::string_view part) -> Result<int> {
    int v = 0;
    auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || p != part.data() + part.size() || v < 1)
      return err("expected a number of nodes N or MIN-MAX, got '" + text + "'");
    return v;
  };
  const auto dash = text.find('-');
  auto least = count(std::string_view(text).substr(0, dash));
  if (!least) return least.failure();
  if (dash == std::string::npos) return std::pair{*least, 0};
  auto most = count(std::string_view(text).substr(dash + 1));
  if (!most) return most.failure();
  if (*most < *least) return err("'" + text + "': the most nodes is below the least");
  return std::pair{*least, *most == *least ? 0 : *most};
}

Result<Resources> make_resources(const ComponentFlags& f, const std::string& where) {
  Resources r;
  r.ntasks = f.ntasks;
  r.cpus_per_task = f.cpus_per_task;
  auto nodes = parse_node_count(f.nodes);
  if (!nodes) return err(where + "--nodes: " + nodes.error());
  r.nodes = nodes->first;
  r.max_nodes = nodes->second;
  if (!f.mem.empty()) {
    auto m = parse_memory_size(f.mem);
    if (!m) return err(where + "--mem: " + m.error());
    r.mem_bytes = *m;
  }
  if (!f.mem_per_cpu.empty()) {
    auto m = parse_memory_size(f.mem_per_cpu);
    if (!m) return err(where + "--mem-per-cpu: " + m.error());
    r.mem_per_cpu_bytes = *m;
  }
  if (!f.time.empty()) {
    auto t = parse_walltime(f.time);
    if (!t) return err(where + "--time: " + t.error());
    r.walltime_s = *t;
  }
  auto gres = split_gres(f.gres);
  if (!gres) return err(where + gres.error());
  auto gpus = parse_gpu_request(f.gpus, gres->gpu);
  if (!gpus) return err(where + gpus.error());
  r.gpus = *gpus;
  r.other_gres = gres->other;
  return r;
}

// sbatch options that yard honours itself, taken out of the list (the rest go to Slurm
// unchanged): --wrap (the command, run by sh), --nice (a lower priority),
// --ntasks-per-node/--tasks-per-node (the tasks of -N nodes when -n is not given).
Status apply_sbatch_options(const SubmitFlags& f, JobSpec& s, std::string& wrap) {
  for (auto& [name, value] : f.sbatch_options) {
    if (name == "wrap") {
      wrap = value;
    } else if (name == "signal") {
      if (auto w = parse_warning_signal(value); !w) return w.failure();
      s.slurm_options.emplace_back(name, value);  // Slurm's as given; the local backend's too
    } else if (name == "mail-type") {
      if (auto m = parse_mail_types(value); !m) return m.failure();
      s.slurm_options.emplace_back(name, value);
    } else if (name == "wait") {
      continue;  // yard submit waits itself (cmd_submit.cpp)
    } else if (name == "nice") {
      char* end = nullptr;
      const long adj = value.empty() ? 100 : std::strtol(value.c_str(), &end, 10);
      if (!value.empty() && (*end != '\0' || adj < -2147483645 || adj > 2147483645))
        return err("--nice: invalid value '" + value + "' (an adjustment such as 100)");
      if (f.priority == 0) s.priority = static_cast<int>(-adj);
    } else {
      if (name == "ntasks-per-node" || name == "tasks-per-node") {
        char* end = nullptr;
        const long per_node = std::strtol(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || per_node < 1 || per_node > 65535)
          return err("--" + name + ": invalid value '" + value + "' (a number of tasks)");
        if (f.ntasks == 1) s.res.ntasks = static_cast<int>(per_node * s.res.nodes);
      }
      s.slurm_options.emplace_back(name, value);
    }
  }
  return {};
}

}  // namespace

Result<JobSpec> make_spec(const SubmitFlags& f, const std::vector<std::string>& command) {
  JobSpec s;
  for (auto& w : command)
    if (w == ":")
      return err("':' after '--': the components of a heterogeneous job are separated before '--' "
                 "(yard submit -p cpu -n 2 : -p gpu --gpus 1 -- cmd); to pass ':' to a program, use a script");
  const std::string where0 = f.components.empty() ? "" : "component 0: ";
  auto res = make_resources(f, where0);
  if (!res) return res.failure();
  s.res = *res;
  for (std::size_t i = 0; i < f.components.size(); ++i) {
    auto r = make_resources(f.components[i], "component " + std::to_string(i + 1) + ": ");
    if (!r) return r.failure();
    s.components.push_back({*r, f.components[i].partition, f.components[i].argv, f.components[i].sbatch_options});
  }
  s.priority = f.priority;
  if (!f.dependency.empty()) {
    auto d = parse_dependencies(f.dependency, &s.dependency_any);
    if (!d) return err("--dependency: " + d.error());
    s.dependencies = *d;
  }
  if (!f.array.empty()) {
    auto a = parse_array_spec(f.array);
    if (!a) return err("--array: " + a.error());
    s.array = *a;
  }
  std::error_code ec;
  std::string cwd = std::filesystem::current_path(ec).string();
  // Whether it exists is the backend's to say: a cluster's nodes may see paths this host
  // does not (sbatch does not look either); the local backend checks it.
  s.workdir = f.chdir.empty() ? cwd : std::filesystem::absolute(f.chdir, ec).lexically_normal().string();
  s.stdout_path = f.output;
  s.stderr_path = f.error;
  s.partition = f.partition;
  s.account = f.account;
  s.qos = f.qos;
  s.backend = f.backend;
  auto env = export_environment(f.exports, current_environment());
  if (!env) return env.failure();
  s.env = std::move(*env);
  // Set or cleared: a YARD_OPEN_MODE in the submitting environment is not a request.
  s.set_open_mode(parse_open_mode(f.open_mode));

  s.launcher = f.launcher;
  s.job_types = f.job_types;
  s.requeue = f.requeue;
  std::string wrap;
  if (auto st = apply_sbatch_options(f, s, wrap); !st) return st.failure();
  s.het_group = f.het_group;
  if (f.launcher == "mpirun" && command.empty() && !f.positional.empty()) {
    // MPMD: the first app context's program, not a batch script.
    s.argv = f.positional;
    s.name = f.name.empty() ? std::filesystem::path(f.positional[0]).filename().string() : f.name;
  } else if (!wrap.empty()) {
    // sbatch --wrap: the command line in a script of sh's own.
    if (!command.empty() || !f.positional.empty()) return err("--wrap: give either --wrap or a script or a command, not both");
    s.script = "#!/bin/sh\n# This script was created by sbatch --wrap.\n\n" + wrap + "\n";
    s.name = f.name.empty() ? "wrap" : f.name;
  } else if (!command.empty()) {
    if (!f.positional.empty()) return err("give either a script or a command after --, not both");
    s.argv = command;
    s.name = f.name.empty() ? std::filesystem::path(command[0]).filename().string() : f.name;
  } else if (!f.positional.empty()) {
    const std::string& path = f.positional[0];
    if (f.script_text) {
      s.script = *f.script_text;
    } else {
      auto text = read_script(path);
      if (!text) return text.failure();
      s.script = std::move(*text);
    }
    s.argv.assign(f.positional.begin() + 1, f.positional.end());
    s.name = f.name.empty() ? std::filesystem::path(path).filename().string() : f.name;
  } else {
    return err("nothing to run: give a batch script, or a command after --");
  }
  if (auto st = s.validate(); !st) return st.failure();
  return s;
}

}  // namespace yard

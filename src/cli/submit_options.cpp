#include "cli/submit_options.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/batch_directives.h"
#include "core/duration.h"
#include "core/size.h"
#include "core/text.h"

extern char** environ;

namespace yard {

void add_component_flags(CLI::App& app, ComponentFlags& f) {
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("-n,--ntasks", f.ntasks, "Number of tasks");
  app.add_option("-c,--cpus-per-task", f.cpus_per_task, "CPUs per task");
  app.add_option("-N,--nodes", f.nodes, "Number of nodes");
  app.add_option("--mem", f.mem, "Memory per node, e.g. 500M, 4G (no unit: MB)");
  app.add_option("--mem-per-cpu", f.mem_per_cpu, "Memory per CPU");
  app.add_option("-t,--time", f.time, "Walltime: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS");
  app.add_option("-G,--gpus", f.gpus, "Number of GPUs (N or TYPE:N)");
  app.add_option("--gres", f.gres, "Generic resources: only gpu[:TYPE][:N] (as --gpus on one node)");
  app.add_option("-p,--partition", f.partition, "Partition (queue)");
}

void add_submit_flags(CLI::App& app, SubmitFlags& f) {
  add_component_flags(app, f);
  app.add_option("-J,--job-name", f.name, "Job name");
  app.add_option("-o,--output", f.output, "Standard output file (%j job id, %x name, %A/%a array)");
  app.add_option("-e,--error", f.error, "Standard error file (default: with the output)");
  app.add_option("-D,--chdir", f.chdir, "Working directory (default: the current one)");
  app.add_option("--export", f.exports, "Environment: ALL, NONE, or NAME[=value],... (default ALL)");
  app.add_option("-d,--dependency", f.dependency, "afterok|afterany|afternotok:ID[:ID...][,...]");
  app.add_option("--priority", f.priority, "Priority (higher runs first)");
  app.add_option("-a,--array", f.array, "Array indices, e.g. 0-15, 1,3,5-9:2, 1-1000%50");
  app.add_option("-A,--account", f.account, "Account to charge");
  app.add_option("-q,--qos", f.qos, "Quality of service");
  app.add_option("--backend", f.backend, "Backend to run on (default: local)");
  app.add_option("--class", f.job_class, "Class of job: its backend and defaults (slurm.yaml classes:)");
  app.add_option("--het-group", f.het_group,
                 "slurm-steps in a heterogeneous allocation: the component (0, 1, ...) the step runs in")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--launcher", f.launcher,
                 "mpirun: one mpirun in the allocation (--backend slurm-steps); MPMD: -n 1 ./a : -n 2 ./b");
  app.add_option("script", f.positional, "Batch script and its arguments (or a command after --)");
  app.footer(
      "Heterogeneous job (components started together, e.g. on different partitions): separate\n"
      "each component's -n -c -N --mem --mem-per-cpu -t -G --gres -p with a lone ':', as in Slurm:\n"
      "  yard submit --backend slurm -p cpu -n 2 : -p gpu --gpus 1 -- cmd   (it runs in component 0)\n"
      "In a script, '#SBATCH hetjob' separates the components' directives.\n"
      "MPMD in a Slurm allocation, one mpirun and one MPI world (app contexts: flags, then a program):\n"
      "  yard submit --backend slurm-steps --launcher mpirun -n 1 ./a : -n 2 ./b");
}

namespace {

// Every flag of `yard submit` takes a value but --json and --help; one glued to its flag
// (-n2, --mem=1G) is in the same word.
bool takes_value(const std::string& flag) {
  const bool no_value = flag == "--json" || flag == "--help" || flag == "-h";
  return !no_value && flag.find('=') == std::string::npos && (flag[1] == '-' || flag.size() == 2);
}

// The index of the first word that is not a flag, a flag's value or ':' (a script or a
// program), or words.size().
std::size_t flags_end(const std::vector<std::string>& words) {
  bool value_next = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (value_next) {
      value_next = false;
    } else if (w == ":") {
      continue;
    } else if (w.size() > 1 && w[0] == '-') {
      value_next = takes_value(w);
    } else {
      return i;
    }
  }
  return words.size();
}

std::string empty_component(std::size_t k) {
  return "component " + std::to_string(k) +
         " of the heterogeneous job is empty: give its flags between the ':' separators, "
         "e.g. yard submit -p cpu -n 2 : -p gpu --gpus 1 -- cmd";
}

// --launcher mpirun among the flags (before any program).
bool wants_mpirun(const std::vector<std::string>& args) {
  const std::size_t end = flags_end(args);
  for (std::size_t i = 0; i < end; ++i) {
    if (args[i] == "--launcher=mpirun") return true;
    if (args[i] == "--launcher" && i + 1 < end && args[i + 1] == "mpirun") return true;
  }
  return false;
}

}  // namespace

Result<std::vector<std::vector<std::string>>> split_components(const std::vector<std::string>& args) {
  std::vector<std::vector<std::string>> groups(1);
  bool value_next = false;
  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& w = args[i];
    if (value_next) {
      value_next = false;
    } else if (w == ":") {
      groups.emplace_back();
      continue;
    } else if (w.size() > 1 && w[0] == '-') {
      value_next = takes_value(w);
    } else {
      break;  // the script: it and its arguments are the last group's
    }
    groups.back().push_back(w);
  }
  for (; i < args.size(); ++i) groups.back().push_back(args[i]);
  if (groups.size() > 1)
    for (std::size_t k = 0; k < groups.size(); ++k)
      if (groups[k].empty()) return err(empty_component(k));
  return groups;
}

Result<std::map<std::string, std::string>> export_environment(const std::string& spec) {
  std::map<std::string, std::string> all, out;
  for (char** e = environ; e && *e; ++e) {
    std::string_view kv(*e);
    auto eq = kv.find('=');
    if (eq != std::string_view::npos) all[std::string(kv.substr(0, eq))] = std::string(kv.substr(eq + 1));
  }
  if (spec.empty() || spec == "ALL") return all;
  for (const char* keep : {"HOME", "USER", "LOGNAME"})
    if (all.count(keep)) out[keep] = all[keep];
  out["PATH"] = "/usr/local/bin:/usr/bin:/bin";
  if (spec == "NONE") return out;
  for (auto item : split(spec, ',')) {
    if (item == "ALL") {
      for (auto& [k, v] : all) out[k] = v;
      continue;
    }
    if (item == "NONE" || item.empty()) continue;
    auto eq = item.find('=');
    std::string name(item.substr(0, eq));
    if (name.empty()) return err("--export: empty variable name in '" + spec + "'");
    if (eq != std::string_view::npos) out[name] = std::string(item.substr(eq + 1));
    else if (all.count(name)) out[name] = all[name];
  }
  return out;
}

namespace {

Result<Resources> make_resources(const ComponentFlags& f, const std::string& where) {
  Resources r;
  r.ntasks = f.ntasks;
  r.cpus_per_task = f.cpus_per_task;
  r.nodes = f.nodes;
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
  std::string gpus = f.gpus;
  if (!f.gres.empty() && gpus.empty()) {
    // Slurm's gpu[:type][:count]; the count defaults to 1.
    std::string_view g = f.gres;
    if (g != "gpu" && g.substr(0, 4) != "gpu:")
      return err(where + "--gres: only GPUs are understood (gpu, gpu:N or gpu:TYPE:N), got '" + f.gres + "'");
    gpus = g == "gpu" ? "1" : std::string(g.substr(4));
    if (gpus.find(':') == std::string::npos && !gpus.empty() && !(gpus[0] >= '0' && gpus[0] <= '9')) gpus = "1";
  }
  if (!gpus.empty()) {
    std::string_view g = gpus;
    if (auto colon = g.rfind(':'); colon != std::string_view::npos) g = g.substr(colon + 1);
    int n = -1;
    auto [p, ec] = std::from_chars(g.data(), g.data() + g.size(), n);
    if (ec != std::errc() || p != g.data() + g.size() || n < 0)
      return err(where + (f.gpus.empty() ? "--gres: invalid value '" + f.gres : "--gpus: invalid value '" + f.gpus) +
                 "' (accepted: N or TYPE:N, N >= 0)");
    r.gpus = n;
  }
  return r;
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
  if (!res) return Error{res.error()};
  s.res = *res;
  for (std::size_t i = 0; i < f.components.size(); ++i) {
    auto r = make_resources(f.components[i], "component " + std::to_string(i + 1) + ": ");
    if (!r) return Error{r.error()};
    s.components.push_back({*r, f.components[i].partition, f.components[i].argv});
  }
  s.priority = f.priority;
  if (!f.dependency.empty()) {
    auto d = parse_dependencies(f.dependency);
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
  s.workdir = f.chdir.empty() ? cwd : std::filesystem::absolute(f.chdir, ec).lexically_normal().string();
  if (!std::filesystem::is_directory(s.workdir, ec))
    return err("--chdir: '" + s.workdir + "' is not a directory");
  s.stdout_path = f.output;
  s.stderr_path = f.error;
  s.partition = f.partition;
  s.account = f.account;
  s.qos = f.qos;
  s.backend = f.backend;
  auto env = export_environment(f.exports);
  if (!env) return Error{env.error()};
  s.env = std::move(*env);

  s.launcher = f.launcher;
  s.het_group = f.het_group;
  if (f.launcher == "mpirun" && command.empty() && !f.positional.empty()) {
    // MPMD: the first app context's program, not a batch script.
    s.argv = f.positional;
    s.name = f.name.empty() ? std::filesystem::path(f.positional[0]).filename().string() : f.name;
  } else if (!command.empty()) {
    if (!f.positional.empty()) return err("give either a script or a command after --, not both");
    s.argv = command;
    s.name = f.name.empty() ? std::filesystem::path(command[0]).filename().string() : f.name;
  } else if (!f.positional.empty()) {
    const std::string& path = f.positional[0];
    std::ifstream in(path, std::ios::binary);
    if (!in) return err("cannot read script '" + path + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    s.script = ss.str();
    s.argv.assign(f.positional.begin() + 1, f.positional.end());
    s.name = f.name.empty() ? std::filesystem::path(path).filename().string() : f.name;
  } else {
    return err("nothing to run: give a batch script, or a command after --");
  }
  if (auto st = s.validate(); !st) return Error{st.error()};
  return s;
}

namespace {

// CLI11 parses argv-style arrays; keep the strings alive while it does.
void parse_words(CLI::App& app, const std::vector<std::string>& words) {
  std::vector<const char*> argv{"yard submit"};
  for (auto& w : words) argv.push_back(w.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

Result<SubmitFlags> parse_submit_args(const std::vector<std::string>& args, bool& json, bool& help_shown) {
  auto fresh = [&](SubmitFlags& f) {
    auto app = std::make_unique<CLI::App>("Submit a job: a batch script, or a command after --", "yard submit");
    add_submit_flags(*app, f);
    app->add_flag("--json", json, "Print {\"id\": N} as JSON");
    return app;
  };
  // A later component's flags; `positional` catches the script given after the last one.
  auto component = [](ComponentFlags& f, std::vector<std::string>& positional) {
    auto app = std::make_unique<CLI::App>("A component of a heterogeneous job", "yard submit ... :");
    add_component_flags(*app, f);
    app->add_option("script", positional);
    return app;
  };
  auto component_error = [](std::size_t k, const std::string& what) {
    return err("component " + std::to_string(k) + ": " + what +
               " (a component after ':' takes only -n -c -N --mem --mem-per-cpu -t -G -p; "
               "the other flags are the whole job's: give them before the first ':')");
  };
  if (wants_mpirun(args)) {
    // MPMD: app contexts separated by ':', each flags then a program and its arguments.
    std::vector<std::vector<std::string>> contexts(1);
    for (auto& w : args) {
      if (w == ":") contexts.emplace_back();
      else contexts.back().push_back(w);
    }
    SubmitFlags first;
    for (std::size_t k = 0; k < contexts.size(); ++k) {
      const auto& g = contexts[k];
      if (g.empty() && contexts.size() > 1)
        return err("app context " + std::to_string(k) + " is empty: --launcher mpirun takes -n 1 ./a : -n 2 ./b");
      const auto end = static_cast<std::ptrdiff_t>(flags_end(g));
      std::vector<std::string> flags(g.begin(), g.begin() + end), program(g.begin() + end, g.end());
      if (k == 0) {
        auto app = fresh(first);
        try {
          parse_words(*app, flags);
        } catch (const CLI::CallForHelp&) {
          std::cout << app->help();
          help_shown = true;
          return first;
        } catch (const CLI::ParseError& e) {
          return err(e.what());
        }
        first.positional = program;
        continue;
      }
      ComponentFlags c;
      std::vector<std::string> unused;
      try {
        parse_words(*component(c, unused), flags);
      } catch (const CLI::ParseError& e) {
        return component_error(k, e.what());
      }
      if (program.empty())
        return err("component " + std::to_string(k) + ": no program: --launcher mpirun takes -n 1 ./a : -n 2 ./b");
      c.argv = program;
      first.components.push_back(c);
    }
    return first;
  }
  auto groups = split_components(args);
  if (!groups) return Error{groups.error()};
  SubmitFlags first;
  auto app = fresh(first);
  try {
    parse_words(*app, (*groups)[0]);
  } catch (const CLI::CallForHelp&) {
    std::cout << app->help();
    help_shown = true;
    return first;
  } catch (const CLI::ParseError& e) {
    return err(e.what());
  }
  // Components given on the command line; the script, if any, comes after the last.
  std::vector<std::vector<std::string>> cli_components(groups->begin() + 1, groups->end());
  for (std::size_t k = 0; k < cli_components.size(); ++k) {
    ComponentFlags c;
    std::vector<std::string> positional;
    try {
      parse_words(*component(c, positional), cli_components[k]);
    } catch (const CLI::ParseError& e) {
      return component_error(k + 1, e.what());
    }
    if (!positional.empty()) first.positional = positional;
    first.components.push_back(c);
  }
  if (first.positional.empty()) return first;
  // A script: its #SBATCH directives first, then the command line again, which wins
  // (component by component).
  const std::string& path = first.positional[0];
  std::ifstream in(path, std::ios::binary);
  if (!in) return err("cannot read script '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  auto d = read_batch_directives(ss.str(), path);
  if (!d) return Error{d.error()};
  if (d->words.empty() && d->components.empty()) return first;
  SubmitFlags merged;
  auto app2 = fresh(merged);
  // Directive words are options only; the script and its arguments come from the command line.
  try {
    std::vector<std::string> only_directives = d->words;
    SubmitFlags probe;
    auto check = fresh(probe);
    parse_words(*check, only_directives);
    if (!probe.positional.empty())
      return err(path + ": invalid directive found in batch script: " + probe.positional[0]);
  } catch (const CLI::ParseError& e) {
    return err(path + ": in #SBATCH directives: " + e.what());
  }
  std::vector<std::string> words = d->words;
  words.insert(words.end(), (*groups)[0].begin(), (*groups)[0].end());
  try {
    parse_words(*app2, words);
  } catch (const CLI::ParseError& e) {
    return err(e.what());
  }
  merged.positional = first.positional;
  const std::size_t n = std::max(d->components.size(), cli_components.size());
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<std::string> cw;
    if (k < d->components.size()) {
      ComponentFlags probe;
      std::vector<std::string> positional;
      try {
        parse_words(*component(probe, positional), d->components[k]);
      } catch (const CLI::ParseError& e) {
        return err(path + ": in #SBATCH directives: " + component_error(k + 1, e.what()).message);
      }
      if (!positional.empty())
        return err(path + ": invalid directive found in batch script: " + positional[0]);
      cw = d->components[k];
    }
    if (k < cli_components.size()) cw.insert(cw.end(), cli_components[k].begin(), cli_components[k].end());
    ComponentFlags c;
    std::vector<std::string> positional;
    try {
      parse_words(*component(c, positional), cw);
    } catch (const CLI::ParseError& e) {
      return component_error(k + 1, e.what());
    }
    merged.components.push_back(c);
  }
  return merged;
}

}  // namespace yard

#include "cli/submit_options.h"

#include <unistd.h>

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

void add_submit_flags(CLI::App& app, SubmitFlags& f) {
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("-n,--ntasks", f.ntasks, "Number of tasks");
  app.add_option("-c,--cpus-per-task", f.cpus_per_task, "CPUs per task");
  app.add_option("-N,--nodes", f.nodes, "Number of nodes");
  app.add_option("--mem", f.mem, "Memory per node, e.g. 500M, 4G (no unit: MB)");
  app.add_option("--mem-per-cpu", f.mem_per_cpu, "Memory per CPU");
  app.add_option("-t,--time", f.time, "Walltime: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS");
  app.add_option("-G,--gpus", f.gpus, "Number of GPUs (N or TYPE:N)");
  app.add_option("-J,--job-name", f.name, "Job name");
  app.add_option("-o,--output", f.output, "Standard output file (%j job id, %x name, %A/%a array)");
  app.add_option("-e,--error", f.error, "Standard error file (default: with the output)");
  app.add_option("-D,--chdir", f.chdir, "Working directory (default: the current one)");
  app.add_option("--export", f.exports, "Environment: ALL, NONE, or NAME[=value],... (default ALL)");
  app.add_option("-d,--dependency", f.dependency, "afterok|afterany|afternotok:ID[:ID...][,...]");
  app.add_option("--priority", f.priority, "Priority (higher runs first)");
  app.add_option("-a,--array", f.array, "Array indices, e.g. 0-15, 1,3,5-9:2, 1-1000%50");
  app.add_option("-p,--partition", f.partition, "Partition (queue)");
  app.add_option("-A,--account", f.account, "Account to charge");
  app.add_option("-q,--qos", f.qos, "Quality of service");
  app.add_option("--backend", f.backend, "Backend to run on (default: local)");
  app.add_option("script", f.positional, "Batch script and its arguments (or a command after --)");
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

Result<JobSpec> make_spec(const SubmitFlags& f, const std::vector<std::string>& command) {
  JobSpec s;
  s.res.ntasks = f.ntasks;
  s.res.cpus_per_task = f.cpus_per_task;
  s.res.nodes = f.nodes;
  s.priority = f.priority;
  if (!f.mem.empty()) {
    auto m = parse_memory_size(f.mem);
    if (!m) return err("--mem: " + m.error());
    s.res.mem_bytes = *m;
  }
  if (!f.mem_per_cpu.empty()) {
    auto m = parse_memory_size(f.mem_per_cpu);
    if (!m) return err("--mem-per-cpu: " + m.error());
    s.res.mem_per_cpu_bytes = *m;
  }
  if (!f.time.empty()) {
    auto t = parse_walltime(f.time);
    if (!t) return err("--time: " + t.error());
    s.res.walltime_s = *t;
  }
  if (!f.gpus.empty()) {
    std::string_view g = f.gpus;
    if (auto colon = g.rfind(':'); colon != std::string_view::npos) g = g.substr(colon + 1);
    int n = -1;
    auto [p, ec] = std::from_chars(g.data(), g.data() + g.size(), n);
    if (ec != std::errc() || p != g.data() + g.size() || n < 0)
      return err("--gpus: invalid value '" + f.gpus + "' (accepted: N or TYPE:N, N >= 0)");
    s.res.gpus = n;
  }
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

  if (!command.empty()) {
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
  SubmitFlags first;
  auto app = fresh(first);
  try {
    parse_words(*app, args);
  } catch (const CLI::CallForHelp&) {
    std::cout << app->help();
    help_shown = true;
    return first;
  } catch (const CLI::ParseError& e) {
    return err(e.what());
  }
  if (first.positional.empty()) return first;
  // A script: its #SBATCH directives first, then the command line again, which wins.
  const std::string& path = first.positional[0];
  std::ifstream in(path, std::ios::binary);
  if (!in) return err("cannot read script '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  auto d = read_batch_directives(ss.str(), path);
  if (!d) return Error{d.error()};
  if (d->words.empty()) return first;
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
  words.insert(words.end(), args.begin(), args.end());
  try {
    parse_words(*app2, words);
  } catch (const CLI::ParseError& e) {
    return err(e.what());
  }
  return merged;
}

}  // namespace yard

// The flags of `yard submit`, as sbatch spells them, declared on CLI11 apps.
#include "jobtext/submit_internal.h"
#include "core/output_pattern.h"
#include "jobtext/script_language.h"  // joined

namespace yard {
namespace {

// The backends but the default one, named first in the help.
std::vector<std::string> without_local(std::vector<std::string> names) {
  std::erase(names, std::string(kDefaultBackend));
  return names;
}

// An empty value given to a flag whose empty string used to mean "not given" (--mem ""
// was no limit, -t "" no walltime, -a "" no array) is an error, as sbatch's
// "Invalid --mem specification" and "Invalid --time specification" are. CLI11 puts
// the flag's name first: "--mem: the value is empty; give a size such as 500M or 4G".
CLI::Validator needs_value(const std::string& example) {
  return CLI::Validator(
      [example](std::string& v) { return v.empty() ? "the value is empty; give " + example : std::string(); }, "",
      "needs_value");
}

}  // namespace

FlagFilter::FlagFilter(const std::vector<std::string>& words) : all_(false) {
  for (const std::string& w : words) {
    if (w.size() < 2 || w[0] != '-') continue;
    if (w.starts_with("--h") || (w[1] != '-' && w.find('h') != std::string::npos)) {
      all_ = true;  // the help lists every flag
      return;
    }
    if (w[1] == '-') {
      const std::string_view name = std::string_view(w).substr(2);
      longs_.push_back(name.substr(0, name.find('=')));
    } else {
      shorts_ += w.substr(1);
    }
  }
}

bool FlagFilter::operator()(std::string_view names) const {
  if (all_) return true;
  while (!names.empty()) {
    const auto comma = names.find(',');
    const std::string_view name = names.substr(0, comma);
    names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
    if (name.starts_with("--")) {
      // The word spelled out, or abbreviated (take_sbatch_options spells it out).
      for (std::string_view w : longs_)
        if (!w.empty() && name.substr(2).starts_with(w)) return true;
    } else if (name.size() == 2 && name[0] == '-') {
      if (shorts_.find(name[1]) != std::string::npos) return true;
    } else {
      return true;  // a positional
    }
  }
  return false;
}

void add_component_flags(CLI::App& app, ComponentFlags& f, const FlagFilter& want) {
  auto named = [&want](const char* names) { return want(names) ? names : nullptr; };
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  if (auto n = named("-n,--ntasks")) app.add_option(n, f.ntasks, "Number of tasks");
  if (auto n = named("-c,--cpus-per-task")) app.add_option(n, f.cpus_per_task, "CPUs per task");
  if (auto n = named("-N,--nodes")) app.add_option(n, f.nodes, "Number of nodes: N, or MIN-MAX (Slurm may give up to MAX; elsewhere MIN)")
      ->check(needs_value("N or MIN-MAX"));
  const auto size = needs_value("a size such as 500M or 4G (sbatch: Invalid --mem specification)");
  if (auto n = named("--mem")) app.add_option(n, f.mem, "Memory per node, e.g. 500M, 4G (no unit: MB)")->check(size);
  if (auto n = named("--mem-per-cpu")) app.add_option(n, f.mem_per_cpu, "Memory per CPU")->check(size);
  if (auto n = named("-t,--time")) app.add_option(n, f.time, "Walltime: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS")
      ->check(needs_value("a walltime such as 30, 1:00:00 or 2-00:00:00 (sbatch: Invalid --time specification)"));
  if (auto n = named("-G,--gpus")) app.add_option(n, f.gpus, "Number of GPUs (N or TYPE:N)")->check(needs_value("N or TYPE:N"));
  if (auto n = named("--gres")) app.add_option(n, f.gres, "Generic resources: only gpu[:TYPE][:N] (as --gpus on one node)")
      ->check(needs_value("gpu, gpu:N or gpu:TYPE:N"));
  if (auto n = named("-p,--partition")) app.add_option(n, f.partition, "Partition (queue)");
}

void add_submit_flags(CLI::App& app, SubmitFlags& f, const SubmitChoices& choices, const FlagFilter& want) {
  add_component_flags(app, f, want);
  auto named = [&want](const char* names) { return want(names) ? names : nullptr; };
  if (auto n = named("-J,--job-name")) app.add_option(n, f.name, "Job name");
  const auto file = needs_value("a file name or pattern such as out-%j.txt");
  if (auto n = named("-o,--output")) app.add_option(n, f.output,
                 "Standard output file, a pattern: %j job id, %x name, %A/%a array, %u user, %N host, %n %t 0, "
                 "%s batch, %% a %; %3a zero-pads")
      ->check(file);
  if (auto n = named("-e,--error")) app.add_option(n, f.error, "Standard error file (default: with the output)")->check(file);
  if (auto n = named("--open-mode")) app.add_option(n, f.open_mode,
                 "append or truncate the output files when the job starts (default: truncate, also on requeue)")
      ->check(CLI::Validator(
          [](std::string& v) {
            return parse_open_mode(v) ? std::string() : "invalid value '" + v + "' (accepted: append, truncate)";
          },
          "", "open_mode"));
  if (auto n = named("-D,--chdir")) app.add_option(n, f.chdir, "Working directory (default: the current one)")
      ->check(needs_value("a directory"));
  if (auto n = named("--export")) app.add_option(n, f.exports, "Environment: ALL, NONE, or NAME[=value],... (default ALL)")
      ->check(needs_value("ALL, NONE or NAME[=value],..."));
  if (auto n = named("-d,--dependency")) app.add_option(n, f.dependency,
                 "TYPE:ID[:ID...] joined by ',' (all of them) or '?' (any one); TYPE after (started), afterok, "
                 "afterany, afternotok, aftercorr (array element by element); or singleton (after the others of "
                 "this name)")
      ->check(needs_value("e.g. afterok:12"));
  if (auto n = named("--priority")) app.add_option(n, f.priority, "Priority (higher runs first)");
  if (auto n = named("-a,--array")) app.add_option(n, f.array, "Array indices, e.g. 0-15, 1,3,5-9:2, 1-1000%50")
      ->check(needs_value("indices such as 0-15 or 1,3,5-9:2"));
  if (auto n = named("-A,--account")) app.add_option(n, f.account, "Account to charge");
  if (auto n = named("-q,--qos")) app.add_option(n, f.qos, "Quality of service");
  if (auto n = named("--backend")) app.add_option(n, f.backend,
                 choices.backends.empty()
                     ? std::string("Backend to run on (default: local, this machine)")
                     : "Backend to run on: local (the default: this machine), or " + joined(without_local(choices.backends)));
  if (auto n = named("--job-type")) app.add_option(n, f.job_types,
                 "The scheduler's own kind of job, repeatable (its -t: see its page; a backend without kinds warns and ignores it)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->check(needs_value("a job type such as besteffort"));
  if (auto n = named("--requeue")) app.add_flag_callback(n, [&f] { f.requeue = true; },
                        "Submit the job again when the scheduler preempts it (a best-effort job killed)");
  if (auto n = named("--no-requeue")) app.add_flag_callback(n, [&f] { f.requeue = false; }, "Never submit it again (the default)");
  if (auto n = named("--class")) app.add_option(n, f.job_class, "Size class of job (routes.yaml classes:, docs/ROUTES.md): its target, queue and defaults; also a settings file's classes:");
  if (auto n = named("--het-group")) app.add_option(n, f.het_group,
                 "slurm-steps in a heterogeneous allocation: the component (0, 1, ...) the step runs in")
      ->check(CLI::NonNegativeNumber);
  if (auto n = named("--launcher")) app.add_option(n, f.launcher,
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

std::unique_ptr<CLI::App> submit_app(SubmitFlags& f, bool& json, const SubmitChoices& choices, const FlagFilter& want) {
  auto app = std::make_unique<CLI::App>("Submit a job: a batch script, or a command after --", "yard submit");
  add_submit_flags(*app, f, choices, want);
  app->add_flag("--json", json, "Print {\"id\": N} as JSON");
  auto* directives = app->add_option(
      "--directives", f.directives,
      "Which directives of the script to read when it has several kinds" +
          (choices.directives.empty() ? std::string() : ": " + joined(choices.directives)));
  if (!choices.directives.empty()) directives->check(CLI::IsMember(choices.directives));
  app->add_flag("--test-only", f.test_only,
                "Check the job and print it as it would be submitted (every resolved field); submit and store "
                "nothing. Exit 0: it would be accepted; 2: bad flags or script; 1: valid, but the backend could "
                "never run it");
  return app;
}

std::unique_ptr<CLI::App> component_app(ComponentFlags& f, std::vector<std::string>& positional) {
  auto app = std::make_unique<CLI::App>("A component of a heterogeneous job", "yard submit ... :");
  add_component_flags(*app, f);
  // sbatch lets a component charge its own account and ask its own QOS: Slurm is told so.
  app->add_option_function<std::string>(
      "-A,--account", [&f](const std::string& v) { f.sbatch_options.emplace_back("account", v); },
      "This component's account (Slurm)");
  app->add_option_function<std::string>(
      "-q,--qos", [&f](const std::string& v) { f.sbatch_options.emplace_back("qos", v); }, "This component's QOS (Slurm)");
  app->add_option("script", positional);
  return app;
}

Error component_error(std::size_t k, const std::string& what) {
  return err("component " + std::to_string(k) + ": " + what +
             " (a component after ':' takes only -n -c -N --mem --mem-per-cpu -t -G -p -A -q and sbatch's other options; "
             "the other flags are the whole job's: give them before the first ':')");
}

std::string parse_error_text(const CLI::ParseError& e) {
  const std::string what = e.what();
  const auto colon = what.find(": ");
  const bool missing = dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr && colon != std::string::npos &&
                       what.find(" required ", colon) != std::string::npos && what.ends_with(" missing");
  return missing ? what.substr(0, colon) + ": needs a value" : what;
}

void parse_words(CLI::App& app, const std::vector<std::string>& words, SbatchSettings* sbatch, bool strict) {
  std::vector<KnownFlag> known;
  std::vector<std::string> names;  // alive while `known` points into them
  for (const CLI::Option* o : app.get_options()) {
    for (auto& l : o->get_lnames()) names.push_back(l);
    for (auto& s : o->get_snames()) names.push_back(s);
  }
  std::size_t at = 0;  // `names` is complete: views into it stay valid
  for (const CLI::Option* o : app.get_options()) {
    const bool value = o->get_expected_max() != 0;  // a flag expects no value
    for (std::size_t k = 0; k < o->get_lnames().size(); ++k) known.push_back({names[at++], '\0', value});
    for (std::size_t k = 0; k < o->get_snames().size(); ++k) known.push_back({"", names[at++][0], value});
  }
  auto taken = take_sbatch_options(words, known, strict);
  if (!taken) throw CLI::ParseError(taken.error(), CLI::ExitCodes::ExtrasError);
  if (sbatch) sbatch->insert(sbatch->end(), taken->options.begin(), taken->options.end());
  std::vector<const char*> argv{"yard submit"};
  for (auto& w : taken->rest) argv.push_back(w.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
}

}  // namespace yard

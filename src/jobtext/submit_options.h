// The flags of `yard submit`, as a Slurm user knows them, and their translation into a
// JobSpec. A batch script's #SBATCH lines are parsed with the same flags, before the
// command line, so the command line wins. Implemented by submit_options.cpp (parsing),
// submit_words.cpp, submit_flags.cpp, submit_script.cpp and make_spec.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/environment.h"
#include "core/job_spec.h"
#include "core/result.h"

namespace yard {
class ScriptLanguages;
}

namespace yard {

// The flags of one component of a heterogeneous job (also component 0's).
struct ComponentFlags {
  int ntasks = 1, cpus_per_task = 1;
  std::string nodes = "1";  // N or MIN-MAX, as sbatch takes it
  std::string mem, mem_per_cpu, time, gpus, gres, partition;
  std::vector<std::string> argv;  // with --launcher mpirun: this app context's program and arguments
  SbatchSettings sbatch_options;  // sbatch's other options (core/sbatch_options.h), this component's
};

struct SubmitFlags : ComponentFlags {
  int priority = 0;
  std::string name, output, error, chdir, exports = "ALL", dependency, array;
  std::string open_mode;  // --open-mode: append or truncate ("" = not given)
  std::string account, qos, backend, launcher;
  std::vector<std::string> job_types;  // --job-type, repeated
  std::optional<bool> requeue;         // --requeue / --no-requeue
  std::string job_class;  // --class: resolved by the daemon (routes.yaml classes:, or a settings file's)
  int het_group = -1;     // --het-group: a component of the allocation (slurm-steps)
  bool test_only = false;  // --test-only: check and show, store nothing (command line only)
  std::string directives;  // --directives: which kind of script directives to read ("" = the script's)
  // Script and its arguments; with --launcher mpirun, the first app context's program.
  std::vector<std::string> positional;
  // The script's text, read by parse_submit_args (so a script is read once; make_spec
  // reads positional[0] itself when it is not set).
  std::optional<std::string> script_text;
  // Components 1, 2, ... of a heterogeneous job: `-n 2 -p cpu : -p gpu -G 1 -- cmd`
  // on the command line, `#SBATCH hetjob` lines in a script.
  std::vector<ComponentFlags> components;
};

// What --backend and --directives may name (for their help and completions, and checked
// when given): the backends and the script languages of the build. Empty: not listed.
struct SubmitChoices {
  std::vector<std::string> backends;
  std::vector<std::string> directives;
};

// Which flags an app declares: all of them (help, man pages, completion), or those some
// of `words` may name (spelled out, abbreviated, or a letter of a short word). CLI11
// compares each option it declares with every one before it: declaring all forty cost
// `yard submit` more than the rest of its work, for each #SBATCH line again, and an
// option no word names cannot change how the words parse. Words that may ask for help
// (-h, --h...) declare all.
class FlagFilter {
 public:
  FlagFilter() = default;
  explicit FlagFilter(const std::vector<std::string>& words);
  // Whether to declare the option of CLI11 names `names` ("-o,--output"; a positional's
  // name always).
  bool operator()(std::string_view names) const;

 private:
  bool all_ = true;
  std::vector<std::string_view> longs_;  // the long words' names, before any '=' (views into the words)
  std::string shorts_;                   // every letter of the short words
};

// Declares the flags on `app` (those `want` lets through), writing into `f`.
void add_submit_flags(CLI::App& app, SubmitFlags& f, const SubmitChoices& choices = {}, const FlagFilter& want = {});
// Only the flags a heterogeneous job's later component may have (resources, partition).
void add_component_flags(CLI::App& app, ComponentFlags& f, const FlagFilter& want = {});

// Splits the words before `--` at each lone ":" into components' words, up to the first
// word that is a script (a positional argument): it and all after it are the last group's
// (a script's arguments may be ':'). An empty component is an error.
Result<std::vector<std::vector<std::string>>> split_components(const std::vector<std::string>& args);

// Builds the JobSpec: `command` is what followed `--` (empty when a script is given).
Result<JobSpec> make_spec(const SubmitFlags& f, const std::vector<std::string>& command);

// A job's flags as a run file gives them (`flags: -p cpu -t 1:00 --backend slurm`: every
// flag of yard submit but a script, --chdir, --help, --json and --test-only) with the
// command it runs: its JobSpec (its working directory the current one) and its --class.
struct FlaggedJob {
  JobSpec spec;
  std::string job_class;
};
Result<FlaggedJob> parse_job_flags(const std::vector<std::string>& words, const std::vector<std::string>& command);

// With --launcher mpirun (MPMD): `-n 1 ./a x : -n 2 ./b` is app contexts, each flags then
// a program and its arguments, separated by lone ":" words.
//
// Parses `args` (the words after "yard submit" and before "--"), first applying the
// #SBATCH directives of the script they name, if any. Errors name the flag or line.
// `languages`: those whose directives a script may carry (jobtext/script_language.h).
Result<SubmitFlags> parse_submit_args(const std::vector<std::string>& args, const ScriptLanguages& languages,
                                      bool& json, bool& help_shown);

}  // namespace yard

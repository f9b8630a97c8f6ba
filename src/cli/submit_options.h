// The flags of `yard submit`, as a Slurm user knows them, and their translation into a
// JobSpec. A batch script's #SBATCH lines are parsed with the same flags, before the
// command line, so the command line wins.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/job_spec.h"
#include "core/result.h"

namespace yard {

struct SubmitFlags {
  int ntasks = 1, cpus_per_task = 1, nodes = 1, priority = 0;
  std::string mem, mem_per_cpu, time, gpus, name, output, error, chdir, exports = "ALL", dependency, array;
  std::string partition, account, qos, backend;
  std::vector<std::string> positional;  // script and its arguments
};

// Declares the flags on `app`, writing into `f`.
void add_submit_flags(CLI::App& app, SubmitFlags& f);

// Builds the JobSpec: `command` is what followed `--` (empty when a script is given).
Result<JobSpec> make_spec(const SubmitFlags& f, const std::vector<std::string>& command);

// Parses `args` (the words after "yard submit" and before "--"), first applying the
// #SBATCH directives of the script they name, if any. Errors name the flag or line.
Result<SubmitFlags> parse_submit_args(const std::vector<std::string>& args, bool& json, bool& help_shown);

// The environment for --export: ALL (default), NONE, or a comma list of NAME and
// NAME=value (with ALL to start from everything).
Result<std::map<std::string, std::string>> export_environment(const std::string& spec);

}  // namespace yard

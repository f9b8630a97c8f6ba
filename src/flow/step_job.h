// The job of a step: the keys a workflow step (or a run file's job) shares with `yard
// submit`, read onto the flow's `defaults:` (a key given in both wins from the step).
//
//   command: ./sim --case 1         # a string runs under /bin/sh -c; a list is argv
//   flags: -p cpu -t 1:00 --class big  # every flag of yard submit, as on its command line
//   ntasks, cpus_per_task, gpus, priority: numbers; mem, mem_per_cpu: sizes (4G);
//   time: a walltime (10:00); array: 1-10%2; output, error: file patterns; chdir: a
//   directory (relative to the file's)
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>


#include "core/job_spec.h"
#include "flow/yaml_tree.h"
#include "core/result.h"

namespace yard {

struct StepJob {
  JobSpec spec;           // its environment left empty (the flow's: flow.h) but with own_env
  std::string job_class;  // --class among its flags
  bool own_env = false;   // its flags say --export: spec.env is its own
};

// Whether `key` is one of the job keys above.
bool is_job_key(std::string_view key);

// A string value as the step sees it, its `{variables}` replaced (foreach.h).
using Expand = std::function<Result<std::string>(const std::string& value)>;

// A flow's defaults (a mapping of job keys, or a null node), read once: the words of their
// flags, and those flags parsed (a flow of many steps without flags of their own parses
// them once, not once per step).
struct StepDefaults {
  YamlNode node;
  std::vector<std::string> flags;
  StepJob flagged;
};
Result<StepDefaults> read_step_defaults(const std::string& path, const YamlNode& node);

// The job of the step `node` (of the file at `path`): the defaults' flags then its own,
// then the defaults' other keys, then its own, each value through `expand`. `base_dir`
// resolves a relative chdir. Errors are "path:LINE: key: why".
Result<StepJob> read_step_job(const std::string& path, const StepDefaults& defaults, const YamlNode& node,
                              const std::string& base_dir, const Expand& expand);

}  // namespace yard

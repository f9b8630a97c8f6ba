// Workflow files: the steps of a flow, what each runs and needs (docs/WORKFLOWS.md).
//
//   name: sweep                      # the flow's name (default: the file's)
//   params: {cases: 10}              # variables of every step: {cases}
//   defaults: {mem: 1G, flags: -p cpu}   # job keys of every step (a step's own win)
//   steps:
//     - name: prepare
//       command: ./prepare > data/input.csv
//       outputs: [data/input.csv]
//     - name: simulate
//       foreach: {range: 1-10}       # one step per value: simulate[1] ... simulate[10]
//       as: case
//       command: ./sim --case {case} data/input.csv > out/{case}.dat
//       inputs: [data/input.csv]     # made by prepare: simulate needs it
//       outputs: [out/{case}.dat]
//       time: "10:00"
//     - name: reduce
//       needs: [simulate]            # every simulate[...]: a fan-in
//       command: cat out/*.dat > summary.txt
//
// A step's keys: name (unique, required), command (required), needs, inputs, outputs,
// foreach and as, and every job key (step_job.h). Run files of earlier releases (`jobs:`,
// with `after:` for needs and no variables) are read as flows too. Errors name the file,
// the line and what is wrong there; nothing is submitted.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "core/result.h"
#include "flow/flow.h"

namespace yard {

// The most steps a flow may have once its foreach are expanded.
constexpr std::size_t kMaxFlowSteps = 1'000'000;

// The flow of the file at `path`; relative paths (chdir, files, globs) start from
// `base_dir`; `env` is every step's environment. More than `max_steps` is an error.
Result<Flow> load_flow(const std::string& path, const std::string& base_dir, const std::map<std::string, std::string>& env,
                       std::size_t max_steps = kMaxFlowSteps);
// The same with relative paths starting from the file's own directory.
Result<Flow> load_flow(const std::string& path, const std::map<std::string, std::string>& env);
// The same from the text of a file, `source` naming it in messages.
Result<Flow> parse_flow(std::string_view text, const std::string& source, const std::string& base_dir,
                        const std::map<std::string, std::string>& env, std::size_t max_steps = kMaxFlowSteps);

}  // namespace yard

// A flow: the steps of a workflow file with what each needs, as yard runs them. Its steps
// are expanded (a `foreach:` step is one step per value, each with its own name) and in
// an order where each step comes after every step it needs (flow_graph.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/job_spec.h"

namespace yard {

struct FlowStep {
  std::string name;   // its own name: "prepare", or "simulate[3]" for a value of a foreach
  std::string rule;   // the step as the file names it: "simulate"
  std::string where;  // "file:line" of its definition, for messages
  // The job: command, resources, options, working directory. Its environment is the
  // flow's (Flow::env), not copied into each of a hundred thousand steps.
  JobSpec spec;
  std::string job_class;                     // --class ("": none)
  bool own_env = false;                      // spec.env is its own (its flags had --export)
  std::vector<std::string> inputs, outputs;  // absolute paths
  std::vector<std::int32_t> needs;           // steps it waits for (indices, before it)
  // A step of a foreach (not `pack: false`): the daemon may run it as one element of an
  // array with its siblings that differ only in their command (server/step_packing.h).
  bool packable = false;
  // group: N (a packable step): N steps of its foreach run one after another in one job
  // (server/step_series.h), each with its own state, exit and log. 0: not grouped.
  std::int32_t group = 0;
};

struct Flow {
  std::string name;  // the file's `name:`, or its file name without .yaml
  std::string file;  // the file it was read from
  std::map<std::string, std::string> env;  // every step's environment
  std::vector<FlowStep> steps;
  std::size_t edges() const {
    std::size_t n = 0;
    for (const auto& s : steps) n += s.needs.size();
    return n;
  }
};

}  // namespace yard

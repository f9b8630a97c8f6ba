// A workflow file's keys, each with what it means (core/setting_doc.h): the reader
// (flow_file.cpp, step_job.cpp, retry_key.cpp) refuses a key that is not in its table,
// and the reference (docs/reference/settings.md) is written from the same tables.
#pragma once

#include "core/setting_doc.h"

namespace yard {

inline constexpr SettingDoc kFlowKeys[] = {
    {"name", "the flow's name", "the file's name"},
    {"params", "variables of every step ({work} in a command), a mapping of names to values", ""},
    {"defaults", "job keys (below) of every step; a step's own win", ""},
    {"steps", "the steps, a list (below)", ""},
};

inline constexpr SettingDoc kFlowStepKeys[] = {
    {"name", "required, unique; not [ ] { }", ""},
    {"needs", "steps it runs after, each of which must succeed (a foreach's name: each of its steps; NAME[3]: one)",
     ""},
    {"inputs", "files it reads; one that another step lists in its outputs makes this step need that one", ""},
    {"outputs", "files it writes", ""},
    {"foreach", "one step per value: a list, {range: 1-100:3}, {glob: PATTERN} or {outputs: STEP}", ""},
    {"as", "the foreach value's variable", "item"},
    {"pack",
     "false: each step of the foreach a job of its own; {under: 60s}: its steps run one after another in one job, "
     "as many as their time: fits in 60 s (as group:)",
     "packed into arrays where a submission costs"},
    {"group", "N: the foreach's steps run N at a time one after another in one job, each with its own state, exit "
              "and log (no retry:)",
     "one job per step"},
};

// A step's job keys (also defaults:).
inline constexpr SettingDoc kFlowJobKeys[] = {
    {"command", "required in a step: a string runs under /bin/sh -c, a list is the program and its arguments", ""},
    {"flags", "every flag of yard submit, as on its command line (a string, or a list of words)", ""},
    {"ntasks", "as --ntasks", "1"},
    {"cpus_per_task", "as --cpus-per-task", "1"},
    {"mem", "as --mem", ""},
    {"mem_per_cpu", "as --mem-per-cpu", ""},
    {"gpus", "as --gpus", ""},
    {"time", "as --time", ""},
    {"array", "as --array", ""},
    {"priority", "as --priority", ""},
    {"output", "as --output", "the run's directory: STEP.out"},
    {"error", "as --error", "with the output"},
    {"chdir", "as --chdir, from the file's directory", "the file's directory"},
    {"retry", "tries again by cause: a number of tries, or a mapping (below)", "none"},
};

// retry: {...}
inline constexpr SettingDoc kFlowRetryKeys[] = {
    {"times", "tries after the first", "1"},
    {"on", "the causes: OUT_OF_MEMORY, TIMEOUT, NODE_FAIL, LOST, FAILED (any failure)",
     "OUT_OF_MEMORY, TIMEOUT, NODE_FAIL, LOST"},
    {"exit", "exit codes that are tried again too", ""},
    {"backoff", "a wait before each try (30s, 5m, 1:00:00)", "none"},
    {"grow", "memory and time of try N: the first try's times the factor to the N ({mem: 2x, time: 1.5x})", ""},
    {"cap", "the most they grow to ({mem: 64G, time: 1-00:00:00})", "none"},
};

}  // namespace yard

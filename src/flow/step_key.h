// A step's key: what makes its result, as one digest. A flow run again skips a step whose
// key names a job that completed (its outputs there) and takes over one still running,
// so a step is never submitted twice for the same result (docs/WORKFLOWS.md, "Running a
// flow again").
//
// In the key: the command (argv, or the script's text and its arguments), the working
// directory, the array's indices, the launcher and each component's command, the
// variables the step sets itself (--export), its outputs' paths, the content digest of
// each input no step of the flow makes, and the keys of the steps it needs (so a step
// whose upstream changed runs again). Not in it: its name, resources, partition, account,
// class or backend, its log paths, and the environment `yard run` was started from: none
// of them changes what the step computes, and Snakemake's reruns on such cosmetic changes
// are what users of it complain of most.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "flow/flow.h"

namespace yard {

// The inputs whose content goes into the keys: those no step of the flow makes (a made
// one is covered by its maker's key), each once, sorted.
std::vector<std::string> external_inputs(const Flow& flow);

// Each step's key, in the flow's order; `digests` maps every external input to its
// content digest (file_digest.h). With `parts`, what each key was made of, a line each
// ("command <digest>", "input <path> <digest>", "needs <step> <key>", ...): kept with the
// step, so `yard flow why` can name what changed.
std::vector<std::string> step_keys(const Flow& flow, const std::map<std::string, std::string>& digests,
                                   std::vector<std::string>* parts = nullptr);

// What differs between two steps' parts, a line each for a person ("its command changed",
// "input /d/in.txt changed", "step 'a', which it needs, changed"); empty when none.
std::vector<std::string> key_differences(const std::string& before, const std::string& now);

}  // namespace yard

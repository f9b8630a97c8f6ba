// The graph of a flow: from the names a step needs to the steps, in an order where each
// comes after what it needs. A name in `needs:` is a step ("simulate[3]") or a step of
// the file with all its foreach values ("simulate": a fan-in); an input that another
// step declares as an output makes it need that step too. Built with vectors and one
// hash of the names: a hundred thousand steps and a million edges in well under a
// second (bench/flow/).
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "flow/flow.h"

namespace yard {

struct NamedStep {
  FlowStep step;
  std::vector<std::string> needs;  // names, as written (variables replaced)
  std::string needs_where;         // "file:line" of its needs: (or after:)
  std::string inputs_where;        // "file:line" of its inputs:
};

struct GraphWords {
  std::string needs = "needs";  // the key ("after" in a run file)
  std::string step = "step";    // what a step is called ("job" in a run file)
};

// The steps ordered, each with the indices of the steps it needs. Errors: a need that
// names no step ("file:line: needs: step 'b' needs unknown step 'x'"), a cycle named step
// by step ("file:line: needs: a cycle: a -> b -> a"), an input that no step makes and
// that does not exist.
Result<std::vector<FlowStep>> order_steps(std::vector<NamedStep> steps, const GraphWords& words = {});

}  // namespace yard

// A flow shown: the plan `yard run --dry-run` prints, and its graph as Graphviz DOT or
// mermaid (`yard flow graph`).
#pragma once

#include <ostream>

#include "flow/flow.h"

namespace yard {

// One line per step, in the order they can run: its name, what it needs, its command and
// resources; then the totals.
void print_plan(std::ostream& out, const Flow& flow);

// The steps as nodes and their needs as edges, a step of a foreach drawn as one node per
// value (a flow of thousands of steps is drawn whole: a viewer can group them).
void print_dot(std::ostream& out, const Flow& flow);
void print_mermaid(std::ostream& out, const Flow& flow);

}  // namespace yard

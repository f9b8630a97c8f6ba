// yard flow: what to do with a workflow file besides running it: check it, draw its graph;
// and the flows run (cmd_flows.cpp).
#include <iostream>
#include <optional>

#include "cli/commands.h"
#include "core/environment.h"
#include "core/text.h"
#include "flow/flow_file.h"
#include "flow/flow_render.h"

namespace yard {

namespace {

// The flow of `file`, or its mistake printed (rc 2) and none.
std::optional<Flow> flow_or_say(const std::string& command, const std::string& file, int& rc) {
  auto loaded = load_flow(file, current_environment());
  if (!loaded) {
    std::cerr << "yard flow " << command << ": " << loaded.error() << "\n";
    rc = kExitBadInput;
    return std::nullopt;
  }
  return std::move(*loaded);
}

}  // namespace

void add_flow_command(CLI::App& app, int& rc) {
  auto* flow = app.add_subcommand("flow", "Workflows: check a flow file, print its graph (yard run FILE runs one); "
                                          "the flows run: list, status, cancel, follow");
  flow->require_subcommand(1);
  auto* check = flow->add_subcommand("check", "Check a flow file (names, needs, cycles, files, variables) and print "
                                              "its size; exit 2 with file:line: what for a mistake");
  static std::string checked;
  check->add_option("file", checked, "Workflow file")->required();
  check->callback([&rc] {
    auto loaded = flow_or_say("check", checked, rc);
    if (!loaded) return;
    std::cout << "flow " << escape_for_terminal(loaded->name) << ": " << loaded->steps.size() << " steps, "
              << loaded->edges() << " needs: no mistake found\n";
  });
  auto* graph = flow->add_subcommand("graph", "Print a flow's steps and what each needs as a graph: Graphviz DOT "
                                              "(yard flow graph FILE | dot -Tsvg > flow.svg) or mermaid");
  static std::string file, format = "dot";
  graph->add_option("file", file, "Workflow file")->required();
  graph->add_option("--format", format, "dot or mermaid")->check(CLI::IsMember({"dot", "mermaid"}))->capture_default_str();
  graph->callback([&rc] {
    auto loaded = flow_or_say("graph", file, rc);
    if (!loaded) return;
    if (format == "mermaid") print_mermaid(std::cout, *loaded);
    else print_dot(std::cout, *loaded);
  });
  add_flows_commands(*flow, rc);
  add_flow_why_command(*flow, rc);
}

}  // namespace yard

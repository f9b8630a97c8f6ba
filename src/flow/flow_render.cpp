#include "flow/flow_render.h"

#include <string>

#include "core/duration.h"
#include "core/shell_quote.h"
#include "core/text.h"

namespace yard {
namespace {

// A step's command as a person reads it: sh -c's script alone, else argv quoted.
std::string command_text(const JobSpec& s) {
  if (s.argv.size() == 3 && s.argv[0] == "/bin/sh" && s.argv[1] == "-c") return s.argv[2];
  std::string out;
  for (const auto& a : s.argv) out += (out.empty() ? "" : " ") + bash_quote(a);
  return out;
}

std::string resources(const FlowStep& step) {
  const JobSpec& s = step.spec;
  std::string out = std::to_string(s.res.total_cpus()) + " cpu";
  if (s.res.mem_bytes) out += ", mem " + std::to_string(s.res.mem_bytes >> 20) + "M";
  if (s.res.gpus) out += ", " + std::to_string(s.res.gpus) + " gpu";
  if (s.res.walltime_s) out += ", time " + format_walltime(s.res.walltime_s);
  if (s.array) out += ", array of " + std::to_string(s.array->indices.size());
  if (!step.job_class.empty()) out += ", class " + step.job_class;
  out += ", on " + (s.backend.empty() ? std::string(kDefaultBackend) : s.backend);
  // group: N, or pack: {under: ...}: how many of its foreach run one after another in a job
  // (where its backend's jobs can wait on others': the daemon decides at submission).
  if (step.group > 0) out += ", in series " + std::to_string(step.group) + " a job";
  return out;
}

// A DOT or mermaid string: its quotes and backslashes escaped.
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

// A mermaid label: in quotes, a quote written as its entity (mermaid reads no backslash).
std::string mermaid_label(std::string_view text) {
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("#quot;") : std::string(1, c == '\n' ? ' ' : c);
  return out + "\"";
}

}  // namespace

void print_plan(std::ostream& out, const Flow& flow) {
  out << "flow " << escape_for_terminal(flow.name) << ": " << flow.steps.size() << " steps, " << flow.edges()
      << " needs\n";
  for (std::size_t i = 0; i < flow.steps.size(); ++i) {
    const FlowStep& s = flow.steps[i];
    out << i + 1 << ". " << escape_for_terminal(s.name) << "  (" << resources(s) << ")\n";
    if (!s.needs.empty()) {
      out << "     needs:";
      std::size_t shown = 0;
      for (auto n : s.needs) {
        if (++shown > 8) {
          out << " ... (" << s.needs.size() << " in all)";
          break;
        }
        out << " " << escape_for_terminal(flow.steps[static_cast<std::size_t>(n)].name);
      }
      out << "\n";
    }
    out << "     runs: " << escape_for_terminal(command_text(s.spec)) << "\n";
  }
}

void print_dot(std::ostream& out, const Flow& flow) {
  out << "digraph " << quoted(flow.name) << " {\n  rankdir=LR;\n  node [shape=box];\n";
  for (std::size_t i = 0; i < flow.steps.size(); ++i) out << "  s" << i << " [label=" << quoted(flow.steps[i].name) << "];\n";
  for (std::size_t i = 0; i < flow.steps.size(); ++i)
    for (auto n : flow.steps[i].needs) out << "  s" << n << " -> s" << i << ";\n";
  out << "}\n";
}

void print_mermaid(std::ostream& out, const Flow& flow) {
  out << "flowchart LR\n";
  for (std::size_t i = 0; i < flow.steps.size(); ++i) out << "  s" << i << "[" << mermaid_label(flow.steps[i].name) << "]\n";
  for (std::size_t i = 0; i < flow.steps.size(); ++i)
    for (auto n : flow.steps[i].needs) out << "  s" << n << " --> s" << i << "\n";
}

}  // namespace yard

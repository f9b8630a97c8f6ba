// yard flow list|status|cancel|follow: the flows the daemon holds, each run of a flow file
// (yard run), with its steps' states read from their jobs.
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/cli_client.h"
#include "cli/commands.h"
#include "cli/flow_follow.h"
#include "cli/flow_report_files.h"
#include "cli/job_view.h"
#include "core/json_text.h"
#include "core/text.h"

namespace yard {
namespace {

// The protocol's fields (protocol/flows.h), texts as texts (dump_json shows bytes that are
// not UTF-8 as \xNN) and the time as a person reads it.
nlohmann::json flow_json(const FlowRecord& f) {
  auto j = flow_to_wire(f);
  j["name"] = f.name;
  j["file"] = f.file;
  j["run_dir"] = f.run_dir;
  j["submit_time"] = rfc3339(f.submit_time);
  j["ended"] = f.ended();
  return j;
}

nlohmann::json step_json(const FlowStepRecord& s) {
  auto j = step_to_wire(s);
  j["name"] = s.name;
  j.erase("parts");  // for yard flow why, not for people
  return j;
}

std::string flow_state(const FlowRecord& f) {
  if (!f.ended()) return f.running ? "RUNNING" : "PENDING";
  return f.failed ? "FAILED" : "COMPLETED";
}

// The flow `id`, or its error printed and rc set.
std::optional<FlowReply> flow_or_say(DaemonClient& client, const std::string& command, std::int64_t id, int& rc) {
  auto f = client.flow(id);
  if (!f) {
    std::cerr << "yard flow " << command << ": " << f.error() << "\n";
    rc = exit_code_for(f.kind());
    return std::nullopt;
  }
  return std::move(*f);
}

void print_flow_steps(const FlowReply& f) {
  std::cout << "flow " << f.flow.id << " (" << escape_for_terminal(f.flow.name) << ", " << escape_for_terminal(f.flow.file)
            << "): " << flow_state(f.flow) << ", " << f.flow.steps << " steps: " << f.flow.completed << " completed, "
            << f.flow.running << " running, " << f.flow.pending << " pending, " << f.flow.failed << " failed\n";
  std::printf("%-6s %-24s %-14s %-11s %-10s %s\n", "STEP", "NAME", "STATE", "ORIGIN", "JOBID", "JOBS ENDED");
  for (const auto& s : f.steps)
    std::printf("%-6d %-24s %-14s %-11s %-10lld %d/%d\n", s.index, escape_for_terminal(s.name).c_str(),
                std::string(to_string(s.state)).c_str(), to_string(s.origin), static_cast<long long>(s.job_id), s.jobs_ended, s.jobs);
}

}  // namespace

void add_flows_commands(CLI::App& flow, int& rc) {
  auto* list = flow.add_subcommand("list", "The flows run (yard run), newest first: each one's steps by state");
  static bool list_json = false;
  static std::int64_t limit = 20;
  list->add_option("-n,--limit", limit, "How many flows (0: all)")->capture_default_str()->check(CLI::NonNegativeNumber);
  list->add_flag("--json", list_json, "Print a JSON array of flow objects");
  list->callback([&rc] {
    DaemonClient client = cli_client("flow list");
    auto flows = client.flows(limit);
    if (!flows) {
      std::cerr << "yard flow list: " << flows.error() << "\n";
      rc = exit_code_for(flows.kind());
      return;
    }
    if (list_json) {
      auto a = nlohmann::json::array();
      for (const auto& f : flows->flows) a.push_back(flow_json(f));
      std::cout << dump_json(a, 2) << "\n";
      return;
    }
    std::printf("%-6s %-20s %-10s %6s %6s %6s %6s %6s %-24s %s\n", "FLOW", "NAME", "STATE", "STEPS", "DONE", "RUN",
                "WAIT", "FAILED", "SUBMITTED", "FILE");
    for (const auto& f : flows->flows)
      std::printf("%-6lld %-20s %-10s %6lld %6lld %6lld %6lld %6lld %-24s %s\n", static_cast<long long>(f.id),
                  escape_for_terminal(f.name).c_str(), flow_state(f).c_str(), static_cast<long long>(f.steps),
                  static_cast<long long>(f.completed), static_cast<long long>(f.running),
                  static_cast<long long>(f.pending), static_cast<long long>(f.failed), rfc3339(f.submit_time).c_str(),
                  escape_for_terminal(f.file).c_str());
  });

  auto* status = flow.add_subcommand("status", "One flow: its state and each step's (state, origin, job)");
  static std::int64_t status_id = 0;
  static bool status_json = false;
  status->add_option("flow", status_id, "Flow id (yard run prints it; yard flow list)")->required()->check(CLI::PositiveNumber);
  status->add_flag("--json", status_json, "Print the flow and its steps as JSON");
  status->callback([&rc] {
    DaemonClient client = cli_client("flow status");
    auto f = flow_or_say(client, "status", status_id, rc);
    if (!f) return;
    if (status_json) {
      auto j = flow_json(f->flow);
      auto steps = nlohmann::json::array();
      for (const auto& s : f->steps)
        steps.push_back(step_json(s));
      j["step_list"] = std::move(steps);
      std::cout << dump_json(j, 2) << "\n";
      return;
    }
    print_flow_steps(*f);
    if (f->flow.ended() && f->flow.failed) rc = 1;
  });

  auto* cancel = flow.add_subcommand("cancel", "Cancel every step of a flow that has not ended (a step it took over "
                                               "from an earlier run of the same file too)");
  static std::int64_t cancel_id = 0;
  cancel->add_option("flow", cancel_id, "Flow id")->required()->check(CLI::PositiveNumber);
  cancel->callback([&rc] {
    DaemonClient client = cli_client("flow cancel");
    auto f = flow_or_say(client, "cancel", cancel_id, rc);
    if (!f) return;
    CancelRequest request;
    for (const auto& s : f->steps)
      if (s.jobs_ended < s.jobs) request.ids.push_back(s.job_id);
    if (request.ids.empty()) {
      std::cout << "flow " << cancel_id << " has ended: nothing to cancel\n";
      return;
    }
    auto done = client.cancel(request);
    if (!done) {
      std::cerr << "yard flow cancel: " << done.error() << "\n";
      rc = exit_code_for(done.kind());
      return;
    }
    std::cout << "flow " << cancel_id << ": cancelled " << done->ids.size() << " jobs of " << request.ids.size()
              << " steps\n";
  });

  auto* report = flow.add_subcommand("report", "Write a flow's report (report.html: a timeline, each step's wait, "
                                               "run, CPU and memory, failures with their log) and trace (trace.tsv)");
  static std::int64_t report_id = 0;
  static std::string report_dir;
  report->add_option("flow", report_id, "Flow id")->required()->check(CLI::PositiveNumber);
  report->add_option("--dir", report_dir, "Where to write them (default: the flow's run directory)");
  report->callback([&rc] {
    DaemonClient client = cli_client("flow report");
    auto f = flow_or_say(client, "report", report_id, rc);
    if (!f) return;
    const std::string dir = report_dir.empty() ? f->flow.run_dir : report_dir;
    if (dir.empty()) {
      std::cerr << "yard flow report: flow " << report_id << " has no run directory: say where with --dir\n";
      rc = kExitBadInput;
      return;
    }
    auto files = write_flow_report(client, report_id, dir);
    if (!files) {
      std::cerr << "yard flow report: " << files.error() << "\n";
      rc = 1;
      return;
    }
    std::cout << escape_for_terminal(files->html) << "\n" << escape_for_terminal(files->trace) << "\n";
  });

  auto* follow = flow.add_subcommand("follow", "Follow a flow to its end (progress as yard run shows it), then its "
                                               "steps; exit 1 if a step failed");
  static std::int64_t follow_id = 0;
  follow->add_option("flow", follow_id, "Flow id")->required()->check(CLI::PositiveNumber);
  follow->callback([&rc] {
    DaemonClient client = cli_client("flow follow");
    auto f = flow_or_say(client, "follow", follow_id, rc);
    if (!f) return;
    std::vector<std::int64_t> ids;
    for (const auto& s : f->steps) ids.push_back(s.job_id);
    if (auto ended = follow_jobs(client, ids, std::cout); !ended) {
      std::cerr << "yard flow follow: " << ended.error() << "\n";
      rc = 1;
      return;
    }
    f = flow_or_say(client, "follow", follow_id, rc);
    if (!f) return;
    print_flow_steps(*f);
    if (f->flow.failed) rc = 1;
  });
}

}  // namespace yard

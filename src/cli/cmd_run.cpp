// yard run FILE.yaml: submits a flow's steps (flow/flow_file.h; what a step needs becomes
// afterok on the submitted ids) and follows them to the end with a live progress line on
// a terminal, or one plain line per state change otherwise. --dry-run prints the plan.
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <unordered_set>

#include "cli/commands.h"
#include "client/paths.h"
#include "cli/cli_client.h"
#include "cli/flow_follow.h"
#include "cli/flow_report_files.h"
#include "cli/flow_request.h"
#include "flow/flow_submission.h"
#include "cli/job_view.h"
#include "core/environment.h"
#include "core/text.h"
#include "flow/flow_file.h"
#include "flow/flow_render.h"
#include "core/json_text.h"

namespace yard {

namespace {

// Where a flow's steps write their logs when they name no output: a run directory of
// its own under the state directory, never the flow's source tree.
std::string run_directory(const std::string& flow_name) {
  char stamp[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&t, &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  std::string name;
  for (char c : flow_name) name += (c == '/' || c == '%' || static_cast<unsigned char>(c) < 0x20) ? '_' : c;
  const std::string base = default_paths().state_dir + "/runs/" + (name.empty() ? "flow" : name) + "-" + stamp;
  std::string dir = base;
  for (int n = 2; std::filesystem::exists(dir); ++n) dir = base + "-" + std::to_string(n);
  return dir;
}

}  // namespace

void add_run_command(CLI::App& app, int& rc) {
  auto* run = app.add_subcommand("run",
                                 "Submit the steps of a workflow file and follow them to the end (docs/WORKFLOWS.md; "
                                 "a file without steps submits nothing and exits 0 at once)");
  static std::string file;
  static bool dry_run = false;
  static std::string run_in;
  static std::vector<std::string> rerun;
  static bool json = false;
  run->add_option("file", file, "Workflow file (YAML: steps:, or a run file's jobs:)")->required();
  run->add_option("--run-dir", run_in,
                  "Where steps without an output: write their logs (default: a new directory under "
                  "$XDG_STATE_HOME/switchyard/runs/, named by the flow and the time)");
  run->add_option("--rerun", rerun,
                  "Run this step again (a step's name, or a step of the file with all its foreach values), and "
                  "every step after it, even where it is up to date; repeatable");
  run->add_flag("--dry-run", dry_run, "Check the file and print the plan (every step, what it needs and runs); submit nothing");
  run->add_flag("--json", json,
                "Print JSON lines instead: {\"event\": \"flow\"} with every step's jobs and origin, one "
                "{\"event\": \"job\"} per state change, and {\"event\": \"end\"} with the jobs as they ended");
  run->callback([&rc] {
    const Environment env = current_environment();
    std::error_code ec;
    auto flow = load_flow(file, env);
    if (!flow) {
      std::cerr << "yard run: " << flow.error() << "\n";
      rc = kExitBadInput;
      return;
    }
    if (dry_run) {
      print_plan(std::cout, *flow);
      return;
    }
    if (flow->steps.empty()) {
      // Following no job must not mean following the whole store (Store::jobs of no id is
      // every job), which waited for all other jobs, or forever.
      if (json)  // still lines a program can read: a flow of nothing, ended
        std::cout << dump_json({{"event", "flow"}, {"flow_id", nullptr}, {"name", flow->name}, {"submitted", 0},
                                {"attached", 0}, {"up_to_date", 0}, {"steps", nlohmann::json::array()}})
                  << "\n"
                  << dump_json({{"event", "end"}, {"flow_id", nullptr}, {"failed", 0}, {"jobs", nlohmann::json::array()}})
                  << "\n";
      else
        std::cout << "yard run: " << escape_for_terminal(file) << " has no steps: nothing submitted\n";
      return;
    }
    // Steps that name no output log into the run directory.
    const std::string run_dir =
        run_in.empty() ? run_directory(flow->name) : std::filesystem::absolute(run_in, ec).lexically_normal().string();
    // The directories of the steps' logs and outputs are made before anything is
    // submitted: a flow's first step should not have to make its own log's directory.
    bool logs_there = false;
    if (auto ready = prepare_flow_run(*flow, run_dir, &logs_there); !ready) {
      std::cerr << "yard run: " << escape_for_terminal(ready.error()) << "\n";
      rc = exit_code_for(ready.kind());
      return;
    }
    if (logs_there && !json) std::cout << "logs of steps without an output: in " << escape_for_terminal(run_dir) << "\n";
    DaemonClient client = cli_client("run");
    auto request = flow_request(client, *flow, run_dir, rerun, rc);
    if (!request) return;
    auto submitted = client.submit_many(std::move(*request));
    if (!submitted) {
      // The daemon names the job by its place: the step's name and line are here.
      std::string why = submitted.error();
      if (why.rfind("job ", 0) == 0) {
        const auto place = static_cast<std::size_t>(std::strtoull(why.c_str() + 4, nullptr, 10));
        if (place < flow->steps.size()) {
          const FlowStep& step = flow->steps[place];
          const auto colon = why.find("): ");
          why = "step '" + escape_for_terminal(step.name) + "' (" + step.where + ")" +
                (colon == std::string::npos ? ": " + why : why.substr(colon + 1));
        }
      }
      std::cerr << "yard run: " << why << "\n";
      rc = submitted.kind() == ErrorKind::OutcomeUnknown ? kExitOutcomeUnknown : exit_code_for(submitted.kind());
      return;
    }
    for (const auto& w : submitted->warnings) std::cerr << "yard run: warning: " << escape_for_terminal(w) << "\n";
    std::vector<std::int64_t> followed, all;
    std::size_t attached = 0, up_to_date = 0;
    nlohmann::json steps = nlohmann::json::array();
    for (std::size_t i = 0; i < flow->steps.size(); ++i) {
      const auto& ids = submitted->ids[i];
      const auto origin = i < submitted->origins.size() ? submitted->origins[i] : StepOrigin::Submitted;
      all.push_back(ids.front());
      const std::string what = ids.size() > 1 ? " (array of " + std::to_string(ids.size()) + ")" : "";
      const std::string name = escape_for_terminal(flow->steps[i].name);
      steps.push_back({{"name", flow->steps[i].name}, {"ids", ids}, {"origin", to_string(origin)}});
      if (origin == StepOrigin::UpToDate) {
        ++up_to_date;
        continue;
      }
      followed.push_back(ids.front());
      if (origin == StepOrigin::Attached) {
        ++attached;
        if (!json) std::cout << name << " is running already as " << ids.front() << what << ": not submitted again\n";
      } else if (!json) {
        std::cout << "submitted " << name << " as " << ids.front() << what << "\n";
      }
    }
    const std::size_t sent = flow->steps.size() - attached - up_to_date;
    if (json)
      std::cout << dump_json({{"event", "flow"},        {"flow_id", submitted->flow_id}, {"name", flow->name},
                                  {"run_dir", run_dir},     {"submitted", sent},             {"attached", attached},
                                  {"up_to_date", up_to_date}, {"steps", steps}})
                << "\n"
                << std::flush;
    else
      std::cout << "flow " << submitted->flow_id << ": " << flow->steps.size() << " steps, " << sent << " submitted, "
                << attached << " running already, " << up_to_date
                << " up to date (Ctrl-C stops following, not the flow: yard flow status " << submitted->flow_id << ")\n";
    if (auto ended = follow_jobs(client, followed, std::cout, json); !ended) {
      std::cerr << "yard run: " << ended.error() << "\n";
      rc = 1;
      return;
    }
    JobQuery query;
    query.ids = all;
    auto recs = client.all_jobs(query);
    if (!recs) {
      std::cerr << "yard run: " << recs.error() << "\n";
      rc = 1;
      return;
    }
    // The flow's own jobs: a packed step is an element, whose id may head an array of
    // steps of an earlier run (the query's id of an array is all its elements).
    std::unordered_set<std::int64_t> own;
    for (const auto& ids : submitted->ids) own.insert(ids.begin(), ids.end());
    std::erase_if(*recs, [&](const JobRecord& j) { return !own.count(j.id); });
    int failed = 0;
    for (const auto& j : *recs) failed += is_terminal(j.state) && j.state != JobState::Completed;
    nlohmann::json end{{"event", "end"}, {"flow_id", submitted->flow_id}, {"failed", failed}};
    if (json) {
      end["jobs"] = nlohmann::json::array();
      for (const auto& j : *recs) end["jobs"].push_back(job_json(j));
    } else {
      print_job_table(std::cout, *recs);
    }
    // The report and trace, in the run directory.
    auto report = write_flow_report(client, submitted->flow_id, run_dir, std::move(*recs));
    if (!report) std::cerr << "yard run: no report: " << report.error() << "\n";
    else if (json) end["report"] = report->html, end["trace"] = report->trace;
    else std::cout << "report: " << escape_for_terminal(report->html) << " (trace: " << escape_for_terminal(report->trace) << ")\n";
    if (json) std::cout << dump_json(end) << "\n";
    rc = failed ? 1 : 0;
  });
}

}  // namespace yard

// yard run FILE.yaml: submits a flow's steps (flow/flow_file.h; what a step needs becomes
// afterok on the submitted ids) and follows them to the end with a live progress line on
// a terminal, or one plain line per state change otherwise. --dry-run prints the plan.
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>

#include "cli/commands.h"
#include "client/paths.h"
#include "cli/cli_client.h"
#include "cli/job_view.h"
#include "core/environment.h"
#include "core/text.h"
#include "flow/flow_file.h"
#include "flow/flow_render.h"

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

// A step's log in the run directory: its name as a file name ('%' doubled: an output
// path is a pattern; an array's elements apart).
std::string log_in(const std::string& dir, const FlowStep& step) {
  std::string file;
  for (char c : step.name) {
    if (c == '/') file += '_';
    else if (c == '%') file += "%%";
    else file += c;
  }
  return dir + "/" + file + (step.spec.array ? "_%a" : "") + ".out";
}

// Makes the parent directory of each of the step's log files and outputs (a directory
// named by a pattern, %j and the like, is the job's to have).
Status make_output_directories(const FlowStep& step) {
  std::vector<std::filesystem::path> files{step.outputs.begin(), step.outputs.end()};
  for (const auto* log : {&step.spec.stdout_path, &step.spec.stderr_path})
    if (!log->empty()) files.push_back(std::filesystem::path(step.spec.workdir) / *log);
  for (const auto& f : files) {
    const auto dir = f.parent_path();
    if (dir.empty() || dir.string().find('%') != std::string::npos) continue;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return err("cannot make the directory " + dir.string() + ": " + ec.message());
  }
  return {};
}

}  // namespace

void add_run_command(CLI::App& app, int& rc) {
  auto* run = app.add_subcommand("run",
                                 "Submit the steps of a workflow file and follow them to the end (docs/WORKFLOWS.md; "
                                 "a file without steps submits nothing and exits 0 at once)");
  static std::string file;
  static bool dry_run = false;
  static std::string run_in;
  run->add_option("file", file, "Workflow file (YAML: steps:, or a run file's jobs:)")->required();
  run->add_option("--run-dir", run_in,
                  "Where steps without an output: write their logs (default: a new directory under "
                  "$XDG_STATE_HOME/switchyard/runs/, named by the flow and the time)");
  run->add_flag("--dry-run", dry_run, "Check the file and print the plan (every step, what it needs and runs); submit nothing");
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
      std::cout << "yard run: " << escape_for_terminal(file) << " has no steps: nothing submitted\n";
      return;
    }
    // Steps that name no output log into the run directory.
    const std::string run_dir =
        run_in.empty() ? run_directory(flow->name) : std::filesystem::absolute(run_in, ec).lexically_normal().string();
    bool logs_there = false;
    for (auto& step : flow->steps)
      if (step.spec.stdout_path.empty()) {
        step.spec.stdout_path = log_in(run_dir, step);
        logs_there = true;
      }
    if (logs_there) std::cout << "logs of steps without an output: in " << escape_for_terminal(run_dir) << "\n";
    // The directories of the steps' logs and outputs, made before anything is submitted
    // (a job whose output file cannot be opened fails at its start; sbatch would fail it
    // too): a flow's first step should not have to make its own log's directory.
    for (const auto& step : flow->steps) {
      auto made = make_output_directories(step);
      if (!made) {
        std::cerr << "yard run: step '" << escape_for_terminal(step.name) << "' (" << step.where << "): " << made.error()
                  << "\n";
        rc = 1;
        return;
      }
    }
    DaemonClient client = cli_client("run");
    // Where the event log stands before the first submission: following from there sees
    // every change of these jobs, and nothing older.
    auto ping = client.ping();
    if (!ping) {
      std::cerr << "yard run: " << ping.error() << "\n";
      rc = exit_code_for(ping.kind());
      return;
    }
    // Every step in one request: stored together or not at all, so a flow is never half
    // submitted (a yard run killed while submitting leaves all of it or nothing).
    SubmitManyRequest request;
    request.env = flow->env;
    request.jobs.reserve(flow->steps.size());
    for (const FlowStep& step : flow->steps)
      request.jobs.push_back({step.spec, step.job_class, step.needs, step.own_env});
    auto submitted = client.submit_many(std::move(request));
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
    std::vector<std::int64_t> all;
    for (std::size_t i = 0; i < flow->steps.size(); ++i) {
      const auto& ids = submitted->ids[i];
      all.insert(all.end(), ids.begin(), ids.end());
      std::cout << "submitted " << escape_for_terminal(flow->steps[i].name) << " as " << ids.front()
                << (ids.size() > 1 ? " (array of " + std::to_string(ids.size()) + ")" : "") << "\n";
    }
    const bool tty = ::isatty(1) != 0;
    std::map<std::int64_t, JobState> last;
    for (auto id : all) last[id] = JobState::Pending;
    int done = 0, running = 0, pending = static_cast<int>(all.size()), failed = 0;
    const int total = static_cast<int>(all.size());
    auto count = [&](JobState s, int d) {
      if (is_terminal(s)) done += d;
      if (is_terminal(s) && s != JobState::Completed) failed += d;
      if (s == JobState::Running) running += d;
      if (s == JobState::Pending) pending += d;
    };
    auto progress = [&] {
      if (!tty) return;
      const int width = 30, filled = total ? done * width / total : width;
      std::cout << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
                << std::string(static_cast<std::size_t>(width - filled), '.') << "] " << done << "/" << total
                << " done, " << running << " running, " << pending << " pending, " << failed << " failed   "
                << std::flush;
    };
    progress();
    WatchRequest follow;
    follow.since = ping->last_event;
    follow.filter.ids = all;
    auto watched = client.watch(follow, [&](const LoggedEvent& e) {
      auto it = last.find(e.job_id);
      if (it == last.end() || it->second == e.event.state) return true;
      count(it->second, -1);
      count(e.event.state, +1);
      it->second = e.event.state;
      if (!tty) {
        std::string id = std::to_string(e.job_id);
        if (e.array_job_id && e.array_index) id = std::to_string(*e.array_job_id) + "_" + std::to_string(*e.array_index);
        std::cout << escape_for_terminal(e.name) << " " << id << " " << to_string(e.event.state)
                  << (e.event.detail.empty() ? "" : " (" + escape_for_terminal(e.event.detail) + ")") << "\n";
      }
      progress();
      return done < total;
    });
    if (!watched) {
      std::cerr << "\nyard run: " << watched.error() << "\n";
      rc = 1;
      return;
    }
    if (tty) std::cout << "\n";
    JobQuery query;
    query.ids = all;
    auto recs = client.all_jobs(query);
    if (!recs) {
      std::cerr << "yard run: " << recs.error() << "\n";
      rc = 1;
      return;
    }
    print_job_table(std::cout, *recs);
    rc = failed ? 1 : 0;
  });
}

}  // namespace yard

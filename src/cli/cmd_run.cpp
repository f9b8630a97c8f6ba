// yard run FILE.yaml: submits a run file's jobs (dependencies by name become afterok on
// the submitted ids) and follows them to the end with a live progress line on a
// terminal, or one plain line per state change otherwise.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <map>

#include "cli/commands.h"
#include "cli/cli_client.h"
#include "cli/job_view.h"
#include "core/environment.h"
#include "core/text.h"
#include "flow/run_file.h"

namespace yard {

void add_run_command(CLI::App& app, int& rc) {
  auto* run = app.add_subcommand("run",
                                 "Submit the jobs of a YAML run file and follow them to the end (a file whose job list "
                                 "is empty, jobs: [], submits nothing and exits 0 at once)");
  static std::string file;
  run->add_option("file", file, "Run file (see examples/)")->required();
  run->callback([&rc] {
    const Environment env = current_environment();
    std::error_code ec;
    const std::string base = std::filesystem::absolute(std::filesystem::path(file), ec).parent_path().string();
    auto jobs = load_run_file(file, base, env);
    if (!jobs) {
      std::cerr << "yard run: " << jobs.error() << "\n";
      rc = kExitBadInput;
      return;
    }
    if (jobs->empty()) {
      // Following no job must not mean following the whole store (Store::jobs of no id is
      // every job), which waited for all other jobs, or forever.
      std::cout << "yard run: " << escape_for_terminal(file) << " has no jobs: nothing submitted\n";
      return;
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
    std::map<std::string, std::vector<std::int64_t>> ids_by_name;
    std::vector<std::int64_t> all;
    for (auto& j : *jobs) {
      JobSpec s = j.spec;
      for (auto& a : j.after)
        for (auto id : ids_by_name[a]) s.dependencies.push_back({DependencyKind::AfterOk, id});
      auto r = client.submit(SubmitRequest{std::move(s), j.job_class, "", false});
      if (!r) {
        std::cerr << "yard run: job '" << escape_for_terminal(j.name) << "': " << r.error() << "\n";
        rc = r.kind() == ErrorKind::OutcomeUnknown ? kExitOutcomeUnknown : 1;
        return;
      }
      const auto& ids = r->ids;
      ids_by_name[j.name] = ids;
      all.insert(all.end(), ids.begin(), ids.end());
      std::cout << "submitted " << escape_for_terminal(j.name) << " as " << ids.front() << (ids.size() > 1 ? " (array of " + std::to_string(ids.size()) + ")" : "") << "\n";
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

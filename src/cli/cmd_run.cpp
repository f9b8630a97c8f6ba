// yard run FILE.yaml: submits a run file's jobs (dependencies by name become afterok on
// the submitted ids) and follows them to the end with a live progress line on a
// terminal, or one plain line per state change otherwise.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <thread>

#include "cli/commands.h"
#include "cli/cli_client.h"
#include "cli/job_view.h"
#include "core/environment.h"
#include "core/text.h"
#include "flow/run_file.h"
#include "store/store.h"

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
    const Paths paths = default_paths();
    std::map<std::string, std::vector<std::int64_t>> ids_by_name;
    std::vector<std::int64_t> all;
    for (auto& j : *jobs) {
      JobSpec s = j.spec;
      for (auto& a : j.after)
        for (auto id : ids_by_name[a]) s.dependencies.push_back({DependencyKind::AfterOk, id});
      auto r = cli_client("run").submit(SubmitRequest{std::move(s), "", "", false});
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
    auto st = Store::open(paths.store, Store::Mode::ReadOnly);
    if (!st) {
      std::cerr << "yard run: " << st.error() << "\n";
      rc = 1;
      return;
    }
    const bool tty = ::isatty(1) != 0;
    std::map<std::int64_t, JobState> last;
    for (;;) {
      auto recs = st->jobs(all);
      if (!recs) {
        std::cerr << "yard run: " << recs.error() << "\n";
        rc = 1;
        return;
      }
      int done = 0, running = 0, pending = 0, failed = 0;
      for (auto& j : *recs) {
        if (is_terminal(j.state)) ++done;
        if (is_terminal(j.state) && j.state != JobState::Completed) ++failed;
        if (j.state == JobState::Running) ++running;
        if (j.state == JobState::Pending) ++pending;
        if (!tty && last[j.id] != j.state) {
          std::cout << escape_for_terminal(j.name) << " " << display_id(j) << " " << to_string(j.state)
                    << (j.reason.empty() ? "" : " (" + escape_for_terminal(j.reason) + ")") << "\n";
          last[j.id] = j.state;
        }
      }
      const int total = static_cast<int>(recs->size());
      if (tty) {
        const int width = 30, filled = total ? done * width / total : width;
        std::cout << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
                  << std::string(static_cast<std::size_t>(width - filled), '.') << "] " << done << "/" << total
                  << " done, " << running << " running, " << pending << " pending, " << failed << " failed   "
                  << std::flush;
      }
      if (done == total) {
        if (tty) std::cout << "\n";
        print_job_table(std::cout, *recs);
        rc = failed ? 1 : 0;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
}

}  // namespace yard

// yard status | wait | logs | cancel: read the store directly (read-only, WAL: never in
// the daemon's way); cancel goes through the daemon.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "cli/daemon_client.h"
#include "cli/job_view.h"
#include "core/json_text.h"
#include "server/paths.h"
#include "store/store.h"

namespace yard {
namespace {

Result<Store> open_store() {
  Paths p = default_paths();
  if (!std::filesystem::exists(p.store)) return err("no jobs yet (no store at " + p.store + ")");
  return Store::open(p.store, Store::Mode::ReadOnly);
}

// Jobs named by `ids` (an array id names all its elements); an error naming unknown ids.
Result<std::vector<JobRecord>> find_jobs(Store& st, const std::vector<std::int64_t>& ids) {
  auto jobs = st.jobs(ids);
  if (!jobs) return jobs;
  for (auto id : ids) {
    bool found = false;
    for (auto& j : *jobs) found = found || j.id == id || j.array_job_id == id;
    if (!found) return err("no job " + std::to_string(id));
  }
  return jobs;
}

}  // namespace

void add_status_commands(CLI::App& app, int& rc) {
  auto* status = app.add_subcommand("status", "Show jobs (all, or the given ids) as a table or --json");
  static std::vector<std::int64_t> status_ids;
  static bool status_json = false;
  status->add_option("ids", status_ids, "Job ids (an array id shows all its elements)");
  status->add_flag("--json", status_json, "Print a JSON array of job objects");
  status->callback([&rc] {
    auto st = open_store();
    if (!st) {
      if (status_ids.empty()) {
        std::cout << (status_json ? "[]\n" : "");
        return;
      }
      std::cerr << "yard status: " << st.error() << "\n";
      rc = kExitBadInput;
      return;
    }
    auto jobs = find_jobs(*st, status_ids);
    if (!jobs) {
      std::cerr << "yard status: " << jobs.error() << "\n";
      rc = kExitBadInput;
      return;
    }
    if (status_json) {
      auto arr = nlohmann::json::array();
      for (auto& j : *jobs) arr.push_back(job_json(j));
      std::cout << dump_json(arr, 2) << "\n";
    } else {
      print_job_table(std::cout, *jobs);
    }
  });

  auto* wait = app.add_subcommand("wait", "Wait until the jobs end; exit 0 if all COMPLETED, else 1");
  static std::vector<std::int64_t> wait_ids;
  static double wait_timeout = 0;
  wait->add_option("ids", wait_ids, "Job ids")->required();
  wait->add_option("--timeout", wait_timeout, "Give up after this many seconds (exit 3)");
  wait->callback([&rc] {
    auto st = open_store();
    if (!st) {
      std::cerr << "yard wait: " << st.error() << "\n";
      rc = kExitBadInput;
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    auto delay = std::chrono::milliseconds(20);
    for (;;) {
      auto jobs = find_jobs(*st, wait_ids);
      if (!jobs) {
        std::cerr << "yard wait: " << jobs.error() << "\n";
        rc = kExitBadInput;
        return;
      }
      bool done = true, ok = true;
      for (auto& j : *jobs) {
        done = done && is_terminal(j.state);
        ok = ok && j.state == JobState::Completed;
      }
      if (done) {
        for (auto& j : *jobs) std::cout << display_id(j) << " " << to_string(j.state) << "\n";
        rc = ok ? 0 : 1;
        return;
      }
      if (wait_timeout > 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > wait_timeout) {
        std::cerr << "yard wait: jobs still running after " << wait_timeout << " s\n";
        rc = 3;
        return;
      }
      std::this_thread::sleep_for(delay);
      delay = std::min(delay * 2, std::chrono::milliseconds(250));
    }
  });

  auto* logs = app.add_subcommand("logs", "Print a job's output (stdout; stderr to stderr if separate)");
  static std::int64_t logs_id = 0;
  logs->add_option("id", logs_id, "Job id")->required();
  logs->callback([&rc] {
    auto st = open_store();
    auto jobs = st ? find_jobs(*st, {logs_id}) : Result<std::vector<JobRecord>>(Error{st.error()});
    if (!jobs) {
      std::cerr << "yard logs: " << jobs.error() << "\n";
      rc = kExitBadInput;
      return;
    }
    for (auto& j : *jobs) {
      if (j.stdout_path.empty()) {
        std::cerr << "yard logs: job " << display_id(j) << " has not started\n";
        rc = 1;
        continue;
      }
      std::ifstream out(j.stdout_path);
      if (!out) {
        std::cerr << "yard logs: cannot read " << j.stdout_path << "\n";
        rc = 1;
        continue;
      }
      std::cout << out.rdbuf();
      if (j.stderr_path != j.stdout_path) {
        std::ifstream e(j.stderr_path);
        if (e) std::cerr << e.rdbuf();
      }
    }
  });

  auto* cancel = app.add_subcommand("cancel", "Cancel jobs: pending ones at once, running ones with their whole process tree");
  static std::vector<std::int64_t> cancel_ids;
  cancel->add_option("ids", cancel_ids, "Job ids (an array id cancels all its elements)")->required();
  cancel->callback([&rc] {
    auto r = ask_daemon(default_paths(), {{"op", "cancel"}, {"ids", cancel_ids}}, false);
    if (!r) {
      std::cerr << "yard cancel: " << r.error() << "\n";
      rc = r.error().find("no job") != std::string::npos ? kExitBadInput : 1;
    }
  });
}

}  // namespace yard

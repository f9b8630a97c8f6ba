// yard status | wait | logs | cancel: read the store directly (read-only, WAL: never in
// the daemon's way); cancel goes through the daemon.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "cli/job_refs.h"
#include "cli/job_view.h"
#include "cli/cli_client.h"
#include "core/clock.h"
#include "core/json_text.h"
#include "server/daemon_lock.h"
#include "server/paths.h"
#include "store/store.h"

namespace yard {
namespace {

// NotFound when there is no store and no daemon (no job was ever submitted); a daemon
// that runs without its store lost it under it (store_guard.h puts it back): Unavailable.
Result<Store> open_store() {
  Paths p = default_paths();
  if (!std::filesystem::exists(p.store)) {
    if (auto holder = daemon_lock_holder(p.lock))
      return unavailable("no store at " + p.store + ", but the daemon (pid " + std::to_string(*holder) +
                         ") runs: its store was removed under it");
    return Error{"no jobs yet (no store at " + p.store + ")", ErrorKind::NotFound};
  }
  return Store::open(p.store, Store::Mode::ReadOnly);
}

// The jobs named by `refs` (all jobs when there are none); an error naming every
// unknown one.
Result<std::vector<JobRecord>> find_jobs(Store& st, const std::vector<JobRef>& refs) {
  auto jobs = st.jobs(store_ids(refs));
  if (!jobs || refs.empty()) return jobs;
  auto found = resolve_job_refs(refs, *jobs);
  if (!found.unknown.empty()) {
    std::string names;
    for (auto& u : found.unknown) names += (names.empty() ? "" : ", ") + u.text;
    return err("no job " + names);
  }
  return found.jobs;
}

Result<std::vector<JobRecord>> find_jobs(Store& st, const std::vector<std::string>& words) {
  auto refs = parse_job_refs(words);
  if (!refs) return refs.failure();
  return find_jobs(st, *refs);
}

// What `yard cancel` sends the daemon for `ref`, which names `jobs` (its candidates in the
// store); nullopt with a message in `why` when it cannot be sent.
std::optional<std::int64_t> cancel_id(const JobRef& ref, const std::vector<JobRecord>& jobs, std::string& why) {
  if (!ref.index) {
    if (std::none_of(jobs.begin(), jobs.end(), [&](const JobRecord& j) { return matches(ref, j); })) return std::nullopt;
    return ref.id;
  }
  const JobRecord* element = nullptr;
  bool others_active = false;
  for (auto& j : jobs) {
    if (matches(ref, j)) element = &j;
    else if (j.array_job_id == ref.id && !is_terminal(j.state)) others_active = true;
  }
  if (!element) return std::nullopt;
  // The daemon takes ids, and an array's first element has the array's own id, which
  // cancels every element: send it only when no other element would be touched.
  if (element->id != ref.id || !others_active) return element->id;
  why = ref.text + " is the first element of array " + std::to_string(ref.id) +
        ", whose id names the whole array while other elements are pending or running: it cannot be cancelled "
        "alone (yard cancel " + std::to_string(ref.id) + " cancels them all)";
  return std::nullopt;
}

}  // namespace

// Until the jobs `wait_ids` end (yard wait, sbatch --wait): 0 if all COMPLETED, 1 if not,
// 3 after `wait_timeout` seconds (0: never), 2 for bad ids; `print`: each job's end state.
int wait_for_jobs(const std::vector<std::string>& wait_ids, double wait_timeout, bool print) {
  auto st = open_store();
  if (!st) {
    std::cerr << "yard wait: " << st.error() << "\n";
    return exit_code_for(st.kind());
  }
  const double start = monotonic_now();
  auto delay = std::chrono::milliseconds(20);
  // Jobs advance only while a daemon runs: every few seconds it is checked, and
  // started if it is gone (as submit would), so a wait never outlasts a daemon in
  // silence; a daemon that cannot start says why, once.
  auto next_check = start;
  std::string said;
  for (;;) {
    if (monotonic_now() >= next_check) {
      next_check = monotonic_now() + 3;
      const Paths paths = default_paths();
      if (!DaemonClient(paths).ping(2000))
        if (auto started = start_daemon(paths); !started && started.error() != said) {
          said = started.error();
          std::cerr << "yard wait: jobs cannot advance: " << said << "\n";
        }
    }
    auto jobs = find_jobs(*st, wait_ids);
    if (!jobs) {
      std::cerr << "yard wait: " << jobs.error() << "\n";
      return kExitBadInput;
    }
    bool done = true, ok = true;
    for (auto& j : *jobs) {
      done = done && is_terminal(j.state);
      ok = ok && j.state == JobState::Completed;
    }
    if (done) {
      if (print)
        for (auto& j : *jobs) std::cout << display_id(j) << " " << to_string(j.state) << "\n";
      return ok ? 0 : 1;
    }
    if (wait_timeout > 0 && monotonic_now() - start > wait_timeout) {
      std::cerr << "yard wait: jobs still running after " << wait_timeout << " s\n";
      return 3;
    }
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, std::chrono::milliseconds(250));
  }
}

void add_status_commands(CLI::App& app, int& rc) {
  auto* status = app.add_subcommand("status", "Show jobs (all, or the given ids) as a table or --json");
  static std::vector<std::string> status_ids;
  static bool status_json = false;
  status->add_option("ids", status_ids, "Job ids: ID (an array id shows all its elements) or ID_INDEX");
  status->add_flag("--json", status_json, "Print a JSON array of job objects");
  status->callback([&rc] {
    auto st = open_store();
    if (!st) {
      // No job was ever submitted: an empty list, as squeue shows one.
      if (status_ids.empty() && st.kind() == ErrorKind::NotFound) {
        std::cout << (status_json ? "[]\n" : "");
        return;
      }
      std::cerr << "yard status: " << st.error() << "\n";
      rc = exit_code_for(st.kind());
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
  static std::vector<std::string> wait_ids;
  static double wait_timeout = 0;
  wait->add_option("ids", wait_ids, "Job ids: ID or ID_INDEX")->required();
  wait->add_option("--timeout", wait_timeout, "Give up after this many seconds (exit 3)");
  wait->callback([&rc] { rc = wait_for_jobs(wait_ids, wait_timeout, true); });

  auto* logs = app.add_subcommand("logs", "Print a job's output (stdout; stderr to stderr if separate)");
  static std::string logs_id;
  logs->add_option("id", logs_id, "Job id: ID (an array's: every element) or ID_INDEX")->required();
  logs->callback([&rc] {
    auto st = open_store();
    auto jobs = st ? find_jobs(*st, std::vector<std::string>{logs_id}) : Result<std::vector<JobRecord>>(st.failure());
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

  auto* cancel = app.add_subcommand(
      "cancel",
      "Cancel jobs: pending ones at once, running ones with their whole process tree. As scancel, the known ids "
      "are cancelled and each unknown one is an error (exit 1; exit 2 when no id was known)");
  static std::vector<std::string> cancel_ids;
  cancel->add_option("ids", cancel_ids, "Job ids: ID (an array id cancels all its elements) or ID_INDEX")->required();
  cancel->callback([&rc] {
    auto refs = parse_job_refs(cancel_ids);
    if (!refs) {
      std::cerr << "yard cancel: " << refs.error() << "\n";
      rc = kExitBadInput;
      return;
    }
    // Which ids are known is read from the store, so that a bad id does not stop the
    // good ones from being cancelled (scancel cancels those, and reports the others).
    std::vector<JobRecord> known;
    if (auto st = open_store()) {
      auto jobs = st->jobs(store_ids(*refs));
      if (!jobs) {
        std::cerr << "yard cancel: " << jobs.error() << "\n";
        rc = 1;
        return;
      }
      known = std::move(*jobs);
    }
    std::vector<std::int64_t> ids;
    bool failed = false;
    for (auto& ref : *refs) {
      std::string why = "no job " + ref.text;
      auto id = cancel_id(ref, known, why);
      if (id) {
        ids.push_back(*id);
      } else {
        std::cerr << "yard cancel: " << why << "\n";
        failed = true;
      }
    }
    if (!ids.empty()) {
      // As submit: a daemon that is not running is started, so that the cancel happens.
      auto r = cli_client("cancel").cancel(CancelRequest{ids});
      if (!r) {
        std::cerr << "yard cancel: " << r.error() << "\n";
        rc = exit_code_for(r.kind());
        return;
      }
    }
    if (failed) rc = ids.empty() ? kExitBadInput : 1;
  });
}

}  // namespace yard

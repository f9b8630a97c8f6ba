// yard status | wait | logs | cancel: through the daemon's API (client/daemon_client.h),
// like every other client; a daemon that is not running is started.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <thread>

#include "cli/cli_client.h"
#include "cli/commands.h"
#include "cli/job_refs.h"
#include "cli/job_view.h"
#include "core/json_text.h"

namespace yard {
namespace {

// The jobs named by `refs` (every job when there are none); an error naming every
// unknown one (NotFound).
Result<std::vector<JobRecord>> find_jobs(DaemonClient& client, const std::vector<JobRef>& refs, JobQuery query = {}) {
  query.ids = store_ids(refs);
  auto jobs = client.all_jobs(query);
  if (!jobs || refs.empty()) return jobs;
  auto found = resolve_job_refs(refs, *jobs);
  if (!found.unknown.empty()) {
    std::string names;
    for (auto& u : found.unknown) names += (names.empty() ? "" : ", ") + u.text;
    return Error{"no job " + names, ErrorKind::NotFound};
  }
  return found.jobs;
}

Result<std::vector<JobRecord>> find_jobs(DaemonClient& client, const std::vector<std::string>& words,
                                         JobQuery query = {}) {
  auto refs = parse_job_refs(words);
  if (!refs) return refs.failure();
  return find_jobs(client, *refs, std::move(query));
}

// What `yard cancel` sends the daemon for `ref`, which names `jobs` (its candidates);
// nullopt with a message in `why` when it cannot be sent.
std::optional<std::int64_t> cancel_id(const JobRef& ref, const std::vector<JobRecord>& jobs, std::string_view verb,
                                      std::string& why) {
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
        ", whose id names the whole array while other elements are pending or running: it cannot be " +
        std::string(verb == "cancel" ? "cancelled" : verb == "hold" ? "held" : std::string(verb) + "d") + " alone (yard " +
        std::string(verb) + " " + std::to_string(ref.id) + " names them all)";
  return std::nullopt;
}

// The daemon's ids for `words` as cancel_id() takes them, after asking which are known
// (as scancel: a bad id does not stop the good ones); each word that names no job said
// on stderr as "yard VERB: ...", `failed` then set. Nothing: the words or the daemon
// failed (rc set).
std::optional<std::vector<std::int64_t>> daemon_ids(DaemonClient& client, const std::vector<std::string>& words,
                                                    const char* verb, int& rc, bool& failed) {
  auto refs = parse_job_refs(words);
  if (!refs) {
    std::cerr << "yard " << verb << ": " << refs.error() << "\n";
    rc = kExitBadInput;
    return std::nullopt;
  }
  JobQuery query;
  query.ids = store_ids(*refs);
  auto known = client.all_jobs(query);
  if (!known) {
    std::cerr << "yard " << verb << ": " << known.error() << "\n";
    rc = exit_code_for(known.kind());
    return std::nullopt;
  }
  std::vector<std::int64_t> ids;
  for (auto& ref : *refs) {
    std::string why = "no job " + ref.text;
    if (auto id = cancel_id(ref, *known, verb, why)) {
      ids.push_back(*id);
    } else {
      std::cerr << "yard " << verb << ": " << why << "\n";
      failed = true;
    }
  }
  return ids;
}

// yard hold, release and requeue [--hold]: ids as cancel takes them, the action the
// daemon's (JobActionRequest); a job that does not allow it (held while running, ...)
// is an error naming it, and nothing is done.
void add_job_action_commands(CLI::App& app, int& rc) {
  struct Command {
    const char* name;
    const char* help;
  };
  static const Command commands[] = {
      {"hold", "Keep pending jobs from starting until yard release (scontrol hold); kept across a daemon restart. "
               "Only pending jobs can be held"},
      {"release", "Let held jobs start again (scontrol release)"},
      {"requeue", "Stop running jobs and put them back in the queue under their ids, to start again "
                  "(scontrol requeue; a job may requeue itself: yard requeue $YARD_JOB_ID). Only running jobs "
                  "can be requeued"},
  };
  static std::vector<std::string> ids[std::size(commands)];
  static bool then_hold = false;
  for (std::size_t k = 0; k < std::size(commands); ++k) {
    const Command& c = commands[k];
    auto* cmd = app.add_subcommand(c.name, std::string(c.help) + " (yard " + c.name + " --help)");
    cmd->add_option("ids", ids[k], "Job ids: ID (an array id: its elements that can be) or ID_INDEX")->required();
    if (std::string_view(c.name) == "requeue")
      cmd->add_flag("--hold", then_hold, "Hold them once requeued (scontrol requeuehold)");
    cmd->callback([&rc, k, name = c.name] {
      DaemonClient client = cli_client(name);
      bool failed = false;
      auto named = daemon_ids(client, ids[k], name, rc, failed);
      if (!named) return;
      JobAction action = k == 0 ? JobAction::Hold : k == 1 ? JobAction::Release
                         : then_hold ? JobAction::RequeueHold : JobAction::Requeue;
      if (!named->empty()) {
        auto r = client.act(JobActionRequest{action, *named});
        if (!r) {
          std::cerr << "yard " << name << ": " << r.error() << "\n";
          rc = exit_code_for(r.kind());
          return;
        }
      }
      if (failed) rc = named->empty() ? kExitBadInput : 1;
    });
  }
}

// Copies a job's output stream to `out` from `offset`, a chunk at a time; with `follow`,
// until the job has ended. Returns the offset reached, or the error.
Result<std::int64_t> copy_output(DaemonClient& client, std::int64_t id, bool stderr_stream, std::int64_t offset,
                                 std::ostream& out, bool follow) {
  for (;;) {
    auto chunk = client.logs(LogsRequest{id, stderr_stream, offset, kMaxLogChunk});
    if (!chunk) return chunk.failure();
    if (chunk->path.empty() && !follow) return Error{"has not started", ErrorKind::NotFound};
    out.write(chunk->data.data(), static_cast<std::streamsize>(chunk->data.size()));
    offset += static_cast<std::int64_t>(chunk->data.size());
    if (!chunk->data.empty()) continue;
    if (!follow || chunk->ended) return offset;
    out.flush();
    // A file grows without telling anyone: looked at again shortly.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

}  // namespace

int wait_for_jobs(const std::vector<std::string>& wait_ids, double wait_timeout, bool print) {
  DaemonClient client = cli_client("wait");
  auto jobs = find_jobs(client, wait_ids);
  if (!jobs) {
    std::cerr << "yard wait: " << jobs.error() << "\n";
    return exit_code_for(jobs.kind());
  }
  WaitRequest request;
  for (auto& j : *jobs) request.ids.push_back(j.id);
  auto ended = client.wait(request, wait_timeout);
  if (!ended) {
    std::cerr << "yard wait: " << ended.error() << "\n";
    return exit_code_for(ended.kind());
  }
  if (!*ended) {
    std::cerr << "yard wait: jobs still running after " << wait_timeout << " s\n";
    return 3;
  }
  bool ok = true;
  for (auto& j : (*ended)->jobs) {
    ok = ok && j.state == JobState::Completed;
    if (print) std::cout << display_id(j) << " " << to_string(j.state) << "\n";
  }
  return ok ? 0 : 1;
}

void add_status_commands(CLI::App& app, int& rc) {
  auto* status = app.add_subcommand("status", "Show jobs (all, or the given ids) as a table or --json");
  static std::vector<std::string> status_ids;
  static bool status_json = false;
  static std::vector<std::string> status_states;
  static JobQuery status_query;
  status->add_option("ids", status_ids, "Job ids: ID (an array id shows all its elements) or ID_INDEX");
  status->add_flag("--json", status_json, "Print a JSON array of job objects");
  status->add_option("--state", status_states, "Only jobs in these states (PENDING, RUNNING, COMPLETED, ...)")
      ->delimiter(',')->allow_extra_args(false);
  status->add_option("--name", status_query.name, "Only jobs of this name");
  status->add_option("--backend", status_query.backend, "Only jobs of this backend");
  status->add_option("--limit", status_query.limit, "At most this many jobs (the first ones; 0: all)");
  status->add_option("--after", status_query.after, "Only jobs after this id (the last id of the page before)");
  status->callback([&rc] {
    for (auto& s : status_states) {
      auto state = parse_job_state(s);
      if (!state) {
        std::cerr << "yard status: --state: unknown state '" << s
                  << "' (PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, PREEMPTED, OUT_OF_MEMORY, LOST, UNKNOWN)\n";
        rc = kExitBadInput;
        return;
      }
      status_query.states.push_back(*state);
    }
    DaemonClient client = cli_client("status");
    Result<std::vector<JobRecord>> jobs = Error{""};
    if (status_query.limit && status_ids.empty()) {
      auto page = client.jobs(JobsRequest{status_query});
      jobs = page ? Result<std::vector<JobRecord>>(std::move(page->jobs)) : page.failure();
    } else {
      jobs = find_jobs(client, status_ids, status_query);
    }
    if (!jobs) {
      std::cerr << "yard status: " << jobs.error() << "\n";
      rc = exit_code_for(jobs.kind());
      return;
    }
    if (status_json) {
      // As dump_json of the whole array with indent 2 prints it, written straight (100,000
      // jobs never make one tree).
      if (jobs->empty()) {
        std::cout << "[]\n";
        return;
      }
      std::string out = "[\n";
      for (std::size_t i = 0; i < jobs->size(); ++i) {
        out += "  ";
        append_job_json(out, (*jobs)[i], 1);
        out += i + 1 < jobs->size() ? ",\n" : "\n]\n";
        if (out.size() > (1u << 20)) {
          std::cout << out;
          out.clear();
        }
      }
      std::cout << out;
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
  static bool follow = false;
  logs->add_option("id", logs_id, "Job id: ID (an array's: every element) or ID_INDEX")->required();
  logs->add_flag("-f,--follow", follow, "Keep printing what the job writes until it ends");
  logs->callback([&rc] {
    DaemonClient client = cli_client("logs");
    auto jobs = find_jobs(client, std::vector<std::string>{logs_id});
    if (!jobs) {
      std::cerr << "yard logs: " << jobs.error() << "\n";
      rc = exit_code_for(jobs.kind());
      return;
    }
    for (auto& j : *jobs) {
      auto out = copy_output(client, j.id, false, 0, std::cout, follow);
      if (!out) {
        std::cerr << "yard logs: job " << display_id(j) << " " << out.error() << "\n";
        rc = 1;
        continue;
      }
      if (j.stderr_path != j.stdout_path && !j.stderr_path.empty()) {
        std::cout.flush();
        (void)copy_output(client, j.id, true, 0, std::cerr, false);
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
    DaemonClient client = cli_client("cancel");
    bool failed = false;
    auto ids = daemon_ids(client, cancel_ids, "cancel", rc, failed);
    if (!ids) return;
    if (!ids->empty()) {
      auto r = client.cancel(CancelRequest{*ids});
      if (!r) {
        std::cerr << "yard cancel: " << r.error() << "\n";
        rc = exit_code_for(r.kind());
        return;
      }
    }
    if (failed) rc = ids->empty() ? kExitBadInput : 1;
  });

  add_job_action_commands(app, rc);
}

}  // namespace yard

// A program that uses Switchyard's client library as any program outside the project
// would: compiled by client_library_test.sh with only what `pkg-config --cflags --libs
// switchyard-client` gives, against the installed headers and libswitchyard-client.so.
// It starts the daemon through the client (autostart, $YARD_DAEMON), submits a job,
// follows the event log to the job's end, waits for it, lists it, reads its output and
// the accounts, and stops the daemon. Any mismatch: a message and exit status 1.
// Usage: client_program WORKDIR   (the job runs there and writes its output there)
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "client/daemon_client.h"

extern char** environ;

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::cerr << "client program: " << what << "\n";
  std::exit(1);
}

template <typename T>
T must(yard::Result<T> r, const std::string& what) {
  if (!r) fail(what + ": " + r.error());
  return std::move(r).value();
}

void expect(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

// The whole program has a deadline: a daemon that never answers, or a stream that never
// brings the job's end, fails the run instead of hanging it.
void on_deadline(int) {
  const char message[] = "client program: no result within the deadline\n";
  (void)!::write(2, message, sizeof message - 1);
  ::_exit(1);
}

const char* kGreeting = "hello from the client library";

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || argv[1][0] != '/') fail("usage: client_program ABSOLUTE_WORKDIR");
  const std::string workdir = argv[1];
  ::signal(SIGALRM, on_deadline);
  ::alarm(120);

  yard::DaemonClient client(yard::default_paths(), /*autostart=*/true);
  // The first request starts the daemon; its pid goes to the test, which makes sure it
  // stops. The event log's end: a watch from it sees only what follows.
  const yard::PingReply ping = must(client.ping(), "ping");
  std::cout << "daemon " << ping.pid << std::endl;
  expect(ping.pid > 0, "ping: no daemon pid");

  yard::SubmitRequest submit;
  submit.spec.name = "client-library";
  submit.spec.argv = {"echo", kGreeting};
  submit.spec.workdir = workdir;
  submit.spec.stdout_path = workdir + "/hello-%j.out";
  for (char** e = environ; *e; ++e) {
    const std::string kv = *e;
    const auto eq = kv.find('=');
    if (eq != std::string::npos) submit.spec.env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  const yard::SubmitReply submitted = must(client.submit(submit), "submit");
  expect(submitted.ids.size() == 1, "submit: " + std::to_string(submitted.ids.size()) + " ids, not 1");
  const std::int64_t id = submitted.ids[0];

  // The event stream, from before the submission to the job's end.
  yard::WatchRequest watch;
  watch.since = ping.last_event;
  watch.filter.ids = {id};
  std::vector<yard::LoggedEvent> events;
  const yard::Status watched = client.watch(watch, [&](const yard::LoggedEvent& e) {
    events.push_back(e);
    return !yard::is_terminal(e.event.state);
  });
  expect(watched.ok(), "watch: " + watched.error());
  expect(!events.empty(), "watch: no event");
  std::int64_t last_id = ping.last_event;
  for (auto& e : events) {
    expect(e.job_id == id, "watch: an event of job " + std::to_string(e.job_id) + ", not " + std::to_string(id));
    expect(e.id > last_id, "watch: event ids out of order");
    last_id = e.id;
  }
  expect(events.front().event.state == yard::JobState::Pending,
         "watch: the first event is " + std::string(yard::to_string(events.front().event.state)));
  expect(events.back().event.state == yard::JobState::Completed,
         "watch: the job ended " + std::string(yard::to_string(events.back().event.state)));
  expect(events.back().name == "client-library", "watch: the event names '" + events.back().name + "'");

  // Waiting for a job that has ended answers at once, with its record.
  yard::WaitRequest wait;
  wait.ids = {id};
  const auto waited = must(client.wait(wait, 60), "wait");
  expect(waited.has_value(), "wait: timed out");
  expect(waited->jobs.size() == 1 && waited->jobs[0].id == id, "wait: not the job waited for");
  expect(waited->jobs[0].exit_code == 0, "wait: the job's exit code is not 0");

  // Listed back by a query.
  yard::JobsRequest list;
  list.query.ids = {id};
  const yard::JobsReply jobs = must(client.jobs(list), "jobs");
  expect(jobs.jobs.size() == 1, "jobs: " + std::to_string(jobs.jobs.size()) + " jobs, not 1");
  const yard::JobRecord& job = jobs.jobs[0];
  expect(job.id == id && job.name == "client-library", "jobs: another job (" + job.name + ")");
  expect(job.state == yard::JobState::Completed, "jobs: the job is " + std::string(yard::to_string(job.state)));
  expect(job.start_time && job.end_time && *job.end_time >= *job.start_time, "jobs: no start and end times");
  const auto all = must(client.all_jobs({}), "all jobs");
  expect(all.size() == 1 && all[0].id == id, "all jobs: " + std::to_string(all.size()) + " jobs, not the one");

  // Its output, through the daemon.
  yard::LogsRequest logs;
  logs.id = id;
  const yard::LogsReply out = must(client.logs(logs), "logs");
  expect(out.data == std::string(kGreeting) + "\n", "logs: the job wrote '" + out.data + "'");
  expect(out.ended, "logs: the job's output is not marked ended");
  expect(out.path == workdir + "/hello-" + std::to_string(id) + ".out", "logs: the output is at " + out.path);

  // The run was charged to the account of a job that names none.
  const yard::AccountsReply accounts = must(client.accounts(), "accounts");
  bool charged = false;
  for (auto& a : accounts.accounts) charged = charged || (a.account == "default" && a.used_core_seconds > 0);
  expect(charged, "accounts: nothing charged to the account 'default'");

  must(client.shutdown({}), "shutdown");
  std::cout << "job " << id << " ran, was watched, waited for, listed and charged" << std::endl;
  return 0;
}

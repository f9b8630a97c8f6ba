// Integration-test harness: a private yard world per test (its own HOME and XDG
// directories, so its own daemon and store), running the real `yard` binary, and
// waiting on conditions with deadlines (never blind sleeps). TearDown stops the daemon
// it started, by pid, after cancelling whatever still runs.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace yard::test {

struct Output {
  int rc = -1;
  std::string out, err;
};

class YardWorld : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Writes the local machine config (cpus, memory, gpus, job_limit, kill_grace).
  void configure(const std::string& yaml);
  // Runs `yard ARGS...` in the world's directory, optionally with extra environment.
  // With `timeout_s` > 0, a yard still running then is killed (SIGKILL: rc 137).
  Output yard(const std::vector<std::string>& args, const std::vector<std::string>& extra_env = {},
              double timeout_s = 0);
  // Submits and returns the job id (fails the test otherwise).
  long submit(const std::vector<std::string>& args);
  // `yard wait` on all of `ids`; returns its exit status.
  int wait(const std::vector<long>& ids);
  nlohmann::json status(const std::vector<long>& ids = {});
  nlohmann::json job(long id);
  // Waits, `seconds` at most, until no job of the world is PENDING or RUNNING as yard
  // sees it: a workflow is over once its steps ended, which can be before a scheduler
  // has ended the jobs that ran them (a series' carrier) and yard has seen it.
  bool all_ended(double seconds);
  // The job's uid, native_id (null when none) and state as the store holds them, read
  // without the daemon: `yard status` would start one, and a test of what a daemon finds
  // after a crash looks while none runs.
  nlohmann::json stored_job(long id);
  long daemon_pid();
  std::string read(const std::string& relative_path) const;
  void write(const std::string& relative_path, const std::string& text) const;

  std::string dir_;  // the world's HOME and working directory
  std::string run_in_;  // where yard() runs instead of dir_, when set
};

// Polls `done` until true or `seconds` pass; returns whether it became true.
bool wait_until(const std::function<bool()>& done, double seconds);
bool process_alive(long pid);
// The pid of a process whose command line holds `args` (each a whole word), or 0.
long pid_running(const std::vector<std::string>& args);
// A shell command's stdout, and its exit status in `rc` (test scaffolding only: the
// product never uses a shell).
std::string sh(const std::string& cmd, int* rc = nullptr);
// How many times each line occurs in `text` (a log each run of a step appends a line to).
std::map<std::string, int> line_counts(const std::string& text);

// An RFC 3339 time of `yard status --json` ("2024-05-01T12:00:00.250Z") in seconds since
// the epoch; -1 if it is not one.
double seconds(const nlohmann::json& t);

}  // namespace yard::test

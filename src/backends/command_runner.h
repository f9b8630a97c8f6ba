// Running scheduler commands (sbatch, squeue, ...). Every call to a scheduler's CLI goes
// through here: an argv (never a shell string), a time-out after which the command's
// whole process group is killed, and its stdout, stderr and exit status captured.
//
// CommandWorker runs commands on threads of its own, so a scheduler that hangs (Slurm's
// controller down makes sbatch wait ~9 s) never stalls the daemon's event loop: the loop
// posts commands, and polls event_fd() to collect results. A few run side by side: a
// submission mostly waits for the controller's answer, and one at a time made yard
// slower than a plain sbatch loop. Results come back in the order they end.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace yard {

struct CommandResult {
  int exit_code = -1;      // -1 when it did not exit normally
  int signal = 0;          // the signal that ended it, 0 if none
  bool timed_out = false;  // killed after the time-out
  bool not_started = false;  // could not be started (not installed, ...); see `err`
  std::string out, err;
  double seconds = 0;
  bool ok() const { return exit_code == 0 && !timed_out && !not_started; }
  // One line for logs and error messages: "exit 1: <first line of stderr>".
  std::string summary() const;
};

// Runs `argv` (looked up in PATH) with stdin from `stdin_path` ("": /dev/null), in `cwd`
// ("": the daemon's, which is /); blocks until it ends or the time-out passes.
CommandResult run_command(const std::vector<std::string>& argv, double timeout_s, const std::string& cwd = "",
                          const std::string& stdin_path = "");

struct Command {
  std::uint64_t tag = 0;  // the poster's, returned with the result
  std::vector<std::string> argv;
  double timeout_s = 30;
  // Where it runs: a submission in its job's directory, which schedulers take for the
  // job's own (sbatch's default --chdir, a submit command's launching directory); ""
  // for the daemon's.
  std::string cwd;
  // A file to read as its stdin ("": /dev/null): a submit command may read a job's
  // directive lines only from a script given on its stdin.
  std::string stdin_path;
};

struct CompletedCommand {
  Command command;
  CommandResult result;
};

// Where an engine posts commands and finds their results. The daemon uses
// CommandWorker; tests use a scripted fake.
class CommandQueue {
 public:
  virtual ~CommandQueue() = default;
  virtual void post(Command c) = 0;
  virtual std::vector<CompletedCommand> take_completed() = 0;
};

class CommandWorker : public CommandQueue {
 public:
  explicit CommandWorker(int threads = 3);
  ~CommandWorker() override;  // finishes the running commands, drops the queued ones
  CommandWorker(const CommandWorker&) = delete;
  CommandWorker& operator=(const CommandWorker&) = delete;

  void post(Command c) override;
  std::vector<CompletedCommand> take_completed() override;
  // Readable when results are waiting (an eventfd).
  int event_fd() const { return event_fd_; }

 private:
  void loop();

  int event_fd_ = -1;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Command> queue_;
  std::vector<CompletedCommand> done_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace yard

// How a starting daemon tells the CLI that started it whether it came up, at once: a
// pipe inherited as the descriptor named by $YARD_START_REPORT. The daemon writes one
// line, "ready", "busy" (another daemon serves this state directory) or "error
// MESSAGE", and closes it; if it dies first, the CLI reads end-of-file. Without this,
// a daemon refusing a bad config left the CLI waiting out its whole deadline, and on a
// read-only state directory the reason was written nowhere.
#pragma once

#include <string>

namespace yard {

constexpr const char* kStartReportEnv = "YARD_START_REPORT";

class StartReport {
 public:
  // Takes the descriptor from the environment (and removes the variable, so that the
  // job host and the jobs do not inherit it). Without one, reports go nowhere.
  static StartReport from_environment();
  StartReport(StartReport&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  StartReport(const StartReport&) = delete;
  StartReport& operator=(const StartReport&) = delete;
  ~StartReport();

  void ready() { send("ready"); }
  void busy() { send("busy"); }
  void failed(const std::string& message) { send("error " + message); }

 private:
  explicit StartReport(int fd) : fd_(fd) {}
  void send(const std::string& line);
  int fd_ = -1;
};

}  // namespace yard

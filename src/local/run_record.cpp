#include "local/run_record.h"

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/file_text.h"
#include "core/text.h"

namespace yard {
namespace {

template <typename T>
T num(std::string_view v) {
  T out{};
  std::from_chars(v.data(), v.data() + v.size(), out);
  return out;
}

double real(std::string_view v) {
  try {
    return std::stod(std::string(v));
  } catch (...) {
    return 0;
  }
}

}  // namespace

RunRecord parse_run_record(std::string_view text) {
  RunRecord r;
  RunOutcome o;
  bool done = false;
  for (std::string_view line : split(text, '\n')) {
    auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    auto k = line.substr(0, eq), v = line.substr(eq + 1);
    if (k == "job_id") {  // a record file is reused: what an earlier job wrote ends here
      r = RunRecord{};
      o = RunOutcome{};
      done = false;
      r.job_id = num<std::int64_t>(v);
    }
    else if (k == "supervisor_pid") r.supervisor_pid = num<pid_t>(v);
    else if (k == "job_pid") r.job_pid = num<pid_t>(v);
    else if (k == "start_time") r.start_time = real(v);
    else if (k == "after") r.after = num<std::int64_t>(v);
    else if (k == "state") o.state = parse_job_state(v).value_or(JobState::Unknown);
    else if (k == "exit_code") o.exit_code = num<std::int64_t>(v);
    else if (k == "signal") o.signal = num<std::int64_t>(v);
    else if (k == "end_time") o.end_time = real(v);
    else if (k == "cpu_seconds") o.cpu_seconds = real(v);
    else if (k == "max_rss_bytes") o.max_rss_bytes = num<std::int64_t>(v);
    else if (k == "reason") o.reason = std::string(v);
    else if (k == "done") done = true;  // written last: the outcome is complete
  }
  if (done) r.outcome = o;
  return r;
}

std::string format_outcome(const RunOutcome& o) {
  std::string reason = o.reason;
  for (auto& c : reason)
    if (c == '\n') c = ' ';
  char buf[256];
  std::snprintf(buf, sizeof buf, "exit_code=%lld\nsignal=%lld\nend_time=%.6f\ncpu_seconds=%.6f\nmax_rss_bytes=%lld\n",
                static_cast<long long>(o.exit_code), static_cast<long long>(o.signal), o.end_time, o.cpu_seconds,
                static_cast<long long>(o.max_rss_bytes));
  return "state=" + std::string(to_string(o.state)) + "\n" + buf + "reason=" + reason + "\ndone=1\n";
}

std::string read_record_file(const std::string& path) { return read_file_or_empty(path); }

bool append_record(int fd, const std::string& line) {
  const char* p = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) return false;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace yard

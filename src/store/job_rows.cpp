#include "store/job_rows.h"

#include <iterator>

namespace yard {
namespace {

// A job row's columns, read by name: each is listed once, with its SQL, in kJobColumnSql,
// whose order the compiler checks against this enum.
enum Col : int {
  kId, kUid, kSpecId, kName, kBackend, kArrayJobId, kArrayIndex, kArrayMaxRunning, kPriority, kCpus, kMemBytes,
  kGpus, kWalltimeS, kState, kReason, kNativeState, kSubmitTime, kStartTime, kEndTime, kStdoutPath, kStderrPath,
  kAlloc, kExitCode, kSignal, kCpuSeconds, kMaxRssBytes, kNativeId, kSubmitAttempts, kCancelRequested, kRetries,
  kRetryNotBefore, kFailedOn, kEndedTry, kMovingTo, kHeld, kColumns
};
struct ColumnSql {
  Col col;
  const char* sql;
};
constexpr ColumnSql kJobColumnSql[] = {
    {kId, "j.id"},
    {kUid, "j.uid"},
    {kSpecId, "j.spec_id"},
    {kName, "j.name"},
    {kBackend, "j.backend"},
    {kArrayJobId, "j.array_job_id"},
    {kArrayIndex, "j.array_index"},
    {kArrayMaxRunning, "j.array_max_running"},
    {kPriority, "j.priority"},
    {kCpus, "j.cpus"},
    {kMemBytes, "j.mem_bytes"},
    {kGpus, "j.gpus"},
    {kWalltimeS, "j.walltime_s"},
    {kState, "j.state"},
    {kReason, "j.reason"},
    {kNativeState, "j.native_state"},
    {kSubmitTime, "j.submit_time"},
    {kStartTime, "j.start_time"},
    {kEndTime, "j.end_time"},
    {kStdoutPath, "j.stdout_path"},
    {kStderrPath, "j.stderr_path"},
    {kAlloc, "j.alloc"},
    {kExitCode, "a.exit_code"},
    {kSignal, "a.signal"},
    {kCpuSeconds, "a.cpu_seconds"},
    {kMaxRssBytes, "a.max_rss_bytes"},
    {kNativeId, "j.native_id"},
    {kSubmitAttempts, "j.submit_attempts"},
    {kCancelRequested, "j.cancel_requested"},
    {kRetries, "j.retries"},
    {kRetryNotBefore, "j.retry_not_before"},
    {kFailedOn, "j.failed_on"},
    {kEndedTry, "j.ended_try"},
    {kMovingTo, "j.moving_to"},
    {kHeld, "j.held"},
};
constexpr bool columns_in_order() {
  if (std::size(kJobColumnSql) != kColumns) return false;
  for (int i = 0; i < kColumns; ++i)
    if (kJobColumnSql[i].col != i) return false;
  return true;
}
static_assert(columns_in_order(), "kJobColumnSql lists every column once, in the order of Col");

}  // namespace

// "j.id, j.uid, ... FROM jobs j LEFT JOIN accounting a ...", for every job query.
const std::string& job_columns() {
  static const std::string text = [] {
    std::string t;
    for (const auto& c : kJobColumnSql) t += (t.empty() ? "" : ", ") + std::string(c.sql);
    return t + " FROM jobs j LEFT JOIN accounting a ON a.job_id = j.id ";
  }();
  return text;
}

JobRecord read_job(const sql::Statement& s) {
  JobRecord r;
  r.id = s.i64(kId);
  r.uid = s.text(kUid);
  r.spec_id = s.i64(kSpecId);
  r.name = s.text(kName);
  r.backend = s.text(kBackend);
  r.array_job_id = s.opt_i64(kArrayJobId);
  r.array_index = s.opt_i64(kArrayIndex);
  r.array_max_running = static_cast<int>(s.i64(kArrayMaxRunning));
  r.priority = static_cast<int>(s.i64(kPriority));
  r.cpus = static_cast<int>(s.i64(kCpus));
  r.mem_bytes = s.i64(kMemBytes);
  r.gpus = static_cast<int>(s.i64(kGpus));
  r.walltime_s = s.i64(kWalltimeS);
  r.state = parse_job_state(s.text(kState)).value_or(JobState::Unknown);
  r.reason = s.text(kReason);
  r.native_state = s.text(kNativeState);
  r.submit_time = s.real(kSubmitTime);
  r.start_time = s.opt_real(kStartTime);
  r.end_time = s.opt_real(kEndTime);
  r.stdout_path = s.text(kStdoutPath);
  r.stderr_path = s.text(kStderrPath);
  r.alloc = s.text(kAlloc);
  r.exit_code = s.opt_i64(kExitCode);
  r.signal = s.opt_i64(kSignal);
  r.cpu_seconds = s.opt_real(kCpuSeconds);
  r.max_rss_bytes = s.opt_i64(kMaxRssBytes);
  r.native_id = s.text(kNativeId);
  r.submit_attempts = static_cast<int>(s.i64(kSubmitAttempts));
  r.cancel_requested = s.i64(kCancelRequested) != 0;
  r.retries = static_cast<int>(s.i64(kRetries));
  r.retry_not_before = s.opt_real(kRetryNotBefore).value_or(0);
  r.failed_on = s.text(kFailedOn);
  r.ended_try = s.text(kEndedTry);
  r.moving_to = s.text(kMovingTo);
  r.held = s.i64(kHeld) != 0;
  return r;
}

// Every row of a prepared job query.
Result<std::vector<JobRecord>> read_jobs(sql::Statement& st) {
  std::vector<JobRecord> out;
  for (;;) {
    auto row = st.step();
    if (!row) return row.failure();
    if (!*row) break;
    out.push_back(read_job(st));
  }
  return out;
}

}  // namespace yard

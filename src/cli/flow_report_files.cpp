#include "cli/flow_report_files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "cli/job_view.h"
#include "flow/flow_report.h"

namespace yard {
namespace {

// The tail of a log a failed step's report shows.
constexpr std::int64_t kLogTailBytes = 2000;

Status write_whole(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (f) f.write(text.data(), static_cast<std::streamsize>(text.size()));
    f.flush();
    if (!f) {
      const int e = errno;
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      return err("cannot write " + path + ": " + std::strerror(e ? e : EIO));
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return err("cannot write " + path + ": " + ec.message());
  return {};
}

std::string log_tail(DaemonClient& client, std::int64_t job_id) {
  auto size = client.logs(LogsRequest{job_id, false, 0, 0});
  if (!size) return "";
  auto tail = client.logs(LogsRequest{job_id, false, std::max<std::int64_t>(0, size->size - kLogTailBytes), kLogTailBytes});
  return tail ? tail->data : "";
}

}  // namespace

Result<ReportFiles> write_flow_report(DaemonClient& client, std::int64_t flow_id, const std::string& dir,
                                      std::vector<JobRecord> jobs) {
  auto flow = client.flow(flow_id);
  if (!flow) return flow.failure();
  if (jobs.empty()) {
    JobQuery q;
    for (const auto& s : flow->steps) q.ids.push_back(s.job_id);
    auto all = client.all_jobs(q);
    if (!all) return all.failure();
    jobs = std::move(*all);
  }
  std::unordered_map<std::int64_t, std::size_t> step_of;  // a step's first job id -> its place
  std::vector<ReportedStep> steps(flow->steps.size());
  for (std::size_t i = 0; i < flow->steps.size(); ++i) {
    steps[i].step = flow->steps[i];
    step_of[flow->steps[i].job_id] = i;
  }
  for (auto& j : jobs) {
    auto it = step_of.find(j.array_job_id.value_or(j.id));
    if (it == step_of.end()) it = step_of.find(j.id);
    if (it != step_of.end()) steps[it->second].jobs.push_back(std::move(j));
  }
  for (auto& s : steps)
    for (const auto& j : s.jobs)
      if (is_terminal(j.state) && j.state != JobState::Completed) {
        s.log_tail = log_tail(client, j.id);
        break;
      }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  ReportFiles files{dir + "/report.html", dir + "/trace.tsv"};
  std::ostringstream html, trace;
  write_html_report(html, flow->flow, steps, wall_clock_now());
  write_trace(trace, steps);
  if (auto s = write_whole(files.html, html.str()); !s) return s.failure();
  if (auto s = write_whole(files.trace, trace.str()); !s) return s.failure();
  return files;
}

}  // namespace yard

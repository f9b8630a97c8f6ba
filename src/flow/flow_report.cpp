#include "flow/flow_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "core/clock.h"
#include "core/duration.h"
#include "core/size.h"
#include "core/text.h"

namespace yard {
namespace {

std::string iso(double t) { return t <= 0 ? "-" : utc_text(t, "%Y-%m-%d %H:%M:%S"); }

std::string seconds_text(double s) {
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%.1fs", s);
  else return format_walltime(static_cast<std::int64_t>(std::llround(s)));
  return buf;
}

// Text for a TSV cell: no tab or newline inside.
std::string cell(std::string_view s) {
  std::string out = escape_invalid_utf8(s);
  for (char& c : out)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return out.empty() ? "-" : out;
}

std::string html(std::string_view s) {
  std::string out;
  for (char c : escape_invalid_utf8(s)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string job_label(const JobRecord& j) {
  if (j.array_job_id && j.array_index) return std::to_string(*j.array_job_id) + "_" + std::to_string(*j.array_index);
  return std::to_string(j.id);
}

const char* color(JobState s) {
  switch (s) {
    case JobState::Completed: return "#3a8f3a";
    case JobState::Running: return "#2f6fb0";
    case JobState::Pending: return "#aaaaaa";
    default: return "#c0392b";
  }
}

}  // namespace

void write_trace(std::ostream& out, const std::vector<ReportedStep>& steps) {
  out << "task_id\thash\tnative_id\tname\tstatus\texit\tsubmit\tstart\tcomplete\tduration\trealtime\tcpus\tmemory\t"
         "time\tcpu_seconds\t%cpu\tpeak_rss\tattempt\torigin\treason\n";
  for (const auto& s : steps)
    for (const auto& j : s.jobs) {
      const double end = j.end_time.value_or(0), start = j.start_time.value_or(0);
      const double realtime = start > 0 && end > 0 ? end - start : 0;
      char pct[32] = "-";
      if (j.cpu_seconds && realtime > 0) std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * *j.cpu_seconds / realtime);
      out << job_label(j) << '\t' << s.step.key.substr(0, 8) << '\t' << cell(j.native_id) << '\t' << cell(j.name) << '\t'
          << to_string(j.state) << '\t' << (j.exit_code ? std::to_string(*j.exit_code) : "-") << '\t'
          << iso(j.submit_time) << '\t' << iso(start) << '\t' << iso(end) << '\t'
          << (end > 0 ? seconds_text(end - j.submit_time) : "-") << '\t' << (realtime > 0 ? seconds_text(realtime) : "-")
          << '\t' << j.cpus << '\t' << (j.mem_bytes ? format_bytes(static_cast<std::uint64_t>(j.mem_bytes)) : "-") << '\t'
          << (j.walltime_s ? format_walltime(j.walltime_s) : "-") << '\t'
          << (j.cpu_seconds ? seconds_text(*j.cpu_seconds) : "-") << '\t' << pct << '\t'
          << (j.max_rss_bytes ? format_bytes(static_cast<std::uint64_t>(*j.max_rss_bytes)) : "-") << '\t'
          << j.retries + 1 << '\t' << to_string(s.step.origin) << '\t' << cell(j.reason) << '\n';
    }
}

void write_html_report(std::ostream& out, const FlowRecord& flow, const std::vector<ReportedStep>& steps, double now) {
  double t0 = 0, t1 = 0;
  double rows = 0;
  for (const auto& s : steps)
    for (const auto& j : s.jobs) {
      ++rows;
      if (t0 == 0 || j.submit_time < t0) t0 = j.submit_time;
      t1 = std::max({t1, j.end_time.value_or(0), j.start_time ? now : 0.0});
    }
  if (t1 <= t0) t1 = t0 + 1;
  out << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>flow " << flow.id << " " << html(flow.name)
      << "</title>\n<style>body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;"
         "font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left}th{background:#eee}"
         "pre{background:#f6f6f6;padding:8px;overflow-x:auto}.bad{color:#c0392b}</style></head><body>\n";
  out << "<h1>Flow " << flow.id << ": " << html(flow.name) << "</h1>\n<p>" << html(flow.file) << "<br>submitted "
      << iso(flow.submit_time) << " UTC; " << flow.steps << " steps: " << flow.completed << " completed, "
      << flow.failed << " failed, " << flow.running << " running, " << flow.pending << " pending (" << flow.submitted
      << " submitted, " << flow.attached << " taken over running, " << flow.up_to_date << " up to date)</p>\n";
  // The timeline: a row per job, its wait in light grey, its run in its state's colour.
  const double width = 900, row_h = 14, left = 180;
  const double scale = (width - left - 10) / (t1 - t0);
  out << "<h2>Timeline</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
      << rows * row_h + 20 << "\" font-size=\"11\">\n";
  std::size_t y = 0;
  for (const auto& s : steps)
    for (const auto& j : s.jobs) {
      const double top = static_cast<double>(y) * row_h;
      const double sub = left + (j.submit_time - t0) * scale;
      const double start = j.start_time ? left + (*j.start_time - t0) * scale : -1;
      const double end = left + (j.end_time.value_or(j.start_time ? now : j.submit_time) - t0) * scale;
      out << "<text x=\"0\" y=\"" << top + 11 << "\">" << html(j.name) << "</text>";
      if (start >= 0) {
        out << "<rect x=\"" << sub << "\" y=\"" << top + 3 << "\" width=\"" << std::max(0.0, start - sub)
            << "\" height=\"" << row_h - 6 << "\" fill=\"#dddddd\"/>";
        out << "<rect x=\"" << start << "\" y=\"" << top + 1 << "\" width=\"" << std::max(1.0, end - start)
            << "\" height=\"" << row_h - 2 << "\" fill=\"" << color(j.state) << "\"><title>" << html(j.name) << " "
            << to_string(j.state) << "</title></rect>";
      }
      out << "\n";
      ++y;
    }
  out << "<text x=\"" << left << "\" y=\"" << rows * row_h + 15 << "\">0</text><text x=\"" << width - 60 << "\" y=\""
      << rows * row_h + 15 << "\">" << seconds_text(t1 - t0) << "</text></svg>\n";
  out << "<h2>Steps</h2>\n<table><tr><th>step</th><th>job</th><th>state</th><th>origin</th><th>tries</th><th>wait</th>"
         "<th>duration</th><th>CPU time</th><th>CPUs</th><th>memory asked</th><th>max RSS</th><th>time asked</th>"
         "<th>exit</th><th>reason</th></tr>\n";
  for (const auto& s : steps)
    for (const auto& j : s.jobs) {
      const double wait = j.start_time ? *j.start_time - j.submit_time : 0;
      const double run = j.start_time && j.end_time ? *j.end_time - *j.start_time : 0;
      out << "<tr><td>" << html(j.name) << "</td><td>" << job_label(j) << "</td><td"
          << (is_terminal(j.state) && j.state != JobState::Completed ? " class=\"bad\"" : "") << ">"
          << to_string(j.state) << "</td><td>" << to_string(s.step.origin) << "</td><td>" << j.retries + 1
          << "</td><td>" << (j.start_time ? seconds_text(wait) : "-") << "</td><td>" << (run > 0 ? seconds_text(run) : "-")
          << "</td><td>" << (j.cpu_seconds ? seconds_text(*j.cpu_seconds) : "-") << "</td><td>" << j.cpus << "</td><td>"
          << (j.mem_bytes ? format_bytes(static_cast<std::uint64_t>(j.mem_bytes)) : "-") << "</td><td>"
          << (j.max_rss_bytes ? format_bytes(static_cast<std::uint64_t>(*j.max_rss_bytes)) : "-") << "</td><td>"
          << (j.walltime_s ? format_walltime(j.walltime_s) : "-") << "</td><td>"
          << (j.exit_code ? std::to_string(*j.exit_code) : "-") << "</td><td>" << html(j.reason) << "</td></tr>\n";
    }
  out << "</table>\n";
  bool any_failure = false;
  for (const auto& s : steps) {
    if (!is_terminal(s.step.state) || s.step.state == JobState::Completed) continue;
    if (!any_failure) out << "<h2>Failures</h2>\n";
    any_failure = true;
    out << "<h3 class=\"bad\">" << html(s.step.name) << ": " << to_string(s.step.state) << "</h3>\n";
    for (const auto& j : s.jobs)
      if (is_terminal(j.state) && j.state != JobState::Completed)
        out << "<p>job " << job_label(j) << ": " << to_string(j.state)
            << (j.exit_code ? ", exit " + std::to_string(*j.exit_code) : "") << (j.reason.empty() ? "" : ": " + html(j.reason))
            << "</p>\n";
    if (!s.log_tail.empty()) out << "<pre>" << html(s.log_tail) << "</pre>\n";
  }
  out << "</body></html>\n";
}

}  // namespace yard

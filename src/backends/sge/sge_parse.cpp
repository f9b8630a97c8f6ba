#include "backends/sge/sge_parse.h"

#include <pugixml.hpp>

#include <charconv>
#include <cstring>
#include <ctime>

#include "core/text.h"

namespace yard {
namespace {

bool to_ll(std::string_view s, long long& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// A local time as qstat -xml ("2026-11-25T09:24:36") or qacct ("Wed Nov 25 09:24:36
// 2026") prints it, in Unix seconds; nothing for anything else ("-/-").
std::optional<double> local_time(std::string_view text, const char* format) {
  const std::string s(trim(text));
  std::tm tm{};
  const char* end = ::strptime(s.c_str(), format, &tm);
  if (!end || *end != '\0') return std::nullopt;
  tm.tm_isdst = -1;
  const std::time_t t = std::mktime(&tm);
  if (t == static_cast<std::time_t>(-1)) return std::nullopt;
  return static_cast<double>(t);
}

}  // namespace

Result<std::string> parse_qsub_terse(std::string_view out) {
  std::string_view line = trim(out.substr(0, out.find('\n')));
  const std::string_view id = line.substr(0, line.find('.'));
  if (!all_digits(id) || (id.size() < line.size() && line[id.size()] != '.'))
    return err("qsub -terse printed '" + escape_for_terminal(std::string(line)) + "', not a job id");
  return std::string(id);
}

Result<std::vector<long long>> parse_task_ranges(std::string_view text, std::size_t max) {
  std::vector<long long> out;
  for (std::string_view part : split(text, ',')) {
    part = trim(part);
    long long lo = 0, hi = 0, step = 1;
    if (auto colon = part.find(':'); colon != std::string_view::npos) {
      if (!to_ll(part.substr(colon + 1), step) || step < 1)
        return err("task range '" + std::string(part) + "': bad step");
      part = part.substr(0, colon);
    }
    if (auto dash = part.find('-'); dash != std::string_view::npos) {
      if (!to_ll(part.substr(0, dash), lo) || !to_ll(part.substr(dash + 1), hi) || lo < 0 || hi < lo)
        return err("task range '" + std::string(part) + "' is not N-M");
    } else {
      if (!to_ll(part, lo) || lo < 0) return err("task id '" + std::string(part) + "' is not a number");
      hi = lo;
    }
    if (static_cast<unsigned long long>((hi - lo) / step) >= max - out.size())
      return err("task ranges '" + std::string(text) + "' hold more than " + std::to_string(max) + " tasks");
    for (long long k = 0, n = (hi - lo) / step; k <= n; ++k) out.push_back(lo + k * step);
  }
  return out;
}

Result<std::vector<NativeStatus>> parse_qstat_xml(std::string_view xml) {
  pugi::xml_document doc;
  const auto parsed = doc.load_buffer(xml.data(), xml.size());
  if (!parsed)
    return err(std::string("qstat -xml: malformed XML at byte ") + std::to_string(parsed.offset) + ": " +
               parsed.description());
  std::vector<NativeStatus> out;
  if (doc.child("unknown_jobs")) return out;  // qstat -xml -j of jobs it does not know
  const pugi::xml_node info = doc.child("job_info");
  if (!info) return err("qstat -xml: no <job_info> document");
  int entry = 0;
  // Running jobs are under <queue_info>, pending ones under the inner <job_info>.
  for (const char* section : {"queue_info", "job_info"})
    for (pugi::xml_node j : info.child(section).children("job_list")) {
      ++entry;
      const std::string number = trim(j.child_value("JB_job_number")).data();
      if (!all_digits(number)) return err("qstat -xml: job entry " + std::to_string(entry) + " has no job number");
      NativeStatus base;
      base.raw_state = std::string(trim(j.child_value("state")));
      if (base.raw_state.empty()) return err("qstat -xml: job " + number + " has no state");
      base.name = j.child_value("JB_name");
      if (auto t = local_time(j.child_value("JAT_start_time"), "%Y-%m-%dT%H:%M:%S")) base.start_time = t;
      base.node_list = j.child_value("queue_name");
      if (auto at = base.node_list.find('@'); at != std::string::npos) base.node_list = base.node_list.substr(at + 1);
      const std::string_view tasks = trim(j.child_value("tasks"));
      if (tasks.empty()) {
        base.native_id = number;
        out.push_back(std::move(base));
        continue;
      }
      auto ids = parse_task_ranges(tasks);
      if (!ids) return err("qstat -xml: job " + number + ": " + ids.error());
      for (long long t : *ids) {
        NativeStatus s = base;
        s.native_id = number + "." + std::to_string(t);
        out.push_back(std::move(s));
      }
    }
  return out;
}

Result<std::vector<NativeStatus>> parse_qacct(std::string_view out) {
  std::vector<NativeStatus> records;
  struct Fields {
    std::string number, task, name, failed, exit_status, start, end, host;
    bool any = false;
  } f;
  int record = 0;
  auto finish = [&]() -> Status {
    if (!f.any) return {};
    ++record;
    if (!all_digits(f.number)) return err("qacct: record " + std::to_string(record) + " has no job number");
    NativeStatus s;
    s.native_id = f.number;
    if (!f.task.empty() && f.task != "undefined") {
      if (!all_digits(f.task)) return err("qacct: job " + f.number + " has task id '" + f.task + "'");
      s.native_id += "." + f.task;
    }
    s.name = f.name;
    s.node_list = f.host;
    // "37  : qmaster enforced h_rt, h_cpu, or h_vmem limit" -> code 37, its words.
    const std::string_view failed = trim(f.failed);
    const std::string_view code = trim(failed.substr(0, failed.find(':')));
    long long failed_code = 0;
    if (!to_ll(code, failed_code)) return err("qacct: job " + s.native_id + " has failed '" + f.failed + "'");
    s.raw_state = "failed " + std::string(code);
    if (auto colon = failed.find(':'); colon != std::string_view::npos) s.reason = trim(failed.substr(colon + 1));
    // "137                  (Killed)"
    const std::string_view es = trim(f.exit_status);
    long long exit_status = 0;
    if (!to_ll(es.substr(0, es.find(' ')), exit_status) || exit_status < 0 || exit_status > 255)
      return err("qacct: job " + s.native_id + " has exit_status '" + f.exit_status + "'");
    if (failed_code != 0 && exit_status > 128) s.signal = static_cast<int>(exit_status - 128);
    else s.exit_code = static_cast<int>(exit_status);
    s.start_time = local_time(f.start, "%a %b %d %H:%M:%S %Y");
    s.end_time = local_time(f.end, "%a %b %d %H:%M:%S %Y");
    records.push_back(std::move(s));
    f = Fields{};
    return {};
  };
  for (std::string_view line : split(out, '\n')) {
    if (!line.empty() && line.find_first_not_of('=') == std::string_view::npos) {
      if (auto s = finish(); !s) return s.failure();
      continue;
    }
    const std::string_view trimmed = trim(line);
    if (trimmed.empty()) continue;
    const auto sp = trimmed.find_first_of(" \t");
    const std::string_view key = trimmed.substr(0, sp);
    const std::string value(sp == std::string_view::npos ? std::string_view() : trim(trimmed.substr(sp)));
    f.any = true;
    if (key == "jobnumber") f.number = value;
    else if (key == "taskid") f.task = value;
    else if (key == "jobname") f.name = value;
    else if (key == "failed") f.failed = value;
    else if (key == "exit_status") f.exit_status = value;
    else if (key == "start_time") f.start = value;
    else if (key == "end_time") f.end = value;
    else if (key == "hostname") f.host = value;
  }
  if (auto s = finish(); !s) return s.failure();
  return records;
}

}  // namespace yard

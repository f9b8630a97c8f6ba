#include "frontends/slurm/sacct_times.h"

#include <cctype>
#include <cmath>
#include <ctime>
#include <regex>

namespace yard::slurm_front {
namespace {

double local_midnight(double now) {
  std::time_t t = static_cast<std::time_t>(now);
  std::tm tm{};
  localtime_r(&t, &tm);
  tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
  tm.tm_isdst = -1;
  return static_cast<double>(std::mktime(&tm));
}

double local(int year, int month, int day, int hour, int minute, int second) {
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  tm.tm_isdst = -1;
  return static_cast<double>(std::mktime(&tm));
}

int this_year(double now) {
  std::time_t t = static_cast<std::time_t>(now);
  std::tm tm{};
  localtime_r(&t, &tm);
  return tm.tm_year + 1900;
}

double unit_seconds(const std::string& unit) {
  std::string u;
  for (char c : unit) u += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (u.empty() || u.rfind("sec", 0) == 0) return 1;
  if (u.rfind("min", 0) == 0) return 60;
  if (u.rfind("hour", 0) == 0) return 3600;
  if (u.rfind("day", 0) == 0) return 86400;
  if (u.rfind("week", 0) == 0) return 7 * 86400;
  return -1;
}

int num(const std::string& s) { return s.empty() ? 0 : std::stoi(s); }

}  // namespace

Result<double> slurm_time_of(const std::string& text, double now) {
  const auto bad = [&] { return Error{"Invalid time specification (pos=0): " + text, ErrorKind::Invalid}; };
  std::smatch m;
  static const std::regex relative(R"((now|today|midnight|noon|teatime)(([+-])(\d+)([a-zA-Z]*))?)", std::regex::icase);
  static const std::regex iso(R"((\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?)");
  static const std::regex mmddyy(R"((\d{2})(\d{2})(\d{2})?)");
  static const std::regex slashed(R"((\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?)");
  static const std::regex clock(R"((\d{1,2}):(\d{2})(?::(\d{2}))?)");
  if (std::regex_match(text, m, relative)) {
    std::string base = m[1];
    for (auto& c : base) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    double t = base == "now" ? now : local_midnight(now) + (base == "noon" ? 12 * 3600 : base == "teatime" ? 16 * 3600 : 0);
    if (m[2].matched) {
      const double unit = unit_seconds(m[5]);
      if (unit < 0) return bad();
      const double delta = std::stod(m[4]) * unit;
      t += m[3] == "+" ? delta : -delta;
    }
    return std::floor(t);
  }
  if (std::regex_match(text, m, iso))
    return local(num(m[1]), num(m[2]), num(m[3]), num(m[4]), num(m[5]), num(m[6]));
  if (std::regex_match(text, m, mmddyy)) {
    const int year = m[3].matched ? 2000 + num(m[3]) : this_year(now);
    return local(year, num(m[1]), num(m[2]), 0, 0, 0);
  }
  if (std::regex_match(text, m, slashed)) {
    int year = m[3].matched ? num(m[3]) : this_year(now);
    if (year < 100) year += 2000;
    return local(year, num(m[1]), num(m[2]), 0, 0, 0);
  }
  if (std::regex_match(text, m, clock)) return local_midnight(now) + num(m[1]) * 3600 + num(m[2]) * 60 + num(m[3]);
  return bad();
}

Result<Window> sacct_window(const std::string& start, const std::string& end, bool jobs_named, bool states_named,
                            double now) {
  Window w;
  if (!start.empty()) {
    auto t = slurm_time_of(start, now);
    if (!t) return t.failure();
    w.start = *t;
  } else if (!jobs_named) {
    w.start = states_named ? now : local_midnight(now);
  }
  if (!end.empty()) {
    auto t = slurm_time_of(end, now);
    if (!t) return t.failure();
    w.end = *t;
  } else {
    w.end = states_named && !jobs_named && start.empty() ? w.start : now;
  }
  if (w.start > 0 && w.end > 0 && w.start > w.end)
    return Error{"Start time (" + std::to_string(static_cast<long long>(w.start)) + ") requested is after end time (" +
                     std::to_string(static_cast<long long>(w.end)) + ").",
                 ErrorKind::Invalid};
  return w;
}

bool in_window(const JobRecord& j, const Window& w) {
  if (w.end > 0 && j.submit_time > w.end) return false;
  if (w.start > 0 && j.end_time && *j.end_time < w.start) return false;
  return true;
}

}  // namespace yard::slurm_front
